"""Help → Keys: every shortcut of every action, read from the actions themselves.

Reading the live actions (all of each one's keys, not only the first) keeps the list from going
stale when a key is added or changed anywhere.
"""
from __future__ import annotations

from typing import List

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

__all__ = ["key_lines"]


def key_lines(root: QWidget) -> List[str]:
    """``Step: Space, Right`` for every action under ``root`` with a shortcut, sorted."""
    lines = set()
    for action in root.findChildren(QAction):
        keys = [k.toString(QKeySequence.NativeText) for k in action.shortcuts()]
        if any(keys):  # (a standard key this platform has no binding for reads "")
            lines.add(f"{action.text().replace('&', '').rstrip('…')}: {', '.join(k for k in keys if k)}")
    return sorted(lines)
