"""PickyBPE's encoder, as ``picky_tokenize.py`` of pchizhov/picky_bpe encodes with a trained model.

A word (``▁`` + a whitespace-separated string of the line) that is a present token is that token.
Otherwise its characters (``<UNK>`` for those not in the vocabulary) replay the model's events: at each
point the earliest event, not before the last one applied, that applies to the word: the merge of a pair
it has (every occurrence, left to right) or the split of a removed token it has.

>>> merges, splits = [("a", "b"), None], [None, ("ab", ("a", "b"))]   # event 0 merges, event 1 removes
>>> encoder = PickyEncoder(merges, splits, present={"▁", "a", "b"}, known={"▁", "a", "b", "ab"})
>>> encoder.encode_line("ab abc")
['▁', 'a', 'b', '▁', 'a', 'b', '<UNK>']
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Dict, Iterable, List, Optional, Set, Tuple

WHITESPACE = "▁"
SPECIALS = ("<PAD>", "<UNK>", "<BOS>", "<EOS>")


class PickyEncoder:
    """Encodes as ``picky_tokenize.BPEModel._encode_word_by_events``: a word that is a present token
    is that token; otherwise its characters go through the merge and split events in order."""

    def __init__(self, merges: List[Optional[Tuple[str, str]]], splits: List[Optional[Tuple[str, tuple]]],
                 present: Set[str], known: Iterable[str]) -> None:
        self.present, self.known = present, set(known)
        self.merge_map: Dict[Tuple[str, str], List[int]] = {}
        self.split_map: Dict[str, List[int]] = {}
        self.splits: Dict[int, tuple] = {}
        for i, m in enumerate(merges):
            if m is not None:
                self.merge_map.setdefault(m, []).append(i)
        for i, s in enumerate(splits):
            if s is not None:
                self.split_map.setdefault(s[0], []).append(i)
                self.splits[i] = s[1]
        self.cache: Dict[str, List[str]] = {}

    def encode_line(self, line: str) -> List[str]:
        """Token strings of one line, as ``picky_tokenize.py --return_type str`` writes them."""
        return [t for w in line.strip().split() for t in self.encode_word(WHITESPACE + w)]

    def encode_word(self, word: str) -> List[str]:
        if word not in self.cache:
            self.cache[word] = self._encode(word)
        return self.cache[word]

    @staticmethod
    def _next(ids: List[int], after: int) -> Optional[int]:
        i = bisect_left(ids, after)
        return ids[i] if i < len(ids) else None

    def _encode(self, word: str) -> List[str]:
        if word in self.present:
            return [word]
        toks = [c if c in self.known else SPECIALS[1] for c in word]
        previous = -1
        while True:
            best: Optional[Tuple[int, str, object]] = None
            for p in zip(toks[:-1], toks[1:]):
                e = self._next(self.merge_map.get(p, []), previous)
                if e is not None and (best is None or e < best[0]):
                    best = (e, "merge", p)
            for t in toks:
                e = self._next(self.split_map.get(t, []), previous)
                if e is not None and (best is None or e < best[0]):
                    best = (e, "split", t)
            if best is None:
                return toks
            previous, kind, what = best
            toks = self._apply(toks, kind, what, previous)

    def _apply(self, toks: List[str], kind: str, what, event: int) -> List[str]:
        if kind == "split":
            return [x for t in toks for x in (self.splits[event] if t == what else (t,))]
        out, i = [], 0
        while i < len(toks):
            if i < len(toks) - 1 and (toks[i], toks[i + 1]) == what:
                out.append(what[0] + what[1])
                i += 2
            else:
                out.append(toks[i])
                i += 1
        return out
