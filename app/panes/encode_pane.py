"""Encode pane: type text, see it as tokens — re-encoded as you type.

Layout: a toolbar (toggles ``ids``, ``whitespace``, ``glyphs``, ``hex`` and the token count /
chars-per-token label), a :class:`QPlainTextEdit` for the input, and a :class:`TokenView` that
shows the encoding as colored chips (``bpe_lens_app.chips``: stable color per id, neighbours always differ).
Hovering a chip highlights every chip of the same id and the token's span in the input, and its
tooltip gives id, merge rank and bytes.

Why a custom painted view rather than a ``QTextDocument`` with char formats: a text document
can color spans, but not draw a gap and an outline between two tokens, so two neighbours
whose colors are close would read as one; it also costs one ``QTextCursor.mergeCharFormat``
per token (tens of microseconds each, so 10 KB of text ≈ 2,500 tokens would alone eat the
50 ms budget) and lays out the whole document on every change. :class:`TokenView` lays chips
out in Python with cached text widths (a few ms for 2,500 chips) and paints only the rows in
the viewport, so the cost of a re-render does not depend on how much text is scrolled away.

The session drives it: ``follow(session.model)`` when the timeline moves (re-encoded in the same
frame while that is cheap, else at most every 40 ms), ``set_model(model, merges_limit)`` when a
vocabulary is loaded; ``flash_ids(ids)`` when a merge fires. Typing re-encodes 40 ms after the
last keystroke.
"""
from __future__ import annotations

import bisect
import time
from typing import Callable, List, Optional, Sequence

from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractScrollArea, QApplication, QHBoxLayout, QLabel, QPlainTextEdit,
    QSplitter, QTextEdit, QToolButton, QToolTip, QVBoxLayout, QWidget,
)

from bpe_lens_app.chips import ACCENT, PALETTE, Chip, ChipMetrics, chip_indices, chip_text, paint_chip_batch, token_tooltip
from bpe_lens_app.widgets import LiveLabel
from bpe_core.encoding.encoder import Encoder
from bpe_core.model import BPEModel
from bpe_core.types import EncodedToken, Encoding

__all__ = ["EncodePane", "TokenView", "make_encoder", "render_encode_pane_demo", "demo_byte_model", "DEMO_TEXT"]

DEBOUNCE_MS = 40
#: a new vocabulary is encoded in the same frame when the last encoding took at most this long
SAME_FRAME_MS = 4.0
_PER_SPAN = object()
#: longer input is encoded only up to here (the rest would cost seconds on the GUI thread)
MAX_CHARS = 200_000


# --------------------------------------------------------------------------- encoder
def make_encoder(model: BPEModel, merges_limit: Optional[int] = None) -> Encoder:
    """The encoder the pane uses (only the first ``merges_limit`` merges when given)."""
    return Encoder(model, merges_limit=merges_limit)


