"""View → Compare vocabularies… and the inspector's "Train further on a corpus…".

*Compare*: pick A and B among vocabulary files, the current training and the open vocabularies (the
session's Workbench holds them; no tab is looked through);
the files are read and the diff computed on a worker (:class:`~bpe_lens_app.runtime.worker.LatestWorker`), then a
:class:`~bpe_lens_app.features.compare.pane.CompareTab` opens.

*Train further*: an inspector tab's vocabulary is continued on a corpus the user picks: the session
loads the corpus with a trainer factory that starts from that vocabulary
(:func:`bpe_core.training.continuing.continue_training`: its merges stay the first ranks, its
pipeline cuts the corpus). The comparison then offers "current training" against that vocabulary,
which shows what the new merges added.
"""
from __future__ import annotations

import os
from functools import partial
from typing import Callable, Dict, List, Optional, Tuple, Union

from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QMessageBox,
                               QPushButton)

from bpe_core import BPEModel, OpenComparison

from .pane import CompareTab
from ...runtime.worker import LatestWorker, keep_alive

#: new merges a "Train further" run aims at (the timeline's target; Play and Run go that far)
FURTHER_MERGES = 1000
CURRENT = "Current training"

#: a side of a comparison: a loaded model, or a path read on the worker
Source = Union[BPEModel, str]


def install(window) -> None:
    window.compare_feature = CompareFeature(window)


class CompareFeature:
    """The comparison tabs and the continued trainings of one main window."""

    def __init__(self, window) -> None:
        self.window = window
        self.calls = LatestWorker(keep_alive)  # held until it has ended, whatever becomes of the window
        self.calls.errored.connect(self._on_calls_errored)
        self.error_box: Optional[QMessageBox] = None
        self.base: Optional[Tuple[str, BPEModel]] = None  # the vocabulary the current training continues
        self.dialog: Optional[CompareDialog] = None
        self.comparisons: Dict[CompareTab, OpenComparison] = {}  # the Workbench's record of each tab it holds
        self.compare_action = window.make_action("Compare vocabularies…", self.choose, "Ctrl+Shift+D", "compare")
        self.further_action = window.make_action("Train further on a corpus…", self.train_current_tab_further,
                                                 name="train_further")
        window.menus["view"].addAction(self.compare_action)
        window.menus["train"].addSeparator()
        window.menus["train"].addAction(self.further_action)
        window.inspector_made.connect(self._on_window_inspector_made)
        window.tab_closed.connect(self._on_window_tab_closed)

    # -- sources -----------------------------------------------------------------------------------
    def sources(self) -> List[Tuple[str, Callable[[], Optional[Source]]]]:
        """What can be compared now: the current training, the open vocabularies (newest last)."""
        out: List[Tuple[str, Callable[[], Optional[Source]]]] = []
        if self.window.session.model() is not None:
            out.append((CURRENT, self.window.session.model))
        for vocabulary in self.window.session.workbench.vocabularies():
            out.append((f"Inspect: {vocabulary.name}", partial(lambda m: m, vocabulary.model)))
        return out

    # -- compare -----------------------------------------------------------------------------------
    def choose(self) -> None:
        """Ask for A and B (the dialog stays in ``self.dialog`` while open, for tests), then compare."""
        self.dialog = CompareDialog(self.window, self.sources(), self.base)
        try:
            if self.dialog.exec() == QDialog.Accepted:
                (name_a, a), (name_b, b) = self.dialog.chosen()
                self.compare(a, b, name_a, name_b)
        finally:
            self.dialog = None

    def compare(self, a: Source, b: Source, name_a: str = "", name_b: str = "") -> None:
        """Read any paths and diff A against B on a worker; a comparison tab opens when done."""
        from bpe_core import open_vocabulary
        from bpe_core.analysis import diff_models

        def work(*, progress, cancel):
            ma = a if isinstance(a, BPEModel) else open_vocabulary(a)
            mb = b if isinstance(b, BPEModel) else open_vocabulary(b)
            d = diff_models(ma, mb)
            d.a.ranks, d.b.ranks  # noqa: B018 - the tables the tab reads, built here and not on the GUI thread
            return d

        names = (name_a or _name(a), name_b or _name(b))
        ids = (self._subject_id(a, names[0]), self._subject_id(b, names[1]))
        self.window.statusBar().showMessage(f"Comparing {names[0]} with {names[1]}…")
        self.calls.start(work, lambda d: self._open_tab(d, *names, ids=ids))

    def _subject_id(self, source: Source, name: str) -> Optional[str]:
        """The Workbench id of what is compared: the training run, an open vocabulary; None for a file."""
        workbench = self.window.session.workbench
        if name == CURRENT and workbench.run is not None:
            return workbench.run.id
        return next((v.id for v in workbench.vocabularies() if v.model is source), None)

    def _open_tab(self, diff, name_a: str, name_b: str, ids: Tuple[Optional[str], ...] = (None, None)) -> None:
        """The comparison's tab; the Workbench records it when both sides are open there (still open now: a
        side closed while the diff was made is not recorded). The tab is a snapshot: it stays when a side
        closes later (the Workbench then drops the comparison), so what the user reads does not vanish."""
        tab = CompareTab(diff, name_a, name_b)
        bench = self.window.session.workbench.bench
        if all(ids) and all(map(bench.is_open, ids)):
            self.comparisons[tab] = bench.open_comparison(*ids).comparison
        tabs = self.window.tabs
        tabs.setCurrentIndex(tabs.addTab(tab, f"Compare: {name_a} ↔ {name_b}"))
        self.window.statusBar().clearMessage()

    # -- train further -----------------------------------------------------------------------------
    def train_current_tab_further(self) -> None:
        """Train the current vocabulary (the Workbench's selection: the inspector tab in front) further."""
        vocabulary = self.window.session.workbench.current
        if vocabulary is not None:
            self.ask_and_train_further(vocabulary)
        else:
            self.window.statusBar().showMessage("Open a vocabulary first: its inspector tab trains further.", 6000)

    def ask_and_train_further(self, vocabulary) -> None:
        """Ask for a corpus and train ``vocabulary`` (an OpenVocabulary) further on it."""
        path, _ = QFileDialog.getOpenFileName(self.window, f"Train {vocabulary.name} further on a corpus", "",
                                              "Text (*.txt *.raw *.gz *.bz2 *.xz);;All files (*)")
        if path:
            self.train_further(vocabulary.model, path, vocabulary.name)

    def train_further(self, model: BPEModel, path: str, name: str = "", merges: int = FURTHER_MERGES) -> bool:
        """Load ``path`` in the session as a training that continues ``model`` (``merges`` new merges)."""
        from bpe_core.training import continue_training, continued_config

        if not self.window.ask_to_discard(f"Training {name or _name(model)} further"):
            return False
        config = continued_config(model, merges=merges)

        def factory(corpus, cfg, *, progress=None, cancel=None):
            return continue_training(model, corpus, config=cfg, progress=progress, cancel=cancel)

        self.base = (name or _name(model), model)
        self.window.session.load_corpus(path, config, factory=factory)
        return True

    # -- wiring ------------------------------------------------------------------------------------
    def _on_window_inspector_made(self, tab, vocabulary) -> None:
        """A vocabulary's inspector tab was made: its "Train further" button trains that vocabulary."""
        tab.train_further_requested.connect(partial(self.ask_and_train_further, vocabulary))

    def _on_window_tab_closed(self, widget) -> None:
        comparison = self.comparisons.pop(widget, None)
        if comparison is not None:
            self.window.session.workbench.bench.close_comparison(comparison)

    def _on_calls_errored(self, exc: BaseException) -> None:
        """A file that could not be read (or compared): say so without blocking (tests read ``error_box``)."""
        self.window.statusBar().clearMessage()
        self.error_box = QMessageBox(QMessageBox.Warning, "Compare vocabularies", f"Could not compare: {exc}",
                                     QMessageBox.Ok, self.window)
        self.error_box.open()


