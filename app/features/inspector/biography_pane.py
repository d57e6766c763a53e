"""A vocabulary's token biography over a reference corpus, in a tab (issue 27).

The biography is :func:`bpe_core.analysis.token_biography` (each token's rank, its count at birth, how often
the encoder emits it, its residue ratio, IoS, reachability, bytes and status), computed on a worker
(:class:`~bpe_lens_app.runtime.worker.LatestWorker`, progress + Cancel). The pane asks for the corpus first
(the window's corpus files are offered; Choose files… picks others), then shows:

* a summary line: how many tokens of each status, the corpus's bytes and tokens;
* a sortable, filterable table (:class:`~.biography_model.BiographyTableModel`): the core's preset filters
  ("likely residues", "never emitted", "unreachable") and a text box; the rows shown export as CSV
  (the core's ``biography_csv``) through the exports' gate, never over an input;
* the selected token's merge tree (its lineage), as in the inspector.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QProgressBar, QPushButton, QSplitter, QTableView, QVBoxLayout, QWidget)

from bpe_core import BPEModel
from bpe_core.analysis import BIOGRAPHY_FILTERS, BIOGRAPHY_STATUSES, Biography, biography_csv, token_biography
from bpe_core.types import Progress

from ...runtime.worker import LatestWorker, keep_alive
from ...session.payloads import user_message
from ...widgets.merge_tree import MergeTreeView
from ...widgets.phase_progress import show_phase
from ...widgets.theme import sort_arrows_follow_order
from .biography_model import BiographyTableModel as B

__all__ = ["BiographyPane"]

#: what each of the core's preset filters keeps, said on hover
PRESET_TIPS = {
    "all": "every token",
    "likely residues": "formed often by its merge but rarely emitted: later merges consume it (LiteToken's "
                       "intermediate merge residues)",
    "never emitted": "some text can make it, but the encoder never emits it on this corpus",
    "unreachable": "no text can produce it through the merges",
}


#: what the count says when a preset filter keeps no token
NONE_SHOWN = {"likely residues": "No token is a likely residue on this corpus",
              "never emitted": "Every token is emitted on this corpus",
              "unreachable": "No token is unreachable on this corpus"}


def _size(n: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


class BiographyPane(QWidget):
    """One vocabulary's token biography; :meth:`compute` starts (or restarts) it on the corpus chosen."""

    finished = Signal(object)  # Biography
    failed = Signal(str)
    corpus_changed = Signal(list)  # the reference corpus's paths, once another is chosen

    def __init__(self, model: BPEModel, name: str = "", paths: Sequence[str] = (), *,
                 inputs: Sequence[str] = (), parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.vocab_model = model
        self.name = name or model.name or "vocabulary"
        self.inputs = [str(p) for p in inputs]  # files no export may replace (the vocabulary's, the window's)
        self.paths: List[Path] = []
        self.biography: Optional[Biography] = None
        self.analysis = None  # the Workbench's record of this tab, when its subject is open there
        self.calls = LatestWorker(keep_alive, self)
        self.calls.progressed.connect(self._on_calls_progressed)
        self.calls.errored.connect(self._on_calls_errored)
        self.calls.aborted.connect(self._on_calls_aborted)
        self.title = QLabel(wordWrap=True, objectName="biography_title")
        self.title.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.progress = QProgressBar(objectName="biography_progress")
        self.progress.setMinimumWidth(self.progress.fontMetrics().horizontalAdvance("replaying the merges 100%") + 40)
        self.cancel_button = QPushButton("Cancel", objectName="biography_cancel", clicked=self.cancel)
        self.corpus_label = QLabel(objectName="biography_corpus")
        self.choose_button = QPushButton("Choose files…", objectName="biography_choose", clicked=self.choose_files)
        self.compute_button = QPushButton("Compute", objectName="biography_compute", clicked=self.compute)
        self.preset_box = QComboBox(objectName="biography_preset")
        self.preset_box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.search = QLineEdit(placeholderText="Filter tokens (text or glyphs: Ġthe)", clearButtonEnabled=True,
                                objectName="biography_search")
        self.count_label = QLabel(objectName="biography_count")
        self.export_button = QPushButton("Export CSV…", objectName="biography_export", clicked=self.choose_csv)
        self.table_model = B(self)
        self.table = self._make_table()
        self.tree = MergeTreeView()
        self.tree.set_model(model)
        self._fill_presets(None)
        self._build_layout()
        self.preset_box.currentIndexChanged.connect(self._on_preset_box_changed)
        self.search.textChanged.connect(lambda text: self.table_model.set_filter(text=text))
        self.table_model.filter_changed.connect(self._update_count)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.tree.token_clicked.connect(self.select_token)
        self.set_corpus(paths)
        self._set_running(False)
        self._update_count()

    # -- building ----------------------------------------------------------------------------------
    def _make_table(self) -> QTableView:
        t = QTableView(objectName="biography_table")
        t.setModel(self.table_model)
        t.setSortingEnabled(True)
        sort_arrows_follow_order(t.horizontalHeader())
        t.sortByColumn(B.COL_ID, Qt.AscendingOrder)
        t.setSelectionBehavior(QAbstractItemView.SelectRows)
        t.setSelectionMode(QAbstractItemView.SingleSelection)
        t.setAlternatingRowColors(True)
        t.setWordWrap(False)
        t.verticalHeader().hide()
        t.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)  # never measure 50k rows
        hh = t.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.Interactive)
        hh.setStretchLastSection(True)
        fm = t.fontMetrics()
        t.verticalHeader().setDefaultSectionSize(fm.height() + 8)
        for col, header in enumerate(B.HEADERS):  # from the font: never measure the rows
            sample = {B.COL_TOKEN: "MMMMMMMMM", B.COL_BIRTH: "0,000,000", B.COL_EMITTED: "0,000,000"}.get(col, "")
            t.setColumnWidth(col, max(fm.horizontalAdvance(header), fm.horizontalAdvance(sample)) + 36)  # + the arrow
        return t

    def _build_layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.progress)
        top.addWidget(self.cancel_button)
        corpus = QHBoxLayout()
        corpus.addWidget(QLabel("Reference corpus:"))
        corpus.addWidget(self.corpus_label, 1)
        corpus.addWidget(self.choose_button)
        corpus.addWidget(self.compute_button)
        filters = QHBoxLayout()
        filters.addWidget(self.preset_box)
        filters.addWidget(self.search, 1)
        filters.addWidget(self.count_label)
        filters.addWidget(self.export_button)
        left = QWidget()
        lay = QVBoxLayout(left)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(filters)
        lay.addWidget(self.table, 1)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(left)
        split.addWidget(self.tree)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 300])
        self.tree.setMinimumWidth(160)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addLayout(top)
        outer.addLayout(corpus)
        outer.addWidget(split, 1)

    def _fill_presets(self, bio: Optional[Biography]) -> None:
        keep = self.preset_box.currentData() or "all"
        self.preset_box.blockSignals(True)
        self.preset_box.clear()
        for name, test in BIOGRAPHY_FILTERS.items():
            shown = f" ({sum(1 for t in bio.tokens if test(t)):,})" if bio is not None else ""
            self.preset_box.addItem(f"{name}{shown}", name)
            self.preset_box.setItemData(self.preset_box.count() - 1, PRESET_TIPS.get(name, ""), Qt.ToolTipRole)
        self.preset_box.setCurrentIndex(max(0, self.preset_box.findData(keep)))
        self.preset_box.blockSignals(False)

    # -- the corpus and the computation ------------------------------------------------------------
    def set_corpus(self, paths: Sequence[str]) -> None:
        """The reference corpus (files read one after the other); Compute uses it."""
        changed = [Path(p) for p in paths] != self.paths
        self.paths = [Path(p) for p in paths]
        if changed:
            self.corpus_changed.emit([str(p) for p in self.paths])
        names = ", ".join(p.name for p in self.paths)
        self.corpus_label.setText(names or "none: choose files")
        self.corpus_label.setToolTip("\n".join(map(str, self.paths)))
        self.compute_button.setEnabled(bool(self.paths) and not self.calls.busy)
        if self.biography is None and not self.calls.busy:
            self.title.setText(f"<b>{self.name}</b>: " + ("Compute the biography of every token on the corpus."
                                                          if self.paths else "choose a reference corpus."))

    def choose_files(self) -> None:
        start = str(self.paths[0]) if self.paths else str(Path.home())
        paths, _ = QFileDialog.getOpenFileNames(self, "Reference corpus for the token biography", start,
                                                "Text (*.txt *.raw *.gz *.bz2 *.xz);;All files (*)")
        if paths:
            self.set_corpus(paths)
            self.compute()

    def compute(self) -> None:
        """The biography of the vocabulary on the corpus, on a worker (an earlier one is cancelled)."""
        if not self.paths:
            return
        model, paths = self.vocab_model, list(self.paths)
        self.title.setText(f"<b>{self.name}</b> on {', '.join(p.name for p in paths)}: reading…")
        self.progress.setRange(0, 0)

        def work(*, progress, cancel):
            return token_biography(model, paths, progress=progress, cancel=cancel)

        self.calls.start(work, self.show_biography)
        self._set_running(True)

    def cancel(self) -> None:
        self.calls.cancel()

    @property
    def is_running(self) -> bool:
        return self.calls.busy

    def _set_running(self, running: bool) -> None:
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.compute_button.setEnabled(not running and bool(self.paths))
        self.choose_button.setEnabled(not running)
        self.export_button.setEnabled(not running and self.biography is not None and self.table_model.rowCount() > 0)

    def _on_calls_progressed(self, p: Progress) -> None:
        show_phase(self.progress, p, reading="reading the corpus", replaying="replaying the merges")

    def _on_calls_errored(self, exc: BaseException) -> None:
        self._set_running(False)
        message = user_message(exc)
        self.title.setText(f"Token biography failed: {message}")
        self.failed.emit(message)

    def _on_calls_aborted(self) -> None:
        self._set_running(False)
        kept = " (the table shows the biography computed before)" if self.biography is not None else ""
        self.title.setText(f"Cancelled{kept}.")

    # -- showing -----------------------------------------------------------------------------------
    def show_biography(self, bio: Biography) -> None:
        self.biography = bio
        self._set_running(False)
        self.title.setText(self.summary(bio))
        self._fill_presets(bio)
        self.table_model.set_rows(bio.tokens)
        self.finished.emit(bio)

    def summary(self, bio: Biography) -> str:
        """The summary line: tokens of each status, what the corpus was, the notes."""
        counts = bio.status_counts()
        files = ", ".join(p.name for p in self.paths) or "corpus"
        parts = [f"{counts[k]:,} {k}" for k in BIOGRAPHY_STATUSES if counts[k] or k not in ("special", "base")]
        notes = "".join(f" {n[0].upper()}{n[1:]}." for n in bio.notes)
        return (f"<b>{self.name}</b> on <b>{files}</b>: {len(bio.tokens):,} tokens — {', '.join(parts)}. "
                f"{_size(bio.corpus_bytes)} of text → {bio.corpus_tokens:,} tokens.{notes}")

    def _on_preset_box_changed(self, _index: int) -> None:
        self.table_model.set_filter(preset=self.preset_box.currentData() or "all")

    def _update_count(self) -> None:
        shown, total = self.table_model.rowCount(), self.table_model.total()
        text = f"{shown:,} of {total:,} tokens shown" if total else ""
        if total and not shown:
            preset = self.preset_box.currentData() or "all"
            text = (NONE_SHOWN.get(preset, f"No token is {preset} on this corpus") if preset != "all"
                    and not self.search.text() else "No token matches the filter")
        self.count_label.setText(text)
        self.export_button.setEnabled(not self.calls.busy and self.biography is not None and shown > 0)
        root = self.tree.root()  # the tree of a token the filters no longer show goes
        if root is not None and all(t.token_id != root.id for t in self.table_model.shown):
            self.tree.clear()

    # -- the view a workspace keeps ------------------------------------------------------------------
    def view_state(self) -> dict:
        """The filter and sort as plain values (the preset, the text, the sorted column's field, its order)."""
        header = self.table.horizontalHeader()
        return {"preset": self.preset_box.currentData() or "all", "text": self.search.text(),
                "sort": B.FIELDS[header.sortIndicatorSection()] if 0 <= header.sortIndicatorSection() < len(B.FIELDS)
                else "token_id", "descending": header.sortIndicatorOrder() == Qt.DescendingOrder}

    def apply_view(self, view: dict) -> None:
        """Set the filter and sort :meth:`view_state` gave (what it does not know stays as it is)."""
        index = self.preset_box.findData(view.get("preset"))
        if index >= 0:
            self.preset_box.setCurrentIndex(index)
        if isinstance(view.get("text"), str):
            self.search.setText(view["text"])
        if view.get("sort") in B.FIELDS:
            order = Qt.DescendingOrder if view.get("descending") else Qt.AscendingOrder
            self.table.horizontalHeader().setSortIndicator(B.FIELDS.index(view["sort"]), order)

    def select_token(self, token_id: int) -> bool:
        """Select ``token_id``'s row (if the filters show it) and its merge tree."""
        self.tree.show_token(token_id)
        rows = self.table_model.shown
        row = next((i for i, t in enumerate(rows) if t.token_id == token_id), -1)
        if row >= 0:
            self.table.setCurrentIndex(self.table_model.index(row, 0))
        return row >= 0

    def _on_table_current_changed(self, current, _previous) -> None:
        if current.isValid():
            self.tree.show_token(self.table_model.token_id(current.row()))

    # -- export ------------------------------------------------------------------------------------
    def choose_csv(self) -> None:
        from ..exports import default_folder
        start = default_folder(self.window()) / "token_biography.csv"
        path, _ = QFileDialog.getSaveFileName(self, "Export the token biography", str(start), "CSV (*.csv)")
        if path:
            self.export_csv(path if Path(path).suffix else path + ".csv")

    def export_csv(self, path: str) -> int:
        """Write the rows shown (filtered, sorted) to ``path`` through the gate; returns how many."""
        from bpe_core.formats import atomic_write_text, check_output

        from ..exports import app_inputs, saved
        if self.biography is None:
            return 0
        rows = self.table_model.shown
        try:
            check_output(path, inputs=[*map(str, self.paths), *self.inputs, *app_inputs(self.window())])
            atomic_write_text(path, biography_csv(self.biography, rows))
        except Exception as exc:  # noqa: BLE001 - said, the table stays
            self.failed.emit(user_message(exc))
            return 0
        window = self.window()
        if getattr(window, "settings", None) is not None:
            saved(window, path)
        if hasattr(window, "statusBar"):
            window.statusBar().showMessage(f"Saved {path}", 5000)  # as the other exports say it
        return len(rows)
