"""Spans: from a token's position in a piece's units back to characters of the input text.

A piece's text may be normalized (lowercased, NFC, a Metaspace ``▁`` added): its ``meta["align"]``
then gives each character's span in the input. Bytes models count UTF-8 bytes: a token covering
part of a multi-byte character gets that whole character's span.

>>> from bpe_core.types import Piece
>>> span_mapper(Piece("hé", 4, 6), True)((1, 2))  # the first byte of "é"
(5, 6)
"""
from __future__ import annotations

from typing import Callable, List, Tuple

from bpe_core.types import Piece

Span = Tuple[int, int]


def span_mapper(p: Piece, unit_bytes: bool) -> Callable[[Span], Span]:
    """Maps a span in units of ``p.text`` to characters of the input text.

    A token covering part of a multi-byte character gets that whole character's span.
    """
    text = p.text
    align = p.meta.get("align") if p.meta else None
    if align is None and len(text) != p.end - p.start:
        return lambda sp: (p.start, p.end)  # text was rewritten without an alignment: whole piece
    if unit_bytes and not text.isascii():
        b2c: List[int] = []
        for ci, ch in enumerate(text):
            b2c.extend([ci] * len(ch.encode()))
        b2c.append(len(text))
        to_chars = lambda sp: (b2c[sp[0]], b2c[sp[1] - 1] + 1 if sp[1] > sp[0] else b2c[sp[0]])  # noqa: E731
    else:
        to_chars = lambda sp: sp  # noqa: E731
    if align is None:
        base = p.start
        return lambda sp: (base + to_chars(sp)[0], base + to_chars(sp)[1])

    def mapped(sp: Span) -> Span:
        cs, ce = to_chars(sp)
        if ce <= cs:  # zero-width (a suffix symbol): sits at the end of the previous character
            pos = align[cs - 1][1] if cs > 0 else p.start
            return pos, pos
        return min(a[0] for a in align[cs:ce]), max(a[1] for a in align[cs:ce])
    return mapped
