"""View → Theme: System (the desktop's palette), Light or Dark; applied at once and remembered.

The choice is stored in the settings (:func:`~bpe_lens_app.runtime.settings_store.saved_theme`) and applied
when the window is made, so the next start opens in it. The palettes and the switch are in
:mod:`bpe_lens_app.widgets.theme_choice`.
"""
from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup

from ...runtime import settings_store
from ...widgets.theme_choice import THEMES, apply_theme, tint_icons


def install(window) -> None:
    menu = window.menus["view"].addMenu("Theme")
    menu.setObjectName("menu_theme")
    group = QActionGroup(menu)
    group.setExclusive(True)
    current = settings_store.saved_theme(window.settings, tuple(THEMES))
    for name, label in THEMES.items():
        action = QAction(label, menu, objectName=f"action_theme_{name}", checkable=True)
        action.setChecked(name == current)
        action.setStatusTip(f"{label} colors for the window and its charts (the presenter stays black)")
        action.triggered.connect(lambda _checked=False, n=name: choose(window, n))
        group.addAction(action)
        menu.addAction(action)
    window.menus["theme"] = menu
    apply_theme(current)
    tint_icons(window.train_actions)


def choose(window, name: str) -> None:
    """The user picked theme ``name``: apply it now and remember it."""
    apply_theme(name)
    tint_icons(window.train_actions)
    settings_store.save_theme(window.settings, name)