def _name(source) -> str:
    if isinstance(source, BPEModel):
        return source.name or "vocabulary"
    return os.path.basename(os.fspath(source).rstrip("/")) or str(source)


class CompareDialog(QDialog):
    """Pick A and B: the current training, an inspector tab, or a file (the last entry opens a chooser)."""

    FILE = "Choose a file…"

    def __init__(self, parent, sources, base: Optional[Tuple[str, BPEModel]] = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare vocabularies")
        self.setObjectName("compare_dialog")
        self.entries: List[Tuple[str, Callable[[], Optional[Source]]]] = list(sources)
        if base is not None and not any(name == f"Continued from: {base[0]}" for name, _ in self.entries):
            self.entries.append((f"Continued from: {base[0]}", partial(lambda m: m, base[1])))
        self.boxes = (QComboBox(objectName="compare_a"), QComboBox(objectName="compare_b"))
        form = QFormLayout(self)
        for label, box in zip(("A", "B"), self.boxes):
            box.addItems([name for name, _ in self.entries] + [self.FILE])
            box.activated.connect(partial(self._on_box_activated, box))
            form.addRow(label, box)
        # defaults: a continued vocabulary (or the first tab) as A, the current training (or the next) as B
        names = [name for name, _ in self.entries]
        first = next((i for i, n in enumerate(names) if n.startswith("Continued from")), 1 if len(names) > 1 else 0)
        self.boxes[0].setCurrentIndex(first)
        self.boxes[1].setCurrentIndex(0 if first != 0 else min(1, len(names)))
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.ok_button: QPushButton = buttons.button(QDialogButtonBox.Ok)

    def add_file(self, path: str) -> int:
        """Add a vocabulary file as a choice (in both boxes); its index."""
        name = os.path.basename(path.rstrip("/"))
        self.entries.append((name, partial(lambda p: p, path)))
        for box in self.boxes:
            box.insertItem(len(self.entries) - 1, name)
        return len(self.entries) - 1

    def _on_box_activated(self, box: QComboBox, index: int) -> None:
        if box.itemText(index) != self.FILE:
            return
        path, _ = QFileDialog.getOpenFileName(self, "A vocabulary to compare")
        box.setCurrentIndex(self.add_file(path) if path else 0)

    def chosen(self) -> Tuple[Tuple[str, Source], Tuple[str, Source]]:
        out = []
        for box in self.boxes:
            i = box.currentIndex()
            if not 0 <= i < len(self.entries):
                raise ValueError("choose a vocabulary for A and B")
            name, get = self.entries[i]
            out.append((name, get()))
        return out[0], out[1]  # type: ignore[return-value]
