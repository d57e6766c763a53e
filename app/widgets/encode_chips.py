"""What the encode pane shows of an encoding: one chip per token, the stats line above them, the hovered
token's span in the input, and the pane's toggles.

Plain functions, so the pane keeps only its widgets and its timing.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextEdit, QToolButton

from bpe_core.types import EncodedToken, Encoding

from .chip_colors import ACCENT, TEXT_COLOR
from .chip_text import chip_text, escape_html, token_tooltip, unknown_tooltip
from .checked_style import show_checked
from .chips import Chip

#: :func:`chip_for`'s answer when a chip depends on the token's span (not cacheable per id)
PER_SPAN = object()


def chip_for(t: EncodedToken, text: Optional[str], mode: str, ws: bool, show_ids: bool):
    """(chip, line breaks after it); :data:`PER_SPAN` when the chip depends on the span and
    ``text`` is None (the caller then asks again with the text)."""
    raw = t.raw
    if t.id < 0:  # not in the vocabulary: the chip reads its own span, whatever the id
        if text is None:
            return PER_SPAN
        label = chip_text(raw if mode != "text" else text[t.start:t.end], mode=mode, whitespace=ws)[0]
        sub = "−1" if show_ids else None
        return Chip(label or "?", t.id, None, False, False, False, sub, unknown=True), 0
    if raw is None:
        label, partial = f"<{t.id}>", False
    else:
        label, partial = chip_text(raw, mode=mode, whitespace=ws)
        if partial and mode == "text" and text is None:
            return PER_SPAN
        if partial and mode == "text" and t.end > t.start:
            # bytes of a character split across tokens: show the character(s) they belong
            # to (the encoder's span); the dashed outline says "part of"; hex shows the bytes
            label = chip_text(text[t.start:t.end], whitespace=ws)[0]
    nl = raw.count(b"\n" if isinstance(raw, bytes) else "\n") if raw is not None and not t.special else 0
    return Chip(label, t.id, None, False, partial, t.special, str(t.id) if show_ids else None), nl


#: a trail's move: (encoding before, where the merge joined tokens, encoding after, undone)
Move = Tuple[Encoding, List[int], Encoding, bool]


def move_ends(moves: Sequence[Move]) -> Tuple[Encoding, Encoding]:
    """The encodings a trail's moves start from and end at (an undone move goes from ``after`` to ``before``)."""
    first, last = moves[0], moves[-1]
    return first[2] if first[3] else first[0], last[0] if last[3] else last[2]


class ChipCache:
    """The chips of one vocabulary's tokens in one style (``mode``, whitespace shown, ids shown), by token id;
    a chip that reads its span (:data:`PER_SPAN`) by id and span."""

    def __init__(self, mode: str, ws: bool, show_ids: bool) -> None:
        self.style = (mode, ws, show_ids)
        self._hits: Dict[object, object] = {}  # id -> (chip, line breaks after it) or PER_SPAN; (id, span) -> ...

    def chips(self, tokens: Sequence[EncodedToken], text: str) -> Tuple[List[Chip], List[int]]:
        """The chips of ``tokens`` and the line breaks after each."""
        chip = self.chip
        hits = [chip(t, text) for t in tokens]
        return [h[0] for h in hits], [h[1] for h in hits]

    def splice(self, chips: List[Chip], breaks: List[int], moves: Sequence[Move], text: str
               ) -> Tuple[List[Chip], List[int]]:
        """``chips`` and ``breaks`` (those of the encoding the moves start from: :func:`move_ends`) along a trail's moves
        (:attr:`~bpe_core.encoding.advance.Trail.moves`): a merge's two chips become one, an undone merge's one
        two; the rest are sliced over at C speed (a merge joins tens of tokens, not 1,600)."""
        for before, hits, after, undone in moves:
            out_chips: List[Chip] = []
            out_breaks: List[int] = []
            prev = 0
            for t, i in enumerate(hits):
                if undone:  # after's token i - t was before's i and i + 1
                    out_chips += chips[prev:i - t]
                    out_breaks += breaks[prev:i - t]
                    for token in before.tokens[i:i + 2]:
                        chip, nl = self.chip(token, text)
                        out_chips.append(chip)
                        out_breaks.append(nl)
                    prev = i - t + 1
                else:
                    out_chips += chips[prev:i]
                    out_breaks += breaks[prev:i]
                    chip, nl = self.chip(after.tokens[i - t], text)
                    out_chips.append(chip)
                    out_breaks.append(nl)
                    prev = i + 2
            chips, breaks = out_chips + chips[prev:], out_breaks + breaks[prev:]
        return chips, breaks

    def chip(self, token: EncodedToken, text: str) -> Tuple[Chip, int]:
        """One token's chip and the line breaks after it."""
        hit = self._hits.get(token.id)
        if hit is None:
            hit = self._hits[token.id] = chip_for(token, None, *self.style)
        if hit is PER_SPAN:
            key = (token.id, text[token.start:token.end])
            hit = self._hits.get(key)
            if hit is None:
                hit = self._hits[key] = chip_for(token, text, *self.style)
        return hit


