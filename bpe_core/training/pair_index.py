"""The incremental pair statistics behind the trainer.

State: every unique word's segmentation (token ids), a count per adjacent pair, a pair -> words
index (a list per pair, ascending, a superset: stale words are skipped when read, and a word may repeat) and a heap
of candidate merges with lazy deletion. Merging a pair touches only the words that hold it; nothing
is ever recounted. A pair whose count falls to 0 in a merge or an undo is forgotten (count, words,
first), so the index holds the live pairs only; the stale heap entries and listed words that scrubbing
back and forth leaves are bounded by :mod:`~bpe_core.training.index_bounds`. Lists, not sets (a
1-element set costs 216 bytes, a list 64), and int heap entries, not tuples, keep a full train's state
small (docs/benchmarks.md).

Pairs are ints, ``left << SHIFT | right``, which hash and compare faster than tuples.

Heap entries, by tie rule (best first):

* ``hf``: ``(-count, pair)`` - smallest (id_left, id_right), as tokenizers' BpeTrainer; packed in
  one int, ``pair - (count << PACK)`` (ints compare faster than tuples and take less room);
* ``lexicographic``: ``(-count, (left token, right token), pair)``;
* ``table-order``: ``(-count, serial, pair)`` - the order pairs entered the table (PickyBPE's reference;
  :mod:`~bpe_core.training.table_order`);
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
from itertools import chain
from typing import List, Optional, Sequence, Set, Tuple, Union

from bpe_core.base.merge import expand_pair, merge_in_place
from bpe_core.training.bulk import BULK_SYMBOLS, BULK_WORDS, apply_bulk, apply_flat, initial_pairs_bulk
from bpe_core.training.index_bounds import bound
from bpe_core.training.table_order import UNSEEN, initial_serials
from bpe_core.training.pairs import (MANY, MASK, PACK, PAIRS_SLICE, PMASK, SHIFT, WORD_SHIFT, apply_many, initial_pairs,
                                     pairs_of, replace_word)
from bpe_core.types import Raw

__all__ = ["PairIndex", "expand", "MASK", "SHIFT", "pairs_of"]  # the pair keys' home is training.pairs


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
        occ = self.occ
        #: work done, for tests that count it as inputs grow: symbols read (a word's symbols each time a merge,
        #: an undo or the first count reads it) and heap entries pushed
        self.scanned = sum(map(len, segs))
        self.pushes = 0
        for lo in range(0, len(segs), PAIRS_SLICE):  # counted at C speed, a slice of words a pass (the GIL
            for tid, n in Counter(chain.from_iterable(segs[lo:lo + PAIRS_SLICE])).items():  # is free between)
                occ[tid] += n
        counts, where = (initial_pairs if self.scanned < BULK_SYMBOLS else initial_pairs_bulk)(segs, freqs)
        self.counts = counts
        self.where = where
        #: first-seen: a lower bound of the first word holding each pair (no other rule reads it)
        self.first = {k: ws[0] for k, ws in where.items()} if rule == "first-seen" else {}
        #: table-order: pair -> serial (:mod:`~bpe_core.training.table_order` keeps it)
        self.serial = initial_serials(segs) if rule == "table-order" else {}
        self.heap: list = []
        self.rebuild_heap()
        #: entries in the word lists of ``where`` (now, and after the first count or the last rebuild), and
        #: symbols in the words: see :func:`~bpe_core.training.index_bounds.bound`
        self.listed = self.listed_base = sum(map(len, where.values()))
        self.symbols = self.scanned

    def rebuild_heap(self) -> None:
        """One entry per live pair, with its current key: the stale entries are gone."""
        counts = self.counts
        if self.rule == "hf":  # the entry is one int, pair - (count << PACK): skip a method call per pair
            self.heap = [k - (c << PACK) for k, c in counts.items()]
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
        """The words that may hold pair ``k`` (about to be merged), ascending; the index forgets them.

        A word may repeat (listed once per occurrence by the first count, or by two merges): sorted, the
        repeats are neighbours and :meth:`apply` skips them, so a word holding the pair 128k times is read
        once, not 128k times (that was quadratic). Sorting in place is near linear: the list is a few
        ascending runs (one per merge that added words), and no set is built."""
        ws = self.where.pop(k, None)
        if not ws:
            return []
        self.listed -= len(ws)
        ws.sort()
        return ws

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

    def entry(self, k: int, count: int) -> Union[int, tuple]:
        rule = self.rule
        if rule == "hf":
            return k - (count << PACK)
        if rule == "first-seen":
            return (-count, self.first.get(k, 0) << WORD_SHIFT, k)
        if rule == "table-order":
            return (-count, self.serial.get(k, UNSEEN), k)
        return (-count, (self.tokens[k >> SHIFT], self.tokens[k & MASK]), k)

    def exact_first(self, k: int) -> int:
        """The first-seen key of pair ``k``: first word containing it << 32 | char offset."""
        left, right = k >> SHIFT, k & MASK
        w = self.first.get(k, 0)
        off = self.offset_in(w, left, right)
        if off is None:
            cands = sorted(set(self.where.get(k, ())))
            for j, w in enumerate(cands):
                off = self.offset_in(w, left, right)
                if off is not None:
                    break
            else:
                raise AssertionError("pair with a positive count occurs in no word")
            self.listed += len(cands) - j - len(self.where.get(k, ()))
            self.where[k] = cands[j:]  # the stale words before it no longer hold the pair
            self.first[k] = w
        return (w << WORD_SHIFT) | off  # type: ignore[operator]

    def offset_in(self, w: int, left: int, right: int) -> Optional[int]:
        syms = self.segs[w]
        self.scanned += len(syms)
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
        if self.rule == "hf":  # int entries: a pop compares ints, not tuples
            pop = heapq.heappop
            while heap:
                key = pop(heap)
                k = key & PMASK
                c = counts.get(k, 0)
                if c <= 0:
                    continue
                if key >> PACK != -c:
                    heapq.heappush(heap, k - (c << PACK))
                    self.pushes += 1
                    continue
                return k, c
            return None
        first_seen = self.rule == "first-seen"
        table = self.rule == "table-order"
        while heap:
            entry = heapq.heappop(heap)
            k = entry[-1]
            c = counts.get(k, 0)
            if c <= 0:
                continue
            if -entry[0] != c:
                heapq.heappush(heap, self.entry(k, c))
                self.pushes += 1
                continue
            if table and entry[1] != self.serial.get(k, UNSEEN):
                heapq.heappush(heap, self.entry(k, c))
                self.pushes += 1
                continue
            if first_seen:
                exact = self.exact_first(k)
                if entry[1] != exact:
                    heapq.heappush(heap, (-c, exact, k))
                    self.pushes += 1
                    continue
            return k, c
        return None

    def push_back(self, k: int, c: int) -> None:
        self.pushes += 1
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
        if log is None and len(words) >= BULK_WORDS and self.rule != "first-seen":  # many words: in bulk
            bulk = apply_flat if left != right else apply_bulk
            return bulk(self, words, left, right, new_id, befores)
        segs, freqs, counts, where, first = self.segs, self.freqs, self.counts, self.where, self.first
        pushed: Set[int] = set()
        changed: List[int] = []
        removed_tokens = 0
        occ = self.occ
        track_first = self.rule == "first-seen"  # only that rule reads _first
        by_right = left != right and occ[right] < occ[left]  # scan for the rarer symbol
        merged = scanned = listed = 0
        last = -1
        for w in words:
            if w == last:  # listed twice (a word per occurrence, or by two merges): merged at the first visit
                continue
            last = w
            syms = segs[w]
            scanned += len(syms)  # the count below reads the whole word
            spots = []  # start positions of non-overlapping (left, right), left to right
            # merge.find_pair, inlined: this loop runs for every word the pair may touch. The count
            # first (C speed) spares a ValueError per word: most visited words hold the symbol once
            # or not at all (stale), and list.index formats a message for each miss
            if by_right:  # left != right here, so occurrences cannot overlap
                c = syms.count(right)
                if c:
                    index = syms.index
                    i = 0
                    for _ in range(c):
                        i = index(right, i)
                        if i and syms[i - 1] == left:
                            spots.append(i - 1)
                        i += 1
            else:
                c = syms.count(left)
                if c:
                    index = syms.index
                    n1 = len(syms) - 1
                    i, allowed = -1, 0  # a left symbol inside the previous spot cannot start one
                    for _ in range(c):
                        i = index(left, i + 1)
                        if i >= allowed and i < n1 and syms[i + 1] == right:
                            spots.append(i)
                            allowed = i + 2
            if not spots:
                continue
            if befores is not None:
                befores.append(syms[:])
            f = freqs[w]
            n = len(syms)
            ns = len(spots)
            if ns > MANY:  # a long word: count its neighbours at C speed, then update once
                apply_many(self, w, syms, spots, left, right, new_id, pushed, log)
                spots_done: List[int] = []
            else:
                spots_done = spots
            after = -3  # the previous spot: a pair right after it has the new token on its left
            for i in spots_done:  # positions in the word before this merge
                if i:
                    p = new_id if i == after + 2 else syms[i - 1]
                    kk = (p << SHIFT) | left
                    c = counts[kk] - f
                    if c:
                        counts[kk] = c
                    else:  # no word holds it now: forget it (the index stays small)
                        del counts[kk]
                        listed -= len(where.pop(kk))
                        first.pop(kk, None)
                    kk2 = (p << SHIFT) | new_id
                    counts[kk2] = counts.get(kk2, 0) + f
                    if log is not None:
                        log.append((kk, -f))
                        log.append((kk2, f))
                    kk = kk2
                    pushed.add(kk)
                    ws = where.get(kk)
                    if ws is None:
                        where[kk] = [w]
                        listed += 1
                    elif ws[-1] != w:
                        ws.append(w)
                        listed += 1
                    if track_first and w < first.get(kk, w + 1):
                        first[kk] = w
                if i + 2 < n:
                    nx = syms[i + 2]  # a later spot's left symbol is still unmerged here
                    kk = (right << SHIFT) | nx
                    c = counts[kk] - f
                    if c:
                        counts[kk] = c
                    else:
                        del counts[kk]
                        listed -= len(where.pop(kk))
                        first.pop(kk, None)
                    kk2 = (new_id << SHIFT) | nx
                    counts[kk2] = counts.get(kk2, 0) + f
                    if log is not None:
                        log.append((kk, -f))
                        log.append((kk2, f))
                    kk = kk2
                    pushed.add(kk)
                    ws = where.get(kk)
                    if ws is None:
                        where[kk] = [w]
                        listed += 1
                    elif ws[-1] != w:
                        ws.append(w)
                        listed += 1
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
        self.scanned += scanned
        self.symbols -= merged
        self.listed += listed
        self.pushes += len(pushed)
        self._push(pushed)
        return changed, removed_tokens

    def _push(self, pushed: Set[int]) -> None:
        """A heap entry for each pair of ``pushed`` that has a count (a merge's new pairs), then :func:`bound`."""
        counts, heap, push = self.counts, self.heap, heapq.heappush
        if self.rule == "hf":
            for kk in pushed:
                c = counts.get(kk, 0)
                if c > 0:
                    push(heap, kk - (c << PACK))
        else:
            for kk in pushed:
                c = counts.get(kk, 0)
                if c > 0:
                    push(heap, self.entry(kk, c))
        bound(self)

    def replace(self, w: int, new: List[int]) -> int:
        """Give word ``w`` a new segmentation, updating counts, index and heap (used by undo).

        Returns the change in the corpus's token count (weighted); see :func:`~bpe_core.training.pairs.replace_word`.
        """
        delta = replace_word(self, w, new)
        bound(self)
        return delta


def expand(after: Sequence[int], new_id: int, left: int, right: int) -> Tuple[int, ...]:
    """Undo one merge in a segmentation: every ``new_id`` back to ``left, right``."""
    return tuple(expand_pair(after, new_id, left, right))
