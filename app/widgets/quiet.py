"""Small widgets that repaint or re-lay out only when what they show changes.

Every step changes a few numbers on screen; a stock Qt widget answers a new value by repainting
all of itself (sliders, scroll bars) or by invalidating every layout up to the window (labels).

* :class:`LiveLabel` — a one-line label whose text changes without a layout pass (tall glyphs whole, a text
  too long for it elided with "…");
* :class:`TallLabel`, :class:`TallRowsDelegate` — a label, list rows, with room for tall glyphs;
* :class:`FitLabel` — a LiveLabel that falls back to a short text when the long one does not fit;
* :class:`QuietSlider`, :class:`QuietScrollBar` — repaint only when the handle moves a pixel;
* :class:`RowsView` — a QTableView that repaints only the changed cells it shows;
* :func:`prepare_now` — a chart whose pending range and transform changes are made before it paints.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Optional

from PySide6.QtCore import QEvent, QModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QAccessible, QFont, QFontMetrics
from PySide6.QtGui import Qt as GuiQt  # (Qt.mightBeRichText lives in QtGui)
from PySide6.QtWidgets import (QLabel, QScrollBar, QSizePolicy, QSlider, QStyle, QStyledItemDelegate,
                               QStyleOptionSlider, QTableView, QWidget)


#: glyphs that reach above a font's ascent or below its descent (the dot of GPT-2's Ġ, accented capitals, a
#: cedilla or ogonek): a line of text is only whole when its label has room for them
TALL_GLYPHS = "ĠÅÉÖÇŲgjpy|"


def tall_glyph_margins(fm: QFontMetrics) -> tuple:
    """(top, bottom): the pixels tall glyphs need beyond the font's ascent and descent. A QLabel is as
    tall as ``fm.height()``, and at that height the dot of Ġ (2 px above the ascent in DejaVu Sans 9 pt)
    is cut off."""
    tight = fm.tightBoundingRect(TALL_GLYPHS)
    return max(0, -tight.top() - fm.ascent()), max(0, tight.bottom() + 1 - fm.descent())


def fit_tall_glyphs(label: QLabel) -> QLabel:
    """Give ``label`` room above and below its text for :data:`TALL_GLYPHS` (content margins, so its size
    hint grows with them and its text stays where it was). Call again after a font change."""
    top, bottom = tall_glyph_margins(label.fontMetrics())
    label.setContentsMargins(0, top, 0, bottom)
    return label


class TallLabel(QLabel):
    """A QLabel with room for tall glyphs (:func:`fit_tall_glyphs`), kept after a font change (Ctrl +/-)."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        fit_tall_glyphs(self)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.update()  # QLabel repaints only its contents: the old text's tall glyphs sit in the margin

    def changeEvent(self, e) -> None:
        super().changeEvent(e)
        if e.type() == QEvent.FontChange:
            fit_tall_glyphs(self)


class TallRowsDelegate(QStyledItemDelegate):
    """List or table rows with room for tall glyphs: a row as tall as the font cuts the dot of Ġ (the text
    is centred in its row, so the room is added above and below)."""

    def sizeHint(self, option, index) -> QSize:
        size = super().sizeHint(option, index)
        top, bottom = tall_glyph_margins(option.fontMetrics)
        return QSize(size.width(), size.height() + 2 * max(top, bottom))


