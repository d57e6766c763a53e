"""A chart's captions (its title, its bottom axis's title) in its view: whole where they fit, else cut short with
"…" and the whole caption in a tooltip over it.

pyqtgraph makes a plot at least as wide as its title, so a long title in a narrow pane pushed the chart (its
axes too) past the view's edge, and an axis title wider than its axis ran off both sides. Here the title may be
narrower than its text (:func:`~.axes.relax_width`), and each caption gets the room its centre leaves it in the
view: twice the distance to the nearer edge of the view.
"""
from __future__ import annotations

from typing import Dict

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QToolTip

from .axes import relax_width

__all__ = ["Captions", "ELLIPSIS"]

ELLIPSIS = "…"
#: room kept free at each end of a caption (pixels)
PAD = 4


class Captions(QObject):
    """The title and bottom axis title of ``plot`` in ``view``, fitted again whenever the plot is resized.
    :meth:`set_title` and :meth:`set_axis` take the whole captions; :attr:`whole` holds them."""

    def __init__(self, view: pg.PlotWidget, plot: pg.PlotItem) -> None:
        super().__init__(view)
        self.view, self.plot = view, plot
        self.whole: Dict[str, str] = {"title": plot.titleLabel.text, "axis": plot.getAxis("bottom").labelText}
        self._shown: Dict[str, str] = dict(self.whole)
        self._fitting = False
        relax_width(plot.titleLabel)
        plot.getViewBox().sigResized.connect(self.fit)
        view.viewport().installEventFilter(self)  # after the chart's own tooltips: asked first

    def set_title(self, text: str, **opts) -> None:
        """The plot's title (``opts``: the label's, such as its size)."""
        self.whole["title"] = text
        if opts:
            self.plot.titleLabel.setText(self._shown["title"], **opts)
        self.fit()

    def set_axis(self, text: str) -> None:
        self.whole["axis"] = text
        self.fit()

    def axis(self) -> str:
        """The bottom axis's whole title as set here; an owner's own (set on the axis itself) as it is."""
        shown = self.plot.getAxis("bottom").labelText
        return self.whole["axis"] if shown == self._shown["axis"] else shown

    def fit(self, *_) -> None:
        if self._fitting:
            return
        self._fitting = True  # (a new text re-lays out the plot, which resizes its view box)
        try:
            self._fit("title", self.plot.titleLabel.item, self.plot.titleLabel.setText)
            axis = self.plot.getAxis("bottom")
            if self.axis() == self.whole["axis"]:  # an owner's own axis title stays as it set it
                self._fit("axis", axis.label, lambda text: axis.setLabel(text))
        finally:
            self._fitting = False

    def _fit(self, name: str, item, set_text) -> None:
        """Show ``whole[name]`` on ``item``, cut short with "…" to the room its centre has in the view."""
        whole = self.whole[name]
        self._show(name, whole, set_text)
        rect = item.sceneBoundingRect()
        width = self.view.viewport().width()
        if width <= 0 or not whole:
            return
        room = 2 * min(rect.center().x(), width - rect.center().x()) - 2 * PAD
        if self._width(item) <= room:
            return
        lo, hi = 0, len(whole)  # the longest start of the caption that fits with "…"
        while lo < hi:
            mid = (lo + hi + 1) // 2
            self._show(name, whole[:mid].rstrip() + ELLIPSIS, set_text)
            lo, hi = (mid, hi) if self._width(item) <= room else (lo, mid - 1)
        self._show(name, whole[:lo].rstrip() + ELLIPSIS, set_text)

    @staticmethod
    def _width(item) -> float:
        return item.boundingRect().width() - 2 * item.document().documentMargin()

    def _show(self, name: str, text: str, set_text) -> None:
        if self._shown[name] != text:
            self._shown[name] = text
            set_text(text)

    def elided(self, name: str) -> bool:
        return self._shown[name] != self.whole[name]

    def eventFilter(self, obj, event) -> bool:
        """A tooltip over a caption cut short: the whole caption."""
        if event.type() != QEvent.ToolTip:
            return False
        at = self.view.mapToScene(event.pos())
        items = {"title": self.plot.titleLabel.item, "axis": self.plot.getAxis("bottom").label}
        for name, item in items.items():
            if self.elided(name) and item.isVisible() and item.sceneBoundingRect().contains(at):
                QToolTip.showText(event.globalPos(), self.whole[name], self.view.viewport())
                return True
        return False
