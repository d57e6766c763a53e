"""A chart's merge axis before and after the first merge.

At merge 0 every curve is one point at x = 0: pyqtgraph's auto range then spans −0.5…0.5, scaled to
"merge (x0.001)" with ticks at −400…400, and a line of one point draws nothing. :func:`follow_merges` gives
such a chart 0…:data:`FIRST_SPAN` in plain numbers and hands the range back to the data once a curve has
moved; :func:`point_marks` draws a curve of one point as a mark.
"""
from __future__ import annotations

from typing import Any, Dict, Sequence

__all__ = ["FIRST_SPAN", "follow_merges", "point_marks"]

#: the merges the x axis spans while every curve is at merge 0
FIRST_SPAN = 10


def follow_merges(plot, xs: Sequence[float]) -> None:
    """``plot``'s x axis over the merges drawn (``xs``: every curve's x values): 0…FIRST_SPAN while none is
    past merge 0, then back to the data's own range (a range the user zoomed to is left alone); its ticks
    always plain numbers (no "(x0.001)" scale)."""
    plot.getAxis("bottom").enableAutoSIPrefix(False)
    if max(xs, default=0) <= 0:
        plot.setXRange(0, FIRST_SPAN, padding=0.03)  # the mark at 0 whole; the x auto range stops
        plot.at_merge_zero = True
    elif getattr(plot, "at_merge_zero", False):
        plot.enableAutoRange(x=True)
        plot.at_merge_zero = False


def point_marks(n_points: int, color: Any) -> Dict[str, Any]:
    """A curve's symbol arguments (for ``plot`` and ``setData``): a mark in ``color`` when it has one point
    (a line of one point is not drawn), none otherwise."""
    if n_points == 1:
        return {"symbol": "o", "symbolSize": 8, "symbolPen": color, "symbolBrush": color}
    return {"symbol": None}
