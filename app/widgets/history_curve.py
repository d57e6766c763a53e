"""A chart line that grows one merge at a time, repainting only the new strip (history charts)."""
from __future__ import annotations

from typing import List, Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainter, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

__all__ = ["HistoryCurve"]


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
            if len(x) - old > 32:  # a bulk frame: the whole polygon at C speed (thousands of points)
                self._poly = polygon(x, y)
            else:
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
        # (no corpus yet: NaN, no line)
        self._poly = polygon(x, y) if len(x) and np.isfinite(y).all() else QPolygonF()
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


def polygon(x: np.ndarray, y: np.ndarray) -> QPolygonF:
    """The points as a polygon, written through a numpy view of its memory (pyqtgraph's helper): 3,000
    points in ~0.1 ms, where appending QPointF objects one by one takes ~4 ms."""
    return pg.functions.arrayToQPolygonF(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
