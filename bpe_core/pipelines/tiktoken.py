"""tiktoken's text pipeline: special tokens cut out first (leftmost, longest), then the split regex.

OpenAI's patterns need the ``regex`` module (``\\p{L}``...); :func:`covered_twin` rewrites one for
Python's faster ``re``, exact on the characters in :data:`COVERED`, and the pipeline uses it on
stretches of text made only of those.

>>> p = RegexPipeline(r"\\w+|\\s", {"<|x|>": 9})
>>> [(x.text, x.start, x.special) for x in p.split("ab<|x|> c")]
[('ab', 0, None), ('<|x|>', 2, 9), (' ', 7, None), ('c', 8, None)]
>>> p.split_words("ab<|x|> c")
['ab', 9, ' ', 'c']
"""
from __future__ import annotations

import functools
import re
from typing import Dict, List, Optional, Tuple, Union

import regex

from bpe_core.pipelines.base import ImportedSymbols
from bpe_core.pretokenize.pretokenizers import TIKTOKEN_PATTERNS
from bpe_core.types import BPELensError, Piece

#: characters the fast split handles with Python's re: Latin-1, Latin Extended-A and the General
#: Punctuation block (curly quotes, dashes, NBSP...) - nearly all of English and Western text
COVERED = [chr(c) for c in range(0x180)] + [chr(c) for c in range(0x2010, 0x2060)]
_UNCOVERED = re.compile("[^\x00-\u017f\u2010-\u205f]+")


@functools.lru_cache(maxsize=None)
def _members(prop: str) -> str:
    """The covered characters in ``regex``'s class ``prop`` (e.g. ``\\p{Lu}``) as re class ranges."""
    rx = regex.compile(prop)
    cps = [ord(c) for c in COVERED if rx.fullmatch(c)]
    out, i = [], 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        out.append(f"\\u{cps[i]:04x}" + (f"-\\u{cps[j]:04x}" if j > i else ""))
        i = j + 1
    return "".join(out)


@functools.lru_cache(maxsize=None)
def covered_twin(pattern: str) -> Optional["re.Pattern[str]"]:
    """``pattern`` for Python's ``re``, exact on text made only of covered characters.

    Each ``\\p{..}``, ``\\s`` and ``\\S`` becomes the explicit list of covered characters that
    ``regex`` puts in it, so the twin cannot disagree with ``regex`` there (and ``re`` is ~3x faster).
    None when ``re`` cannot compile it (possessive quantifiers need Python 3.11).
    """
    out: List[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and pattern[i + 1] in "psS":
            if pattern[i + 1] == "p":
                j = pattern.index("}", i)
                body, i = _members(pattern[i:j + 1]), j + 1
            else:
                body, i = _members(r"\s"), i + 2
                if pattern[i - 1] == "S":
                    if in_class:
                        return None
                    out.append(f"[^{body}]")
                    continue
            out.append(body if in_class else (f"[{body}]" if body else "(?!)"))
            continue
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        in_class = (in_class or c == "[") and not (in_class and c == "]")
        out.append(c)
        i += 1
    try:
        return re.compile("".join(out))
    except re.error:
        return None


class RegexPipeline(ImportedSymbols):
    """tiktoken's pipeline: special tokens cut out first (leftmost, longest), then regex pieces."""

    def __init__(self, pattern: str, specials: Dict[str, int]) -> None:
        try:
            self.pattern = regex.compile(pattern)
        except regex.error as e:
            raise BPELensError(f"the split pattern does not compile: {e}") from None
        # the fast split is proven for OpenAI's patterns only (see _findall)
        self._twin = covered_twin(pattern) if pattern in TIKTOKEN_PATTERNS.values() else None
        self.specials = dict(specials)
        names = sorted(self.specials, key=len, reverse=True)
        self._special_re = regex.compile("|".join(regex.escape(n) for n in names)) if names else None

    def _segments(self, text: str) -> List[Tuple[int, int, Optional[int]]]:
        """(start, end, special id or None) covering ``text``."""
        out: List[Tuple[int, int, Optional[int]]] = []
        pos = 0
        if self._special_re is not None:
            for m in self._special_re.finditer(text):
                if m.start() > pos:
                    out.append((pos, m.start(), None))
                out.append((m.start(), m.end(), self.specials[m.group()]))
                pos = m.end()
        if pos < len(text):
            out.append((pos, len(text), None))
        return out

    def matched_specials(self) -> Dict[str, int]:
        return dict(self.specials)

    def split(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        for s, e, sid in self._segments(text):
            if sid is not None:
                out.append(Piece(text[s:e], s, e, special=sid))
            else:
                out.extend(Piece(m.group(), m.start(), m.end()) for m in self.pattern.finditer(text, s, e))
        return out

    def split_words(self, text: str) -> List[Union[str, int]]:
        """Piece texts (str) and special ids (int) without spans: the encoder's fast path."""
        # `in` is a C substring search: much faster than a regex scan of a large text
        if self._special_re is None or not any(name in text for name in self.specials):
            return self._findall(text, 0, len(text))
        out: List[Union[str, int]] = []
        for s, e, sid in self._segments(text):
            if sid is not None:
                out.append(sid)
            else:
                out.extend(self._findall(text, s, e))
        return out

    def _findall(self, text: str, start: int, end: int) -> List[str]:
        """Pieces of text[start:end]: covered stretches with the ``re`` twin, the rest with ``regex``.

        A stretch is cut only before a space whose previous character is not whitespace: no piece of
        OpenAI's patterns runs from a non-space character into a following space, and none looks
        behind, so both sides split exactly as the whole would.
        """
        twin = self._twin
        if twin is None:
            return self.pattern.findall(text, start, end)
        if text.isascii() if (start, end) == (0, len(text)) else text[start:end].isascii():
            return twin.findall(text, start, end)
        out: List[str] = []
        pos = start
        for m in _UNCOVERED.finditer(text, start, end):
            if m.start() < pos:
                continue  # inside the last stretch given to `regex`
            a = text.rfind(" ", pos, m.start() + 1)
            while a > pos and text[a - 1].isspace():  # isspace is wider than White_Space: safe side
                a = text.rfind(" ", pos, a)
            a = max(a, pos)
            b = text.find(" ", m.end(), end)
            while b != -1 and text[b - 1].isspace():
                b = text.find(" ", b + 1, end)
            b = end if b == -1 else b
            if a > pos:
                out.extend(twin.findall(text, pos, a))
            out.extend(self.pattern.findall(text, a, b))
            pos = b
        if pos < end:
            out.extend(twin.findall(text, pos, end))
        return out
