"""Tokens as chips: laying out and painting rows of rounded, colored chips.

Every view that shows tokens (words pane, encode pane, inspector, merge tree, presenter) draws
them with these helpers so a token looks the same everywhere. Colors come from
:mod:`.chip_colors`, texts from :mod:`.chip_text`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen, QPixmap, QStaticText

from .chip_colors import ACCENT, PALETTE, TEXT_COLOR, chip_indices
from .chip_text import UNKNOWN_LABEL, TextMode, chip_text, readable_text, token_tooltip, unknown_tooltip

__all__ = ["Chip", "UNKNOWN_FILL", "UNKNOWN_OUTLINE", "ChipMetrics", "model_chip", "model_chips", "paint_chip", "paint_chip_batch", "layout_chips",
           "paint_chips", "chips_size_hint"]

# --------------------------------------------------------------------------- chips
@dataclass(frozen=True)
class Chip:
    """One chip: what it reads, whose color it wears, and how it is marked.

    ``sub`` is a second, smaller line under the text (the encode pane puts ids there).
    ``unknown``: a symbol the vocabulary has no token for (id -1, kept by the seed presets); it
    reads as the character itself on a white chip with a dotted dark-red outline, never as a
    vocabulary token (``tokens[-1]`` would be the newest one).
    """

    text: str
    token_id: int
    tooltip: Optional[str] = None
    flash: bool = False
    partial: bool = False
    special: bool = False
    sub: Optional[str] = None
    unknown: bool = False


#: the look of a chip whose symbol is not in the vocabulary (:attr:`Chip.unknown`)
UNKNOWN_FILL = QColor("#FFFFFF")
UNKNOWN_OUTLINE = QColor("#B00020")


def model_chip(model, token_id: int, *, mode: TextMode = "glyphs", whitespace: bool = True,
               show_id: bool = False, tooltip: bool = False, flash: bool = False) -> Chip:
    """A chip for one token of a :class:`~bpe_core.model.BPEModel`."""
    if token_id < 0:  # a symbol without a token: its id names nothing in ``tokens`` (no [-1])
        return Chip(UNKNOWN_LABEL, token_id, unknown_tooltip(None) if tooltip else None, unknown=True)
    raw = model.tokens[token_id]
    if raw is None:
        text, partial = f"<{token_id}>", False
    else:
        text, partial = chip_text(raw, mode=mode, whitespace=whitespace)
    return Chip(text, token_id, token_tooltip(model, token_id) if tooltip else None, flash, partial,
                token_id in model.special_ids, str(token_id) if show_id else None)


def model_chips(model, ids: Iterable[int], **kw) -> List[Chip]:
    """Chips for a token-id sequence (a word's segmentation, an encoding)."""
    return [model_chip(model, i, **kw) for i in ids]


class ChipMetrics:
    """Sizes of chips for one font (text widths cached: the same token recurs a lot)."""

    PAD_X = 4
    PAD_Y = 2
    GAP = 3
    RADIUS = 4.0
    MIN_W = 10
    #: chip pixmaps kept for :func:`paint_chip_batch` (a few MB at most)
    PIXMAP_CACHE_SIZE = 4000

    def __init__(self, font: QFont) -> None:
        self.font = QFont(font)
        self.sub_font = QFont(font)
        size = font.pointSizeF()
        if size > 0:
            self.sub_font.setPointSizeF(max(6.0, size * 0.72))
        else:
            self.sub_font.setPixelSize(max(8, int(font.pixelSize() * 0.72)))
        self.fm = QFontMetrics(self.font)
        self.sub_fm = QFontMetrics(self.sub_font)
        self._w: Dict[str, int] = {}
        self._sw: Dict[str, int] = {}
        self._readable: Dict[str, str] = {}
        self.pixmaps: Dict[tuple, QPixmap] = {}
        self._ellipsis: Optional[QStaticText] = None

    def shown(self, text: str) -> str:
        """The text actually drawn (characters without a font spelled out)."""
        r = self._readable.get(text)
        if r is None:
            r = self._readable[text] = readable_text(text, self.font)
        return r

    def text_width(self, text: str) -> int:
        w = self._w.get(text)
        if w is None:
            w = self._w[text] = self.fm.horizontalAdvance(self.shown(text))
        return w

    def sub_width(self, text: str) -> int:
        w = self._sw.get(text)
        if w is None:
            w = self._sw[text] = self.sub_fm.horizontalAdvance(text)
        return w

    def width(self, chip: Chip) -> int:
        w = self.text_width(chip.text)
        if chip.sub:
            w = max(w, self.sub_width(chip.sub))
        return max(self.MIN_W, w + 2 * self.PAD_X)

    def ellipsis_width(self) -> int:
        """Room for the ``…`` after a row's last whole chip."""
        return self.text_width("…") + 2

    def ellipsis(self) -> QStaticText:
        """The ``…``, laid out once (drawn in the painter's pen)."""
        if self._ellipsis is None:
            self._ellipsis = QStaticText("…")
            self._ellipsis.prepare(font=self.font)
        return self._ellipsis

    def height(self, with_sub: bool = False) -> int:
        h = self.fm.height() + 2 * self.PAD_Y
        if with_sub:
            h += self.sub_fm.height()
        return h


def paint_chip(painter: QPainter, rect: QRectF, chip: Chip, color: QColor, metrics: ChipMetrics,
               *, highlight: bool = False) -> None:
    """Paint one chip into ``rect`` (the caller has laid it out)."""
    outline = QColor(color).darker(150)
    if chip.unknown:
        color = UNKNOWN_FILL
        pen = QPen(UNKNOWN_OUTLINE, 1.6, Qt.DotLine)
    elif chip.partial:
        pen = QPen(QColor("#333333"), 1.2, Qt.DashLine)
    elif chip.special:
        pen = QPen(QColor("#333333"), 2.0)
    else:
        pen = QPen(outline, 1.0)
    if highlight or chip.flash:
        pen = QPen(ACCENT, 2.5, pen.style())
    painter.setPen(pen)
    painter.setBrush(color)
    r = rect.adjusted(0.5, 0.5, -0.5, -0.5)
    painter.drawRoundedRect(r, metrics.RADIUS, metrics.RADIUS)
    painter.setPen(TEXT_COLOR)
    painter.setFont(metrics.font)
    text_h = metrics.fm.height()
    text_rect = QRectF(rect.x() + metrics.PAD_X, rect.y() + metrics.PAD_Y,
                       rect.width() - 2 * metrics.PAD_X, text_h)
    text = metrics.shown(chip.text)
    if metrics.text_width(chip.text) > text_rect.width() + 0.5:
        text = metrics.fm.elidedText(text, Qt.ElideRight, int(text_rect.width()))
    painter.drawText(text_rect, Qt.AlignLeft | Qt.AlignVCenter | Qt.TextDontClip, text)
    if chip.sub:
        painter.setFont(metrics.sub_font)
        painter.setPen(QColor("#333333"))
        sub_rect = QRectF(rect.x() + metrics.PAD_X, text_rect.bottom(),
                          rect.width() - 2 * metrics.PAD_X, metrics.sub_fm.height())
        painter.drawText(sub_rect, Qt.AlignLeft | Qt.AlignVCenter, chip.sub)


def paint_chip_batch(painter: QPainter, boxes: Sequence[Tuple[float, float, float, float]], chips: Sequence[Chip],
                     color_indices: Sequence[int], metrics: ChipMetrics,
                     highlighted: Optional[Sequence[bool]] = None) -> None:
    """Paint many laid-out chips at once; each looks exactly like :func:`paint_chip`. ``boxes``: each
    chip's ``(x, y, width, height)``.

    Fast path for views with thousands of chips: every distinct chip (text, color, size,
    marks) is painted once into a pixmap kept in ``metrics`` and then blitted. Antialiased
    rounded rectangles cost ~25 µs each, a blit ~0.6 µs at whole-pixel places (plain tuples, not
    QRectF: each call on a Qt object from Python costs ~0.3 µs, and a repaint blits hundreds).
    """
    m = metrics
    dpr = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
    cache = m.pixmaps
    if len(cache) > m.PIXMAP_CACHE_SIZE:
        cache.clear()
    draw = painter.drawPixmap
    get = cache.get
    for i, ((x, y, w, h), chip, k) in enumerate(zip(boxes, chips, color_indices)):
        hl = chip.flash or (highlighted is not None and highlighted[i])
        w, h = int(w), int(h)
        key = (chip.text, chip.sub, chip.partial, chip.special, chip.unknown, hl, k, w, h, dpr)
        pm = get(key)
        if pm is None:
            pm = cache[key] = _chip_pixmap(chip, k, w, h, m, hl, dpr)
        if type(x) is int and type(y) is int:
            draw(x, y, pm)
        else:
            draw(QPointF(x, y), pm)


def _chip_pixmap(chip: Chip, k: int, w: int, h: int, m: ChipMetrics, highlight: bool, dpr: float) -> QPixmap:
    pm = QPixmap(max(1, int(w * dpr + 0.999)), max(1, int(h * dpr + 0.999)))
    pm.setDevicePixelRatio(dpr)
    pm.fill(Qt.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.Antialiasing, True)
    paint_chip(p, QRectF(0, 0, w, h), chip, PALETTE[k], m, highlight=highlight)
    p.end()
    return pm


def layout_chips(rect: QRect, chips: Sequence[Chip], metrics: ChipMetrics) -> Tuple[List[QRectF], bool]:
    """Where :func:`paint_chips` puts ``chips`` in one row of ``rect``, left to right, vertically
    centred: whole chips only, as many as fit with room for an ellipsis after them if some are left
    out; a first chip wider than ``rect`` is narrowed (its text elided). Returns the rectangles
    (one per chip shown, in order) and whether chips were left out.

    Whole chips keep the row honest (a cut ``[Ġpl`` would read as another token) and let every
    chip come from :func:`paint_chip_batch`'s pixmap cache.
    """
    m = metrics
    h = min(m.height(any(c.sub for c in chips)), rect.height())
    y = rect.y() + (rect.height() - h) / 2
    x, right = float(rect.x()), rect.x() + rect.width()
    rects: List[QRectF] = []
    for chip in chips:
        w = m.width(chip)
        if x + w > right:
            if not rects:  # not even the first chip fits: narrow it
                rects.append(QRectF(x, y, max(right - x, 1), h))
                return rects, len(chips) > 1
            room = right - m.ellipsis_width()
            while rects and rects[-1].right() > room:
                rects.pop()  # make room for the ellipsis
            return rects, True
        rects.append(QRectF(x, y, w, h))
        x += w + m.GAP
    return rects, False


def paint_chips(painter: QPainter, rect: QRect, chips: Sequence[Chip], font: Optional[QFont] = None, *,
                highlight_ids: Iterable[int] = (), metrics: Optional[ChipMetrics] = None) -> int:
    """Paint ``chips`` in one row of ``rect`` (laid out by :func:`layout_chips`); ``…`` in the
    painter's pen says some did not fit. Returns the width used (for item delegates).

    Colors come from :func:`chip_indices` over the whole row, so neighbours always differ; chips
    come from :func:`paint_chip_batch`'s pixmaps (a repaint blits, ~1 µs a chip).
    """
    m = metrics or ChipMetrics(font)
    rects, cut = layout_chips(rect, chips, m)
    shown = chips[: len(rects)]
    hi = highlight_ids if isinstance(highlight_ids, (set, frozenset)) else set(highlight_ids)
    flags = [c.token_id in hi for c in shown] if hi else None
    boxes = [(r.x(), r.y(), r.width(), r.height()) for r in rects]
    paint_chip_batch(painter, boxes, shown, chip_indices(c.token_id for c in chips)[: len(rects)], m, flags)
    x = rects[-1].right() + m.GAP if rects else float(rect.x())
    if cut and rects and x + m.ellipsis_width() <= rect.x() + rect.width():
        painter.setFont(m.font)
        dots = m.ellipsis()
        size = dots.size()
        painter.drawStaticText(QPointF(x + (m.ellipsis_width() - size.width()) / 2,
                                       rect.y() + (rect.height() - size.height()) / 2), dots)
        x += m.ellipsis_width() + m.GAP
    used = x - rect.x() - (m.GAP if rects else 0)
    return int(min(max(used, 0), rect.width()))


def chips_size_hint(chips: Sequence[Chip], font: QFont, *, metrics: Optional[ChipMetrics] = None) -> QSize:
    """Size of a row of ``chips`` as :func:`paint_chips` draws it (plus 1px margins)."""
    m = metrics or ChipMetrics(font)
    if not chips:
        return QSize(0, m.height())
    w = sum(m.width(c) for c in chips) + m.GAP * (len(chips) - 1)
    return QSize(w + 2, m.height(any(c.sub for c in chips)) + 2)

