"""The incremental pair statistics behind the trainer.

State: every unique word's segmentation (token ids), a count per adjacent pair, a pair -> words
index (a superset: stale words are skipped when read) and a heap of candidate merges with lazy
deletion. Merging a pair touches only the words that hold it; nothing is ever recounted.

Pairs are ints, ``left << SHIFT | right``, which hash and compare faster than tuples.

Heap entries, by tie rule (best first):

* ``hf``: ``(-count, pair)`` - smallest (id_left, id_right), as tokenizers' BpeTrainer;
* ``lexicographic``: ``(-count, (left token, right token), pair)``;
* ``first-seen``: ``(-count, word << 32 | char offset, pair)`` - where the pair first occurs when
  scanning words in order of first appearance, symbols left to right. ``first`` keeps a lower bound
  of that word per pair; :meth:`PairIndex.exact_first` makes it exact when the pair reaches the top.

An entry may be stale (its count or key moved); :meth:`PairIndex.pop_best` re-pushes such entries
with current values. Entries are pushed whenever a pair gains occurrences, so the true best pair
always has an entry at least as good as its current key.

>>> idx = PairIndex([[0, 1, 0, 1]], [3], [b"a", b"b"], [1, 1], "hf")
>>> idx.pop_best()  # (a, b) twice in a word seen 3 times
(1, 6)
"""
from __future__ import annotations

import heapq
from collections import Counter
from itertools import repeat
from operator import lshift, or_
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from bpe_core.encoding.merge import expand_pair, merge_in_place
from bpe_core.types import Raw

SHIFT = 21  # pair key = left << SHIFT | right; ids stay below 2**21
MASK = (1 << SHIFT) - 1
WORD_SHIFT = 32  # first-seen key = word << 32 | char offset
#: a word with more occurrences of the merged pair (or symbols, in undo) than this gets its counts
#: updated in aggregate (Counter, C speed); short words keep the plain loop, which is faster for them
MANY = 32


def pair_keys(syms: Sequence[int]) -> Iterator[int]:
    """The pair keys of ``syms`` left to right, built at C speed.

    >>> list(pair_keys([1, 2, 3])) == [1 << SHIFT | 2, 2 << SHIFT | 3]
    True
    """
    return map(or_, map(lshift, syms[:-1], repeat(SHIFT)), syms[1:])  # type: ignore[index]


def pairs_of(syms: Sequence[int]) -> Iterator[int]:
    for i in range(len(syms) - 1):
        yield (syms[i] << SHIFT) | syms[i + 1]


