"""The pre-tokenizer base class: a compiled pattern whose matches are the words.

The pre-tokenizer is the middle link of a text pipeline (:mod:`bpe_core.pipelines.chain`). Subclasses for particular splitters live beside it (``cjk``, ``wrappers``); the registry of named
pre-tokenizers is :mod:`bpe_core.pretokenize.pretokenizers`.
"""
from __future__ import annotations

import re
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

import regex

from bpe_core.pretokenize.bmp_twin import compile_bmp_twin, find_astral
from bpe_core.pretokenize.guard import guarded_finditer
from bpe_core.types import BPELensError, Piece



class PreTokenizer:
    """Base: a compiled pattern whose non-empty matches are the words.

    ``line_local`` says ``words(a + b) == words(a) + words(b)`` whenever ``a`` ends with
    ``"\\n"``, which lets the corpus counter run ``words`` over many lines at once.
    ``cut_at_space`` says the same holds when ``a`` ends with an ASCII letter or digit and ``b``
    starts with a space: no word spans that point and the rest splits as if it began the text, so
    the reader can cut a huge single line there and keep its memory flat.
    """

    per_line = True
    line_local = False
    cut_at_space = False
    #: True for a splitter whose words only make sense as characters (the CJK splitter): no byte units
    chars_only = False

    def __init__(self, name: str, description: str, pattern: "re.Pattern[str] | regex.Pattern[str]",
                 *, line_local: bool = False, nonempty: bool = True, ascii_twin: Optional[str] = None,
                 cut_at_space: bool = False, bmp_twin: Optional[str] = None, guarded: bool = False) -> None:
        self.name = name
        #: a user's pattern: every split runs with a timeout (:mod:`bpe_core.pretokenize.guard`)
        self.guarded = guarded
        self.description = description
        self.pattern = pattern
        self.line_local = line_local
        self.cut_at_space = cut_at_space
        # findall returns the groups of a pattern that has any, and user patterns may match
        # "": only then do we need the slower filtered path.
        self._findall = pattern.findall if pattern is not None and pattern.groups == 0 and nonempty else None
        self._ascii: "Optional[re.Pattern[str]]" = None
        if ascii_twin is not None:
            try:  # possessive quantifiers need Python 3.11's re; without them, no fast path
                self._ascii = re.compile(ascii_twin, re.ASCII)
            except re.error:
                pass
        self._bmp_template = bmp_twin  # compiled on the first non-ASCII line (10-25 ms): see bmp_twin.py
        self._bmp: "Optional[re.Pattern[str]]" = None

    def words(self, text: str) -> List[str]:
        """The words of ``text`` in order (what the trainer counts).

        >>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS

        >>> PRETOKENIZERS["gpt2"].words("Hello world!")
        ['Hello', ' world', '!']
        """
        if self._ascii is not None and text.isascii():
            return self._ascii.findall(text)
        if self._findall is not None:
            return self._findall(text)
        return [m.group() for m in self._matches(text)]

    def pieces(self, text: str) -> List[Piece]:
        """The same words as :meth:`words`, with their spans in ``text``.

        >>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS

        >>> [(p.text, p.start, p.end) for p in PRETOKENIZERS["wordpunct"].pieces("it's")]
        [('it', 0, 2), ("'", 2, 3), ('s', 3, 4)]
        """
        return [Piece(m.group(), m.start(), m.end()) for m in self._matches(text)]

    def _matches(self, text: str) -> Iterator["re.Match[str]"]:
        if self.pattern is None:  # the registry's "regex" entry before a pattern is given
            raise BPELensError(f"the {self.name!r} pre-tokenizer needs a pattern")
        pattern = self._ascii if self._ascii is not None and text.isascii() else self.pattern
        found = guarded_finditer(pattern, text) if self.guarded else pattern.finditer(text)
        return (m for m in found if m.end() > m.start())

    def words_in_lines(self, text: str) -> List[str]:
        """Words of every line of ``text`` (lines end at ``"\\n"``, which stays in the line).

        >>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS

        >>> PRETOKENIZERS["seed001"].words_in_lines("ab\\ncd")
        ['ab', '\\n', 'cd']
        """
        if self.line_local:
            return self.words(text)
        out: List[str] = []
        # Bound methods, no per-line method call: this loop is the counting hot path.
        add, words = out.extend, self._findall or self.words
        lines = text.split("\n")
        last = lines.pop()
        if self._ascii is None:
            for line in lines:
                add(words(line + "\n"))
        else:
            twin = self._ascii.findall
            bmp = self._bmp_findall()
            for line in lines:
                line += "\n"
                if line.isascii():
                    add(twin(line))
                else:  # most non-ASCII lines (accents, dashes, Han) stay in the BMP: re's faster twin
                    add(bmp(line) if bmp is not None and find_astral(line) is None else words(line))
        if last:
            add(self.words(last))
        return out

    def _bmp_findall(self) -> "Optional[Callable[[str], List[str]]]":
        if self._bmp is None and self._bmp_template is not None:
            self._bmp = compile_bmp_twin(self._bmp_template)
        return self._bmp.findall if self._bmp is not None else None

    def iter_words(self, text: str) -> Iterator[Tuple[int, List[str]]]:
        """:meth:`words` in batches, each with the text position reached (for progress).

        >>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS

        >>> list(PRETOKENIZERS["whitespace"].iter_words("a b"))
        [(3, ['a', 'b'])]
        """
        yield len(text), self.words(text)

    def takes_suffix(self, word: str) -> bool:
        """Whether ``word`` gets the separate end-of-word symbol when the settings have one (every word
        here; the CJK splitter gives Han runs and punctuation none). The unit mapper asks this
        (:class:`~bpe_core.base.units.Units`).

        >>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS

        >>> PRETOKENIZERS["whitespace"].takes_suffix("hé")
        True
        """
        return True

    def split(self, text: str, *, lowercase: bool = False) -> List[Piece]:
        """:meth:`pieces` of ``text`` (lowercased first when asked), spans in the ORIGINAL text.

        >>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS

        >>> [(p.text, p.start, p.end) for p in PRETOKENIZERS["whitespace"].split("İx Y", lowercase=True)]
        [('i̇x', 0, 2), ('y', 3, 4)]
        """
        if not lowercase:
            return self.pieces(text)
        lowered, index = lowercase_with_offsets(text)
        return [Piece(p.text, index[p.start], index[p.end - 1] + 1, p.special, p.suffix, p.meta)
                for p in self.pieces(lowered)]

    def __repr__(self) -> str:
        return f"<PreTokenizer {self.name}>"


def lowercase_with_offsets(text: str) -> Tuple[str, Sequence[int]]:
    """``text.lower()`` and, for each position of it (plus one past the end), the index in ``text``.

    ``str.lower`` can lengthen a character ('İ' -> 'i̇'), so spans found in the lowered text
    must be mapped back: a piece ``[s, e)`` of ``lowered`` is ``[index[s], index[e - 1] + 1)``.

    >>> lowered, index = lowercase_with_offsets("İa")
    >>> lowered, list(index)
    ('i̇a', [0, 0, 1, 2])
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        # No character changed length (lowercase never shortens one), so positions agree.
        return lowered, range(len(text) + 1)
    index: List[int] = []
    for i, ch in enumerate(text):
        # Per-character lengths are context free (the final-sigma rule swaps one char for one).
        index.extend([i] * len(ch.lower()))
    index.append(len(text))
    return lowered, index