# --------------------------------------------------------------------------- view
class TokenView(QAbstractScrollArea):
    """A wrapping row of chips; paints only what is visible. Read-only.

    ``breaks[i]`` is the number of line breaks after chip ``i`` (tokens ending in newlines).
    """

    hovered = Signal(int)  # chip index under the mouse, -1 for none

    MARGIN = 6
    VGAP = 4

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.viewport().setMouseTracking(True)
        self.viewport().setBackgroundRole(self.viewport().backgroundRole())
        self._chips: List[Chip] = []
        self._breaks: List[int] = []
        self._colors: List[int] = []
        self._xs: List[float] = []
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

    # -- content
    def set_chips(self, chips: Sequence[Chip], breaks: Optional[Sequence[int]] = None) -> None:
        self._chips = list(chips)
        self._breaks = list(breaks) if breaks is not None else [0] * len(self._chips)
        self._colors = chip_indices(c.token_id for c in self._chips)
        self._hover = -1
        self._highlight = frozenset()
        self._relayout()

    def chips(self) -> List[Chip]:
        return list(self._chips)

    def chip_colors(self) -> List[QColor]:
        """The background color each chip is painted with."""
        return [QColor(PALETTE[k]) for k in self._colors]

    def set_placeholder(self, text: str) -> None:
        self._placeholder = text
        self.viewport().update()

    def set_flash_ids(self, ids) -> None:
        """Outline the chips of these ids; repaints only if a chip shown has one (a merge's
        new token is rarely in the text until the pane has re-encoded)."""
        ids = frozenset(ids)
        changed, self._flash = ids ^ self._flash, ids
        if changed and any(c.token_id in changed for c in self._chips):
            self.viewport().update()

    def set_highlight_ids(self, ids) -> None:
        self._highlight = frozenset(ids)
        self.viewport().update()

    # -- geometry
    def _row_h(self) -> int:
        return self._rh

    def _update_row_h(self) -> None:
        self._rh = self._metrics.height(any(c.sub for c in self._chips[:1])) + self.VGAP

    def _relayout(self) -> None:
        m = self._metrics
        self._update_row_h()
        width = max(50, self.viewport().width())
        left, right = self.MARGIN, width - self.MARGIN
        xs: List[float] = []
        ws: List[int] = []
        rows: List[int] = []
        add_x, add_w, add_row = xs.append, ws.append, rows.append
        x, row = left, 0
        gap = m.GAP
        widths: dict = {}
        chip_w = m.width
        span = right - left
        for chip, nl in zip(self._chips, self._breaks):
            w = widths.get(id(chip))  # chips repeat (the pane shares one Chip per token id)
            if w is None:
                w = widths[id(chip)] = min(chip_w(chip), span)
            if x + w > right and x > left:
                row += 1
                x = left
            add_x(x)
            add_w(w)
            add_row(row)
            x += w + gap
            if nl:
                row += nl
                x = left
        self._xs, self._ws, self._rows = xs, ws, rows
        self._row_count = (rows[-1] + 1 + (self._breaks[-1] if self._breaks else 0)) if rows else 0
        self._laid_width = width
        self._update_scrollbar()
        self.viewport().update()

    def _update_scrollbar(self) -> None:
        total = self._row_count * self._row_h() + 2 * self.MARGIN
        sb = self.verticalScrollBar()
        sb.setPageStep(self.viewport().height())
        sb.setSingleStep(self._row_h())
        sb.setRange(0, max(0, total - self.viewport().height()))

    def chip_rect(self, i: int) -> QRectF:
        """Chip ``i``'s rectangle in viewport coordinates."""
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
        lo, hi = bisect.bisect_left(self._rows, r0), bisect.bisect_right(self._rows, r1)
        hover_id = self._chips[self._hover].token_id if self._hover >= 0 else None
        marked = self._highlight | self._flash | ({hover_id} if hover_id is not None else set())
        chips = self._chips[lo:hi]
        y0, h = self.MARGIN - self.verticalScrollBar().value(), rh - self.VGAP
        xs, ws, rows = self._xs, self._ws, self._rows
        rects = [QRectF(xs[i], y0 + rows[i] * rh, ws[i], h) for i in range(lo, hi)]
        hl = [c.token_id in marked for c in chips] if marked else None
        paint_chip_batch(p, rects, chips, self._colors[lo:hi], self._metrics, hl)
        if self._hover >= 0:  # the hovered chip itself: a thicker outline
            p.setPen(ACCENT)
            p.setBrush(Qt.NoBrush)
            p.drawRoundedRect(self.chip_rect(self._hover).adjusted(-1.5, -1.5, 1.5, 1.5), 5, 5)

    def mouseMoveEvent(self, e) -> None:
        self._set_hover(self.chip_at(e.position().toPoint()))

    def leaveEvent(self, e) -> None:
        self._set_hover(-1)
        super().leaveEvent(e)

    def _set_hover(self, i: int) -> None:
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