class LiveLabel(QWidget):
    """A one-line label whose text changes every step without re-laying out the window.

    A QLabel calls ``updateGeometry()`` on every ``setText``; unless the label has a fixed width
    *and* height, that invalidates its layout and every layout above it, up to the window: a
    QTabWidget answers that by repainting all of itself (measured: the whole main window,
    ~5 ms, on every step). Here the QLabel (``.label``, which keeps the object name, so style
    sheets such as ``QLabel#banner`` apply) sits in a holder without a layout: its geometry
    requests stop at the holder, which passes one on only when the label's height changes (a
    style sheet or a new font). The holder's width is fixed when ``min_text`` is given (room
    for a typical text), else it takes what its layout gives it.

    Tall glyphs are drawn whole (:func:`fit_tall_glyphs`). A plain text wider than the label is
    elided with "…" and shown whole in the tooltip; :meth:`text` is always the whole text.
    """

    def __init__(self, parent: QWidget | None = None, text: str = "", *, object_name: str = "",
                 min_text: str = "") -> None:
        super().__init__(parent)
        self.label = QLabel(text, self)
        if object_name:
            self.setObjectName(f"{object_name}_holder")
            self.label.setObjectName(object_name)
        self._min_text = min_text
        self._height = 0
        self._full = text
        self._tip = ""
        self._font = QFont(self.label.font())
        # opaque: a new text repaints the holder and the label, not every parent up to the window
        self.setAutoFillBackground(True)
        self.setSizePolicy(QSizePolicy.Fixed if min_text else QSizePolicy.Ignored, QSizePolicy.Fixed)
        self._fit()

    # the QLabel API the panes use
    def setText(self, text: str) -> None:
        if text != self._full:
            self._full = text
            self._show_text()

    def text(self) -> str:
        return self._full

    def setToolTip(self, tip: str) -> None:
        self._tip = tip
        super().setToolTip(tip)

    def _show_text(self) -> None:
        """The whole text, or, when a plain one is wider than the label, its start and "…" (the whole
        text then in the tooltip)."""
        text, label = self._full, self.label
        rich = label.textFormat() == Qt.RichText or (label.textFormat() == Qt.AutoText and GuiQt.mightBeRichText(text))
        room = label.contentsRect().width()
        fm = label.fontMetrics()
        elided = not rich and room > 0 and fm.horizontalAdvance(text) > room
        shown = fm.elidedText(text, Qt.ElideRight, room) if elided else text
        if shown != label.text():
            label.setText(shown)
            label.update()  # QLabel repaints only its contents: the old text's tall glyphs sit in the margin
        tip = (self._tip or text) if elided else self._tip
        if tip != super().toolTip():
            super().setToolTip(tip)

    def setAlignment(self, alignment) -> None:
        self.label.setAlignment(alignment)

    def setTextFormat(self, fmt) -> None:
        self.label.setTextFormat(fmt)

    # geometry
    def _fit(self) -> None:
        fit_tall_glyphs(self.label)
        self._height = self.label.sizeHint().height()
        if self._min_text:
            self.setFixedWidth(self.label.fontMetrics().horizontalAdvance(self._min_text) + 8)
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        width = self.label.fontMetrics().horizontalAdvance(self._min_text or self.label.text()) + 8
        return QSize(width, self._height)

    def minimumSizeHint(self) -> QSize:
        return QSize(self.width() if self._min_text else 0, self._height)

    def resizeEvent(self, event) -> None:
        self.label.setGeometry(self.rect())
        self._show_text()

    def event(self, event) -> bool:
        # the label's geometry requests end here (no layout); only a new height goes on. A new
        # text keeps the height of a line: the label's size hint (a text layout) is asked for
        # only when its font may have changed (a font or style change, here or on the label)
        kind = event.type()
        if kind in (QEvent.FontChange, QEvent.StyleChange, QEvent.Polish) or \
                (kind == QEvent.LayoutRequest and self.label.font() != self._font):
            self._font = QFont(self.label.font())
            if self.label.sizeHint().height() != self._height or kind == QEvent.FontChange:
                self._fit()
        return super().event(event)


def live_label(parent: QWidget, text: str = "", *, object_name: str = "", min_text: str = "",
               font: QFont | None = None) -> LiveLabel:
    """A :class:`LiveLabel` (``font`` set on it)."""
    label = LiveLabel(parent, text, object_name=object_name, min_text=min_text)
    if font is not None:
        label.setFont(font)
    return label


class FitLabel(LiveLabel):
    """A label that shows its short text when the long one does not fit (narrow docks).

    A :class:`LiveLabel`: a new text every encoding re-lays out nothing. Its layout never squeezes it
    below :data:`MIN_TEXT` (a counter of 0 px shows nothing); narrower than the short text, it shows that
    text's start and "…" (right-aligned, a cut text would lose its start: "!4 tok").
    """

    #: the least room the label keeps (its size hint does not follow each new text: no layout pass)
    MIN_TEXT = "88,888 tok…"

    def __init__(self) -> None:
        super().__init__()
        self._long = self._short = ""
        self.setAlignment(Qt.AlignRight | Qt.AlignVCenter)
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)  # (Ignored would allow 0 px)

    def set_texts(self, long: str, short: str) -> None:
        self._long, self._short = long, short
        self.setToolTip(long)
        self._fit_text()

    def minimumSizeHint(self) -> QSize:
        return QSize(self.label.fontMetrics().horizontalAdvance(self.MIN_TEXT) + 4, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance(self._long) + 8, super().sizeHint().height())

    def resizeEvent(self, e) -> None:
        super().resizeEvent(e)
        self._fit_text()

    def _fit_text(self) -> None:
        fits = self.label.fontMetrics().horizontalAdvance(self._long) <= self.label.contentsRect().width()
        self.setText(self._long if fits or not self._short else self._short)


