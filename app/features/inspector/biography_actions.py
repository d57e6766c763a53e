"""View → "Token biography…" and the inspector's "Token biography…" button: a biography tab for a vocabulary.

The vocabulary is the inspector tab's own (its button), else the Workbench's current one (the inspector tab
in front), else the training's model at the current merge. The tab (:class:`.biography_pane.BiographyPane`)
offers the window's corpus files as the reference corpus and computes when the user says so; with no corpus
file open it asks for files at once. A closed tab stops its computation.
"""
from __future__ import annotations

import weakref
from functools import partial
from pathlib import Path
from typing import List, Optional, Tuple

from PySide6.QtWidgets import QMessageBox

from bpe_core import BPEModel

from .biography_pane import BiographyPane

ACTION_TEXT = "Token biography…"


def install(window) -> None:
    action = window.make_action(ACTION_TEXT, lambda: ask_biography(window), name="token_biography")
    action.setStatusTip("Every token's birth, count at birth, emitted count, residue ratio, IoS and reachability "
                        "on a reference corpus")
    window.menus["view"].addAction(action)
    panes: "weakref.WeakSet[BiographyPane]" = weakref.WeakSet()
    window.biography_panes = panes  # the biography tabs this window opened
    window.tab_closed.connect(lambda widget: widget in panes and widget.cancel())
    window.inspector_made.connect(lambda tab, vocabulary: tab.biography_requested.connect(
        partial(_from_inspector, window, vocabulary)))


def corpus_files(window) -> List[str]:
    """The window's corpus files that exist on disk (the embedded default corpus has none)."""
    info = window.session.corpus
    if info is None:
        return []
    return [str(p) for p in (getattr(info, "paths", None) or (info.path,)) if p and Path(p).is_file()]


def current_vocabulary(window) -> Tuple[Optional[BPEModel], str]:
    """The vocabulary in front (the inspected one, else the training's at its merge) and its name."""
    session = window.session
    vocabulary = session.workbench.current
    if vocabulary is not None:
        return vocabulary.model, vocabulary.name
    if session.is_loaded and session.merge_count > 0:
        model = session.model()
        return model, f"{model.name or 'training'} at merge {session.merge_count:,}"
    return None, ""


def ask_biography(window) -> Optional[BiographyPane]:
    model, name = current_vocabulary(window)
    if model is None:
        QMessageBox.information(window, "Token biography", "Open a vocabulary (File → Open vocabulary…) or train "
                                "a few merges first: the biography replays a vocabulary on a corpus.")
        return None
    return open_biography(window, model, name)


def _from_inspector(window, vocabulary, *_args) -> None:
    open_biography(window, vocabulary.model, vocabulary.name)


def open_biography(window, model: BPEModel, name: str = "") -> BiographyPane:
    """A new biography tab for ``model`` (made current), the window's corpus files offered; with none,
    the file chooser opens."""
    paths = corpus_files(window)
    pane = BiographyPane(model, name, paths)
    pane.failed.connect(lambda message: window.statusBar().showMessage(message, 8000))
    window.biography_panes.add(pane)
    window.tabs.setCurrentIndex(window.tabs.addTab(pane, f"Biography: {pane.name}"))
    if not paths:
        pane.choose_files()
    return pane
