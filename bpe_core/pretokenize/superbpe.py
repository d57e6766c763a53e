"""SuperBPE's two pre-tokenizers, as the authors' ``train_tokenizer.py`` builds them.

The reference (PythonNut/superbpe, ``utils.train_or_extend_tokenizer``) cuts text with
``Split(Regex(regex), behavior="isolated")`` and then ``ByteLevel(use_regex=False)``. With "isolated",
the stretches of text *between* two matches are units too, so nothing is ever dropped:

* stage 1 (``scripts/train_tokenizer.sh``): o200k's pattern without its contraction suffixes (its
  matches cover all text, so the stretches between are always empty);
* stage 2 (``scripts/extend_tokenizer.sh``): only groups of 1-3 digits, runs of two or more
  punctuation marks and runs of spaces before whitespace are matched; everything between - runs of
  words with their single spaces and single punctuation marks - is one unit, a "superword" unit.

>>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
>>> PRETOKENIZERS["superbpe-stage2"].words("He is in 2000 , so -- yes.  \\n")
['He is in ', '200', '0', ' , so', ' --', ' yes.', '  ', '\\n']
>>> PRETOKENIZERS["superbpe-stage1"].words("He is in 2000 , so")
['He', ' is', ' in', ' ', '200', '0', ' ,', ' so']
"""
from __future__ import annotations

from typing import List

import regex

from bpe_core.pretokenize.base import PreTokenizer
from bpe_core.types import Piece

__all__ = ["STAGE1_PATTERN", "STAGE2_PATTERN", "IsolatedSplit", "stage1_pretokenizer", "stage2_pretokenizer"]

#: ``scripts/train_tokenizer.sh``'s regex (PythonNut/superbpe at bbd0976)
STAGE1_PATTERN = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|"
                  r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|"
                  r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")
#: ``scripts/extend_tokenizer.sh``'s regex
STAGE2_PATTERN = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"

# The same patterns for pure-ASCII text with Python's re (re.ASCII): \s is regex's \s on ASCII, \p{L} is
# A-Za-z, \p{N} is 0-9, and ASCII has no Lt/Lm/Lo/M characters (a test checks both agree).
_STAGE1_ASCII = r"[^\r\nA-Za-z0-9]?[A-Z]*[a-z]+|[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*|[0-9]{1,3}| ?[^\sA-Za-z0-9]+[\r\n/]*|" \
                r"\s*[\r\n]+|\s+(?!\S)|\s+"
_STAGE2_ASCII = r"[0-9]{1,3}| ?[^\sA-Za-z0-9]{2,}[\r\n/]*| +(?!\S)"


def _with_gaps(pattern: str) -> str:
    """``pattern``, or else a run of characters at none of which ``pattern`` matches: the matches and
    the stretches between them, in order (tokenizers' ``Split`` with behavior "isolated"). The
    alternatives of both stage patterns never match the empty string, so a position where one matches is
    exactly where the next match starts. The run is possessive (``++``): it is the longest such run and
    nothing after it could make it give a character back, so it never backtracks (the pattern guard's rule)."""
    return f"(?:{pattern})|(?:(?!(?:{pattern}))[\\s\\S])++"


class IsolatedSplit(PreTokenizer):
    """tokenizers' ``Split(pattern, behavior="isolated", invert=False)``: each match is a unit, and so is
    each non-empty stretch between two matches (and before the first, after the last)."""

    def __init__(self, name: str, description: str, pattern: str, ascii_pattern: str) -> None:
        super().__init__(name, description, regex.compile(_with_gaps(pattern)),
                         ascii_twin=_with_gaps(ascii_pattern), cut_at_space=False)

    def pieces(self, text: str) -> List[Piece]:
        return [Piece(m.group(), m.start(), m.end()) for m in self._matches(text)]


def stage1_pretokenizer() -> IsolatedSplit:
    return IsolatedSplit("superbpe-stage1", "SuperBPE stage 1: o200k's regex without contractions, isolated "
                         "(the authors' train_tokenizer.sh)", STAGE1_PATTERN, _STAGE1_ASCII)


def stage2_pretokenizer() -> IsolatedSplit:
    return IsolatedSplit("superbpe-stage2", "SuperBPE stage 2: digits, punctuation runs and trailing spaces cut; "
                         "the words between stay one unit (the authors' extend_tokenizer.sh)",
                         STAGE2_PATTERN, _STAGE2_ASCII)
