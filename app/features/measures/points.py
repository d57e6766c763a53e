"""The points the Measures chart draws: one line per run's curves for a measure and a group, the point
nearest the mouse, and what hovering over it says. Plain functions over
:class:`~bpe_core.analysis.curves.Curves` (no Qt), so the chart and its tests read the same points.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np


@dataclass(frozen=True)
class Line:
    """One run's (or branch's) values of one measure and group, in merge order."""

    name: str
    merges: np.ndarray
    vocab_sizes: np.ndarray
    values: np.ndarray
    #: the merges it inherited (a continuation's parent's): points before there are the parent's stretch
    offset: int = 0

    def split(self) -> int:
        """How many first points the inherited stretch draws: the parent's before the offset, and the point at
        the offset (the continuation's own start, where its solid line begins: the stretch ends on it)."""
        return int(np.searchsorted(self.merges, self.offset, side="right")) if self.offset > 0 else 0


def lines_of(curves: Sequence, measure: str, group: str) -> List[Line]:
    """A line per :class:`Curves` that has rows of ``measure`` and ``group`` (in the curves' order)."""
    out = []
    for c in curves:
        rows = [r for r in c.rows if r.measure == measure and r.group == group]
        if rows:
            out.append(Line(c.run, np.array([r.merge for r in rows], dtype=float),
                            np.array([r.vocab_size for r in rows], dtype=float),
                            np.array([r.value for r in rows], dtype=float), getattr(c, "offset", 0) or 0))
    return out


def nearest(lines: Sequence[Line], x: float, y: float, pixel_w: float, pixel_h: float
            ) -> Optional[Tuple[Line, int]]:
    """The point of ``lines`` nearest (x, y) on screen: distances are counted in pixels (one pixel is
    ``pixel_w`` merges across and ``pixel_h`` of the value up)."""
    best, best_d = None, np.inf
    pw, ph = (pixel_w or 1.0), (pixel_h or 1.0)
    for line in lines:
        ok = np.isfinite(line.values)
        if not ok.any():
            continue
        d = ((line.merges - x) / pw) ** 2 + ((line.values - y) / ph) ** 2
        d[~ok] = np.inf
        i = int(np.argmin(d))
        if d[i] < best_d:
            best, best_d = (line, i), d[i]
    return best


def hover_text(line: Line, i: int) -> str:
    """"r1: plain BPE (…): merge 1,200 (vocab 1,456): 3.412"."""
    value = float(line.values[i])
    shown = f"{value:,.0f}" if value.is_integer() and abs(value) >= 1 else f"{value:.4g}"
    return f"{line.name}: merge {int(line.merges[i]):,} (vocab {int(line.vocab_sizes[i]):,}): {shown}"


def dense(xs: np.ndarray, ys: np.ndarray, steps: int = 8) -> List[Tuple[float, float]]:
    """The line's points and ``steps - 1`` more along each segment (finite values only): what a box placed
    over the chart would hide of it.

    >>> dense(np.array([0.0, 2.0]), np.array([0.0, 4.0]), steps=2)
    [(0.0, 0.0), (1.0, 2.0), (2.0, 4.0)]
    """
    out = []
    for i in range(len(xs)):
        if i and np.isfinite(ys[i - 1]) and np.isfinite(ys[i]):
            dx, dy = xs[i] - xs[i - 1], ys[i] - ys[i - 1]
            out += [(float(xs[i - 1] + dx * t / steps), float(ys[i - 1] + dy * t / steps)) for t in range(1, steps)]
        if np.isfinite(ys[i]):
            out.append((float(xs[i]), float(ys[i])))
    return out
