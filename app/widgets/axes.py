"""Chart axis helpers shared by the pair chart and the history charts.

* :func:`nice_ceiling` — a round number at or above a value (an axis's end);
* :class:`SpacedAxis` — an axis whose tick labels never run together ("1000020000 30000"), on a log scale
  too (:func:`log_labels`: "7 8 9 10¹" crowded at each decade's top);
* :func:`relax_width` — a chart title that may be narrower than its text;
* :func:`show_empty` — a chart's clean look before it has data (0..100, no stray scale);
* :func:`short_labels` — category labels (file names) short enough to stay apart.
"""
from __future__ import annotations

import math
import os
from typing import List, Sequence, Tuple

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

__all__ = ["nice_ceiling", "nice_step", "SpacedAxis", "log_labels", "relax_width", "show_empty", "short_labels"]


def nice_ceiling(x: float) -> float:
    """A round number at or above ``x``: ``nice_ceiling(730) == 800``, ``nice_ceiling(2883) == 3000``."""
    if x <= 0:
        return 1.0
    exp = 10 ** math.floor(math.log10(x))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * exp >= x:
            return float(m * exp)
    return float(10 * exp)


def nice_step(x: float) -> float:
    """A tick step of 1, 2 or 5 times a power of ten at or above ``x``: ``nice_step(3100) == 5000``."""
    if x <= 0:
        return 1.0
    exp = 10 ** math.floor(math.log10(x))
    for m in (1, 2, 5, 10):
        if m * exp >= x:
            return float(m * exp)
    return float(10 * exp)


class SpacedAxis(pg.AxisItem):
    """An axis whose tick labels keep :attr:`GAP` pixels apart, however narrow the chart.

    pyqtgraph picks the number of ticks from the axis's length alone (about log(pixels)), so five-digit
    labels in a chart 250 px wide touched ("1000020000 30000"). Here the step is the least 1-2-5 step
    whose labels fit with a gap, and one level of ticks is drawn (no minor labels to crowd them). Round
    thousands read "10k", "20k" (short labels: more of them fit).
    """

    GAP = 10

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> List[Tuple[float, float]]:
        span = abs(maxVal - minVal)
        if span == 0 or size <= 0 or self.orientation in ("left", "right"):
            return super().tickSpacing(minVal, maxVal, size)
        fm = QFontMetrics(self.style.get("tickFont") or QApplication.font())
        lo, hi = min(minVal, maxVal), max(minVal, maxVal)
        step = nice_step(span * 20 / size)  # at least 20 px a label
        for _ in range(30):
            if size * step / span >= self._widest_shown(lo, hi, size, step, fm) + self.GAP:
                break
            step = nice_step(step * 1.01)
        return [(step, 0.0)]

    def _widest_shown(self, lo: float, hi: float, size: float, step: float, fm: QFontMetrics) -> int:
        """The widest label at ``step`` of those pyqtgraph draws (a label past the axis's end is hidden)."""
        values = [k * step for k in range(math.ceil(lo / step), math.floor(hi / step) + 1)][:200]
        widths = [fm.horizontalAdvance(t) for t in self.tickStrings(values, self.scale, step)]
        inside = [w for v, w in zip(values, widths)
                  if (v - lo) / (hi - lo) * size >= w / 2 and (hi - v) / (hi - lo) * size >= w / 2]
        return max(inside or widths or [0])

    def tickStrings(self, values, scale: float, spacing: float) -> List[str]:
        if self.logMode:
            return self.logTickStrings(values, scale, spacing)
        if spacing * scale >= 1000 and all(round(v * scale) % 1000 == 0 for v in values):
            return [f"{v * scale / 1000:g}k" if v else "0" for v in values]
        return super().tickStrings(values, scale, spacing)

    # -- a log axis -------------------------------------------------------------------------------------
    def logTickValues(self, minVal: float, maxVal: float, size: float, stdTicks) -> List[Tuple]:
        """On a log axis, the labelled ticks are those of :func:`log_labels` (pyqtgraph labels every 2..9 of a
        decade, which run together near the decade's top); the other 2..9 ticks are drawn without a label."""
        lo, hi = min(minVal, maxVal), max(minVal, maxVal)
        if hi <= lo or size <= 0:
            return super().logTickValues(minVal, maxVal, size, stdTicks)
        fm = QFontMetrics(self.style.get("tickFont") or QApplication.font())
        if self.orientation in ("left", "right"):
            def need(a: float, b: float) -> float:
                return fm.height() + 2
        else:
            def need(a: float, b: float) -> float:
                widths = [fm.horizontalAdvance(t) for t in self.logTickStrings([a, b], 1.0, 1.0)]
                return sum(widths) / 2 + self.GAP
        labelled = log_labels(lo, hi, size, need)
        every = [d + math.log10(m) for d in range(math.floor(lo), math.ceil(hi) + 1) for m in range(1, 10)]
        rest = [v for v in every if lo <= v <= hi and all(abs(v - u) > 1e-9 for u in labelled)]
        return [(1.0, labelled), (None, rest)]

    def logTickStrings(self, values, scale: float, spacing) -> List[str]:
        """A log axis's labels as its values read ("20", "0.5"; not "2·10¹"); the unlabelled ticks' none."""
        if spacing is None:
            return ["" for _ in values]
        out = []
        for v in values:
            x = 10 ** v * scale
            # .6g: "10000" (.4g wrote "1e+04" on a chart of usage counts)
            out.append(f"{x:.6g}" if 1e-3 <= abs(x) < 1e6 else super().logTickStrings([v], scale, spacing)[0])
        return out


