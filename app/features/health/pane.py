"""Vocabulary health on a corpus, in a tab: every token's usage and status, usage by rank, fertility.

The report is :func:`bpe_core.analysis.health.vocabulary_health`, computed on a worker
(:class:`~bpe_lens_app.runtime.worker.LatestWorker`, progress + Cancel); the pane only shows it:

* a sortable, filterable table (token, rank, usage, merge count, status), exportable to CSV;
* a chart of usage by merge rank (log y): each used merged token as a dot, the mean of each slice
  of ranks as a line — late, rarely used ranks are where under-trained ("glitch") tokens live;
* fertility (tokens per word, per 100 characters) per script, or per file for several files.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QProgressBar, QPushButton, QSplitter, QTableView, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from bpe_core import BPEModel
from bpe_core.analysis import STATUSES, HealthReport, usage_by_rank, vocabulary_health, write_health_csv
from bpe_core.types import Progress

from ...session.payloads import user_message
from ...widgets.theme import BAR, CURVES, follow_palette, graphic_color, sort_arrows_follow_order
from ...widgets.axes import SpacedAxis, relax_width, short_labels
from ...widgets.phase_progress import show_phase
from ...runtime.worker import LatestWorker, keep_alive
from .model import HealthTableModel

__all__ = ["HealthPane"]

#: the progress bar's phases, as it names them ("replaying merges 45%")
READING, REPLAYING = "reading", "replaying merges"

def fertility_headers(per_word: bool) -> list:
    """The fertility table's headers and their tips: words are the text's whitespace-separated words, as the
    Measures chart counts them (``per_word``), else the pieces (pieces given without their text)."""
    if per_word:
        return [("group", ""), ("words", "the whitespace-separated words of the text in this group"),
                ("tokens / word", "tokens over the text's whitespace-separated words, as the Measures chart counts "
                                  "them (a pre-tokenizer piece is not a word: GPT-2 cuts \"don't\" in two)"),
                ("tokens / 100 chars", "tokens per 100 characters of the group's pieces")]
    return [("group", ""), ("pieces", "pre-tokenizer pieces: no text was read to count words in"),
            ("tokens / piece", "tokens per pre-tokenizer piece (not per word: no text was read to count words in)"),
            ("tokens / 100 chars", "tokens per 100 characters of the group's pieces")]


class HealthPane(QWidget):
    """One vocabulary's health on one corpus; :meth:`run` starts (or restarts) the computation."""

    finished = Signal(object)  # HealthReport
    failed = Signal(str)

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.report: Optional[HealthReport] = None
        self.vocab_model: Optional[BPEModel] = None
        self.analysis = None  # the Workbench's record of this tab (OpenAnalysis), when its subject is open there
        self.paths: List[Path] = []
        self.calls = LatestWorker(keep_alive, self)
        self.calls.progressed.connect(self._on_calls_progressed)
        self.calls.errored.connect(self._on_calls_errored)
        self.calls.aborted.connect(self._on_calls_aborted)
        self.title = QLabel("No report yet", wordWrap=True, objectName="health_title")
        self.title.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.progress = QProgressBar(objectName="health_progress")
        fm = self.progress.fontMetrics()  # wide enough for its longest text on one line (95 px cut it in two)
        self.progress.setMinimumWidth(max(fm.horizontalAdvance(f"{phase} 100%") for phase in (READING, REPLAYING))
                                      + 4 * fm.averageCharWidth())
        self.cancel_button = QPushButton("Cancel", objectName="health_cancel", clicked=self.cancel)
        self.status_box = QComboBox(objectName="health_status")
        self.status_box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.search = QLineEdit(placeholderText="Filter tokens (text or glyphs: Ġthe)", clearButtonEnabled=True)
        self.count_label = QLabel()
        self.export_button = QPushButton("Export CSV…", objectName="health_export", clicked=self.choose_csv)
        self.table_model = HealthTableModel(self)
        self.table = self._make_table()
        # a log y axis: SpacedAxis labels as many decades, 2s, 3s and 5s as keep a line apart (pyqtgraph's ran together)
        self.usage_plot = pg.PlotWidget(objectName="health_usage",
                                        axisItems={"left": SpacedAxis("left"), "bottom": SpacedAxis("bottom")})
        self.fertility_table = QTableWidget(0, 4, objectName="health_fertility")
        self.fertility_plot = pg.PlotWidget(objectName="health_fertility_chart")
        self._build_charts()
        self._build_layout()
        self.status_box.currentIndexChanged.connect(self._on_status_box_changed)
        self.search.textChanged.connect(lambda text: self.table_model.set_filter(text=text))
        self.table_model.filter_changed.connect(self._update_count)
        self._set_running(False)

    # -- building ----------------------------------------------------------------------------------
    def _make_table(self) -> QTableView:
        t = QTableView(objectName="health_table")
        t.setModel(self.table_model)
        t.setSortingEnabled(True)
        sort_arrows_follow_order(t.horizontalHeader())
        t.sortByColumn(HealthTableModel.COL_ID, Qt.AscendingOrder)
        t.setSelectionBehavior(QAbstractItemView.SelectRows)
        t.setAlternatingRowColors(True)
        t.setWordWrap(False)
        t.verticalHeader().hide()
        t.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)  # never measure 50k rows
        t.horizontalHeader().setStretchLastSection(True)
        fm = t.fontMetrics()
        for col, text in enumerate(("000000", "MMMMMMMMMM", "00,000", "0,000,000", "0,000,000")):
            t.setColumnWidth(col, fm.horizontalAdvance(text) + 20)
        return t

    def _build_charts(self) -> None:
        plot = self.usage_plot.getPlotItem()
        plot.setTitle("usage by merge rank (log)")
        plot.setLabel("bottom", "merge rank")
        plot.setLabel("left", "usage")
        plot.setLogMode(x=False, y=True)
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setMenuEnabled(False)
        self.usage_dots = pg.ScatterPlotItem(size=3, pen=None, brush=pg.mkBrush(graphic_color(BAR)))
        self.usage_mean = pg.PlotDataItem(pen=pg.mkPen(graphic_color(CURVES[3]), width=2))
        plot.addItem(self.usage_dots)
        plot.addItem(self.usage_mean)
        follow_palette(self.usage_plot, plot)  # a theme switch restyles it
        fplot = self.fertility_plot.getPlotItem()
        relax_width(fplot.titleLabel)  # the title never widens the chart past the pane's edge
        fplot.vb.sigResized.connect(self._fit_fertility_title)
        self._fit_fertility_title()
        fplot.setMenuEnabled(False)
        fplot.setMouseEnabled(False, False)
        # bars across, a group a row, its name on the left: names side by side under upright bars overlapped
        # (four files: two labels left) and were dropped
        self.fertility_bars = pg.BarGraphItem(x0=0, y=[], width=[], height=0.6, brush=graphic_color(CURVES[0]))
        fplot.invertY(True)  # the first group on top, as in the table
        fplot.addItem(self.fertility_bars)
        follow_palette(self.fertility_plot, fplot)
        self.fertility_table.setHorizontalHeaderLabels([text for text, _tip in fertility_headers(True)])
        self.fertility_table.verticalHeader().hide()
        self.fertility_table.horizontalHeader().setStretchLastSection(True)
        self.fertility_table.setEditTriggers(QAbstractItemView.NoEditTriggers)

    def _build_layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.progress)
        top.addWidget(self.cancel_button)
        filters = QHBoxLayout()
        filters.addWidget(self.status_box)
        filters.addWidget(self.search, 1)
        filters.addWidget(self.export_button)
        left = QWidget()
        lay = QVBoxLayout(left)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(filters)
        lay.addWidget(self.count_label)
        lay.addWidget(self.table, 1)
        fertility = QSplitter(Qt.Horizontal)
        fertility.addWidget(self.fertility_table)
        fertility.addWidget(self.fertility_plot)
        fertility.setSizes([400, 300])
        right = QSplitter(Qt.Vertical)
        right.addWidget(self.usage_plot)
        right.addWidget(fertility)
        right.setSizes([500, 300])
        split = QSplitter(Qt.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([560, 700])
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addLayout(top)
        outer.addWidget(split, 1)

    # -- running -----------------------------------------------------------------------------------
    def run(self, model: BPEModel, paths: Sequence[str], by: Optional[str] = None) -> None:
        """Compute the report of ``model`` on ``paths`` (one corpus) on a worker."""
        self.vocab_model = model
        self.paths = [Path(p) for p in paths]
        names = ", ".join(p.name for p in self.paths)
        self.title.setText(f"{model.name or 'vocabulary'} on {names}: reading…")
        self._set_running(True)
        self.progress.setRange(0, 0)

        def compute(*, progress, cancel):
            return vocabulary_health(model, self.paths, by=by, progress=progress, cancel=cancel)

        self.calls.start(compute, self.show_report)

    def cancel(self) -> None:
        self.calls.cancel()

    @property
    def is_running(self) -> bool:
        return self.calls.busy

    def _set_running(self, running: bool) -> None:
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.export_button.setEnabled(not running and self.report is not None)

    def _on_calls_progressed(self, p: Progress) -> None:
        show_phase(self.progress, p, reading=READING, replaying=REPLAYING)

    def _on_calls_errored(self, exc: BaseException) -> None:
        self._set_running(False)
        message = user_message(exc)
        self.title.setText(f"Health failed: {message}")
        self.failed.emit(message)

    def _on_calls_aborted(self) -> None:
        self._set_running(False)
        self.title.setText("Cancelled")

    # -- showing -----------------------------------------------------------------------------------
    def show_report(self, report: HealthReport) -> None:
        self.report = report
        self._set_running(False)
        s = report.summary()
        counts = report.status_counts()
        name = self.vocab_model.name if self.vocab_model is not None else "vocabulary"
        files = ", ".join(p.name for p in self.paths) or "corpus"
        self.title.setText(
            f"<b>{name or 'vocabulary'}</b> on <b>{files}</b>: {len(report.rows):,} tokens — "
            + ", ".join(f"{counts[k]:,} {k}" for k in STATUSES if counts[k] or k != "special")
            + f"; {s['dead_merges']:,} of {s['merges']:,} merges dead; "
              f"{s['words']:,} pieces → {s['tokens']:,} tokens")
        self.status_box.blockSignals(True)
        self.status_box.clear()
        self.status_box.addItem(f"all ({len(report.rows):,})", "")
        for k in STATUSES:
            self.status_box.addItem(f"{k} ({counts[k]:,})", k)
        self.status_box.blockSignals(False)
        self.table_model.set_rows(report.rows)
        self._draw_usage(report)
        self._fill_fertility(report)
        self.finished.emit(report)

    def _draw_usage(self, report: HealthReport) -> None:
        used = [(r.rank, r.usage) for r in report.rows if r.rank and r.usage]
        xs = np.array([x for x, _ in used], dtype=float)
        ys = np.array([y for _, y in used], dtype=float)
        self.usage_dots.setData(xs, np.log10(ys) if len(ys) else ys)  # a scatter in a log plot takes log10
        mx, my = usage_by_rank(report.rows)
        keep = [i for i, y in enumerate(my) if y > 0]
        self.usage_mean.setData([mx[i] for i in keep], [my[i] for i in keep])
        unused = sum(1 for r in report.rows if r.rank and not r.usage)
        self.usage_plot.getPlotItem().setTitle(f"usage by merge rank (log) · {unused:,} unused not drawn")
        self.usage_plot.setToolTip("dots: each used merged token; line: the mean usage of each slice of ranks "
                                   "(unused tokens included)")

    def _fill_fertility(self, report: HealthReport) -> None:
        rows = [f for f in report.fertility if f.words]
        t = self.fertility_table
        t.setRowCount(len(rows))
        t.setHorizontalHeaderItem(0, QTableWidgetItem(report.by))
        for c, (text, tip) in enumerate(fertility_headers(report.per_word)[1:], start=1):
            item = QTableWidgetItem(text)
            item.setToolTip(tip)
            t.setHorizontalHeaderItem(c, item)
        for r, f in enumerate(rows):
            for c, text in enumerate((f.group, f"{f.words:,}", f"{f.tokens_per_word:.3f}",
                                      f"{f.tokens_per_100_chars:.1f}")):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                t.setItem(r, c, item)
        t.resizeColumnsToContents()
        self.fertility_bars.setOpts(x0=0, y=list(range(len(rows))), width=[f.tokens_per_100_chars for f in rows],
                                    height=0.6)
        axis = self.fertility_plot.getPlotItem().getAxis("left")
        fm = self.fertility_plot.fontMetrics()
        names = short_labels([f.group for f in rows], fm, 20 * fm.averageCharWidth())
        axis.setTicks([[(i, name) for i, name in enumerate(names)], []])
        axis.setWidth(max((fm.horizontalAdvance(n) for n in names), default=0) + 16)  # room for the names
        self.fertility_plot.getPlotItem().setYRange(-0.5, max(len(rows), 1) - 0.5, padding=0.05)
        self.fertility_plot.setToolTip(f"tokens per 100 characters of each {report.by}'s pieces")
        self._fit_fertility_title()

    def _fit_fertility_title(self, *_args) -> None:
        """The fertility chart's title, the longest of its wordings that fits over the bars ("tokens per 100
        characters, by file" ran past the pane's edge at 1024x700: the title centres over the bars)."""
        plot = self.fertility_plot.getPlotItem()
        by = self.report.by if self.report is not None else ""
        wordings = [f"tokens per 100 characters, by {by}", f"tokens per 100 chars, by {by}"] if by else \
            ["tokens per 100 characters"]
        for text in [*wordings, "tokens per 100 chars", "per 100 chars"]:
            if plot.titleLabel.text != text:
                plot.setTitle(text)
            if plot.titleLabel.item.boundingRect().width() <= plot.vb.width():
                return

    def _on_status_box_changed(self, _index: int) -> None:
        self.table_model.set_filter(status=self.status_box.currentData() or "")

    def _update_count(self) -> None:
        self.count_label.setText(f"{self.table_model.rowCount():,} tokens shown")

    # -- export ------------------------------------------------------------------------------------
    def choose_csv(self) -> None:
        from ..exports import default_folder
        start = default_folder(self.window()) / "health.csv"  # never the working folder nor the app's own files
        path, _ = QFileDialog.getSaveFileName(self, "Export token health", str(start), "CSV (*.csv)")
        if path:
            self.export_csv(path)

    def export_csv(self, path: str) -> int:
        """Write the rows shown (filtered, sorted) to ``path``; returns how many."""
        from bpe_core.formats import check_output

        from ..exports import app_inputs
        rows = self.table_model.shown
        try:
            check_output(path, inputs=[*map(str, self.paths), *app_inputs(self.window())])  # never a corpus
            write_health_csv(rows, path)
        except Exception as exc:  # noqa: BLE001 - told in the title, the report stays
            self.failed.emit(user_message(exc))
            return 0
        return len(rows)