# --------------------------------------------------------------------------- pane
class _FitLabel(LiveLabel):
    """A label that shows its short text when the long one does not fit (narrow docks).

    A :class:`~bpe_lens_app.theme.LiveLabel`: a new text every encoding re-lays out nothing.
    """

    def __init__(self) -> None:
        super().__init__()
        self._long = self._short = ""
        self.setAlignment(Qt.AlignRight | Qt.AlignVCenter)

    def set_texts(self, long: str, short: str) -> None:
        self._long, self._short = long, short
        self.setToolTip(long)
        self._fit_text()

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance(self._short) + 4, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance(self._long) + 8, super().sizeHint().height())

    def resizeEvent(self, e) -> None:
        super().resizeEvent(e)
        self._fit_text()

    def _fit_text(self) -> None:
        fits = self.fontMetrics().horizontalAdvance(self._long) <= self.width()
        self.setText(self._long if fits or not self._short else self._short)


def _toggle(text: str, tip: str, checked: bool = False) -> QToolButton:
    b = QToolButton()
    b.setText(text)
    b.setToolTip(tip)
    b.setCheckable(True)
    b.setChecked(checked)
    b.setToolButtonStyle(Qt.ToolButtonTextOnly)
    return b


class EncodePane(QWidget):
    """Editable text above its encoding as chips. See the module docstring."""

    #: emitted after each (re-)encoding with the new :class:`Encoding` (or None)
    encoding_changed = Signal(object)

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._model: Optional[BPEModel] = None
        self._source: Optional[Callable[[], Optional[BPEModel]]] = None
        self._encode_ms = 0.0  # how long the last encoding took (model, encoder, chips)
        self._merges_limit: Optional[int] = None
        self._encoder = None
        self._encoding: Optional[Encoding] = None
        self._text = ""
        self._truncated = False
        self._error = ""
        self._chip_style: tuple = ()
        self._chip_model: object = None  # what the chip cache is for: a model, or a followed trainer
        self._chip_owner: object = None
        self._following = False
        self._chip_cache: dict = {}

        self.ids_toggle = _toggle("ids", "Show each token's id under it")
        self.whitespace_toggle = _toggle("whitespace", "Show space as ·, newline as ↵, tab as →", True)
        self.glyphs_toggle = _toggle("glyphs", "Byte-level tokens as GPT-2 glyphs (Ġ = space)")
        self.hex_toggle = _toggle("hex", "Byte-level tokens as their bytes in hex")
        self.stats_label = _FitLabel()
        self.editor = QPlainTextEdit()
        self.editor.setPlaceholderText("Type or paste text to encode…")
        self.view = TokenView()
        self.view.tooltip_provider = self._tooltip
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._flash_timer = QTimer(self, singleShot=True)
        self._build_layout()

        self._timer.timeout.connect(self._encode_now)
        self._flash_timer.timeout.connect(lambda: self.view.set_flash_ids(()))
        self.editor.textChanged.connect(self._on_editor_text_changed)
        self.view.hovered.connect(self._on_view_hovered)
        for b in (self.ids_toggle, self.whitespace_toggle):
            b.toggled.connect(self._render)
        self.glyphs_toggle.toggled.connect(lambda on: self._exclusive(self.hex_toggle, on))
        self.hex_toggle.toggled.connect(lambda on: self._exclusive(self.glyphs_toggle, on))
        self._update_enabled()
        self._render()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>Encode</b>")
        bar.addWidget(title)
        for b in (self.ids_toggle, self.whitespace_toggle, self.glyphs_toggle, self.hex_toggle):
            bar.addWidget(b)
        bar.addWidget(self.stats_label, 1)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.editor)
        split.addWidget(self.view)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 2)
        split.setSizes([100, 200])
        split.setChildrenCollapsible(False)
        self.editor.setMinimumHeight(3 * self.editor.fontMetrics().height())
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(split, 1)

    # -- public API
    def set_model(self, model: Optional[BPEModel], merges_limit: Optional[int] = None) -> None:
        """Encode with ``model`` (only its first ``merges_limit`` merges when given)."""
        self._source = None
        self._following = False
        self._model = model
        self._merges_limit = merges_limit
        self._encoder = None
        self._update_enabled()
        self._schedule()

    def follow(self, source: Callable[[], Optional[BPEModel]], *, same_ids: bool = False) -> None:
        """Encode with the model ``source()`` returns (a trainer's vocabulary, which changes with
        every merge), asked for when the pane encodes.

        When the last encoding took at most :data:`SAME_FRAME_MS`, the pane re-encodes at once, so
        a step's frame shows it; else (long text, a vocabulary of thousands of merges: the
        encoder is rebuilt per model) at most every :data:`DEBOUNCE_MS`, however fast the steps
        come (a pending re-encode is not pushed back, so holding → still shows progress).
        ``same_ids``: the new model gives every id the previous one had the same token (a
        trainer's next merge), so the chips already made are kept.
        """
        if not (same_ids and self._following):
            self._chip_owner = object()  # another vocabulary: chips are made again
        self._following = True
        self._source = source
        self._merges_limit = None
        self._encoder = None
        if self._encode_ms <= SAME_FRAME_MS:
            self.encode_now()
        elif not self._timer.isActive():
            self._timer.start()

    def set_merges_limit(self, merges_limit: Optional[int]) -> None:
        self.set_model(self.model(), merges_limit)

    def model(self) -> Optional[BPEModel]:
        if self._source is not None:
            self._model, self._source = self._source(), None
            self._update_enabled()
        return self._model

    def set_text(self, text: str) -> None:
        self.editor.setPlainText(text)

    def text(self) -> str:
        return self.editor.toPlainText()

    def encoding(self) -> Optional[Encoding]:
        return self._encoding

    def displayed_texts(self) -> List[str]:
        """What the chips read, in order (for tests and screenshots)."""
        return [c.text for c in self.view.chips()]

    def flash_ids(self, ids, ms: int = 300) -> None:
        """Outline every chip of these token ids for ``ms`` (the merge that just fired)."""
        self.view.set_flash_ids(ids)
        self._flash_timer.start(ms)

    def encode_now(self) -> None:
        """Encode immediately (skipping the debounce)."""
        self._timer.stop()
        self._encode_now()

    # -- slots
    def _on_editor_text_changed(self) -> None:
        self._schedule()

    def _schedule(self) -> None:
        self._timer.start()

    def _exclusive(self, other: QToolButton, on: bool) -> None:
        if on and other.isChecked():
            other.blockSignals(True)
            other.setChecked(False)
            other.blockSignals(False)
        self._render()

    def _update_enabled(self) -> None:
        byte_level = self._model is not None and self._model.unit == "bytes"
        for b in (self.glyphs_toggle, self.hex_toggle):
            b.setEnabled(byte_level)

    def _encode_now(self) -> None:
        start = time.perf_counter()
        text = self.editor.toPlainText()
        self._truncated = len(text) > MAX_CHARS
        self._text = text[:MAX_CHARS]
        self._error = ""
        self._encoding = None
        if self._text and self.model() is not None:
            try:
                if self._encoder is None:
                    self._encoder = make_encoder(self._model, self._merges_limit)
                self._encoding = self._encoder.encode(self._text)
            except Exception as exc:  # a user-facing message beats a dead pane
                self._error = str(exc) or type(exc).__name__
        self._render()
        self._encode_ms = (time.perf_counter() - start) * 1000
        self.encoding_changed.emit(self._encoding)

    def _mode(self) -> str:
        if self.hex_toggle.isChecked():
            return "hex"
        if self.glyphs_toggle.isChecked():
            return "glyphs"
        return "text"

    def _render(self) -> None:
        enc = self._encoding
        if enc is None:
            self.view.set_chips([])
            self.view.set_placeholder(self._placeholder())
            self._set_stats()
            return
        mode = self._mode()
        ws = self.whitespace_toggle.isChecked()
        show_ids = self.ids_toggle.isChecked()
        style = (mode, ws, show_ids)
        # chips are kept across re-encodings while typing, and across a followed trainer's merges;
        # another model object (even at a recycled address, hence ``is`` and not ``id``) may give
        # an id another token
        owner = self._chip_owner if self._following else self._model
        if style != self._chip_style or self._chip_model is not owner:
            self._chip_style, self._chip_model, self._chip_cache = style, owner, {}
        cache = self._chip_cache
        text = self._text
        chips: List[Chip] = []
        breaks: List[int] = []
        add_chip, add_break = chips.append, breaks.append
        for t in enc.tokens:
            hit = cache.get(t.id)
            if hit is None:
                hit = cache[t.id] = self._chip_for(t, None, mode, ws, show_ids)
            if hit is _PER_SPAN:  # a partial character: the chip reads the span it belongs to
                key = (t.id, text[t.start:t.end])
                hit = cache.get(key)
                if hit is None:
                    hit = cache[key] = self._chip_for(t, text, mode, ws, show_ids)
            add_chip(hit[0])
            add_break(hit[1])
        self.view.set_chips(chips, breaks)
        self._set_stats()

    def _chip_for(self, t: EncodedToken, text: Optional[str], mode: str, ws: bool, show_ids: bool):
        """(chip, line breaks after it); ``_PER_SPAN`` when the chip depends on the span."""
        raw = t.raw
        if raw is None:
            label, partial = f"<{t.id}>", False
        else:
            label, partial = chip_text(raw, mode=mode, whitespace=ws)
            if partial and mode == "text" and text is None:
                return _PER_SPAN
            if partial and mode == "text" and t.end > t.start:
                # bytes of a character split across tokens: show the character(s) they belong
                # to (the encoder's span); the dashed outline says "part of"; hex shows the bytes
                label = chip_text(text[t.start:t.end], whitespace=ws)[0]
        nl = raw.count(b"\n" if isinstance(raw, bytes) else "\n") if raw is not None and not t.special else 0
        return Chip(label, t.id, None, False, partial, t.special, str(t.id) if show_ids else None), nl

    def _placeholder(self) -> str:
        if self._error:
            return f"Could not encode: {self._error}"
        if self._model is None and self._source is None:
            return "No vocabulary yet — train a few merges or open a vocabulary to see how text is tokenized."
        return "Type or paste text above to see its tokens."

    def _set_stats(self) -> None:
        enc = self._encoding
        if enc is None:
            msg = "encode failed" if self._error else ""
            self.stats_label.set_texts(msg, msg)
            return
        n = len(enc)
        chars = len(self._text)
        cpt = f"{chars / n:.2f}" if n else "—"
        parts = [f"{n:,} tokens", f"{cpt} chars/token"]
        short = [f"{n:,} tok", f"{cpt} c/t"]
        if self._merges_limit is not None:
            parts.append(f"first {self._merges_limit:,} merges")
        unknown = getattr(enc, "unknown", ())  # spans the vocabulary has no token for (dropped)
        if unknown:
            parts.append(f"{sum(e - s for s, e in unknown):,} chars without a token")
            short.append("some chars dropped")
        if self._truncated:
            parts.append(f"first {MAX_CHARS:,} chars only")
            short.append("truncated")
        self.stats_label.set_texts("  ·  ".join(parts), " · ".join(short))

    def _on_view_hovered(self, i: int) -> None:
        sel = []
        if i >= 0 and self._encoding is not None:
            t = self._encoding.tokens[i]
            es = QTextEdit.ExtraSelection()
            cur = QTextCursor(self.editor.document())
            cur.setPosition(t.start)
            cur.setPosition(t.end, QTextCursor.KeepAnchor)
            es.cursor = cur
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(PALETTE[self.view._colors[i]]))
            fmt.setUnderlineStyle(QTextCharFormat.SingleUnderline)
            fmt.setUnderlineColor(ACCENT)
            es.format = fmt
            sel.append(es)
        self.editor.setExtraSelections(sel)

    def _tooltip(self, i: int) -> str:
        if self._encoding is None or self._model is None:
            return ""
        t = self._encoding.tokens[i]
        span = self._text[t.start:t.end]
        extra = f"span {t.start}–{t.end}: {_esc(repr(span))} · token {i + 1} of {len(self._encoding)}"
        try:
            return token_tooltip(self._model, t.id, extra=extra)
        except (IndexError, KeyError):
            return f"id {t.id}<br>{extra}"


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --------------------------------------------------------------------------- demo
DEMO_TEXT = (
    "Byte-Pair Encoding merges the most frequent pair, again and again.\n"
    "Tokenization isn't always where you'd expect: unbelievable → un + believ + able?\n"
    "中文分词：自然语言处理很有趣。日本語のテキストも。한국어도 됩니다.\n"
    "Emoji: 😀 🎉 👍 ❤ — and numbers 1234567 or 3.14159.\n"
    "\tdef encode(self, text: str) -> list[int]:\n"
)


