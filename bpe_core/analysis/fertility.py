"""Fertility: how many tokens a vocabulary spends per word and per 100 characters, per group.

The parity question ("does this vocabulary starve Chinese?") is a comparison of groups: words in
one script or one file against another. Groups come from a function of the word (its script,
:func:`~bpe_core.analysis.scripts.word_script`) or are given (one file's pieces). Counts are
weighted by piece frequency; a piece's tokens are its segmentation under the model (the encoder's
rule, :class:`~bpe_core.analysis.replay.Segmenter`), an end-of-word suffix symbol included.

Tokens per word is the Measures chart's (:mod:`bpe_core.analysis.curves`, issue 26): a group's tokens over
the whitespace-separated words (``str.split()``) of the text in that group, ``words`` (a script's words, by
:func:`~bpe_core.analysis.scripts.text_words`; a file's words). A pre-tokenizer piece is not a word: GPT-2
cuts "don't" in two and a Tamil word at each combining mark, so counting pieces read Tamil near one token per
"word". Pieces alone cannot tell where a word starts (a piece without a leading space may start a line or
follow another piece of the same word), so without the text's words a group's pieces are what it divides by:
``Fertility.words`` is then its pieces, and the figure is tokens per piece (the Health report says so).

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=list("abя") + ["ab"], merges=[(0, 1)])
>>> rows = fertility_by_script(m, {("ab", True): 3, ("яя", True): 1})
>>> [(f.group, f.words, f.chars, f.tokens, f.tokens_per_word, f.tokens_per_100_chars) for f in rows]
[('Latin', 3, 6, 3, 1.0, 50.0), ('Cyrillic', 1, 2, 2, 2.0, 100.0)]
>>> [(f.group, f.words, f.tokens_per_word) for f in fertility_by_script(m, {("ab", True): 3, ("яя", True): 1},
...                                                                     words={"Latin": 1, "Cyrillic": 1})]
[('Latin', 1, 3.0), ('Cyrillic', 1, 2.0)]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from bpe_core.analysis.replay import Segmenter
from bpe_core.analysis.scripts import word_script
from bpe_core.model import BPEModel

Pieces = Mapping[Tuple[str, bool], int]  # (piece text, gets the end-of-word suffix) -> count


@dataclass(frozen=True)
class Fertility:
    """One group's totals: its words (the text's whitespace-separated words in it; its pieces when the text
    is not known), its pieces' characters and tokens."""

    group: str
    words: int
    chars: int
    tokens: int

    @property
    def tokens_per_word(self) -> float:
        return self.tokens / self.words if self.words else 0.0

    @property
    def tokens_per_100_chars(self) -> float:
        return 100.0 * self.tokens / self.chars if self.chars else 0.0


def fertility_of(pieces: Pieces, tokens_of: Callable[[str, bool], int],
                 group_of: Callable[[str], str], words: Optional[Mapping[str, int]] = None) -> List[Fertility]:
    """Totals per group, groups in order of first appearance; ``words``: the text's words per group (what
    tokens per word divides by), else each group's pieces."""
    totals: Dict[str, List[int]] = {}
    for (word, suffix), n in pieces.items():
        g = group_of(word)
        t = totals.get(g)
        if t is None:
            t = totals[g] = [0, 0, 0]
        t[0] += n
        t[1] += n * len(word)
        t[2] += n * tokens_of(word, suffix)
    if words is not None:
        for g in words:
            totals.setdefault(g, [0, 0, 0])  # words of a script no piece is in (a mixed word's minority)
        for g, t in totals.items():
            t[0] = words.get(g, 0)
    return [Fertility(g, *t) for g, t in totals.items()]


def token_counter(model: BPEModel, segmenter: Optional[Segmenter] = None) -> Callable[[str, bool], int]:
    """A piece's number of tokens under ``model`` (a unit with no token counts as one)."""
    seg = segmenter or Segmenter(model)
    return lambda word, suffix: len(seg.segment_ids(word, suffix))


def fertility_by_script(model: BPEModel, pieces: Pieces, segmenter: Optional[Segmenter] = None,
                        words: Optional[Mapping[str, int]] = None) -> List[Fertility]:
    """Fertility per Unicode script of the pieces' letters (``Common``: pieces without letters); ``words``: the
    text's whitespace-separated words by script (:func:`~bpe_core.analysis.scripts.text_words`)."""
    return fertility_of(pieces, token_counter(model, segmenter), word_script, words)


def fertility_by_file(model: BPEModel, files: List[Tuple[str, Pieces]], segmenter: Optional[Segmenter] = None,
                      words: Optional[Sequence[int]] = None) -> List[Fertility]:
    """Fertility per file: ``files`` is (name, that file's pieces), in order; ``words``: each file's
    whitespace-separated words."""
    count = token_counter(model, segmenter)
    out: List[Fertility] = []
    for k, (name, pieces) in enumerate(files):
        rows = fertility_of(pieces, count, lambda _w, name=name: name, None if words is None else {name: words[k]})
        out.append(rows[0] if rows else Fertility(name, 0, 0, 0))
    return out
