"""View → "Token biography…" and the inspector's "Token biography…" button: a biography tab for a vocabulary.

The vocabulary is the inspector tab's own (its button), else the Workbench's current one (the inspector tab
in front), else the training's model at the current merge. The tab (:class:`.biography_pane.BiographyPane`)
offers the window's corpus files as the reference corpus and computes when the user says so; with no corpus
file open it asks for files at once. A closed tab stops its computation.

Each tab is an analysis of the Workbench (kind "biography": its vocabulary's id, or the training run's with
the merge, and its corpus), so a workspace keeps it; the tab's filter and sort go with it (:func:`views`).
Opening a workspace brings the tabs back (:mod:`.biography_reopen`).
"""
from __future__ import annotations

import weakref
from functools import partial
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from PySide6.QtWidgets import QMessageBox

from bpe_core import BPEModel, OpenAnalysis

from .biography_pane import BiographyPane

ACTION_TEXT = "Token biography…"


def install(window) -> None:
    action = window.make_action(ACTION_TEXT, lambda: ask_biography(window), name="token_biography")
    action.setStatusTip("Every token's birth, count at birth, emitted count, residue ratio, IoS and reachability "
                        "on a reference corpus")
    window.menus["view"].addAction(action)
    panes: "weakref.WeakSet[BiographyPane]" = weakref.WeakSet()
    window.biography_panes = panes  # the biography tabs this window opened
    window.tab_closed.connect(lambda widget: widget in panes and _closed(window, widget))
    window.inspector_made.connect(lambda tab, vocabulary: tab.biography_requested.connect(
        partial(_from_inspector, window, vocabulary)))


def corpus_files(window) -> List[str]:
    """The window's corpus files that exist on disk (the embedded default corpus has none)."""
    info = window.session.corpus
    if info is None:
        return []
    return [str(p) for p in (getattr(info, "paths", None) or (info.path,)) if p and Path(p).is_file()]


def training_name(model: BPEModel, merge: int) -> str:
    """What the training's vocabulary at ``merge`` is called in a biography tab."""
    return f"{model.name or 'training'} at merge {merge:,}"


def current_vocabulary(window) -> Tuple[Optional[BPEModel], str]:
    """The vocabulary in front (the inspected one, else the training's at its merge) and its name."""
    session = window.session
    vocabulary = session.workbench.current
    if vocabulary is not None:
        return vocabulary.model, vocabulary.name
    if session.is_loaded and session.merge_count > 0:
        return session.model(), training_name(session.model(), session.merge_count)
    return None, ""


def _subject(window) -> Tuple[Optional[str], Optional[int]]:
    """The Workbench id of the vocabulary in front (else the training run's, with its merge)."""
    workbench = window.session.workbench
    if workbench.current is not None:
        return workbench.current.id, None
    run = workbench.run
    return (run.id, window.session.merge_count) if run is not None else (None, None)


def ask_biography(window) -> Optional[BiographyPane]:
    model, name = current_vocabulary(window)
    if model is None:
        QMessageBox.information(window, "Token biography", "Open a vocabulary (File → Open vocabulary…) or train "
                                "a few merges first: the biography replays a vocabulary on a corpus.")
        return None
    return open_biography(window, model, name, subject=_subject(window))


def _from_inspector(window, vocabulary, *_args) -> None:
    open_biography(window, vocabulary.model, vocabulary.name, subject=(vocabulary.id, None))


def open_biography(window, model: BPEModel, name: str = "", paths: Optional[Sequence[str]] = None, *,
                   subject: Tuple[Optional[str], Optional[int]] = (None, None), front: bool = True) -> BiographyPane:
    """A new biography tab for ``model`` (made current unless ``front`` is False), on ``paths`` (default: the
    window's corpus files offered; with none, the file chooser opens). ``subject``: the Workbench id of the
    vocabulary or run and the run's merge, recorded as an open analysis while the tab is open."""
    paths = corpus_files(window) if paths is None else list(paths)
    pane = BiographyPane(model, name, paths)
    pane.failed.connect(lambda message: window.statusBar().showMessage(message, 8000))
    window.biography_panes.add(pane)
    _record(window, pane, *subject)
    pane.corpus_changed.connect(lambda _paths: _record(window, pane, *subject))
    index = window.tabs.addTab(pane, f"Biography: {pane.name}")
    if front:
        window.tabs.setCurrentIndex(index)
    if not paths:
        pane.choose_files()
    return pane


def _record(window, pane: BiographyPane, subject: Optional[str], at: Optional[int]) -> None:
    """The tab's analysis in the Workbench, on its corpus now (the one before closed)."""
    bench = window.session.workbench.bench
    if pane.analysis is not None:
        bench.close_analysis(pane.analysis)
        pane.analysis = None
    if subject is not None and bench.is_open(subject):
        pane.analysis = bench.open_analysis("biography", subject, [str(p) for p in pane.paths], at=at).analysis


def _closed(window, pane: BiographyPane) -> None:
    """A biography tab closed: its computation stops and its analysis closes."""
    pane.cancel()
    if pane.analysis is not None:
        window.session.workbench.bench.close_analysis(pane.analysis)
        pane.analysis = None


def views(window) -> Dict[OpenAnalysis, dict]:
    """Each open biography tab's analysis and its filter and sort (what a saved workspace keeps of the view)."""
    return {pane.analysis: pane.view_state() for pane in list(window.biography_panes) if pane.analysis is not None}
