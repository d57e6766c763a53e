"""The keyboard: Help → Keys, and where the keyboard goes once a setting is picked.

Help → Keys reads every shortcut of every action from the live actions themselves (all of each one's keys,
not only the first), which keeps the list from going stale when a key is added or changed anywhere.

A settings widget that keeps the keyboard after a value is picked would take the training keys: Space opens
a focused combo box instead of stepping. :func:`hand_back_after_pick` gives the keyboard back to the main
view once a value is picked; Tab (or a click) still reaches the widget.
"""
from __future__ import annotations

from typing import List

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QMainWindow, QWidget

__all__ = ["key_lines", "hand_back_after_pick"]


def key_lines(root: QWidget) -> List[str]:
    """``Step: Space, Right`` for every action under ``root`` with a shortcut, sorted."""
    lines = set()
    for action in root.findChildren(QAction):
        keys = [k.toString(QKeySequence.NativeText) for k in action.shortcuts()]
        if any(keys):  # (a standard key this platform has no binding for reads "")
            lines.add(f"{action.text().replace('&', '').rstrip('…')}: {', '.join(k for k in keys if k)}")
    return sorted(lines)


def hand_back_after_pick(*widgets: QWidget) -> None:
    """Once the user picks a value in one of ``widgets``, the keyboard goes to the main view of the widget's
    window, so that Space steps again. A combo box's value is picked when an item is chosen (in its list, or
    with the arrows); a spin box's when Enter is pressed in it (it loses the keyboard in any other way)."""
    for widget in widgets:
        if isinstance(widget, QComboBox):
            widget.activated.connect(lambda _index, w=widget: _hand_back(w))
        elif isinstance(widget, QAbstractSpinBox):
            widget.editingFinished.connect(lambda w=widget: w.hasFocus() and _hand_back(w))


def _hand_back(widget: QWidget) -> None:
    """The keyboard to the main view of ``widget``'s window: a main window's central widget (the tabs), or
    the window itself (presenter mode, whose keys are the window's)."""
    window = widget.window()
    view = window.centralWidget() if isinstance(window, QMainWindow) else None
    (view or window).setFocus(Qt.OtherFocusReason)
