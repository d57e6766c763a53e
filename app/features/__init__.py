"""Features that plug into the main window without growing it: each module here has
``install(window)``, which adds its actions to ``window.menus[...]`` (made with ``window.make_action``),
its tabs to ``window.tabs`` or its docks, and connects to ``window.session`` and the panes.

One line in FEATURES per module, in the order their menu entries appear.
"""
from __future__ import annotations

import importlib

FEATURES: tuple = ("idle_gc", "theme_menu", "exports", "health", "script_curves", "compare", "ties", "explain",
                   "workspace")


def install_features(window) -> None:
    for name in FEATURES:
        importlib.import_module(f"{__name__}.{name}").install(window)
