"""What a chip reads: a token's bytes or characters as text a person can read.

:func:`chip_text` says what a chip reads: byte tokens as GPT-2 glyphs (``Ġthe``) by default,
hex (``20 74 68 65``) on demand, or the decoded text (``" the"``) where the bytes are valid
UTF-8; bytes that are part of a character (a partial UTF-8 token) read ``‹E4 B8›`` and the
chip gets a dashed outline. Whitespace can be made visible (space ``·``, newline ``↵``, tab
``→``). Characters no installed font can draw (most emoji on a machine without a color emoji
font) become ``‹thumbs up sign›`` instead of a tofu box (:func:`readable_text`).

The Qt-free part (:func:`chip_text`, :func:`decode_marked`) lives in :mod:`bpe_core.render.labels`
(shared with the headless slide renderer); this module adds what needs Qt's fonts.
"""
from __future__ import annotations

import unicodedata
from typing import Dict, List, Optional, Tuple

from PySide6.QtGui import QFont, QTextLayout

from bpe_core.base import to_glyphs, to_hex
from bpe_core.render import UNKNOWN_LABEL, TextMode, chip_text as _core_chip_text, decode_marked
from bpe_core.types import Raw

__all__ = ["UNKNOWN_LABEL", "TextMode", "chip_text", "chip_texts", "decode_marked", "readable_text", "font_lacks",
           "token_tooltip", "unknown_tooltip", "escape_html", "drawable_pictures"]

_missing_cache: Dict[Tuple[str, str], bool] = {}

#: control characters a chip or a word shows as their Unicode "control picture" (``\r`` as ``␍``, U+240D);
#: where no installed font draws those (DejaVu has none: a tofu box in the Words column), their escape
_CONTROL_ESCAPES = {0x00: "\\0", 0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f",
                    0x0D: "\\r", 0x1B: "\\e", 0x7F: "\\x7f"}
_PICTURES = {chr(0x2400 + c): _CONTROL_ESCAPES.get(c, f"\\x{c:02x}") for c in range(32)}
_PICTURES["\u2421"] = _CONTROL_ESCAPES[0x7F]


def drawable_pictures(text: str, font: Optional[QFont] = None) -> str:
    """``text`` with control pictures (``␍``) no font draws written as their escapes (``\\r``), so a carriage
    return reads as something rather than a tofu box; pictures a font has stay as they are."""
    if text.isascii() or not any(c in _PICTURES for c in text):
        return text
    if font is None:
        from PySide6.QtGui import QGuiApplication

        font = QGuiApplication.font()
    return "".join(_PICTURES[c] if c in _PICTURES and font_lacks(c, font) else c for c in text)


def chip_text(raw: Raw, *, mode: TextMode = "glyphs", whitespace: bool = True) -> Tuple[str, bool]:
    """What a chip (or the Words column) reads: :func:`bpe_core.render.labels.chip_text`, with control
    pictures no font draws as their escapes (:func:`drawable_pictures`)."""
    text, partial = _core_chip_text(raw, mode=mode, whitespace=whitespace)
    return drawable_pictures(text), partial


def chip_texts(raws, *, mode: TextMode = "glyphs", whitespace: bool = True) -> List[str]:
    """:func:`chip_text` for many tokens (texts only)."""
    return [chip_text(r, mode=mode, whitespace=whitespace)[0] for r in raws]


def font_lacks(ch: str, font: QFont) -> bool:
    """True when no installed font draws ``ch`` (Qt's fallback lands on glyph 0, a tofu box).

    Measured through a real text layout: ``QFontMetrics.inFontUcs4`` ignores font fallback.
    """
    key = (font.family(), ch)
    hit = _missing_cache.get(key)
    if hit is None:
        layout = QTextLayout(ch, font)
        layout.beginLayout()
        layout.createLine()
        layout.endLayout()
        hit = any(0 in run.glyphIndexes() for run in layout.glyphRuns())
        _missing_cache[key] = hit
    return hit


def readable_text(text: str, font: QFont) -> str:
    """``text`` with characters no font can draw replaced by ``‹their name›`` (no tofu).

    Zero-width joiners and variation selectors next to a replaced emoji are dropped.
    """
    if text.isascii():
        return text
    out: List[str] = []
    replaced = False
    for ch in text:
        if ord(ch) < 0x80:
            out.append(ch)
            replaced = False
        elif ch in "\u200d\ufe0f\ufe0e" or 0x1F3FB <= ord(ch) <= 0x1F3FF:
            if not replaced:
                out.append(ch)
        elif font_lacks(ch, font):
            name = unicodedata.name(ch, f"U+{ord(ch):04X}").lower()
            out.append(f"‹{name}›")
            replaced = True
        else:
            out.append(ch)
            replaced = False
    return "".join(out)


def token_tooltip(model, token_id: int, *, extra: str = "") -> str:
    """Rich tooltip of a token: id, merge rank and parts, bytes (hex), glyphs and decoded text.

    ``model`` is a :class:`bpe_core.model.BPEModel`. A negative id (a symbol the vocabulary
    lacks) names no token: Python's ``tokens[-1]`` would be the newest one.
    """
    if token_id < 0:
        return unknown_tooltip(None, extra=extra)
    raw = model.tokens[token_id]
    if raw is None:
        return f"id {token_id} (unused)"
    rank = model.created_by.get(token_id)
    lines = [f"<b>id {token_id}</b>"]
    if token_id in model.special_ids:
        lines.append("special token")
    elif rank:
        left, right = model.merges[rank - 1]
        lines.append(f"rank {rank}: {escape_html(model.display(left))} + {escape_html(model.display(right))}")
    else:
        lines.append("rank — (base symbol)")
    counts = getattr(model, "merge_counts", None) or ()
    if rank and rank <= len(counts) and counts[rank - 1] is not None:
        lines.append(f"count when merged: {counts[rank - 1]:,}")
    data = raw if isinstance(raw, bytes) else raw.encode("utf-8")
    lines.append(f"bytes ({len(data)}): {to_hex(data)}")
    if isinstance(raw, bytes):
        lines.append(f"glyphs: {escape_html(to_glyphs(raw))}")
        text, partial = decode_marked(raw)
        lines.append(f"text: {escape_html(repr(text))}" + (" <i>(partial UTF-8 character)</i>" if partial else ""))
    else:
        lines.append(f"text: {escape_html(repr(raw))}")
    if extra:
        lines.append(extra)
    return "<br>".join(lines)


def unknown_tooltip(raw: Optional[Raw], *, extra: str = "") -> str:
    """Tooltip of a symbol the vocabulary has no token for (id -1): the character(s), their code
    points and names, and what that means.

    >>> unknown_tooltip("世").split("<br>")[:2]
    ['<b>not in vocabulary</b> (id −1)', "text: '世' · U+4E16 CJK UNIFIED IDEOGRAPH-4E16"]
    """
    lines = ["<b>not in vocabulary</b> (id −1)"]
    if raw is not None:
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        names = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '')}".rstrip() for c in text[:4])
        lines.append(f"text: {escape_html(repr(text))} · {escape_html(names)}")
        data = raw if isinstance(raw, bytes) else raw.encode("utf-8")
        lines.append(f"bytes ({len(data)}): {to_hex(data)}")
    lines.append("<i>no token of this vocabulary covers it; it is kept as id −1</i>")
    if extra:
        lines.append(extra)
    return "<br>".join(lines)


def escape_html(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

