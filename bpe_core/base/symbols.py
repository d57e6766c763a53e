"""Units (characters or UTF-8 bytes) and how tokens are shown.

GPT-2 maps every byte to a printable character so that byte-level tokens can be stored as
text: bytes 33-126, 161-172 and 174-255 stand for themselves, the other 68 bytes map to
256 + n in order (space -> ``Ġ``, newline -> ``Ċ``).

>>> to_glyphs(b" the\\n")
'ĠtheĊ'
>>> from_glyphs("Ġthe")
b' the'
"""
from __future__ import annotations

from typing import Dict, List

from bpe_core.types import Raw


def _gpt2_byte_to_glyph() -> Dict[int, str]:
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    mapping = {b: chr(b) for b in keep}
    n = 0
    for b in range(256):
        if b not in mapping:
            mapping[b] = chr(256 + n)
            n += 1
    return mapping


BYTE_TO_GLYPH: Dict[int, str] = _gpt2_byte_to_glyph()
GLYPH_TO_BYTE: Dict[str, int] = {g: b for b, g in BYTE_TO_GLYPH.items()}
#: glyph string of each single byte, indexable by byte value
BYTE_GLYPHS: List[str] = [BYTE_TO_GLYPH[b] for b in range(256)]
_GLYPH_TABLE = {b: g for b, g in BYTE_TO_GLYPH.items()}


def to_glyphs(data: bytes) -> str:
    """Bytes as GPT-2 glyphs: ``b" hi" -> "Ġhi"``."""
    return "".join([BYTE_GLYPHS[b] for b in data])


def from_glyphs(text: str) -> bytes:
    """GPT-2 glyphs back to bytes; raises ``KeyError`` for a character that is no glyph."""
    return bytes([GLYPH_TO_BYTE[c] for c in text])


def is_glyph_string(text: str) -> bool:
    return all(c in GLYPH_TO_BYTE for c in text)


def to_hex(data: bytes) -> str:
    """``b"\\xe4\\xb8" -> "E4 B8"``."""
    return " ".join(f"{b:02X}" for b in data)


def display(raw: Raw, *, hex_bytes: bool = False) -> str:
    """How a token is shown: characters as they are, bytes as glyphs (or hex)."""
    if isinstance(raw, bytes):
        return to_hex(raw) if hex_bytes else to_glyphs(raw)
    return raw


def decoded_text(raw: Raw) -> str | None:
    """The text a byte token stands for when it is valid UTF-8, else None (a partial character)."""
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def visible_whitespace(text: str) -> str:
    """Space as ``·``, newline as ``↵``, tab as ``→`` (the encode pane's whitespace toggle)."""
    return text.replace(" ", "·").replace("\n", "↵").replace("\t", "→").replace("\r", "␍")