#: the tick values labelled between decades, the densest first (1 alone: only the decades)
LOG_MANTISSAS = ((1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 2, 3, 5), (1, 2, 5), (1, 3), (1, 5), (1,))


def log_labels(lo: float, hi: float, size: float, need) -> List[float]:
    """The labelled ticks of a log axis from ``lo`` to ``hi`` (log10 of the values) drawn ``size`` pixels long:
    the densest of :data:`LOG_MANTISSAS` (then every 2nd, 5th, 10th… decade) whose neighbours keep ``need(a, b)``
    pixels apart; the smallest decade in range when even that crowds.

    >>> [round(10 ** v) for v in log_labels(0.5, 1.75, 400, lambda a, b: 14)]
    [4, 5, 6, 7, 8, 9, 10, 20, 30, 40, 50]
    >>> [round(10 ** v) for v in log_labels(0.5, 1.75, 60, lambda a, b: 14)]
    [5, 10, 20, 50]
    """
    px = size / (hi - lo)
    first, last = math.floor(lo), math.ceil(hi)

    def fits(values: List[float]) -> bool:
        return len(values) > 1 and all((b - a) * px >= need(a, b) for a, b in zip(values, values[1:]))

    for ms in LOG_MANTISSAS:
        values = [v for d in range(first, last + 1) for m in ms if lo <= (v := d + math.log10(m)) <= hi]
        if fits(values):
            return values
    for step in (2, 5, 10, 20, 50, 100):
        values = [float(d) for d in range(first, last + 1) if d % step == 0 and lo <= d <= hi]
        if fits(values):
            return values
    inside = [v for d in range(first, last + 1) for m in (1, 2, 5) if lo <= (v := d + math.log10(m)) <= hi]
    return inside[:1] or [lo]


def relax_width(label: pg.LabelItem) -> None:
    """Let a chart title be narrower than its text: a cut title beats a chart cut off at the
    pane's edge. pyqtgraph sets a label's minimum width to its text's on every text change and
    resize, so the label's own ``updateMin`` is wrapped."""
    update_min = label.updateMin

    def relaxed() -> None:
        update_min()
        label.setMinimumWidth(0)

    label.updateMin = relaxed
    relaxed()


def show_empty(plot: pg.PlotItem, x_end: float = 100) -> None:
    """``plot`` before it has data: x from 0 to ``x_end``, y from 0 to 1 (pyqtgraph's own ranges for an
    empty chart, such as −4,000..4,000 with "(x0.001)" on the axis, mean nothing to a reader)."""
    plot.setXRange(0, x_end, padding=0.02)
    plot.setYRange(0, 1, padding=0.05)


def short_labels(names: Sequence[str], fm: QFontMetrics, max_px: int) -> List[str]:
    """Axis labels for ``names`` at most ``max_px`` wide that stay apart: what all of them start with is cut
    to "…" first (``wiki_part_1.txt``, ``wiki_part_2.txt`` → ``…1.txt``, ``…2.txt``), then each is elided in
    its middle. Names that fit are kept whole."""
    if all(fm.horizontalAdvance(n) <= max_px for n in names):
        return list(names)
    common = os.path.commonprefix(list(names)) if len(names) > 1 else ""
    cut = len(common) if len(common) > 3 else 0
    out = []
    for name in names:
        label = name if fm.horizontalAdvance(name) <= max_px or not cut else "…" + name[cut:]
        out.append(label if fm.horizontalAdvance(label) <= max_px else fm.elidedText(label, Qt.ElideMiddle, max_px))
    return out
