"""A wrapping row of token chips that paints only what is visible (the encode pane's view).

Why a custom painted view rather than a ``QTextDocument`` with char formats: a text document
can color spans, but not draw a gap and an outline between two tokens, so two neighbours
whose colors are close would read as one; it also costs one ``QTextCursor.mergeCharFormat``
per token (tens of microseconds each, so 10 KB of text ≈ 2,500 tokens would alone eat the
50 ms budget) and lays out the whole document on every change. :class:`TokenView` lays chips
out in Python with cached text widths (a few ms for 2,500 chips) and paints only the rows in
the viewport, so the cost of a re-render does not depend on how much text is scrolled away.
"""
from __future__ import annotations

import bisect
from itertools import islice
from typing import Callable, List, Optional, Sequence

from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from .chip_colors import ACCENT, PALETTE, chip_indices
from .chips import Chip, ChipMetrics, paint_chip_batch

__all__ = ["TokenView"]


def _same_prefix(old: list, new: list) -> int:
    """How many leading items ``old`` and ``new`` share (compared at C speed: a bisection over slices)."""
    lo, hi = 0, min(len(old), len(new))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


class TokenView(QAbstractScrollArea):
    """A wrapping row of chips; paints only what is visible. Read-only.

    ``breaks[i]`` is the number of line breaks after chip ``i`` (tokens ending in newlines).
    """

    hovered = Signal(int)  # chip index under the mouse, -1 for none
    clicked = Signal(int)  # chip index clicked

    MARGIN = 6
    VGAP = 4
    #: a lazy layout's rows below the viewport are laid out once the view has been still this long (ms)
    REST_MS = 60
    #: colors are worked out at least this many chips at a time
    COLOR_CHUNK = 256

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.viewport().setMouseTracking(True)
        self.viewport().setBackgroundRole(self.viewport().backgroundRole())
        self._chips: List[Chip] = []
        self._breaks: List[int] = []
        self._colors: List[int] = []
        self._xs: List[int] = []
        self._ws: List[int] = []
        self._rows: List[int] = []
        self._row_count = 0
        self._laid_width = -1
        self._hover = -1
        self._highlight: frozenset = frozenset()
        self._flash: frozenset = frozenset()
        self._placeholder = ""
        self.tooltip_provider: Optional[Callable[[int], str]] = None
        self._metrics = ChipMetrics(self.font())
        self._rh = self._metrics.height() + self.VGAP
        self._next = (self.MARGIN, 0)  # where the next chip to lay out goes (x, row), before wrapping
        self._widths: dict = {}  # id(chip) -> width, while a layout is under way
        self._rest = QTimer(self, singleShot=True, interval=self.REST_MS)  # the rows a lazy layout left
        self._rest.timeout.connect(self._lay_out_rest)

    # -- content
    def set_chips(self, chips: Sequence[Chip], breaks: Optional[Sequence[int]] = None, *, lazy: bool = False) -> None:
        """Show ``chips`` (``breaks[i]``: line breaks after chip ``i``). Chips before the first one that
        differs from those shown (the same objects) keep their colors and places: a merge changes the
        chips from its first occurrence on, and the rest is what a step lays out again.

        ``lazy`` (a step): only the rows up to the bottom of the viewport are laid out now, the rest once the
        view has been still for :data:`REST_MS` (or when scrolled to, hovered, asked for): what the step shows
        is exact at once, and the scroll bar's range follows with the rest (2,900 characters: ~110 rows, 10
        on screen). Colors are worked out as chips are painted or asked for."""
        old_chips, old_breaks = self._chips, self._breaks
        self._chips = list(chips)
        self._breaks = list(breaks) if breaks is not None else [0] * len(self._chips)
        keep = min(_same_prefix(old_chips, self._chips), _same_prefix(old_breaks, self._breaks))
        del self._colors[keep:]
        self._hover = -1
        self._highlight = frozenset()
        self._relayout(keep, lazy=lazy)

    def chips(self) -> List[Chip]:
        return list(self._chips)

    def chip_colors(self) -> List[QColor]:
        """The background color each chip is painted with."""
        self._color(len(self._chips))
        return [QColor(PALETTE[k]) for k in self._colors]

    def chip_color(self, i: int) -> QColor:
        """The background color chip ``i`` is painted with (neighbours differ: not only by id)."""
        self._color(i + 1)
        return QColor(PALETTE[self._colors[i]])

    def _color(self, n: int) -> None:
        """Work out the colors of the first ``n`` chips (each goes on from its left neighbour's)."""
        colors = self._colors
        if len(colors) < n:
            n = min(len(self._chips), max(n, len(colors) + self.COLOR_CHUNK))
            ids = [c.token_id for c in self._chips[len(colors):n]]
            colors += chip_indices(ids, after=colors[-1] if colors else None)

    def flash_ids(self) -> frozenset:
        """The token ids whose chips are outlined now (:meth:`set_flash_ids`)."""
        return self._flash

    def placeholder(self) -> str:
        """What the view says while it has no chips."""
        return self._placeholder

    def metrics(self) -> ChipMetrics:
        """The chip sizes and fonts the view lays out and paints with."""
        return self._metrics

    def warm(self, chips: Sequence[Chip], flash_ids) -> None:
        """Make the chip pixmaps a repaint of ``chips`` (the next merge's, about as far down as the view shows now)
        with ``flash_ids`` outlined would blit, painting them offscreen while the user reads this merge: its step
        then only blits (a new token's chips: ~0.2 ms each on the step otherwise)."""
        if not chips or not self._rows:
            return
        rh, m = self._rh, self._metrics
        top = self.verticalScrollBar().value() - self.MARGIN
        lo = bisect.bisect_left(self._rows, max(0, top // rh))
        hi = min(len(chips), bisect.bisect_right(self._rows, (top + self.viewport().height()) // rh) + 40)
        lo = min(max(0, lo - 40), hi)
        span, marked = self._laid_width - 2 * self.MARGIN, self._highlight | frozenset(flash_ids)
        colors = chip_indices([c.token_id for c in chips[:hi]])
        shown = chips[lo:hi]
        dpr = self.viewport().devicePixelRatioF()
        image = QImage(max(1, int(span * dpr)), max(1, int(rh * dpr)), QImage.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(dpr)
        painter = QPainter(image)
        paint_chip_batch(painter, [(0, 0, min(m.width(c), span), rh - self.VGAP) for c in shown], shown, colors[lo:hi],
                         m, [c.token_id in marked for c in shown])
        painter.end()

    def set_placeholder(self, text: str) -> None:
        self._placeholder = text
        self.viewport().update()

    def set_flash_ids(self, ids, *, repaint: bool = True) -> None:
        """Outline the chips of these ids; repaints only if a chip shown has one (a merge's
        new token is rarely in the text until the pane has re-encoded). ``repaint=False``: new
        chips are on their way (:meth:`set_chips` paints the outlines with them)."""
        ids = frozenset(ids)
        changed, self._flash = ids ^ self._flash, ids
        if repaint and changed and any(c.token_id in changed for c in self._chips):
            self.viewport().update()

    def set_highlight_ids(self, ids) -> None:
        self._highlight = frozenset(ids)
        self.viewport().update()

    # -- geometry
    def _row_h(self) -> int:
        return self._rh

    def _update_row_h(self) -> None:
        self._rh = self._metrics.height(any(c.sub for c in self._chips[:1])) + self.VGAP

    def _relayout(self, keep: int = 0, *, lazy: bool = False) -> None:
        """Place the chips; ``keep``: the chips before it are those laid out last time (at this width and
        font), so their rows stand and the layout goes on from the row of the last of them. ``lazy``: the
        rows below the viewport later (:meth:`set_chips`)."""
        rh = self._rh
        self._update_row_h()
        width = max(50, self.viewport().width())
        start, row = 0, 0
        keep = min(keep, len(self._rows))
        if keep and width == self._laid_width and rh == self._rh:
            row = self._rows[keep - 1]
            start = bisect.bisect_left(self._rows, row)  # that row's first chip starts it at the margin
        del self._xs[start:], self._ws[start:], self._rows[start:]
        self._next, self._widths, self._laid_width = (self.MARGIN, row), {}, width
        if lazy:
            self._lay_out(last_row=(self.verticalScrollBar().value() + self.viewport().height()) // self._rh)
        else:
            self._lay_out()
        if len(self._rows) < len(self._chips):
            self._rest.start()
        else:
            self._rest.stop()
        self._update_scrollbar()
        self.viewport().update()

    def _lay_out(self, last_row: Optional[int] = None, upto: Optional[int] = None) -> None:
        """Place chips from the first not placed yet: all, or up to chip ``upto``, or while on rows up to
        ``last_row``."""
        i, n = len(self._rows), len(self._chips)
        end = n if upto is None else min(n, upto)
        if i >= end:
            return
        m = self._metrics
        left, right = self.MARGIN, self._laid_width - self.MARGIN
        xs, ws, rows = self._xs, self._ws, self._rows
        add_x, add_w, add_row = xs.append, ws.append, rows.append
        x, row = self._next
        gap, widths, chip_w, span = m.GAP, self._widths, m.width, right - left
        for chip, nl in zip(islice(self._chips, i, end), islice(self._breaks, i, end)):
            w = widths.get(id(chip))  # chips repeat (the pane shares one Chip per token id)
            if w is None:
                w = widths[id(chip)] = min(chip_w(chip), span)
            wrap = x + w > right and x > left
            if last_row is not None and row + wrap > last_row:
                break
            if wrap:
                row += 1
                x = left
            add_x(x)
            add_w(w)
            add_row(row)
            x += w + gap
            if nl:
                row += nl
                x = left
        self._next = (x, row)
        if len(rows) == n:
            self._row_count = (rows[-1] + 1 + self._breaks[-1]) if rows else 0
            self._widths = {}

    def _lay_out_rest(self) -> None:
        self._lay_out()
        self._update_scrollbar()

    def _update_scrollbar(self) -> None:
        if len(self._rows) < len(self._chips):  # the rest is laid out later: the range stays until then
            self._row_count = max(self._row_count, self._next[1] + 1)
        elif not self._chips:
            self._row_count = 0
        total = self._row_count * self._row_h() + 2 * self.MARGIN
        sb = self.verticalScrollBar()
        sb.setPageStep(self.viewport().height())
        sb.setSingleStep(self._row_h())
        sb.setRange(0, max(0, total - self.viewport().height()))

    def chip_rect(self, i: int) -> QRectF:
        """Chip ``i``'s rectangle in viewport coordinates."""
        self._lay_out(upto=i + 1)
        rh = self._row_h()
        y = self.MARGIN + self._rows[i] * rh - self.verticalScrollBar().value()
        return QRectF(self._xs[i], y, self._ws[i], rh - self.VGAP)

    def chip_at(self, pos: QPoint) -> int:
        """Index of the chip at a viewport position, or -1."""
        if not self._chips:
            return -1
        rh = self._row_h()
        y = pos.y() + self.verticalScrollBar().value() - self.MARGIN
        if y < 0 or y % rh >= rh - self.VGAP:
            return -1
        row = int(y // rh)
        self._lay_out(last_row=row)
        lo, hi = bisect.bisect_left(self._rows, row), bisect.bisect_right(self._rows, row)
        i = bisect.bisect_right(self._xs, pos.x(), lo, hi) - 1
        if lo <= i < hi and pos.x() < self._xs[i] + self._ws[i]:
            return i
        return -1

    def sizeHint(self) -> QSize:
        return QSize(600, 200)

    # -- events
    def resizeEvent(self, e) -> None:
        super().resizeEvent(e)
        if self.viewport().width() != self._laid_width:
            self._relayout()
        else:
            self._update_scrollbar()

    def changeEvent(self, e) -> None:
        super().changeEvent(e)
        if e.type() == QEvent.FontChange:
            self._metrics = ChipMetrics(self.font())
            self._relayout()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()

    def paintEvent(self, e) -> None:
        p = QPainter(self.viewport())
        p.fillRect(self.viewport().rect(), self.palette().base())
        if not self._chips:
            if self._placeholder:
                p.setPen(self.palette().placeholderText().color())
                p.drawText(self.viewport().rect().adjusted(8, 8, -8, -8), Qt.AlignLeft | Qt.TextWordWrap,
                           self._placeholder)
            return
        p.setRenderHint(QPainter.Antialiasing, True)
        rh = self._row_h()
        top = self.verticalScrollBar().value() - self.MARGIN
        exposed = e.rect()
        r0 = max(0, (top + exposed.top()) // rh)
        r1 = (top + exposed.bottom()) // rh
        self._lay_out(last_row=r1)
        lo, hi = bisect.bisect_left(self._rows, r0), bisect.bisect_right(self._rows, r1)
        hover_id = self._chips[self._hover].token_id if self._hover >= 0 else None
        marked = self._highlight | self._flash | ({hover_id} if hover_id is not None else set())
        chips = self._chips[lo:hi]
        y0, h = self.MARGIN - self.verticalScrollBar().value(), rh - self.VGAP
        xs, ws, rows = self._xs, self._ws, self._rows
        boxes = [(xs[i], y0 + rows[i] * rh, ws[i], h) for i in range(lo, hi)]
        hl = [c.token_id in marked for c in chips] if marked else None
        self._color(hi)
        paint_chip_batch(p, boxes, chips, self._colors[lo:hi], self._metrics, hl)
        if self._hover >= 0:  # the hovered chip itself: a thicker outline
            p.setPen(ACCENT)
            p.setBrush(Qt.NoBrush)
            p.drawRoundedRect(self.chip_rect(self._hover).adjusted(-1.5, -1.5, 1.5, 1.5), 5, 5)

    def mouseMoveEvent(self, e) -> None:
        self.set_hover(self.chip_at(e.position().toPoint()))

    def mousePressEvent(self, e) -> None:
        i = self.chip_at(e.position().toPoint())
        if i >= 0 and e.button() == Qt.LeftButton:
            self.clicked.emit(i)
        super().mousePressEvent(e)

    def leaveEvent(self, e) -> None:
        self.set_hover(-1)
        super().leaveEvent(e)

    def set_hover(self, i: int) -> None:
        """Hover chip ``i`` (-1: none), as the mouse does: repaint and emit ``hovered``."""
        if i != self._hover:
            self._hover = i
            self.viewport().update()
            self.hovered.emit(i)

    def tooltip_at(self, pos: QPoint) -> str:
        i = self.chip_at(pos)
        if i < 0:
            return ""
        chip = self._chips[i]
        if chip.tooltip:
            return chip.tooltip
        return self.tooltip_provider(i) if self.tooltip_provider else ""

    def viewportEvent(self, e) -> bool:
        if e.type() == QEvent.ToolTip:
            tip = self.tooltip_at(e.pos())
            if tip:
                QToolTip.showText(e.globalPos(), tip, self.viewport())
            else:
                QToolTip.hideText()
                e.ignore()
            return True
        return super().viewportEvent(e)