class _RepaintsWhenMoved:
    """For QAbstractSlider subclasses: ``sliderChange`` (value, range, steps) repaints only when
    the widget would look different (handle rectangle, an end reached, state, pressed, hover)."""

    _control = QStyle.CC_Slider
    _handle = QStyle.SC_SliderHandle

    def _look(self) -> tuple:
        opt = QStyleOptionSlider()
        self.initStyleOption(opt)
        handle = self.style().subControlRect(self._control, opt, self._handle, self)
        # the arrows of a scroll bar grey out at either end
        ends = (opt.sliderValue <= opt.minimum, opt.sliderValue >= opt.maximum)
        return handle, ends, opt.state, opt.activeSubControls, self.isSliderDown(), self.underMouse()

    def sliderChange(self, change) -> None:
        if getattr(self, "_held", False) or self._look() == getattr(self, "_painted", None):
            return  # QAbstractSlider.sliderChange would only repaint
        super().sliderChange(change)

    @contextmanager
    def held(self):
        """Change range and value together: one repaint at the end if the look changed (a new
        range alone would move the handle until the value follows, and repaint for nothing)."""
        self._held = True
        try:
            yield self
        finally:
            self._held = False
            if self._look() != getattr(self, "_painted", None):
                self.update()

    def paintEvent(self, event) -> None:
        self._painted = self._look()
        super().paintEvent(event)


class QuietSlider(_RepaintsWhenMoved, QSlider):
    """A QSlider that repaints only when its handle moves a pixel (a timeline of thousands of
    merges moves it a fraction of a pixel per step; QSlider repaints ~1,400 px each time)."""

    def __init__(self, orientation=Qt.Horizontal, parent: Optional[QWidget] = None) -> None:
        super().__init__(orientation, parent)

    def mousePressEvent(self, event) -> None:
        """A left click on the track jumps to the value under the mouse, and the handle, now there, can be
        dragged on, as media players' timelines do (Qt's default moves one page towards the click: with
        36 merges known, one merge a click)."""
        if event.button() == Qt.LeftButton and self.orientation() == Qt.Horizontal:
            opt = QStyleOptionSlider()
            self.initStyleOption(opt)
            handle = self.style().subControlRect(QStyle.CC_Slider, opt, QStyle.SC_SliderHandle, self)
            pos = event.position().toPoint()
            if not handle.contains(pos):
                groove = self.style().subControlRect(QStyle.CC_Slider, opt, QStyle.SC_SliderGroove, self)
                span = max(1, groove.width() - handle.width())
                x = pos.x() - groove.x() - handle.width() // 2
                self.setValue(QStyle.sliderValueFromPosition(self.minimum(), self.maximum(), x, span, opt.upsideDown))
        super().mousePressEvent(event)


class QuietScrollBar(_RepaintsWhenMoved, QScrollBar):
    """A QScrollBar that repaints only when its handle moves a pixel (a table that grows a row per
    step changes its scroll bar's range and value every step; :meth:`held` changes both at once).

    It fills its own background: Fusion blends the groove over whatever is under it, so a bar
    that does not would repaint every widget under it, up to the main window, each time.
    """

    _control = QStyle.CC_ScrollBar
    _handle = QStyle.SC_ScrollBarSlider

    def __init__(self, orientation=Qt.Vertical, parent: Optional[QWidget] = None) -> None:
        super().__init__(orientation, parent)
        self.setAutoFillBackground(True)


class RowsView(QTableView):
    """A QTableView that repaints only the changed cells it shows.

    QAbstractItemView answers ``dataChanged`` over more than one cell by repainting its whole
    viewport, even when the range is off screen; a step signals the rows it changed (a few on
    screen, hundreds off it). Here a range repaints its rectangle clipped to the viewport. (With
    a screen reader active, Qt's own handling runs: it also tells accessibility clients.)

    Rows added, removed or moved are laid out at once: Qt defers that to a zero timer, which runs after the
    window's repaint of the step, so the new rows would show (and the removed ones go) a pass later.
    """

    def setModel(self, model) -> None:
        super().setModel(model)
        if model is not None:  # after the view's own handlers (connected by setModel)
            for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset, model.layoutChanged):
                signal.connect(self._lay_out_now)

    def _lay_out_now(self, *_) -> None:
        self.executeDelayedItemsLayout()  # nothing when no layout is pending

    def dataChanged(self, top_left: QModelIndex, bottom_right: QModelIndex, roles=()) -> None:
        if top_left == bottom_right or QAccessible.isActive():
            super().dataChanged(top_left, bottom_right, roles)
            return
        viewport = self.viewport()
        top, bottom = top_left.row(), bottom_right.row()
        left, right = top_left.column(), bottom_right.column()
        y0, y1 = self.rowViewportPosition(top), self.rowViewportPosition(bottom) + self.rowHeight(bottom)
        x0 = self.columnViewportPosition(left)
        x1 = self.columnViewportPosition(right) + self.columnWidth(right)
        rect = QRect(x0, y0, x1 - x0, y1 - y0) & viewport.rect()
        if not rect.isEmpty():
            viewport.update(rect)


def prepare_now(view) -> None:
    """Have a pyqtgraph view's boxes update their ranges and transforms now, in the handler that changed
    the chart. pyqtgraph does it when the view paints; what that changes dirties the scene again, and Qt
    repaints the window once more for it (a scene's flush repaints the window at once), so every chart
    changed in a frame cost one or two extra window repaints."""
    view.scene().prepareForPaint()
