"""Seed 004's Chinese/English splitter as its text intends (issue 10, ``docs/seeds.md``)."""
from __future__ import annotations

import re
from typing import List

import regex

from bpe_core.pretokenize.base import PreTokenizer
from bpe_core.types import Piece


class CJKPreTokenizer(PreTokenizer):
    r"""Seed 004's Chinese/English pre-processing as its text intends (``docs/seeds.md``).

    The text is cut like the seed's ``re.split(r'([^\u4e00-\u9fff\w\s])|(\s+)', text)`` (Python
    ``re``, empty and whitespace parts dropped); every remaining ``\w`` run is cut again into runs of
    Unicode script Han (``regex``'s ``\p{Han}``) and the runs between them. Then:

    =========================================  =========================  ======================
    piece                                      initial symbols            example
    =========================================  =========================  ======================
    a run of Han characters                    its characters, no suffix  自然 -> 自 然
    any other run of word characters           its characters + suffix    BPE -> B P E </w>
    (Latin, digits, accents, kana, Hangul...)                             カナ -> カ ナ </w>
    one punctuation / symbol character         itself, no suffix          ！ -> ！
    =========================================  =========================  ======================

    The seed's code joins a whole sentence into one symbol sequence, so its merges cross words; here
    each piece is a word and merges stay inside it. The suffix is ``config.end_of_word_suffix`` (the
    ``cjk-mixed`` preset sets ``</w>``).
    """

    chars_only = True

    def words(self, text: str) -> List[str]:
        out: List[str] = []
        add, cut = out.append, _HAN_CUT.findall
        for run in _CJK_SPLIT.findall(text):
            if run.isascii() or len(run) == 1:  # no Han in it, or nothing to cut
                add(run)
            else:
                out.extend(cut(run))
        return out

    def pieces(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        for m in _CJK_SPLIT.finditer(text):
            start, run = m.start(), m.group()
            for h in _HAN_CUT.finditer(run):
                word = h.group()
                out.append(Piece(word, start + h.start(), start + h.end(), suffix=_takes_suffix(word)))
        return out

    def takes_suffix(self, word: str) -> bool:
        """A run of non-Han word characters takes the suffix; a Han run and a punctuation character do not.

        >>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS

        >>> [PRETOKENIZERS["cjk"].takes_suffix(w) for w in ["ab", "编程", "école", "！", "カナ"]]
        [True, False, True, False, True]
        """
        return _takes_suffix(word)


def _takes_suffix(word: str) -> bool:
    """True for a run of non-Han word characters; a Han run and a punctuation character get no suffix.

    The word alone says which kind it is: a Han run starts with Han, the other runs hold none, and a
    punctuation character is not a word character.
    """
    return _HAN_START.match(word) is None and _WORD_CHAR.match(word) is not None


# The seed's split, as matches: one character that is neither a word character, whitespace nor in
# [\u4e00-\u9fff] (its first group), or a run of what lies between (whitespace is dropped). Python
# ``re`` as in the seed: its \w differs from ``regex``'s (combining marks are not \w here).
_CJK_SPLIT = re.compile(r"[\w\u4e00-\u9fff]+|[^\u4e00-\u9fff\w\s]")
_WORD_CHAR = re.compile(r"[\w\u4e00-\u9fff]")
#: a \w run is cut into runs of Unicode script Han and the runs between them
_HAN_CUT = regex.compile(r"\p{Han}+|\P{Han}+")
_HAN_START = regex.compile(r"\p{Han}")
CJK_RE = _CJK_SPLIT
