"""The next pairs: the top-K pair counts as labelled horizontal bars, the next merge in the accent.

The bars, the label axes and the ranges are created once; a step only changes the bar widths
(:class:`Bars`) and the two text lists (pair labels on the left, counts on the right),
which :class:`LabelAxis` paints directly.
The x range is fixed and only moves when the top count leaves [50 %, 100 %] of it, so bars do
not jump with every merge (auto-range would also cost ~3x per update).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QStaticText
from PySide6.QtWidgets import QGraphicsItem, QVBoxLayout, QWidget

from bpe_core.types import PairCount

from ...runtime.coalesce import forget, later
from ...session.session import TOP_K, Session
from ...widgets.theme import ACCENT, BAR, TIE, graphic_color, style_plot
from ...widgets.axes import nice_ceiling
from ...widgets.chip_text import chip_text, readable_text
from ...widgets.quiet import prepare_now
from ...widgets.chart_captions import Captions
from ...widgets.pair_bars import BarPointer, Bars, pair_tooltip, shown_row

#: longest token text on a label before it is elided
MAX_LABEL_CHARS = 12
BOTTOM_LABEL = "pair count — the orange bar is the next merge"
#: the axis title while bars are tied with the top count (they are outlined); about as long as the other
TIED_LABEL = "pair count — orange: next merge; outlined: tied"


def token_label(text: str) -> str:
    return text if len(text) <= MAX_LABEL_CHARS else text[: MAX_LABEL_CHARS - 1] + "…"


class LabelAxis(pg.AxisItem):
    """A left or right axis that writes one text per bar (at y = 0, 1, 2, ...), painted directly.

    pyqtgraph's AxisItem rebuilds a QPicture of every tick and label through Python whenever its
    ticks change (~1 ms an axis), and the pair chart's labels and counts change on every merge.
    This one draws its texts as QStaticText (each distinct text laid out once) in ``paint``, with
    the axis's tick font, text pen and line pen (so the presenter's colors apply).
    """

    #: laid-out texts kept (labels recur as pairs move up the list; counts are short)
    CACHE_SIZE = 2000

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self._texts: List[str] = []
        self._static: Dict[str, QStaticText] = {}
        self._static_font: Optional[QFont] = None

    def updateAutoSIPrefix(self) -> None:
        if self.labelUnits:
            super().updateAutoSIPrefix()
        else:  # without units the label never changes: no HTML re-layout per range change, a repaint
            self.update()

    def boundingRect(self) -> QRectF:
        # exactly the axis: AxisItem reaches 15 px past both ends for overflowing tick labels, so
        # each step's relabelling also repainted the bottom axis under it
        return self.mapRectFromParent(self.geometry())

    def set_texts(self, texts: Sequence[str]) -> None:
        texts = list(texts)
        if texts != self._texts:
            self._texts = texts
            self.update()

    def texts(self) -> List[str]:
        return list(self._texts)

    def paint(self, p: QPainter, *args) -> None:
        view = self.linkedView()
        if view is None:
            return
        rect = self.mapRectFromParent(self.geometry())
        left = self.orientation == "left"
        edge = rect.right() if left else rect.left()
        p.setRenderHint(QPainter.Antialiasing, False)
        p.setPen(self.pen())
        p.drawLine(QPointF(edge, rect.top()), QPointF(edge, rect.bottom()))
        font = self.style["tickFont"] or QFont()
        if font != self._static_font or len(self._static) > self.CACHE_SIZE:
            self._static, self._static_font = {}, QFont(font)
        p.setFont(font)
        p.setPen(self.textPen())
        p.setClipRect(rect)
        y0 = self.mapFromItem(view.childGroup, QPointF(0, 0)).y()
        dy = self.mapFromItem(view.childGroup, QPointF(0, 1)).y() - y0
        offset = self.style["tickTextOffset"][0]
        cache = self._static
        for i, text in enumerate(self._texts):
            if not text:
                continue
            st = cache.get(text)
            if st is None:
                st = cache[text] = QStaticText(text)
                st.setTextFormat(Qt.PlainText)
                st.prepare(font=font)
            size = st.size()
            x = edge - offset - size.width() if left else edge + offset
            y = y0 + i * dy - size.height() / 2
            if y < rect.top() - 1 or y + size.height() > rect.bottom() + 1:
                continue  # a row below the rows shown (:meth:`PairChart._fit_rows`): no half label
            p.drawStaticText(QPointF(x, y), st)


class CountAxis(pg.AxisItem):
    """The bottom axis: a tick and a round count every so often, painted directly.

    pyqtgraph's AxisItem rebuilds a QPicture of its ticks through Python when the range changes,
    which the chart does each time the top count halves: a ~3 ms frame, several times in the
    first few hundred merges. Counts are laid out once per text (QStaticText).
    """

    def __init__(self) -> None:
        super().__init__("bottom")
        self._static: Dict[str, QStaticText] = {}
        self._static_font: Optional[QFont] = None
        self.drawn: List[str] = []  # the counts last painted (tests)
        self.setCacheMode(QGraphicsItem.DeviceCoordinateCache)  # redrawn only when the range changes

    def updateAutoSIPrefix(self) -> None:
        if self.labelUnits:
            super().updateAutoSIPrefix()
        else:  # without units the label never changes: no HTML re-layout per range change, a repaint
            self.update()

    def paint(self, p: QPainter, *args) -> None:
        view = self.linkedView()
        if view is None:
            return
        rect = self.mapRectFromParent(self.geometry())
        p.setRenderHint(QPainter.Antialiasing, False)
        p.setPen(self.pen())
        p.drawLine(rect.topLeft(), rect.topRight())
        font = self.style["tickFont"] or QFont()
        if font != self._static_font:
            self._static, self._static_font = {}, QFont(font)
        x0 = self.mapFromItem(view.childGroup, QPointF(0, 0)).x()
        dx = self.mapFromItem(view.childGroup, QPointF(1, 0)).x() - x0
        lo, hi = self.range
        levels = self.tickValues(lo, hi, rect.width())
        # counts are whole numbers: a tick at 0.5 would read "0" or "1" again (small ranges)
        values = [v for v in (levels[0][1] if levels else []) if abs(v - round(v)) < 1e-9]
        top = rect.top()
        for v in values:
            x = x0 + v * dx
            p.drawLine(QPointF(x, top), QPointF(x, top + 5))
        p.setFont(font)
        p.setPen(self.textPen())
        labels = []
        for v in values:
            text = f"{v:,.0f}"
            st = self._static.get(text)
            if st is None:
                st = self._static[text] = QStaticText(text)
                st.setTextFormat(Qt.PlainText)
                st.prepare(font=font)
            w = st.size().width()  # centred under its tick, kept inside the axis at both ends
            labels.append((min(max(x0 + v * dx - w / 2, rect.left()), rect.right() - w), st, text))
        # every k-th label, k as small as keeps them apart and inside the axis (large fonts)
        gap = QFontMetrics(font).horizontalAdvance("  ")
        for k in range(1, len(labels) + 1):
            shown = labels[::k]
            if all(a[0] + a[1].size().width() + gap <= b[0] for a, b in zip(shown, shown[1:])):
                break
        self.drawn = [text for _, _, text in shown]
        for x, st, _ in shown:
            p.drawStaticText(QPointF(x, top + 6), st)


class PairChart(QWidget):
    """Top-``k`` pairs of the session; ``font`` sets the labels (presenter mode passes a large one). Hovering a
    row tells its pair (ids, bytes, count); clicking it emits ``pair_clicked`` ((left id, right id))."""

    pair_clicked = Signal(object)

    def __init__(self, session: Session, *, k: int = TOP_K, font: Optional[QFont] = None,
                 title: Optional[str] = None, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        self.k = k
        self._font = QFont(font or self.font())
        #: the labels follow the widget's font (Ctrl +/-) unless the owner gave one (presenter)
        self.follow_font = font is None
        #: the title's size over the labels' (the presenter's type is large already: 1)
        self.title_scale = 1.3
        self._xmax = 1.0
        self.left_axis, self.right_axis = LabelAxis("left"), LabelAxis("right")
        self.plot_widget = pg.PlotWidget(self, axisItems={"left": self.left_axis, "right": self.right_axis,
                                                          "bottom": CountAxis()})
        self.plot_widget.setObjectName("pair_chart")
        plot = self.plot_item = self.plot_widget.getPlotItem()
        plot.setMouseEnabled(False, False)
        plot.hideButtons()
        plot.setMenuEnabled(False)  # the scene's menu keeps "Export..."
        plot.invertY(True)
        plot.setYRange(-0.6, k - 0.4, padding=0)
        plot.showAxis("right")
        self._title = title or "Next pairs (top {k})"  # {k}: the rows that fit (:meth:`_fit_rows`)
        self.rows = k
        plot.setTitle(self._title.format(k=k))
        plot.getViewBox().sigResized.connect(self._fit_rows)
        plot.setLabel("bottom", BOTTOM_LABEL)
        for axis in (self.left_axis, self.right_axis, plot.getAxis("bottom")):
            axis.setStyle(tickFont=self._font)
            axis.label.setFont(self._font)
        self.left_axis.setStyle(tickLength=0)
        self.right_axis.setStyle(tickLength=0)
        self.bars = Bars(k, 0.72, [pg.mkBrush(BAR)] * k)
        plot.addItem(self.bars)
        self.pointer = BarPointer(self.plot_widget, self._row_at, self._tip)
        self.pointer.clicked.connect(self._on_pointer_clicked)
        self.captions = Captions(self.plot_widget, plot)  # whole, else cut short with "…" and a tooltip
        #: False when the owner colors the chart itself (the presenter's black)
        self.follow_palette = True
        self.apply_palette()
        self._labels: List[str] = [""] * k
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot_widget)
        # (left id, right id) -> (label, its width), for this corpus and font
        self._pair_texts: Dict[tuple, Tuple[str, int]] = {}
        session.corpus_loaded.connect(self._on_session_corpus_loaded)
        session.tokens_renamed.connect(self._pair_texts.clear)  # a branch: ids may name other tokens
        for signal in (session.steps_applied, session.steps_undone, session.reset_done):
            signal.connect(self.refresh)
        self._corpus_due = True  # the axes are fitted to the corpus by the next refresh
        self.refresh()

    def apply_palette(self) -> None:
        """Colors from the widget's palette: background, axes, and bars that stand out on it."""
        palette = self.palette()
        style_plot(self.plot_widget, self.plot_item, palette)
        self.set_bar_colors(graphic_color(ACCENT, palette), graphic_color(BAR, palette))
        self.bars.setOpts(tie_pen=pg.mkPen(graphic_color(TIE, palette), width=2))

    def set_bar_colors(self, next_merge, others) -> None:
        """The next merge's bar in ``next_merge``, the other bars in ``others``."""
        self.bars.setOpts(brushes=[pg.mkBrush(next_merge)] + [pg.mkBrush(others)] * (self.k - 1))

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.PaletteChange and self.follow_palette:
            self.apply_palette()
        elif event.type() == QEvent.FontChange and self.follow_font and self.font() != self._font:
            self.set_chart_font(self.font())

    def chart_font(self) -> QFont:
        """The font of the labels and counts."""
        return QFont(self._font)

    def x_max(self) -> float:
        """The right end of the count axis (moves only when the top count leaves [50 %, 100 %] of it)."""
        return self._xmax

    def set_chart_font(self, font: QFont) -> None:
        self._font = QFont(font)
        self._pair_texts.clear()
        self.captions.set_title(self.captions.whole["title"], size=f"{font.pointSizeF() * self.title_scale:.3g}pt")
        self._fit_rows()
        for axis in (self.left_axis, self.right_axis, self.plot_item.getAxis("bottom")):
            axis.setStyle(tickFont=self._font)
            axis.label.setFont(self._font)
        self._fit_axes()
        self.refresh()

    def _fit_rows(self, *_) -> None:
        """Show as many of the top ``k`` pairs as have a line of text each (large fonts, small
        windows): labels never overlap. Changes with the chart's size or font, never per step."""
        height = self.plot_item.getViewBox().height()
        line = QFontMetrics(self._font).height() * 1.05
        rows = self.k if height <= 0 else max(1, min(self.k, int(height / line)))
        if rows != self.rows:
            self.rows = rows
            self.plot_item.setYRange(-0.6, rows - 0.4, padding=0)
            self.captions.set_title(self._title.format(k=rows))

    def _fit_axes(self) -> None:
        """Axis widths for this corpus and font: the labels shown now (with room to spare; they
        widen when a longer one comes) and the largest count of the training (counts never
        exceed the first merge's), so the bars keep the room a small window or a large font
        leaves them."""
        self._fm = QFontMetrics(self._font)
        s = self.session
        texts = [self._pair_text(p)[1] for p in s.top_pairs[: self.k]] if s.is_loaded else []
        guess = self._fm.horizontalAdvance('"Ġth" + "e"')
        self._left_width = int(max([guess] + texts) * 1.1) + 12
        self.left_axis.setWidth(self._left_width)
        top = s.history[0].count if s.is_loaded and s.history else \
            (s.top_pairs[0].count if s.is_loaded and s.top_pairs else 88_888)
        self.right_axis.setWidth(self._fm.horizontalAdvance(f"{max(top, 999):,}") + 12)
        bottom = self.plot_item.getAxis("bottom")  # ticks, counts, then the axis title
        bottom.setHeight(6 + self._fm.height() + int(bottom.label.boundingRect().height()) + 2)

    def _fit_left_axis(self, widths: Sequence[int]) -> None:
        """Widen the label axis when a label would be cut, with room to spare; it narrows only for
        another corpus or font (a new width re-lays out the chart and redraws every axis)."""
        need = max(widths, default=0) + 12
        if need > self._left_width:
            self._left_width = int(need * 1.2)
            self.left_axis.setWidth(self._left_width)

    def _pair_text(self, pair: PairCount) -> Tuple[str, int]:
        key = (pair.left, pair.right)
        hit = self._pair_texts.get(key)
        if hit is None:
            s = self.session
            a = token_label(chip_text(s.token(pair.left))[0])
            b = token_label(chip_text(s.token(pair.right))[0])
            text = readable_text(f'"{a}" + "{b}"', self._font)
            hit = self._pair_texts[key] = (text, self._fm.horizontalAdvance(text))
        return hit

    def _on_session_corpus_loaded(self, *_) -> None:
        self._pair_texts.clear()  # token ids mean other tokens now
        self._corpus_due = True
        later(self, self.refresh)  # in a pass of its own: not with the window's first repaint

    def _row_at(self, scene_pos: QPointF) -> Optional[int]:
        """The shown row (a pair) under a scene point in the plot (its label, bar or count); None elsewhere."""
        if not self.session.is_loaded or not self.plot_item.sceneBoundingRect().contains(scene_pos):
            return None
        y = self.plot_item.getViewBox().mapSceneToView(scene_pos).y()
        return shown_row(y, min(len(self.session.top_pairs), self.k, self.rows))

    def _tip(self, row: int) -> str:
        s, pair = self.session, self.session.top_pairs[row]
        return pair_tooltip(s.token(pair.left), s.token(pair.right), pair, row, self.tied_bars())

    def _on_pointer_clicked(self, row: int) -> None:
        pair = self.session.top_pairs[row]
        self.pair_clicked.emit((pair.left, pair.right))

    def labels(self) -> List[str]:
        """The pair labels as shown, top bar first (tests, screenshots)."""
        return list(self._labels)

    def tied_bars(self) -> int:
        """How many bars (from the top) are outlined as tied with the top count; 0 when no tie."""
        return int(self.bars.opts["tied"])

    def bar_lengths(self) -> List[float]:
        return [float(w) for w in self.bars.opts["width"]]

    def refresh(self, *_) -> None:
        forget(self)  # (a refresh waiting for its pass is this one)
        if self._corpus_due:
            self._corpus_due = False
            self._fit_axes()
            self._labels = []  # (the label axis is set again)
        pairs: Sequence[PairCount] = self.session.top_pairs[: self.k]
        counts = np.zeros(self.k)
        counts[: len(pairs)] = [p.count for p in pairs]
        texts = [self._pair_text(p) for p in pairs]
        labels = [t for t, _ in texts] + [""] * (self.k - len(pairs))
        top = counts[0] if len(pairs) else 0.0
        if top > self._xmax or top < 0.5 * self._xmax:
            self._xmax = nice_ceiling(top * 1.05) if top else 1.0
            self.plot_item.setXRange(0, self._xmax, padding=0)
            self.bars.set_x_range(self._xmax)
        tied = sum(1 for p in pairs if p.count == pairs[0].count) if len(pairs) > 1 else 0
        self.bars.setOpts(width=counts, tied=tied if tied > 1 else 0)
        label, shown = TIED_LABEL if tied > 1 else BOTTOM_LABEL, self.captions.axis()
        if label != shown and shown in (BOTTOM_LABEL, TIED_LABEL):  # an owner's own title (presenter) stays
            self.captions.set_axis(label)
        if labels != self._labels:
            self._labels = labels
            self._fit_left_axis([w for _, w in texts])
            self.left_axis.set_texts(labels)
        self.right_axis.set_texts([f"{int(c):,}" if c else "" for c in counts])
        prepare_now(self.plot_widget)
