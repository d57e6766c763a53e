"""PickyBPE: a step-wise trainer and encoder identical to pchizhov/picky_bpe (``bpe_trainer.py``).

Words are the whitespace-separated strings of the text, each prefixed with ``▁``; the units are
characters (code points), the rarest of which are replaced by ``<UNK>`` (``coverage``). Each step merges
the most frequent pair; when two pairs are tied, the one that entered the pair table first wins, as in
the reference (``Counter.most_common(1)``). After a merge of A and B, each of A and B (once if A is B) is
removed when its Intersection over Self, merged / (merged + what is left of it), is strictly above the
threshold: its remaining occurrences are split into the present tokens of its merge tree, and a later
merge that forms its string again restores it. A threshold of 1.0 never removes: plain BPE.

The reference iterates Python sets of words where this trainer iterates words in corpus order; that
only changes the order in which new pairs enter the table, so the two can differ only when tied top
pairs entered in the same update (``Candidate.batch``; see docs/variants.md).

>>> trainer = PickyTrainer("aaab aaab aab", vocab_size=10, threshold=0.5)
>>> [s.new for s in trainer.train()]
['aa', '▁aa', 'ab', '▁aaab', 'aa', '▁aa', '▁aab']
>>> [(r.token, r.split) for r in trainer.steps[3].removals]
[('▁aa', ('▁', 'a', 'a')), ('ab', ('a', 'b'))]
>>> trainer.encoder().encode_line("aaab ab")
['▁aaab', '▁', 'a', 'b']
"""
from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

from bpe_core.variants.picky_encode import SPECIALS, WHITESPACE, PickyEncoder

Pair = Tuple[int, int]


class PickyError(ValueError):
    """The reference would fail here (it raises or divides by zero); the message says why."""


@dataclass(frozen=True)
class Removal:
    """A token removed after a merge: its event number, string, split, and the IoS inputs."""

    event: int
    token: str
    split: Tuple[str, ...]
    freq: int
    merged: int


@dataclass(frozen=True)
class Step:
    """One merge (event number, pair, new token, table count, merged frequency) and its removals."""

    index: int
    event: int
    left: str
    right: str
    new: str
    count: int
    actual: int
    removals: Tuple[Removal, ...]


@dataclass(frozen=True)
class Candidate:
    """A top pair: its strings, its place in the pair table, the update that added it to the table,
    and whether the reference's order inside that update depends on set iteration."""

    left: str
    right: str
    serial: int
    batch: int
    set_ordered: bool


def _word_pairs(tokens: List[int], freq: int) -> Dict[Pair, int]:
    return {p: c * freq for p, c in Counter(zip(tokens[:-1], tokens[1:])).items()}


def initial_characters(words: Dict[str, int], coverage: float) -> Dict[str, int]:
    """Character counts kept by the reference's ``_filter_characters`` (its edge case included:
    when the rarest character alone exceeds what may be dropped, every character is dropped)."""
    chars: Counter = Counter()
    for word, freq in words.items():
        chars.update({c: n * freq for c, n in Counter(word).items()})
    if coverage < 1:
        size = sum(chars.values())
        drop = size - round(coverage * size)
        if drop > 0:
            common = chars.most_common()
            total, n = 0, len(common)
            for i, (_, f) in enumerate(reversed(common)):
                total += f
                if total >= drop:
                    n = i
                    break
            for c, _ in common[-n:]:
                chars.pop(c)
    return dict(chars)