class PairIndex:
    """Pair counts over segmented words, kept current merge by merge (and undo by undo)."""

    def __init__(self, segs: List[List[int]], freqs: List[int], tokens: List[Raw], lens: List[int],
                 rule: str) -> None:
        self.segs = segs  # shared with the trainer; changed in place
        self.freqs = freqs
        self.tokens = tokens  # grows and shrinks with the trainer's vocabulary
        self.lens = lens  # units (chars or bytes) per token, for first-seen offsets
        self.rule = rule
        self.occ: List[int] = [0] * len(tokens)  # occurrences of each token in the unique words
        for syms in segs:
            for tid in syms:
                self.occ[tid] += 1
        counts: Dict[int, int] = {}
        where: Dict[int, Set[int]] = {}
        first: Dict[int, int] = {}
        get = counts.get
        for w, syms in enumerate(segs):
            if len(syms) < 2:
                continue
            f = freqs[w]
            # pair keys built at C speed: left << SHIFT | right for each neighbour pair
            for k in map(or_, map(lshift, syms[:-1], repeat(SHIFT)), syms[1:]):
                c = get(k)
                if c is None:
                    counts[k] = f
                    where[k] = {w}
                    first[k] = w
                else:
                    counts[k] = c + f
                    where[k].add(w)
        self.counts = counts
        self.where = where
        self.first = first  # lower bound of the first word holding the pair (first-seen rule)
        if rule == "hf":  # the entry is (-count, pair): skip a method call per pair
            self.heap: list = [(-c, k) for k, c in counts.items()]
        else:
            self.heap = [self.entry(k, c) for k, c in counts.items()]
        heapq.heapify(self.heap)

    def add_token(self, length: int) -> None:
        self.lens.append(length)
        self.occ.append(0)

    def remove_token(self) -> None:
        self.lens.pop()
        self.occ.pop()

    def count(self, left: int, right: int) -> int:
        return self.counts.get((left << SHIFT) | right, 0)

    def take_words(self, k: int) -> List[int]:
        """The words that may hold pair ``k`` (about to be merged), ascending; the index forgets them."""
        return sorted(self.where.pop(k, ()))

    def drop(self, k: int) -> None:
        """Forget pair ``k`` once merged (after :meth:`apply`: merging ``a a a`` touches ``(a, a)``)."""
        self.counts.pop(k, None)
        self.first.pop(k, None)

    def top(self, n: int) -> List[Tuple[int, int]]:
        """The ``n`` best (pair, count), in the order the tie rule would merge them."""
        taken: List[Tuple[int, int]] = []
        seen: Set[int] = set()
        while len(taken) < n:
            best = self.pop_best()
            if best is None:
                break
            if best[0] not in seen:
                seen.add(best[0])
                taken.append(best)
        for key, c in taken:
            self.push_back(key, c)
        return taken

    def entry(self, k: int, count: int) -> tuple:
        rule = self.rule
        if rule == "hf":
            return (-count, k)
        if rule == "first-seen":
            return (-count, self.first.get(k, 0) << WORD_SHIFT, k)
        return (-count, (self.tokens[k >> SHIFT], self.tokens[k & MASK]), k)

    def exact_first(self, k: int) -> int:
        """The first-seen key of pair ``k``: first word containing it << 32 | char offset."""
        left, right = k >> SHIFT, k & MASK
        w = self.first.get(k, 0)
        off = self.offset_in(w, left, right)
        if off is None:
            found = None
            cands = self.where.get(k, set())
            for w in sorted(cands):
                off = self.offset_in(w, left, right)
                if off is not None:
                    found = w
                    break
                cands.discard(w)  # stale: the word no longer contains the pair
            if found is None:
                raise AssertionError("pair with a positive count occurs in no word")
            w = found
            self.first[k] = w
        return (w << WORD_SHIFT) | off  # type: ignore[operator]

    def offset_in(self, w: int, left: int, right: int) -> Optional[int]:
        syms = self.segs[w]
        off = 0
        lens = self.lens
        for i in range(len(syms) - 1):
            if syms[i] == left and syms[i + 1] == right:
                return off
            off += lens[syms[i]]
        return None

    def pop_best(self) -> Optional[Tuple[int, int]]:
        """Pop the best valid (pair, count) off the heap; None when no pair has a count."""
        heap, counts = self.heap, self.counts
        first_seen = self.rule == "first-seen"
        while heap:
            entry = heapq.heappop(heap)
            k = entry[-1]
            c = counts.get(k, 0)
            if c <= 0:
                continue
            if -entry[0] != c:
                heapq.heappush(heap, self.entry(k, c))
                continue
            if first_seen:
                exact = self.exact_first(k)
                if entry[1] != exact:
                    heapq.heappush(heap, (-c, exact, k))
                    continue
            return k, c
        return None

    def push_back(self, k: int, c: int) -> None:
        if self.rule == "first-seen":
            heapq.heappush(self.heap, (-c, self.exact_first(k), k))
        else:
            heapq.heappush(self.heap, self.entry(k, c))

    def apply(self, words: List[int], left: int, right: int, new_id: int,
              befores: Optional[List[List[int]]], log: Optional[List[Tuple[int, int]]] = None
              ) -> Tuple[List[int], int]:
        """Merge (left, right) -> new_id in ``words``; update counts, index, heap. The hot loop.

        Returns the changed words (ascending) and how many tokens the corpus lost (weighted).
        ``befores`` collects the changed words' old segmentations; ``log`` the count changes.
        """
        segs, freqs, counts, where, first = self.segs, self.freqs, self.counts, self.where, self.first
        pushed: Set[int] = set()
        changed: List[int] = []
        removed_tokens = 0
        occ = self.occ
        track_first = self.rule == "first-seen"  # only that rule reads _first
        by_right = left != right and occ[right] < occ[left]  # scan for the rarer symbol
        merged = 0
        for w in words:
            syms = segs[w]
            spots = []  # start positions of non-overlapping (left, right), left to right
            index = syms.index
            try:  # merge.find_pair, inlined: this loop runs for every word the pair touches
                if by_right:  # left != right here, so occurrences cannot overlap
                    i = index(right, 1)
                    while True:
                        if syms[i - 1] == left:
                            spots.append(i - 1)
                        i = index(right, i + 1)
                else:
                    n1 = len(syms) - 1
                    i = index(left)
                    while True:
                        if i < n1 and syms[i + 1] == right:
                            spots.append(i)
                            i = index(left, i + 2)
                        else:
                            i = index(left, i + 1)
            except ValueError:
                pass
            if not spots:
                continue
            if befores is not None:
                befores.append(syms[:])
            f = freqs[w]
            n = len(syms)
            ns = len(spots)
            if ns > MANY:  # a long word: count its neighbours at C speed, then update once
                self._apply_many(w, syms, spots, left, right, new_id, pushed, log)
                spots_done: List[int] = []
            else:
                spots_done = spots
            after = -3  # the previous spot: a pair right after it has the new token on its left
            for i in spots_done:  # positions in the word before this merge
                if i:
                    p = new_id if i == after + 2 else syms[i - 1]
                    kk = (p << SHIFT) | left
                    counts[kk] -= f
                    kk2 = (p << SHIFT) | new_id
                    counts[kk2] = counts.get(kk2, 0) + f
                    if log is not None:
                        log.append((kk, -f))
                        log.append((kk2, f))
                    kk = kk2
                    pushed.add(kk)
                    ws = where.get(kk)
                    if ws is None:
                        where[kk] = {w}
                    else:
                        ws.add(w)
                    if track_first and w < first.get(kk, w + 1):
                        first[kk] = w
                if i + 2 < n:
                    nx = syms[i + 2]  # a later spot's left symbol is still unmerged here
                    kk = (right << SHIFT) | nx
                    counts[kk] = counts.get(kk, 0) - f
                    kk2 = (new_id << SHIFT) | nx
                    counts[kk2] = counts.get(kk2, 0) + f
                    if log is not None:
                        log.append((kk, -f))
                        log.append((kk2, f))
                    kk = kk2
                    pushed.add(kk)
                    ws = where.get(kk)
                    if ws is None:
                        where[kk] = {w}
                    else:
                        ws.add(w)
                    if track_first and w < first.get(kk, w + 1):
                        first[kk] = w
                after = i
            if ns == 1:  # most words hold the pair once: merge_in_place's first case, without the call
                syms[spots[0]] = new_id
                del syms[spots[0] + 1]
            else:
                merge_in_place(syms, spots, new_id)
            removed_tokens += f * ns
            merged += ns
            changed.append(w)
        occ[left] -= merged
        occ[right] -= merged
        occ[new_id] += merged
        heap = self.heap
        for kk in pushed:
            c = counts[kk]
            if c > 0:
                heapq.heappush(heap, self.entry(kk, c))
        return changed, removed_tokens

    def _apply_many(self, w: int, syms: List[int], spots: List[int], left: int, right: int, new_id: int,
                    pushed: Set[int], log: Optional[List[Tuple[int, int]]]) -> None:
        """:meth:`apply`'s count updates for one word with many occurrences, aggregated per pair.

        The same net changes as the per-occurrence loop (the log holds them net per pair, which is
        all :func:`~bpe_core.training.records.changed_pairs` reads), with the neighbours counted by
        ``Counter`` in C: a 256k-symbol word's merge takes milliseconds instead of ~0.2 s.
        """
        f, n = self.freqs[w], len(syms)
        # the left neighbour as the merge finds it: the new token when the previous spot is adjacent
        lefts = Counter([new_id if k and spots[k - 1] == i - 2 else syms[i - 1]
                         for k, i in enumerate(spots) if i])
        rights = Counter([syms[i + 2] for i in spots if i + 2 < n])
        delta: Dict[int, int] = {}
        made: List[int] = []
        for p, c in lefts.items():
            kk, kk2 = (p << SHIFT) | left, (p << SHIFT) | new_id
            delta[kk] = delta.get(kk, 0) - c * f
            delta[kk2] = delta.get(kk2, 0) + c * f
            made.append(kk2)
        for nx, c in rights.items():
            kk, kk2 = (right << SHIFT) | nx, (new_id << SHIFT) | nx
            delta[kk] = delta.get(kk, 0) - c * f
            delta[kk2] = delta.get(kk2, 0) + c * f
            made.append(kk2)
        counts, where, first = self.counts, self.where, self.first
        for kk, d in delta.items():
            counts[kk] = counts.get(kk, 0) + d
        if log is not None:
            log.extend(delta.items())
        track_first = self.rule == "first-seen"
        for kk in made:
            pushed.add(kk)
            ws = where.get(kk)
            if ws is None:
                where[kk] = {w}
            else:
                ws.add(w)
            if track_first and w < first.get(kk, w + 1):
                first[kk] = w

    def replace(self, w: int, new: List[int]) -> int:
        """Give word ``w`` a new segmentation, updating counts, index and heap (used by undo).

        Returns the change in the corpus's token count (weighted).
        """
        old = self.segs[w]
        f = self.freqs[w]
        counts, where, first = self.counts, self.where, self.first
        occ = self.occ
        if len(old) + len(new) > 2 * MANY:  # a long word: count symbols and pairs at C speed
            for tid, c in Counter(old).items():
                occ[tid] -= c
            for tid, c in Counter(new).items():
                occ[tid] += c
            for kk, c in Counter(pair_keys(old)).items():
                counts[kk] -= c * f
            added = dict(Counter(pair_keys(new)))
        else:
            for tid in old:
                occ[tid] -= 1
            for tid in new:
                occ[tid] += 1
            for kk in pairs_of(old):
                counts[kk] -= f
            added: Dict[int, int] = {}
            for kk in pairs_of(new):
                added[kk] = added.get(kk, 0) + 1
        for kk, c in added.items():  # one heap entry per pair, with its final count
            counts[kk] = counts.get(kk, 0) + c * f
            ws = where.get(kk)
            if ws is None:
                where[kk] = {w}
            else:
                ws.add(w)
            if w < first.get(kk, w + 1):
                first[kk] = w
        for kk in added:
            heapq.heappush(self.heap, self.entry(kk, counts[kk]))
        self.segs[w] = new
        return f * (len(new) - len(old))


def expand(after: Sequence[int], new_id: int, left: int, right: int) -> Tuple[int, ...]:
    """Undo one merge in a segmentation: every ``new_id`` back to ``left, right``."""
    return tuple(expand_pair(after, new_id, left, right))
