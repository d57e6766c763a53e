"""The pair chart's bars, and pointing at them: a bar's tooltip (the pair, its token ids, their bytes, its
count) and a click that names the pair (:class:`BarPointer`; the window's ties dock selects it there).

A row is the whole band of a bar across the chart (its label, its bar, its count): a short bar or a long
label is as easy to point at as a long bar.
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QToolTip

from bpe_core.base import to_hex
from bpe_core.types import PairCount, Raw

from .theme import TIE
from .chip_text import chip_text, escape_html


class Bars(pg.GraphicsObject):
    """Horizontal bars from x = 0 at y = 0, 1, 2, ... (bar ``i`` is ``opts["width"][i]`` long),
    painted directly in data coordinates.

    pyqtgraph's BarGraphItem rebuilds a QPicture and tells the view its bounds changed on every
    ``setOpts``; here a step only stores the widths and repaints. The bounds are the chart's x
    range (``set_x_range``), so they change only when the range does.
    """

    def __init__(self, k: int, height: float, brushes: Sequence) -> None:
        super().__init__()
        #: the first ``tied`` bars share the top count: each gets an outline in ``tie_pen``
        self.opts = {"width": np.zeros(k), "height": height, "brushes": list(brushes), "tied": 0,
                     "tie_pen": pg.mkPen(TIE, width=2)}
        self._xmax = 1.0

    def setOpts(self, **opts) -> None:
        self.opts.update(opts)
        self.update()

    def set_x_range(self, xmax: float) -> None:
        self.prepareGeometryChange()
        self._xmax = xmax

    def boundingRect(self) -> QRectF:
        return QRectF(0.0, -0.5, self._xmax, len(self.opts["width"]))

    def paint(self, p: QPainter, *args) -> None:
        h = self.opts["height"]
        for i, (w, brush) in enumerate(zip(self.opts["width"], self.opts["brushes"])):
            if w > 0:
                p.fillRect(QRectF(0.0, i - h / 2, float(w), h), brush)
        if self.opts["tied"]:  # a cosmetic pen: 2 px on screen whatever the scale
            p.setPen(self.opts["tie_pen"])
            for i, w in enumerate(self.opts["width"][: self.opts["tied"]]):
                p.drawRect(QRectF(0.0, i - h / 2, float(w), h))


def _bytes(raw: Raw) -> str:
    return to_hex(raw if isinstance(raw, bytes) else raw.encode("utf-8"))


def pair_tooltip(left: Raw, right: Raw, pair: PairCount, row: int, tied: int) -> str:
    """A bar's tooltip: the pair and what it merges into, the token ids, their bytes (hex), the count and
    where the bar stands (the next merge, tied with the top count)."""
    a, b, ab = (chip_text(t)[0] for t in (left, right, left + right))
    where = "the next merge" if row == 0 else f"pair {row + 1} in line"
    if row < tied:
        where += f"; tied with {tied - 1} other pair{'s' * (tied > 2)} at the top count (outlined)"
    title = escape_html(f'"{a}" + "{b}" → "{ab}"')
    return "<br>".join((f"<b>{title}</b>",
                        f"ids {pair.left} + {pair.right}",
                        f"bytes {_bytes(left)} + {_bytes(right)}",
                        f"count {pair.count:,} — {where}",
                        "<i>click: select it in Ties and branches</i>"))


class BarPointer(QObject):
    """Tooltips and clicks over a pair chart's rows: ``row_at`` maps a
    scene point to a shown row (or None), ``tip(row)`` writes its tooltip; ``clicked`` emits the row."""

    clicked = Signal(int)

    def __init__(self, plot_widget: pg.PlotWidget, row_at: Callable[[QPointF], Optional[int]],
                 tip: Callable[[int], str]) -> None:
        super().__init__(plot_widget)
        self._view, self._row_at, self._tip = plot_widget, row_at, tip
        plot_widget.viewport().installEventFilter(self)
        plot_widget.scene().sigMouseClicked.connect(self._on_scene_mouse_clicked)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.ToolTip:
            row = self._row_at(self._view.mapToScene(event.pos()))
            if row is None:
                QToolTip.hideText()
                event.ignore()
            else:
                QToolTip.showText(event.globalPos(), self._tip(row), self._view.viewport())
            return True
        return False

    def _on_scene_mouse_clicked(self, event) -> None:
        row = self._row_at(event.scenePos())
        if row is not None and not event.double():
            self.clicked.emit(row)


def shown_row(y: float, shown: int) -> Optional[int]:
    """The row at data coordinate ``y`` (bars at y = 0, 1, 2, ... each a unit band), None past the shown ones."""
    row = int(np.floor(y + 0.5))
    return row if 0 <= row < shown else None


__all__: Sequence[str] = ("Bars", "BarPointer", "pair_tooltip", "shown_row")
