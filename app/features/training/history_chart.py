"""Training history: four small charts against the merge number.

* the count of each merge (log y) — how quickly merges get rarer;
* the vocabulary size;
* tokens per word, with the corpus's total tokens (the same curve times the word count) on the right: the
  Measures chart's (the run's tokens over its text's whitespace-separated words, read once per corpus on a
  worker: :class:`~app.session.text_words.RunWords`); a corpus without text (a word-count table) shows tokens
  per piece, titled so (the trainer's statistics count pieces; a piece is not a word);
* characters (or bytes) per token — what compression the merges buy.

Curves are created once; each update writes the new points into preallocated arrays and hands
views of them to the curves (:class:`HistoryCurve`), which extend their path by the new segment
and repaint just the strip around it. Ranges are fixed (bounds that follow from the corpus; x
grows by half again when the merges reach its end; a run's whole reach when it starts), so curves do
not jump and no step redraws an axis. A frame of more than SYNC_STEPS merges (a run's, a long seek's or
jump's) is drawn in the pass of the event loop after the one that published it.
"""
from __future__ import annotations

import math
from typing import List, Optional, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QGraphicsItem, QTabBar, QVBoxLayout, QWidget

from bpe_core import MergeStep

from ...runtime.coalesce import forget, later
from ...session.session import SYNC_STEPS, Session
from ...session.text_words import run_words_of
from ...widgets.theme import CURVES, chart_colors, graphic_color, style_plot
from ...widgets.axes import SpacedAxis, nice_ceiling, relax_width
from .history_ranges import HistoryRanges
from ...widgets.history_curve import HistoryCurve
from ...widgets.quiet import prepare_now

#: points per curve before long runs are thinned (about twice a chart's width in pixels)
MAX_POINTS = 2048
#: the height pyqtgraph gives a plot's title row, whatever the font
TITLE_ROW = 30
#: four charts show when each plot gets this many lines of the font high and characters wide
PLOT_LINES, PLOT_CHARS = 3.5, 20
#: a y axis's tick labels, in characters ("10,000", "1e+05"), beside its label's line
AXIS_CHARS = 6


