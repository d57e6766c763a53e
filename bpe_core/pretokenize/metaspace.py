"""PickyBPE's words: each whitespace-separated string of the text, prefixed with ``▁`` (U+2581).

The reference (pchizhov/picky_bpe) reads ``line.split()`` and makes ``▁`` + word of each: a SentencePiece-like
metaspace without replacing spaces (a ``▁`` already in the text is not told apart). The words are those of
the ``whitespace`` pre-tokenizer (``str.split()``); a piece's ``meta["align"]`` maps the ``▁`` to the empty
span before the word and each other character to its own. The cut has this one home: the reference's model
file's pipeline (``formats/picky_file.PickyWords``, whose ``▁`` spans the word's first character instead) and
the Trainer set up as the reference trains (``variants/picky_model.reference_trainer``) cut text with it.

>>> from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
>>> PRETOKENIZERS["picky"].words("to be,  or\\nnot")
['▁to', '▁be,', '▁or', '▁not']
>>> [(p.text, p.start, p.end) for p in PRETOKENIZERS["picky"].pieces(" ab c")]
[('▁ab', 1, 3), ('▁c', 4, 5)]
"""
from __future__ import annotations

from typing import Iterator, List, Tuple

from bpe_core.pretokenize.base import PreTokenizer
from bpe_core.types import Piece

__all__ = ["MetaspaceWords", "METASPACE"]

METASPACE = "\u2581"


class MetaspaceWords(PreTokenizer):
    """Another pre-tokenizer's words, each prefixed with ``▁`` (see the module doc)."""

    def __init__(self, name: str, description: str, inner: PreTokenizer) -> None:
        super().__init__(name, description, inner.pattern, line_local=inner.line_local,
                         cut_at_space=inner.cut_at_space)
        self.inner = inner
        self.per_line = inner.per_line

    def words(self, text: str) -> List[str]:
        return [METASPACE + w for w in self.inner.words(text)]

    def words_in_lines(self, text: str) -> List[str]:
        return [METASPACE + w for w in self.inner.words_in_lines(text)]

    def iter_words(self, text: str) -> Iterator[Tuple[int, List[str]]]:
        for end, words in self.inner.iter_words(text):
            yield end, [METASPACE + w for w in words]

    def pieces(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        for p in self.inner.pieces(text):
            align = [(p.start, p.start)] + [(p.start + i, p.start + i + 1) for i in range(len(p.text))]
            out.append(Piece(METASPACE + p.text, p.start, p.end, meta={"align": align}))
        return out
