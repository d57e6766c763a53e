"""Features that plug into the main window without growing it. Each feature is a package here whose
``__init__`` has ``install(window)``: it adds the feature's actions to ``window.menus[...]`` (made with
``window.make_action``), its tabs to ``window.tabs`` or its docks, and connects to ``window.session`` and the
panes. Another feature, or the window, imports a feature only through its ``__init__``.

FEATURES lists the packages in the order their menu entries appear. The idle garbage collector is not a
feature (it adds nothing a user sees) but is installed with them, first.
"""
from __future__ import annotations

import importlib

from ..runtime import idle_gc

FEATURES: tuple = ("theme", "exports", "health", "inspector", "training", "compare", "variants", "measures", "ties",
                   "explain", "workspace")


def install_features(window) -> None:
    idle_gc.install(window)
    for name in FEATURES:
        importlib.import_module(f"{__name__}.{name}").install(window)
