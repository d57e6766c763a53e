"""View → "Vocabulary health on a corpus…": a health tab for the inspected vocabulary or the training.

The vocabulary is the current one in the session's Workbench (the inspector tab in front) or, from
the training tab, the model at the current merge. The corpus is one or several files picked in a dialog (the training corpus is
offered first); the report runs on a worker in a new tab (:class:`~bpe_lens_app.features.health.pane.HealthPane`).
"""
from __future__ import annotations

import weakref
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from bpe_core import BPEModel

from .pane import HealthPane
from ...runtime.worker import wait_for_kept

ACTION_TEXT = "Vocabulary health on a corpus…"


def install(window) -> None:
    action = window.make_action(ACTION_TEXT, lambda: ask_health(window), "Ctrl+Shift+H", "vocabulary_health")
    action.setStatusTip("Which tokens a corpus uses, which it never reaches; fertility per script or file")
    window.menus["view"].addSeparator()
    window.menus["view"].addAction(action)
    panes: "weakref.WeakSet[HealthPane]" = weakref.WeakSet()
    window.health_panes = panes  # the health tabs this window opened: a closed one stops its report
    window.tab_closed.connect(lambda widget: widget in panes and _closed(window, widget))
    app = QApplication.instance()
    if app is not None and app is not _WAITING_ON_QUIT[0]:  # once per application
        _WAITING_ON_QUIT[0] = app
        app.aboutToQuit.connect(wait_for_kept)


#: the application whose quitting waits for the health reports still running
_WAITING_ON_QUIT: list = [None]


def current_vocabulary(window) -> Tuple[Optional[BPEModel], List[str]]:
    """The vocabulary to check (the inspected one, else the training's at its merge) and the
    corpus files to offer (the training corpus)."""
    session = window.session
    corpus = [session.corpus.path] if session.corpus is not None and Path(session.corpus.path).is_file() else []
    vocabulary = session.workbench.current
    if vocabulary is not None:
        return vocabulary.model, corpus
    if session.is_loaded and session.merge_count > 0:
        return session.model(), corpus
    return None, corpus


def ask_health(window) -> Optional[HealthPane]:
    model, corpus = current_vocabulary(window)
    if model is None:
        QMessageBox.information(window, "Vocabulary health", "Open a vocabulary (File → Open vocabulary…) or "
                                "train a few merges first: health replays a vocabulary on a corpus.")
        return None
    start = corpus[0] if corpus else str(Path.home())
    paths, _ = QFileDialog.getOpenFileNames(window, "Corpus files for vocabulary health", start,
                                            "Text (*.txt *.raw *.gz *.bz2 *.xz);;All files (*)")
    if not paths:
        return None
    vocabulary, run = window.session.workbench.current, window.session.workbench.run
    subject = vocabulary.id if vocabulary is not None else run.id if run is not None else None
    return open_health(window, model, paths, subject=subject)


def open_health(window, model: BPEModel, paths: Sequence[str], by: Optional[str] = None, *,
                subject: Optional[str] = None, front: bool = True) -> HealthPane:
    """A new health tab computing ``model``'s health on ``paths`` (made current unless ``front`` is False: a
    workspace's tab opened again behind the others). ``subject``: the Workbench id of what is checked (an open
    vocabulary, the training run), recorded there as an open analysis until the tab closes; like a
    comparison's tab, the tab stays when its subject closes."""
    pane = HealthPane()
    bench = window.session.workbench.bench
    if subject is not None and bench.is_open(subject):
        pane.analysis = bench.open_analysis("health", subject, paths).analysis
    pane.failed.connect(lambda message: window.statusBar().showMessage(message, 8000))
    name = model.name or "vocabulary"
    window.health_panes.add(pane)
    index = window.tabs.addTab(pane, f"Health: {name}")
    if front:
        window.tabs.setCurrentIndex(index)
    pane.run(model, paths, by=by)
    return pane


def _closed(window, pane: HealthPane) -> None:
    """A health tab closed: its report stops, and its analysis is closed in the Workbench."""
    pane.cancel()
    if pane.analysis is not None:
        window.session.workbench.bench.close_analysis(pane.analysis)