class PickyTrainer:
    """Trains PickyBPE on a text one merge at a time; ``step`` returns the merge and its removals."""

    def __init__(self, text: str, vocab_size: int, threshold: float, coverage: float = 0.9999,
                 special_ids: Tuple[int, int, int, int] = (0, 1, 2, 3)) -> None:
        self.desired = vocab_size
        self.threshold = threshold
        self.steps: List[Step] = []
        self.events: List[tuple] = []
        self.strs: List[str] = []
        self.order: List[int] = []
        self._init_tokens(special_ids)
        counts = Counter(text.split())
        self.words = [WHITESPACE + w for w in counts]
        self.freqs = list(counts.values())
        chars = initial_characters(dict(zip(self.words, self.freqs)), coverage)
        if self.words and not chars:
            raise PickyError(f"coverage {coverage} drops every character of this text (the reference's "
                             "edge case when its rarest character alone reaches the share to drop)")
        for c, f in chars.items():
            self._new_token(c, f)
        self.size = len(special_ids) + len(chars)
        unk = self.ids[SPECIALS[1]]
        self.wtokens = [[self.ids.get(c, unk) for c in w] for w in self.words]
        self.wpairs = [_word_pairs(t, f) for t, f in zip(self.wtokens, self.freqs)]
        for i, toks in enumerate(self.wtokens):
            for t in toks:
                self.twords[t].add(i)
        self.pairs: Dict[Pair, int] = {}
        self.stamp: Dict[Pair, Tuple[int, int]] = {}
        self.heap: List[tuple] = []
        self.serial = self.batch = 0
        self.set_batches: Set[int] = set()
        table: Counter = Counter()
        for wp in self.wpairs:
            table.update(wp)
        for p, c in table.items():
            if self._valid(p):
                self.serial += 1
                self.pairs[p], self.stamp[p] = c, (self.serial, 0)
        self.heap = [(-c, self.stamp[p][0], p) for p, c in self.pairs.items()]
        heapq.heapify(self.heap)

    # -- tokens ------------------------------------------------------------------------------
    def _init_tokens(self, special_ids) -> None:
        top = max(special_ids) + 1
        self.freq = [0] * top
        self.strs = [""] * top
        self.special = [False] * top
        self.present = [False] * top
        self.left: List[Optional[int]] = [None] * top
        self.right: List[Optional[int]] = [None] * top
        self.twords: List[Set[int]] = [set() for _ in range(top)]
        self.ids: Dict[str, int] = {}
        for i, s in zip(special_ids, SPECIALS):
            self.strs[i], self.special[i], self.present[i], self.ids[s] = s, True, True, i
            self.order.append(i)

    def _new_token(self, s: str, freq: int, left: Optional[int] = None, right: Optional[int] = None) -> int:
        i = len(self.strs)
        for lst, v in ((self.strs, s), (self.freq, freq), (self.special, False), (self.present, True),
                       (self.left, left), (self.right, right), (self.twords, set())):
            lst.append(v)
        self.ids[s] = i
        self.order.append(i)
        return i

    def _atomic(self, t: int) -> bool:
        return len(self.strs[t]) == 1 or self.special[t]

    def walk(self, t: int) -> List[int]:
        """The present tokens a token's merge tree ends in (itself when present), as ``Token.walk``."""
        if self._atomic(t) or self.present[t]:
            return [t]
        return self.walk(self.left[t]) + self.walk(self.right[t])

    def _valid(self, p: Pair) -> bool:
        return not (self.special[p[0]] or self.special[p[1]])

    # -- the pair table: a dict whose insertion order the heap reproduces ------------------------
    def _add(self, p: Pair, delta: int) -> None:
        c = self.pairs.get(p)
        if c is None:
            self.serial += 1
            self.stamp[p] = (self.serial, self.batch)
            c = 0
        c += delta
        self.pairs[p] = c
        heapq.heappush(self.heap, (-c, self.stamp[p][0], p))

    def _pop(self, p: Pair) -> None:
        del self.pairs[p]
        del self.stamp[p]

    def _new_batch(self, set_ordered: bool) -> None:
        self.batch += 1
        if set_ordered:
            self.set_batches.add(self.batch)

    def _valid_top(self) -> Optional[tuple]:
        while self.heap:
            c, serial, p = self.heap[0]
            if self.pairs.get(p) == -c and self.stamp[p][0] == serial:
                return self.heap[0]
            heapq.heappop(self.heap)
        return None

    def candidates(self) -> List[Candidate]:
        """Every pair tied at the top count, in the pair table's order (the first is the default)."""
        top = self._valid_top()
        if top is None:
            return []
        taken, seen = [], set()
        while self.heap and self.heap[0][0] == top[0]:
            entry = heapq.heappop(self.heap)
            taken.append(entry)
            p = entry[2]
            if p not in seen and self.pairs.get(p) == -entry[0] and self.stamp[p][0] == entry[1]:
                seen.add(p)
        for entry in taken:
            heapq.heappush(self.heap, entry)
        ordered = sorted(seen, key=lambda p: self.stamp[p][0])
        return [Candidate(self.strs[p[0]], self.strs[p[1]], *self.stamp[p], self.stamp[p][1] in self.set_batches)
                for p in ordered]

    # -- training ----------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        top = self._valid_top()
        return self.size >= self.desired or top is None or -top[0] <= 0

    def train(self) -> List[Step]:
        """Run to the vocabulary size (or until no pair is left) and return all steps."""
        while self.step() is not None:
            pass
        return self.steps

    def step(self, pair: Optional[Tuple[str, str]] = None) -> Optional[Step]:
        """Make one merge: the top pair, or ``pair`` (strings) when it is tied at the top count."""
        if self.done:
            return None
        p = self._valid_top()[2]
        if pair is not None:
            chosen = (self.ids.get(pair[0], -1), self.ids.get(pair[1], -1))
            if self.pairs.get(chosen) != self.pairs[p]:
                raise PickyError(f"pair {pair!r} is not tied at the top count ({self.pairs[p]})")
            p = chosen
        count = self.pairs[p]
        event = len(self.events)
        start = len(self.steps)
        self._pop(p)
        new = self._token_for(p)
        self.events.append(("merge", p, new))
        removals: List[Removal] = []
        actual = self._merge_in_words(new, p, removals)
        self.size += 1
        step = Step(start, event, self.strs[p[0]], self.strs[p[1]], self.strs[new], count, actual,
                    tuple(removals))
        self.steps.append(step)
        return step

    def _token_for(self, p: Pair) -> int:
        s = self.strs[p[0]] + self.strs[p[1]]
        t = self.ids.get(s)
        if t is None:
            return self._new_token(s, 0, p[0], p[1])
        if not self.present[t]:
            self.present[t] = True   # restored: keeps its first left and right, and freq 0
        return t

    def _merge_word(self, w: int, p: Pair, new: int) -> int:
        toks, out, i = self.wtokens[w], [], 0
        while i < len(toks):
            if i < len(toks) - 1 and toks[i] == p[0] and toks[i + 1] == p[1]:
                out.append(new)
                i += 2
            else:
                out.append(toks[i])
                i += 1
        self.twords[p[0]].discard(w)
        self.twords[p[1]].discard(w)
        self._set_word(w, out)
        return (len(toks) - len(out)) * self.freqs[w]

    def _set_word(self, w: int, toks: List[int]) -> None:
        self.wtokens[w] = toks
        self.wpairs[w] = _word_pairs(toks, self.freqs[w])
        for t in toks:
            self.twords[t].add(w)

    def _with(self, w: int, t: int) -> Dict[Pair, int]:
        return {q: f for q, f in self.wpairs[w].items() if self._valid(q) and t in q}

    def _merge_in_words(self, new: int, p: Pair, removals: List[Removal]) -> int:
        actual = 0
        update: Counter = Counter()
        for w in sorted(self.twords[p[0]] & self.twords[p[1]]):
            if p in self.wpairs[w]:
                actual += self._merge_word(w, p, new)
                update.update(self._with(w, new))
        self._new_batch(set_ordered=True)
        for q, f in update.items():
            self._add(q, f)
        for q, f in update.items():
            if q[0] == new:
                old = (p[1], p[0]) if q[1] == new else (p[1], q[1])
            else:
                old = (q[0], p[0])
            if old in self.pairs:
                self.pairs[old] -= f
                if self.pairs[old] <= 0:
                    self._pop(old)
                else:
                    heapq.heappush(self.heap, (-self.pairs[old], self.stamp[old][0], old))
        self.freq[new] += actual
        parents = [p[0]] if p[0] == p[1] else list(p)
        for t in parents:
            if not self.present[t]:
                raise PickyError(f"token {self.strs[t]!r} is not present in the vocabulary")
            self.freq[t] -= actual * (2 if p[0] == p[1] else 1)
            freq = self.freq[t]
            if self._remove_if_possible(t, actual):
                event = len(self.events)
                split = self.walk(t)
                self.events.append(("split", t, split))
                removals.append(Removal(event, self.strs[t], tuple(self.strs[s] for s in split), freq, actual))
        return actual

    def _remove_if_possible(self, t: int, merged: int) -> bool:
        if merged + self.freq[t] == 0:
            raise PickyError(f"IoS of {self.strs[t]!r} is 0/0 (the reference divides by zero)")
        if not merged / (self.freq[t] + merged) > self.threshold or self._atomic(t):
            return False
        self.present[t] = False
        split = self.walk(t)
        self.size -= 1
        f = self.freq[t]
        for s in split:
            self.freq[s] += f
        self._new_batch(set_ordered=False)
        for q in zip(split[:-1], split[1:]):
            self._add(q, f)
        update: Counter = Counter()
        for w in sorted(self.twords[t]):
            update.update(self._with(w, t))
            self._set_word(w, [x for s in self.wtokens[w] for x in (split if s == t else [s])])
        self._new_batch(set_ordered=True)
        for q, f in update.items():
            if q[0] == t:
                new = (split[-1], split[0]) if q[1] == t else (split[-1], q[1])
            else:
                new = (q[0], split[0])
            self._add(new, f)
            if q not in self.pairs:
                raise PickyError(f"pair {self.strs[q[0]]!r}+{self.strs[q[1]]!r} is not in the pair table")
            self._pop(q)
        self.freq[t] = 0
        self.twords[t] = set()
        return True

    # -- results -----------------------------------------------------------------------------
    def tokens(self) -> List[Tuple[int, str, int, bool]]:
        """Every token ever made as the reference's model file lists them: (id, str, freq, present)."""
        return [(i, self.strs[i], self.freq[i], self.present[i]) for i in self.order]

    def encoder(self) -> PickyEncoder:
        """The reference's ``picky_tokenize.py`` encoder for this model."""
        merges = [(self.strs[e[1][0]], self.strs[e[1][1]]) if e[0] == "merge" else None for e in self.events]
        splits = [(self.strs[e[1]], tuple(self.strs[s] for s in e[2])) if e[0] == "split" else None
                  for e in self.events]
        present = {self.strs[i] for i in self.order if self.present[i]}
        return PickyEncoder(merges, splits, present, set(self.strs[i] for i in self.order))