def stats_texts(enc: Encoding, chars: int, merges_limit: Optional[int],
                truncated_at: Optional[int], kept: Optional[int] = None) -> Tuple[str, str]:
    """The stats line, long and short: tokens, characters per token, and what was left out (``kept``: how many
    tokens have no id, when known: a merge never joins them).

    >>> from bpe_core.types import EncodedToken, Encoding
    >>> stats_texts(Encoding((EncodedToken(5, "ab", "ab", 0, 2), EncodedToken(-1, "世", "世", 2, 3))), 3, None, None)
    ('2 tokens  ·  1.50 chars/token  ·  1 not in vocabulary (id −1)', '2 tok · 1.50 c/t · 1 unknown')
    """
    n = len(enc)
    cpt = f"{chars / n:.2f}" if n else "—"
    parts: List[str] = [f"{n:,} tokens", f"{cpt} chars/token"]
    short: List[str] = [f"{n:,} tok", f"{cpt} c/t"]
    if merges_limit is not None:
        parts.append(f"first {merges_limit:,} merges")
    unknown = getattr(enc, "unknown", ())  # spans the vocabulary has no token for (dropped)
    if unknown:
        parts.append(f"{sum(e - s for s, e in unknown):,} chars without a token")
        short.append("some chars dropped")
    if kept is None:
        kept = unknown_count(enc)
    if kept:
        parts.append(f"{kept:,} not in vocabulary (id −1)")
        short.append(f"{kept:,} unknown")
    if truncated_at is not None:
        parts.append(f"first {truncated_at:,} chars only")
        short.append("truncated")
    return "  ·  ".join(parts), " · ".join(short)


def unknown_count(enc: Encoding) -> int:
    """How many of ``enc``'s tokens are characters without a token (id -1)."""
    return sum(1 for t in enc.tokens if t.id < 0)


def span_highlight(document: QTextDocument, start: int, end: int, color: QColor) -> QTextEdit.ExtraSelection:
    """The input's characters ``start``-``end`` in a chip's color, underlined (the hovered chip's span)."""
    es = QTextEdit.ExtraSelection()
    cur = QTextCursor(document)
    cur.setPosition(start)
    cur.setPosition(end, QTextCursor.KeepAnchor)
    es.cursor = cur
    fmt = QTextCharFormat()
    fmt.setBackground(color)
    fmt.setForeground(TEXT_COLOR)  # light chip colors: dark text on any palette
    fmt.setUnderlineStyle(QTextCharFormat.SingleUnderline)
    fmt.setUnderlineColor(ACCENT)
    es.format = fmt
    return es


def toggle_button(text: str, tip: str, checked: bool = False) -> QToolButton:
    """One of the pane's checkable text buttons (ids, whitespace, glyphs, hex)."""
    b = QToolButton()
    b.setText(text)
    b.setToolTip(tip)
    b.setCheckable(True)
    b.setChecked(checked)
    b.setToolButtonStyle(Qt.ToolButtonTextOnly)
    return show_checked(b)  # filled while checked: Fusion's 10 % darker is invisible on a dark palette


def chip_tooltip(model, enc: Optional[Encoding], text: str, i: int) -> str:
    """The tooltip of chip ``i`` of ``enc`` (made from ``text`` with ``model``): the token, its span, its place."""
    if enc is None or model is None:
        return ""
    t = enc.tokens[i]
    span = text[t.start:t.end]
    extra = f"span {t.start}–{t.end}: {escape_html(repr(span))} · token {i + 1} of {len(enc)}"
    if t.id < 0:
        return unknown_tooltip(t.raw, extra=extra)
    try:
        return token_tooltip(model, t.id, extra=extra)
    except (IndexError, KeyError):
        return f"id {t.id}<br>{extra}"