def _demo_model() -> BPEModel:
    """GPT-2 from BPE_LENS_GPT2 or the real data in BPE_LENS_DATA when readable, else a small byte-level model."""
    import os

    data = os.environ.get("BPE_LENS_DATA", "")
    for path in (os.environ.get("BPE_LENS_GPT2", ""), data and os.path.join(data, "gpt2", "tokenizer.json")):
        if path and os.path.exists(path):
            try:
                from bpe_lens_app.panes.inspector_pane import load_vocabulary

                return load_vocabulary(path)
            except Exception:
                pass
    return demo_byte_model(DEMO_TEXT)


def demo_byte_model(text: str, merges: int = 200) -> BPEModel:
    """A small byte-level model trained (naively) on ``text``, with GPT-2 pieces — for demos
    and tests that need a vocabulary without files."""
    from collections import Counter

    from bpe_core.pipelines.trainer_pipeline import TrainerPipeline
    from bpe_core.types import TrainerConfig

    pipeline = TrainerPipeline(TrainerConfig(pretokenizer="gpt2", unit="bytes"), {})
    tokens: list = [bytes([b]) for b in range(256)]
    words = [[bytes([b]) for b in p.text.encode("utf-8")] for p in pipeline.split(text)]
    ids = {t: i for i, t in enumerate(tokens)}
    merge_list = []
    for _ in range(merges):
        pairs = Counter((a, b) for w in words for a, b in zip(w, w[1:]))
        if not pairs:
            break
        (a, b), c = pairs.most_common(1)[0]
        if c < 2:
            break
        new = a + b
        if new not in ids:
            ids[new] = len(tokens)
            tokens.append(new)
        merge_list.append((ids[a], ids[b]))
        out = []
        for w in words:
            nw, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    nw.append(new)
                    i += 2
                else:
                    nw.append(w[i])
                    i += 1
            out.append(nw)
        words = out
    return BPEModel(unit="bytes", tokens=tokens, merges=merge_list, name="demo", pipeline=pipeline)


def render_encode_pane_demo(path: str, *, model: Optional[BPEModel] = None, text: str = DEMO_TEXT,
                            size: QSize = QSize(1280, 800)) -> str:
    """Render an encode pane with mixed English/Chinese/emoji text to a PNG at ``path``."""
    qapp = QApplication.instance() or QApplication([])
    pane = EncodePane()
    f = QFont(pane.font())
    f.setPointSizeF(max(11.0, f.pointSizeF() * 1.3))
    pane.setFont(f)
    pane.resize(size)
    pane.set_model(model or _demo_model())
    pane.ids_toggle.setChecked(True)
    pane.set_text(text)
    pane.encode_now()
    pane.show()
    qapp.processEvents()
    pane.grab().save(path)
    pane.close()
    return path
