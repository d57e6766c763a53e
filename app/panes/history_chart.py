"""Training history: four small charts against the merge number.

* the count of each merge (log y) — how quickly merges get rarer;
* the vocabulary size;
* tokens per word, with the corpus's total tokens (the same curve times the word count) on the right;
* characters (or bytes) per token — what compression the merges buy.

Curves are created once; each update writes the new points into preallocated arrays and hands
views of them to the curves (:class:`HistoryCurve`), which extend their path by the new segment
and repaint just the strip around it. Ranges are fixed (bounds that follow from the corpus; x
grows by half again when the merges reach its end), so curves do not jump and no step redraws an
axis.
"""
from __future__ import annotations

import math
from typing import List, Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF
from PySide6.QtGui import QPainter, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QVBoxLayout, QWidget

from bpe_core.types import MergeStep

from ..session import Session
from ..theme import CURVES, chart_colors, graphic_color, style_plot
from ..widgets.axes import nice_ceiling

SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
#: points per curve before long runs are thinned (about twice a chart's width in pixels)
MAX_POINTS = 2048


class HistoryCurve(pg.GraphicsObject):
    """A line through (x, y) points that grows one merge at a time.

    ``set_data`` with the previous points plus new ones at the end (the last old point may have
    moved: a thinned line ends at the current merge) moves / appends polygon points and repaints
    only the strip from the last old points to the new ones (the axes' grid pixmaps and the rest
    of the line are not redrawn); anything else rebuilds the polygon. ``paint`` strokes only the
    points inside the exposed rectangle (and one beyond each side): Qt strokes a whole path even
    when the painter clips it to a few pixels (~0.7 ms at 300 points, ~4 ms at 2,000). The
    bounding rectangle is the view's range (``set_bounds``), not the data's, so a new point never
    changes the geometry (which would repaint the whole plot).
    """

    def __init__(self, pen) -> None:
        super().__init__()
        self.pen = pen
        self._x = self._y = np.zeros(0)
        self._poly = QPolygonF()
        self._bounds = QRectF()
        self._pad: Optional[tuple] = None
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption)  # paint() gets the exposed rectangle

    def getData(self):
        return self._x, self._y

    def points(self) -> List[tuple]:
        """The polygon drawn, as (x, y) pairs (tests)."""
        return [(pt.x(), pt.y()) for pt in self._poly]

    def set_bounds(self, rect: QRectF) -> None:
        self.prepareGeometryChange()
        self._bounds = QRectF(rect)
        self._pad = None

    def boundingRect(self) -> QRectF:
        return self._bounds

    def set_data(self, x: np.ndarray, y: np.ndarray, *, grown: Optional[bool] = None) -> None:
        """The line's points; ``grown``: the caller knows they are the previous ones (but the last,
        which may move) plus new ones (else they are compared)."""
        old = len(self._x)
        keep = old - 1  # the points both lines share; the last old point may move (a thinned tail)
        if grown is None:
            grown = 0 < old <= len(x) and np.array_equal(x[:keep], self._x[:keep]) and \
                np.array_equal(y[:keep], self._y[:keep])
        poly = self._poly
        if grown and 0 < old <= len(x) and poly.size() == old and np.isfinite(y[keep:]).all():
            poly[keep] = QPointF(float(x[keep]), float(y[keep]))
            for xi, yi in zip(x[old:].tolist(), y[old:].tolist()):
                poly.append(QPointF(xi, yi))
            # repaint from the point before the old last one to the end, padded by the pen
            lo = max(keep - 1, 0)
            xs = self._x[lo:].tolist() + x[lo:].tolist()
            ys = self._y[lo:].tolist() + y[lo:].tolist()
            self._x, self._y = x, y
            px, py = self._padding()
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            self.update(QRectF(x0 - px, y0 - py, x1 - x0 + 2 * px, y1 - y0 + 2 * py))
            return
        self._x, self._y = x, y
        poly = QPolygonF()
        if len(x) and np.isfinite(y).all():  # (no corpus yet: NaN, no line)
            for xi, yi in zip(x.tolist(), y.tolist()):
                poly.append(QPointF(xi, yi))
        self._poly = poly
        self.update()

    def _padding(self) -> tuple:
        """Three pixels in data units (a 2 px pen and antialiasing), kept until the view changes."""
        if self._pad is None:
            self._pad = ((self.pixelWidth() or 0.0) * 3, (self.pixelHeight() or 0.0) * 3)
        return self._pad

    def viewTransformChanged(self) -> None:
        self._pad = None

    def paint(self, p: QPainter, option, *args) -> None:
        n = self._poly.size()
        if n < 2:
            return
        exposed = option.exposedRect
        x = self._x
        lo = max(int(np.searchsorted(x, exposed.left(), "left")) - 1, 0)
        hi = min(int(np.searchsorted(x, exposed.right(), "right")) + 1, n)
        if hi - lo < 2:
            return
        p.setPen(self.pen)
        p.drawPolyline(self._poly if (lo, hi) == (0, n) else self._poly.mid(lo, hi - lo))


