"""SentencePiece's text pipeline: each whitespace-separated word normalized, then cut at ``▁``.

The normalizer is the ``sentencepiece`` package's own (NFKC + the model's precompiled char map),
given as ``processor``; :mod:`bpe_core.formats.sentencepiece_model` builds this from a ``.model``.

>>> class Identity:
...     def normalize(self, text): return "\u2581" + text
>>> p = SentencePiecePipeline(Identity(), user_defined={})
>>> [(x.text, x.start, x.end) for x in p.split("ab cd")]
[('▁ab', 0, 2), ('▁cd', 3, 5)]
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple, Union

from bpe_core.pipelines.base import ImportedSymbols
from bpe_core.types import Piece

WS = "\u2581"


class SentencePiecePipeline(ImportedSymbols):
    """Normalizes each whitespace-separated word with SentencePiece and cuts it at ``▁``.

    SentencePiece normalizes the whole text, then runs BPE over it; a BPE-trained model has
    no piece with ``▁`` inside, so no merge crosses a ``▁`` and cutting there changes nothing.
    A word's pieces (relative spans) are cached: normalizing is the slow part.
    """

    CACHE_SIZE = 100_000

    def __init__(self, processor, *, user_defined: Dict[str, int], add_dummy_prefix: bool = True,
                 split_by_whitespace: bool = True, identity: bool = False) -> None:
        self.processor = processor
        self.user_defined = dict(user_defined)
        names = sorted(user_defined, key=len, reverse=True)  # longest first
        self._user_re = re.compile("|".join(map(re.escape, names))) if names else None
        self.add_dummy_prefix = add_dummy_prefix
        self.split_by_whitespace = split_by_whitespace
        self._word_re = re.compile(r"[^ ]+" if identity else r"\S+")
        self._cache: Dict[Tuple[str, bool], List[Tuple[str, int, int, Optional[int]]]] = {}

    def matched_specials(self) -> Dict[str, int]:
        return dict(self.user_defined)

    def split(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        first = True
        for m in self._word_re.finditer(text):
            start = m.start()
            for piece, a, b, special in self._word(m.group(), first):
                out.append(Piece(piece, start + a, start + b, special=special))
            first = False
        if not self.split_by_whitespace and out:
            return _join_plain(out)
        return out

    def split_words(self, text: str) -> List[Union[str, int]]:
        """Piece texts and user-defined ids without spans: the encoder's fast path."""
        out: List[Union[str, int]] = []
        first = True
        for m in self._word_re.finditer(text):
            out.extend(p if s is None else s for p, _, _, s in self._word(m.group(), first))
            first = False
        if not self.split_by_whitespace:
            return [p.special if p.special is not None else p.text for p in self.split(text)]
        return out

    def _word(self, word: str, first: bool) -> List[Tuple[str, int, int, Optional[int]]]:
        key = (word, self.add_dummy_prefix or not first)  # (word, does it start with a ▁)
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) >= self.CACHE_SIZE:
                self._cache.clear()
            hit = self._cache[key] = self._cut(word, key[1])
        return hit

    def _cut(self, word: str, marked: bool) -> List[Tuple[str, int, int, Optional[int]]]:
        """Pieces of one word with spans relative to it (the whole word when NFKC changed it)."""
        norm = self.processor.normalize(word)
        if not norm:
            return []
        if not self.add_dummy_prefix and marked:  # a later word: its space becomes the "▁"
            norm = WS + norm
        body = norm.lstrip(WS)
        shift = len(norm) - len(body)  # norm index i is word index i - shift, when exact
        exact = body == word

        def span(i: int, j: int) -> Tuple[int, int]:
            return (max(0, i - shift), j - shift) if exact else (0, len(word))

        out: List[Tuple[str, int, int, Optional[int]]] = []
        pos = 0
        cuts = list(self._user_re.finditer(norm)) if self._user_re is not None else []
        for m in cuts + [None]:
            end = m.start() if m is not None else len(norm)
            for i, j in _ws_chunks(norm, pos, end):
                out.append((norm[i:j], *span(i, j), None))
            if m is not None:
                out.append((m.group(), *span(m.start(), m.end()), self.user_defined[m.group()]))
                pos = m.end()
        return out


def _ws_chunks(norm: str, a: int, b: int) -> List[Tuple[int, int]]:
    if a >= b:
        return []
    if WS not in norm[a + 1:b]:
        return [(a, b)]
    cuts = [i for i in range(a + 1, b) if norm[i] == WS]
    bounds = [a] + cuts + [b]
    return [(x, y) for x, y in zip(bounds, bounds[1:]) if x < y]


def _join_plain(pieces: List[Piece]) -> List[Piece]:
    # split_by_whitespace=false: pieces may span words, so consecutive plain pieces are one.
    out: List[Piece] = []
    for p in pieces:
        if out and p.special is None and out[-1].special is None:
            out[-1] = Piece(out[-1].text + p.text, out[-1].start, p.end)
        else:
            out.append(p)
    return out
