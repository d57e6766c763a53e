"""The File menu's lists: recent corpora and vocabularies, and the examples (each with its own preset)."""
from __future__ import annotations

from typing import Callable, List

from PySide6.QtWidgets import QMenu

from .features.examples import EXAMPLES


def fill_menu(menu: QMenu, paths: List[str], open_one: Callable[[str], None]) -> None:
    """List ``paths`` in ``menu`` (filled anew each time it opens: the list changes as files are opened)."""
    menu.clear()
    for path in paths:
        menu.addAction(path, lambda p=path: open_one(p))
    if menu.isEmpty():
        menu.addAction("(none)").setEnabled(False)


def fill_examples(menu: QMenu, open_example: Callable[..., None]) -> None:
    """One entry per example, opened with its own preset (another one would misread it) by ``open_example``
    (the examples feature's: a guided example goes on to train and show its measures)."""
    for example in EXAMPLES:
        menu.addAction(example.title, lambda e=example: open_example(e))
    menu.setEnabled(not menu.isEmpty())
