"""PickyBPE's encoder over token *strings*, for the standalone trainer (:mod:`bpe_core.variants.picky`).

A thin wrapper: the replay itself has one home, :func:`bpe_core.encoding.picky.replay` (what
``Encoder`` runs for a BPEModel of algorithm ``"picky"``); this maps strings to ids and back.

>>> merges, splits = [("a", "b"), None], [None, ("ab", ("a", "b"))]   # event 0 merges, event 1 removes
>>> encoder = PickyEncoder(merges, splits, present={"▁", "a", "b"}, known={"▁", "a", "b", "ab"})
>>> encoder.encode_line("ab abc")
['▁', 'a', 'b', '▁', 'a', 'b', '<UNK>']
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Set, Tuple

from bpe_core.encoding.picky import Event, replay
from bpe_core.formats.picky_file import SPECIALS, WHITESPACE

__all__ = ["PickyEncoder", "SPECIALS", "WHITESPACE"]


class PickyEncoder:
    """Encodes as ``picky_tokenize.BPEModel._encode_word_by_events``: a word that is a present token
    is that token; otherwise its characters go through the merge and split events in order."""

    def __init__(self, merges: List[Optional[Tuple[str, str]]], splits: List[Optional[Tuple[str, tuple]]],
                 present: Set[str], known: Iterable[str]) -> None:
        self.present = present
        self.strs = sorted(set(known) | {SPECIALS[1]})
        self.ids = {s: i for i, s in enumerate(self.strs)}
        ids = self.ids
        self.events: List[Event] = []
        self.merge_at: Dict[Tuple[int, int], List[int]] = {}
        self.split_at: Dict[int, List[int]] = {}
        for e, (m, s) in enumerate(zip(merges, splits)):
            if m is not None:
                pair = (ids[m[0]], ids[m[1]])
                self.events.append(("m", pair, ids[m[0] + m[1]]))
                self.merge_at.setdefault(pair, []).append(e)
            elif s is not None:
                self.events.append(("s", ids[s[0]], tuple(ids[x] for x in s[1])))
                self.split_at.setdefault(ids[s[0]], []).append(e)
        self.cache: Dict[str, List[str]] = {}

    def encode_line(self, line: str) -> List[str]:
        """Token strings of one line, as ``picky_tokenize.py --return_type str`` writes them."""
        return [t for w in line.strip().split() for t in self.encode_word(WHITESPACE + w)]

    def encode_word(self, word: str) -> List[str]:
        if word not in self.cache:
            if word in self.present:
                self.cache[word] = [word]
            else:
                unk = self.ids[SPECIALS[1]]
                ids = replay([self.ids.get(c, unk) for c in word], self.merge_at, self.split_at, self.events)
                self.cache[word] = [self.strs[i] for i in ids]
        return self.cache[word]