class HistoryChart(QWidget):
    def __init__(self, session: Session, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        self.layout_widget = pg.GraphicsLayoutWidget(self)
        self.layout_widget.setObjectName("history_chart")
        self._n = 0  # merges shown
        self._cap = 0
        self._x = self._count = self._log_count = self._vocab = self._tpw = self._upt = np.zeros(0)
        specs = [("count of each merge (log)", "count"), ("vocabulary size", "tokens"),
                 ("tokens per word / total tokens", "tokens / word"), ("characters per token", "chars / token")]
        self.plots: List[pg.PlotItem] = []
        self.curves: List[HistoryCurve] = []
        for i, (title, ylabel) in enumerate(specs):
            plot = self.layout_widget.addPlot(row=i // 2, col=i % 2)
            plot.setTitle(title, size="10pt")
            plot.setMouseEnabled(False, False)
            plot.hideButtons()
            plot.setMenuEnabled(False)
            if i >= 2:  # one "merge" label per column is enough (the charts are small)
                plot.setLabel("bottom", "merge")
            plot.setLabel("left", ylabel)
            plot.showGrid(x=True, y=True, alpha=0.2)
            for name in ("left", "bottom"):  # axes (and the grid they draw) change rarely: keep them
                plot.getAxis(name).setCacheMode(QGraphicsItem.DeviceCoordinateCache)  # as pixmaps
            # the label space only grows: each change of an axis's width re-lays out all four
            # charts and redraws every axis (~25 ms); "1.2" after "1.25" need not narrow it
            plot.getAxis("left").setStyle(autoReduceTextSpace=False)
            curve = HistoryCurve(pg.mkPen(CURVES[i], width=2))  # _redraw thins long runs
            plot.addItem(curve)
            plot.getViewBox().sigRangeChanged.connect(lambda vb, *_, c=curve: c.set_bounds(vb.viewRect()))
            self.plots.append(plot)
            self.curves.append(curve)
        # total tokens = tokens per word x words: the same curve, read on a second axis
        tpw = self.plots[2]
        tpw.showAxis("right")
        self.total_axis = tpw.getAxis("right")
        self.total_axis.setLabel("total", units="tokens")  # SI prefix: "k tokens", short labels
        self.total_axis.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        self.total_axis.setStyle(autoReduceTextSpace=False)
        self._yrange = (0, 0)  # decades of the count chart
        self._tpw_range = self._upt_range = (0.0, 0.0)
        self._xmax: float = 0.0
        self._drawn = (math.inf, 0)  # (merges, thinning) the curves show; inf: lines to rebuild
        self.apply_palette()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.layout_widget)
        session.corpus_loaded.connect(self.rebuild)
        session.reset_done.connect(self.rebuild)
        session.steps_applied.connect(self._on_session_steps_applied)
        session.steps_undone.connect(self._on_session_steps_undone)
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
        self._ensure(r + 1)
        self._count[r] = step.count
        self._log_count[r] = math.log10(max(step.count, 1))
        self._vocab[r] = st.vocab_size
        self._tpw[r] = st.tokens_per_word
        self._upt[r] = st.units_per_token

    def rebuild(self, *_) -> None:
        s = self.session
        self._cap = 0
        self._count = self._log_count = self._vocab = self._tpw = self._upt = np.zeros(0)
        self._ensure(len(s.timeline) + 1)
        self._yrange = (0, 0)
        self._xmax = 0.0
        self._drawn = (math.inf, 0)
        unit = "bytes" if s.config.unit == "bytes" else "chars"
        self.plots[3].setTitle(f"{'bytes' if unit == 'bytes' else 'characters'} per token", size="10pt")
        self.plots[3].setLabel("left", f"{unit} / token")
        self.total_axis.setScale(s.stats.total_words if s.stats is not None else 1.0)
        if s.stats is not None:
            self._vocab[0], self._tpw[0], self._upt[0] = s.stats.vocab_size, s.stats.tokens_per_word, \
                s.stats.units_per_token
        for step in s.history:
            self._write(step)
        self._n = s.merge_count
        self._set_x(self._n)  # from the merge shown (0 after a reset), not the old range
        self._set_fixed_y()
        self._redraw()

    def _on_session_steps_applied(self, steps: List[MergeStep]) -> None:
        for step in steps:
            self._write(step)
        self._n = self.session.merge_count
        self._set_x(self._n)
        self._redraw()

    def _on_session_steps_undone(self, steps: List[MergeStep]) -> None:
        self._n = self.session.merge_count
        if self._xmax > 4 * nice_ceiling(max(100, self._n * 1.5)):  # scrubbed far back: zoom in
            self._xmax = 0.0
            self._set_x(self._n)
        self._redraw()

    # -- drawing -----------------------------------------------------------------------------------------
    def _set_x(self, n: int) -> None:
        """x: 0 to a round number past the merges (at least 100, also at merge 0); grows by half
        again when they reach its end."""
        if n > self._xmax or not self._xmax:
            self._xmax = nice_ceiling(max(100, n * 1.5))
            for plot in self.plots:
                plot.setXRange(0, self._xmax, padding=0.02)
            if self.session.stats is not None:  # the vocabulary grows at most one token a merge
                v0 = float(self._vocab[0])
                self.plots[1].setYRange(v0, v0 + self._xmax, padding=0.05)

    def _set_fixed_y(self) -> None:
        """y ranges that follow from the corpus, so no ordinary merge redraws an axis: merge counts
        never rise (the first merge's count is the largest) nor fall below the minimum frequency;
        tokens per word fall from their start towards 1 and characters per token rise from theirs:
        both get room in a few steps (:meth:`_fit_tpw`, :meth:`_fit_upt`)."""
        s = self.session
        if s.stats is None:
            return
        top = s.history[0].count if s.history else (s.top_pairs[0].count if s.top_pairs else 2)
        lo = math.floor(math.log10(max(1, s.config.min_frequency or 1)))
        hi = max(lo + 1, math.ceil(math.log10(max(2, top)) - 1e-9))
        self._yrange = (lo, hi)
        self.plots[0].setYRange(lo, hi, padding=0.08)
        # whole decades, labelled 10^k only: pyqtgraph's log axis labels every minor tick when it
        # spans few decades, which overlap in a small chart
        self.plots[0].getAxis("left").setTicks(
            [[(k, f"10{str(k).translate(SUPERSCRIPTS)}") for k in range(lo, hi + 1)], []])
        self._tpw_range = self._upt_range = (0.0, 0.0)
        self._fit_tpw()
        self._fit_upt()

    def _fit_tpw(self) -> None:
        """Tokens per word: from their start down to room for twice the fall so far (at least 5 %
        of the start), never below 1: a few changes in a training, and a line that uses the chart
        also where words are long (whitespace-split Chinese: hundreds of tokens per word)."""
        if self.session.stats is None:
            return
        start = float(self._tpw[0])
        low = float(np.nanmin(self._tpw[: self._n + 1]))
        if self._tpw_range[1] and low >= self._tpw_range[0]:
            return
        top = max(1.0, start)
        bottom = max(1.0, top - nice_ceiling(2 * max(top - low, 0.05 * top)))
        self._tpw_range = (min(bottom, low), top)
        self.plots[2].setYRange(*self._tpw_range, padding=0.05)

    def _fit_upt(self) -> None:
        """Characters (bytes) per token: from a round number at or below the start, up to room
        for twice the rise so far (at least 0.1 unit): each change at least doubles the range, so
        it changes a few times in a training, never past every word being one token."""
        st = self.session.stats
        if st is None:
            return
        hi = float(np.nanmax(self._upt[: self._n + 1]))
        if self._upt_range[1] and hi <= self._upt_range[1]:
            return
        lo = math.floor(min(1.0, float(self._upt[0])) * 10) / 10
        ceiling = max(lo + 0.5, st.total_units / max(st.total_words, 1))  # every word one token
        top = min(ceiling, lo + nice_ceiling(2 * max(hi - lo, 0.05)))
        self._upt_range = (lo, max(top, hi))
        self.plots[3].setYRange(*self._upt_range, padding=0.05)

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

    def values(self) -> dict:
        """The plotted values (tests): arrays up to the current merge."""
        n = self._n
        return {"count": self._count[1: n + 1].copy(), "vocab": self._vocab[: n + 1].copy(),
                "tokens_per_word": self._tpw[: n + 1].copy(), "units_per_token": self._upt[: n + 1].copy()}