class HistoryChart(HistoryRanges, QWidget):
    def __init__(self, session: Session, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        self.layout_widget = pg.GraphicsLayoutWidget(self)
        self.layout_widget.setObjectName("history_chart")
        self._n = 0  # merges shown
        self._src: dict = {}  # rank -> the record whose values the arrays hold (bulk writes skip those again)
        self._cap = 0
        self._x = self._count = self._log_count = self._vocab = self._tpw = self._upt = np.zeros(0)
        #: titles and y labels (the fourth says bytes for byte-level training: :meth:`rebuild`)
        self.titles = ["count of each merge (log)", "vocabulary size", "tokens per word / total tokens",
                       "characters per token"]
        self.ylabels = ["count", "tokens", "tokens / word", "chars / token"]
        self.plots: List[pg.PlotItem] = []
        self.curves: List[HistoryCurve] = []
        for i in range(4):
            plot = self.layout_widget.addPlot(row=i // 2, col=i % 2, axisItems={"bottom": SpacedAxis("bottom")})
            plot.setMouseEnabled(False, False)
            plot.hideButtons()
            plot.setMenuEnabled(False)
            plot.setLabel("bottom", "merge")
            relax_width(plot.titleLabel)
            plot.showGrid(x=True, y=True, alpha=0.2)
            for name in ("left", "bottom"):  # axes (and the grid they draw) change rarely: keep them
                plot.getAxis(name).setCacheMode(QGraphicsItem.DeviceCoordinateCache)  # as pixmaps
            # the label space only grows: each change of an axis's width re-lays out all four
            # charts and redraws every axis (~25 ms); "1.2" after "1.25" need not narrow it
            plot.getAxis("left").setStyle(autoReduceTextSpace=False)
            for name in ("left", "bottom"):  # labels without units: a scale would read "count (x0.001)"
                plot.getAxis(name).enableAutoSIPrefix(False)
            curve = HistoryCurve(pg.mkPen(CURVES[i], width=2))  # _redraw thins long runs
            plot.addItem(curve)
            plot.getViewBox().sigRangeChanged.connect(lambda vb, *_, c=curve: c.set_bounds(vb.viewRect()))
            self.plots.append(plot)
            self.curves.append(curve)
        # total tokens = tokens per word x words: the same curve, read on a second axis
        tpw = self.plots[2]
        tpw.showAxis("right")
        self.total_axis = tpw.getAxis("right")
        self.total_axis.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        self.total_axis.setStyle(autoReduceTextSpace=False)
        self._yrange = (0, 0)  # decades of the count chart
        self._tpw_range = self._upt_range = (0.0, 0.0)
        self.words = run_words_of(session)  # what tokens per word divides by: the text's words once read
        self.words.changed.connect(self._on_words_changed)
        self._xmax: float = 0.0
        self._drawn = (math.inf, 0)  # (merges, thinning) the curves show; inf: lines to rebuild
        # narrow or short: one chart at a time, picked by a tab (four would be cut off or unreadable)
        self.picker = QTabBar(self, drawBase=False, expanding=False, documentMode=True)
        for title in ("count", "vocab", "tok/word", "chars/tok"):
            self.picker.addTab(title)
        self.picker.currentChanged.connect(lambda *_: self._arrange(force=True))
        self._single: Optional[bool] = None
        self._apply_font()
        self.apply_palette()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.picker)
        layout.addWidget(self.layout_widget)
        session.corpus_loaded.connect(self._on_session_corpus_loaded)
        session.reset_done.connect(self.rebuild)
        session.steps_applied.connect(self._on_session_steps_applied)
        session.steps_undone.connect(self._on_session_steps_undone)
        session.run_started.connect(self._on_session_run_started)
        self.rebuild()

    # -- data ------------------------------------------------------------------------------------------
    def apply_palette(self) -> None:
        """Colors from the widget's palette: background, axes, titles, and curves that stand out."""
        palette = self.palette()
        self.layout_widget.setBackground(chart_colors(palette)[0])
        for plot, curve, color in zip(self.plots, self.curves, CURVES):
            style_plot(self.layout_widget, plot, palette)
            curve.pen = pg.mkPen(graphic_color(color, palette), width=2)
            curve.update()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.PaletteChange:
            self.apply_palette()
        elif event.type() == QEvent.FontChange:  # Ctrl +/-: titles, labels and ticks follow
            self._apply_font()
            self.apply_palette()
            self._arrange(force=True)

    # -- layout ------------------------------------------------------------------------------------------
    def _apply_font(self) -> None:
        """Titles, axis labels and tick labels in the widget's font (a point larger for titles)."""
        font = self.font()
        pt = font.pointSizeF()
        for plot, title, ylabel in zip(self.plots, self.titles, self.ylabels):
            plot.setTitle(title, size=f"{pt + 1:g}pt")
            for axis in (plot.getAxis("left"), plot.getAxis("bottom")):
                axis.setStyle(tickFont=font)
                axis.labelStyle = {"font-size": f"{pt:g}pt"}
            plot.setLabel("left", ylabel)
            plot.setLabel("bottom", "merge")
        self.total_axis.setStyle(tickFont=font)
        self.total_axis.labelStyle = {"font-size": f"{pt:g}pt"}
        self.total_axis.setLabel("total", units="tokens")  # SI prefix: "k tokens", short labels

    def single_chart(self) -> bool:
        """True when the pane is too small for four charts: one shows, picked by the tabs. Four fit when
        each plot gets :data:`PLOT_LINES` lines of the font (its ticks apart) below its title (pyqtgraph's
        fixed row) and above its axis, and :data:`PLOT_CHARS` characters beside its axis: heights follow the
        font's line height, widths its character width (Noto Sans's line is 17 % taller than DejaVu Sans's
        while its running text is 8 % narrower: a line-height "em" for widths took room a chart had)."""
        line, char = self.fontMetrics().height(), self.fontMetrics().averageCharWidth()
        axis = line + 6  # tick labels and their ticks (a label row under the bottom row's axes: the same again)
        high = 2 * (TITLE_ROW + int(PLOT_LINES * line)) + 3 * axis + 2 * line  # (+ the grid's margins and spacing)
        wide = 3 * (AXIS_CHARS * char + line) + 2 * PLOT_CHARS * char  # left axes and the total tokens axis
        return self.width() < wide or self.height() < high

    def _arrange(self, force: bool = False) -> None:
        """Four charts in a 2x2 grid, or the picked one alone (only when the size class changes:
        a relayout of the charts costs a frame, never a step)."""
        single = self.single_chart()
        if single == self._single and not force:
            return
        self._single = single
        grid = self.layout_widget.ci.layout
        for plot in self.plots:
            grid.removeItem(plot)
        shown = [self.plots[self.picker.currentIndex()]] if single else self.plots
        for plot in self.plots:
            plot.setVisible(plot in shown)
        for i, plot in enumerate(shown):
            grid.addItem(plot, i // 2, i % 2)
            # one "merge" label per column in the grid is enough (the charts are small)
            plot.getAxis("bottom").showLabel(single or i >= 2)
        for i in range(2):
            grid.setRowStretchFactor(i, 1 if i < (1 if single else 2) else 0)
            grid.setColumnStretchFactor(i, 1 if i < (1 if single else 2) else 0)
        self.picker.setVisible(single)

    def minimumSizeHint(self) -> QSize:
        """Room for one chart (its tab, title, axis and two lines of plot): a splitter never squeezes the
        pane below it. In lines of the font, so a window under a taller font (Noto Sans) still fits a
        540-pixel-high screen."""
        line, char = self.fontMetrics().height(), self.fontMetrics().averageCharWidth()
        high = self.picker.sizeHint().height() + TITLE_ROW + 2 * (line + 6) + 2 * line
        return QSize(AXIS_CHARS * char + line + 24 * char, high)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._arrange()

    def _ensure(self, n: int) -> None:
        if n < self._cap:
            return
        cap = max(1024, 2 * n)
        arrays = []
        for a in (self._count, self._log_count, self._vocab, self._tpw, self._upt):
            b = np.full(cap, np.nan)
            b[: len(a)] = a
            arrays.append(b)
        self._count, self._log_count, self._vocab, self._tpw, self._upt = arrays
        self._x = np.arange(cap, dtype=float)
        self._cap = cap

    def _write(self, step: MergeStep) -> None:
        r, st = step.rank, step.stats
        self._src[r] = step
        self._ensure(r + 1)
        self._count[r] = step.count
        self._log_count[r] = math.log10(max(step.count, 1))
        self._vocab[r] = st.vocab_size
        self._tpw[r] = st.total_tokens / self.words.divisor(st)
        self._upt[r] = st.units_per_token

    def _write_many(self, steps: Sequence[MergeStep]) -> None:
        """:meth:`_write` for many steps at once, with numpy (the same values). Steps already written (the
        same record objects: a seek forward over known merges) are skipped: a jump writes only what is new."""
        src, same = self._src, 0
        for step in steps:
            if src.get(step.rank) is not step:
                break
            same += 1
        steps = steps[same:]
        if not steps:
            return
        src.update((st.rank, st) for st in steps)
        ranks = np.fromiter((st.rank for st in steps), dtype=np.int64, count=len(steps))
        self._ensure(int(ranks.max()) + 1)
        counts = np.fromiter((st.count for st in steps), dtype=float, count=len(steps))
        self._count[ranks] = counts
        self._log_count[ranks] = np.log10(np.maximum(counts, 1))
        self._vocab[ranks] = [st.stats.vocab_size for st in steps]
        self._tpw[ranks] = [st.stats.total_tokens / self.words.divisor(st.stats) for st in steps]
        self._upt[ranks] = [st.stats.units_per_token for st in steps]

    def rebuild(self, *_) -> None:
        """The session's merges from scratch, drawn now."""
        self._reset()
        self._draw()

    def _on_session_corpus_loaded(self, *_) -> None:
        """The new corpus's values now; its curves and axes in a pass of their own (coalesce.PassQueue), not with
        the window's first repaint (each chart's scene flush repaints the window at once)."""
        self._reset()
        later(self.layout_widget, self._draw)

    def _reset(self) -> None:
        """The arrays from the session's merges; the corpus's axes are drawn by the next :meth:`_draw`."""
        s = self.session
        self._src = {}
        self._cap = 0
        self._count = self._log_count = self._vocab = self._tpw = self._upt = np.zeros(0)
        self._ensure(len(s.timeline) + 1)
        self._yrange = (0, 0)
        self._xmax = 0.0
        self._drawn = (math.inf, 0)
        first = s.initial_stats
        if first is not None:
            self._vocab[0], self._tpw[0], self._upt[0] = \
                first.vocab_size, first.total_tokens / self.words.divisor(first), first.units_per_token
        if s.history:
            self._write_many(s.history)
        self._n = s.merge_count
        self._corpus_due = True

    def _draw_corpus(self) -> None:
        """What follows from the corpus: the unit in a title, the totals axis, the fixed y ranges."""
        s = self.session
        unit = "bytes" if s.config.unit == "bytes" else "chars"
        title = f"{'bytes' if unit == 'bytes' else 'characters'} per token"
        if title != self.titles[3]:
            self.titles[3], self.ylabels[3] = title, f"{unit} / token"
            self._apply_font()
            self.apply_palette()
            self.picker.setTabText(3, f"{unit}/tok")
        self.total_axis.setScale(self.words.divisor(s.stats) if s.stats is not None else 1.0)
        self._set_fixed_y()

    def _on_words_changed(self) -> None:
        """The text's words came (or the corpus has none): the curve so far divides by them, named for them."""
        what = self.words.what
        if self.ylabels[2] != f"tokens / {what}":
            self.titles[2], self.ylabels[2] = f"tokens per {what} / total tokens", f"tokens / {what}"
            self.picker.setTabText(2, f"tok/{what}")
            self._apply_font()
            self.apply_palette()
        if self.session.stats is not None:  # the arrays again from the records (once per corpus), drawn in a
            xmax = self._xmax  # pass of their own, as a corpus's; the x axes stay where a run started them
            self._reset()
            self._xmax = xmax
            later(self.layout_widget, self._draw)

    def _on_session_steps_applied(self, steps: List[MergeStep]) -> None:
        if len(steps) > 8:
            self._write_many(steps)  # a bulk run's frame: thousands at once
        else:
            for step in steps:
                self._write(step)
        self._n = self.session.merge_count
        if len(steps) > SYNC_STEPS:  # a bulk frame (a run's, a long seek's or jump's): its curves and axes are drawn
            # in a pass after the window's repaint (coalesce.PassQueue): the publish, that repaint and this chart's
            # (which Qt does at once when its scene flushes) were one stall
            later(self.layout_widget, self._draw)
        else:  # what a command merged on the GUI thread is drawn when the command returns
            self._draw()

    def _draw(self) -> None:
        forget(self.layout_widget)  # (a draw waiting for its pass is this one)
        self._set_x(self._n)  # from the merge shown (0 after a reset), not the old range
        if self._corpus_due:
            self._corpus_due = False
            self._draw_corpus()
        self._redraw()

    def _on_session_run_started(self, *_) -> None:
        """x covers where a run heads at its start (the range it would end with): no frame of the run
        redraws the four x axes (~20 ms in the frame that crossed the old end)."""
        goal = self.session.run_goal
        if goal is not None:
            self._set_x(goal)

    def _on_session_steps_undone(self, steps: List[MergeStep]) -> None:
        self._n = self.session.merge_count
        if self._xmax > 2 * nice_ceiling(max(100, self._n * 1.5)):  # scrubbed far back: zoom in
            self._xmax = 0.0
        self._draw()

    # -- drawing -----------------------------------------------------------------------------------------
    def _set_x(self, n: int) -> None:
        """x: 0 to a round number past the merges (at least 100, also at merge 0), never past the target
        when the merges are within it (a run to 29,743 spanned 50,000); grows by half again when they
        reach its end."""
        if n > self._xmax or not self._xmax:
            target = self.session.target_merges if self.session.is_loaded else 0
            self._xmax = nice_ceiling(max(100, n * 1.5))
            if 0 < n <= target < self._xmax or n == 0 < target < self._xmax:
                self._xmax = float(target)
            for plot in self.plots:
                plot.setXRange(0, self._xmax, padding=0.02)
            if self.session.stats is not None:  # the vocabulary grows at most one token a merge
                v0 = float(self._vocab[0])
                self.plots[1].setYRange(v0, v0 + self._xmax, padding=0.05)

    def _redraw(self) -> None:
        n = self._n
        # long runs are thinned to at most ~MAX_POINTS (every k-th merge, k a power of two, so
        # the points shown stay the same from step to step) and always end at the current merge
        k = 1 << max(0, math.ceil(math.log2((n + 1) / MAX_POINTS))) if n >= MAX_POINTS else 1
        shown = slice(0, n + 1, k)
        # merges only added since the last redraw, at the same thinning: the lines grow
        grown = n > self._drawn[0] and k == self._drawn[1]
        self._drawn = (n, k)
        for curve, y in zip(self.curves, (self._log_count, self._vocab, self._tpw, self._upt)):
            xs, ys = self._x[shown], y[shown]
            if k > 1 and xs[-1] != n:
                xs, ys = np.append(xs, n), np.append(ys, y[n])
            if curve is self.curves[0]:
                xs, ys = xs[1:], ys[1:]  # no count before the first merge
            curve.set_data(xs, ys, grown=grown)
        self._fit_tpw()
        self._fit_upt()
        prepare_now(self.layout_widget)

    def values(self) -> dict:
        """The plotted values (tests): arrays up to the current merge."""
        n = self._n
        return {"count": self._count[1: n + 1].copy(), "vocab": self._vocab[: n + 1].copy(),
                "tokens_per_word": self._tpw[: n + 1].copy(), "units_per_token": self._upt[: n + 1].copy()}
