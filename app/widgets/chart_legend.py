"""A chart's legend under its plot, where it covers nothing the chart shows.

pyqtgraph anchors a legend inside the view box, on the curves: wherever it sits, some chart's curves pass under
it (the Variants tab's branches parting at the bottom right, the scripts' curves at the top right, the Measures
chart's label of the window's merge). :func:`legend_below` lays the legend out in the plot's own grid instead,
under the bottom axis, outside the view box; its entries flow into as many columns as the plot's width holds
(one row on a wide chart, stacked in a narrow dock), and its text takes the chart's palette. Every chart with a
legend makes it here: one home for where a legend goes and how it looks.
"""
from __future__ import annotations

from typing import Optional

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QSizePolicy

__all__ = ["LegendBelow", "in_id_order", "legend_below", "style_legend"]

#: the plot grid's row under the bottom axis (pyqtgraph: title 0, top axis 1, view box 2, bottom axis 3)
ROW = 4
#: pixels between one entry's name and the next entry's line
ENTRY_GAP = 16


class LegendBelow(pg.LegendItem):
    """A legend that the plot's grid sizes and places (under the bottom axis), its entries in the columns that
    fit the width it is given (:meth:`fit`)."""

    def __init__(self) -> None:
        super().__init__(offset=None, colCount=1)
        # never wider than the plot lets it be (its entries then go into fewer columns: :meth:`fit`), never taller
        # than its rows
        self.setSizePolicy(QSizePolicy.Maximum, QSizePolicy.Fixed)
        self.setMinimumWidth(0)
        self.layout.setContentsMargins(6, 2, 6, 2)  # the style's wider margins took a plot's height in a small chart
        self.width_given = 0.0

    def addItem(self, item, name) -> None:
        super().addItem(item, name)
        self.fit()

    def _addItemToLayout(self, sample, label) -> None:
        super()._addItemToLayout(sample, label)
        for col in range(1, self.layout.columnCount() - 1, 2):  # after each name: a gap before the next entry
            self.layout.setColumnSpacing(col, ENTRY_GAP)

    def updateSize(self) -> None:
        """The plot's grid gives the legend its size and place (pyqtgraph's own sets it at the corner)."""
        self.layout.invalidate()
        self.updateGeometry()

    def entry_width(self) -> float:
        """The widest entry: its line, the gap to its name, the name."""
        widths = [sample.boundingRect().width() + self.layout.horizontalSpacing() + label.minimumWidth()
                  for sample, label in self.items]
        return max(widths, default=0.0)

    def fit(self, width: Optional[float] = None) -> None:
        """As many columns as ``width`` (the plot's, by default the last given) holds, at least one, the rows
        as even as that many rows allow."""
        if width is not None:
            self.width_given = width
        n = len(self.items)
        if not n:
            return
        entry = self.entry_width() + ENTRY_GAP
        cols = max(1, min(n, int((self.width_given + ENTRY_GAP) // entry) if entry > 0 else n))
        rows = -(-n // cols)
        self.setColumnCount(-(-n // rows))  # the rows evened out: 2 + 2 entries, not 3 + 1


class _Restyle(QObject):
    """Restyles a legend when its chart's palette changes (a live theme switch)."""

    def __init__(self, plot_widget, legend: LegendBelow) -> None:
        super().__init__(plot_widget)
        self.legend = legend

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.PaletteChange:
            style_legend(self.legend, obj.palette())
        return False


def legend_below(plot_widget, plot_item: Optional[pg.PlotItem] = None) -> LegendBelow:
    """The legend of ``plot_item`` (``plot_widget``'s own by default): under its bottom axis, its entries the
    plots given a name (as ``addLegend`` makes them), in the palette's text color, also after a theme switch."""
    plot = plot_item or plot_widget.getPlotItem()
    legend = LegendBelow()
    plot.layout.addItem(legend, ROW, 1, alignment=Qt.AlignHCenter | Qt.AlignTop)
    plot.layout.setRowStretchFactor(ROW, 0)
    plot.legend = legend  # plot(name=...) adds an entry
    plot.getViewBox().sigResized.connect(lambda vb: legend.fit(vb.width()))
    legend.fit(plot.getViewBox().width())
    style_legend(legend, plot_widget.palette())
    plot_widget.installEventFilter(_Restyle(plot_widget, legend))
    return legend


def style_legend(legend: pg.LegendItem, palette: QPalette) -> None:
    """The legend's box and names in the palette: its base (nearly opaque), a thin frame in its mid tone, its
    names in its text color, drawn again at once (entries made later too)."""
    base = palette.color(QPalette.Base)
    base.setAlpha(230)
    legend.setBrush(base)
    legend.setPen(palette.color(QPalette.Mid))
    legend.setLabelTextColor(palette.color(QPalette.Text))
    for _sample, label in legend.items:  # pyqtgraph stores the colour but draws a name again only on setText
        label.setText(label.text)


def in_id_order(runs) -> list:
    """Runs in the order every chart's legend and the Variants list name them: by id number (r2 before r10,
    whatever order they were opened or reopened in), each followed by its branches (those whose ``parent`` is
    its id, in the order given: by transition point).

    >>> from types import SimpleNamespace as R
    >>> [r.id for r in in_id_order([R(id="r1", parent=None), R(id="r4", parent=None), R(id="r2", parent=None),
    ...                              R(id="r6", parent="r2"), R(id="r3", parent="r1")])]
    ['r1', 'r3', 'r2', 'r6', 'r4']
    """
    runs = list(runs)
    ids = {r.id for r in runs}

    def number(run) -> tuple:
        digits = "".join(ch for ch in run.id if ch.isdigit())
        return (int(digits) if digits else 0, run.id)

    out: list = []

    def add(run) -> None:
        out.append(run)
        for child in (r for r in runs if r.parent == run.id):
            add(child)

    for root in sorted((r for r in runs if r.parent not in ids), key=number):
        add(root)
    return out
