"""A long run of merges over flat arrays: :meth:`Trainer.run`'s way through a big corpus (SuperBPE's stage 2).

The pair index (:mod:`~bpe_core.training.pair_index`) lists, for each pair, the *words* that may hold it, so a
merge reads each listed word whole: SuperBPE's stage 2 on the 17.6 MB corpus has 230k units of 17 tokens on
average, and its 10,000 merges read 33M symbols and built a word list and a heap entry for each of 1.08M new pairs
(docs/benchmarks.md). Here every symbol of every unit is a node of one array, linked to its neighbours (``nxt``,
``prv``; a unit's nodes never link to another unit's), and each pair lists the *nodes* where it starts. A merge:

* reads its pair's nodes, keeps those that still hold it (a node keeps its token until it merges as the left
  part; a node merged into its left neighbour reads -1), and for a pair of two equal tokens keeps every other node
  of a run (``a a a`` merges its first two, as :func:`~bpe_core.base.merge.find_pair` does);
* unlinks each right part, writes the new token on the left part, and counts the pairs that end (at the left
  neighbours, the merged nodes, the right parts) and the pairs that begin (at the new neighbours, the merged nodes),
  summed per pair in numpy, one dict read and write per distinct pair;
* lists the new pairs' nodes in one append-only array, one slice per pair: a pair's occurrences begin only at the
  merge that makes its newer token, so one slice holds all of them (a token made a second time ends the run:
  :func:`run_merges` hands the rest to the pair index).

Counts are the pair index's (weighted by the units' frequencies), the heap its ``hf`` heap (one packed int per
entry, stale entries re-pushed when popped), so the merges, their counts and the changed units are the step loop's,
merge for merge (tests/core/test_flat_run.py runs both). At the end each changed unit's list is written back; the
trainer builds its pair index only when something asks for it (a step, an undo, the ties).

>>> from bpe_core.training.trainer import Trainer
>>> from bpe_core.types import TrainerConfig
>>> t = Trainer({"hug": 10, "pug": 5, "hugs": 5}, TrainerConfig(tie_break="hf"), lazy_index=True)
>>> [(s.new_token, s.count) for s in run_merges(t, 2, None, None, None)]
[('ug', 20), ('hug', 15)]
>>> t.undo().new_token, t.merge_count
('hug', 1)
"""
from __future__ import annotations

import heapq
from collections import deque
from itertools import chain, repeat
from operator import lshift, or_, sub
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from bpe_core.training.config import limit_reached, run_target
from bpe_core.training.memory import gc_paused
from bpe_core.training.pairs import MASK, PACK, SHIFT
from bpe_core.types import Cancelled, MergeStep, Progress

__all__ = ["FLAT_SYMBOLS", "FlatPairs", "flat_eligible", "run_merges"]

#: a run goes through flat arrays from this many symbols in the words: below, the step loop is faster (gpt2 on
#: parts of the 17.6 MB corpus: 0.33M symbols 1.0 s either way, 0.22M 0.7 s against 1.0 s; all, 0.66M: 1.4 against 1.1 s)
FLAT_SYMBOLS = 1 << 19
HEAP_START = 4096  # pairs on the heap after the first count (more with ties); the rest wait below its floor
SLOT = 32  # heap entry: (pair << SLOT | slot) - (count << (PACK + SLOT))
SLOT_MASK = (1 << SLOT) - 1
LOW = (1 << (PACK + SLOT)) - 1
HAND_OVER = "hand over"  # the pair index takes the rest of the run (never a trainer's stop reason after a run)

TrainerLike = Any  # a Trainer; no import: no cycle


class FlatPairs:
    """Pair counts and the nodes where each pair starts, over the words' symbols in one array.

    Each pair that ever begins gets a slot: its count (``count``, 0 once gone) and its slice of ``nodes``; each node
    knows the slot of the pair that starts there now (``slot``). Heap entries are ``hf``'s, with the slot below the
    key: ``(pair << SLOT | slot) - (count << (PACK + SLOT))``."""

    def __init__(self, segs: Sequence[Sequence[int]], freqs: Sequence[int]) -> None:
        n = len(segs)
        lens = np.fromiter(map(len, segs), dtype=np.int64, count=n)
        total = int(lens.sum())
        self.sym = np.fromiter(chain.from_iterable(segs), dtype=np.int64, count=total)
        ends = np.cumsum(lens)
        starts = ends - lens
        self.owner = np.repeat(np.arange(n, dtype=np.int64), lens)
        self.weight = np.asarray(freqs, dtype=np.int64)[self.owner]
        nonempty = lens > 0
        self.nxt = np.arange(1, total + 1, dtype=np.int64)
        self.nxt[ends[nonempty] - 1] = -1
        self.prv = np.arange(-1, total - 1, dtype=np.int64)
        self.prv[starts[nonempty]] = -1
        self.touched = np.zeros(n, dtype=bool)
        self.slot = np.full(total, -1, dtype=np.int64)
        self.count = np.zeros(0, dtype=np.int64)
        self.start = np.zeros(0, dtype=np.int64)
        self.length = np.zeros(0, dtype=np.int64)
        self.key = np.zeros(0, dtype=np.int64)
        self.slots = 0
        self.nodes = np.zeros(total, dtype=np.int64)
        self.used = 0
        #: work done, for tests that count it as inputs grow: listed nodes read by the merges (``used``: listed)
        self.read = 0
        self.heap: List[int] = []
        at = np.flatnonzero(self.nxt >= 0)
        keys = (self.sym[at] << SHIFT) | self.sym[at + 1]
        self.floor = 0  # the heap holds the pairs counted at least this (pop_best lowers it)
        self._begin(keys, at, stable=True)

    def pairs_left(self) -> int:
        return int(np.count_nonzero(self.count[:self.slots] > 0))

    def counts(self) -> Dict[int, int]:
        """pair -> count of the pairs that occur (:class:`PairIndex`'s ``counts``)."""
        live = np.flatnonzero(self.count[:self.slots] > 0)
        return dict(zip(self.key[live].tolist(), self.count[live].tolist()))

    def pop_best(self, refuse: Optional[Callable[[int, int], bool]]) -> Optional[Tuple[int, int, int]]:
        """The best (pair, count, slot) by ``hf``'s rule (:meth:`PairIndex.pop_best`'s) that ``refuse`` lets
        merge; a refused pair leaves the heap (:func:`~bpe_core.training.picky.best_allowed`). The heap holds
        the pairs counted at least ``floor`` (stale entries included); when its best falls below, the floor
        goes down and the pairs between come in: counts only fall, so none left out can be better."""
        heap, count, pop = self.heap, self.count, heapq.heappop
        while True:
            while heap:
                entry = pop(heap)
                low = entry & LOW
                s = low & SLOT_MASK
                c = int(count[s])
                if c <= 0:
                    continue
                if entry >> (PACK + SLOT) != -c:  # stale: back with its count, or below the floor with the rest
                    if c >= self.floor:
                        heapq.heappush(heap, low - (c << (PACK + SLOT)))
                    continue
                if c < self.floor:  # pushed back below the floor (a stop rule's): the pairs below come in
                    heapq.heappush(heap, entry)
                    break
                k = low >> SLOT
                if refuse is not None and refuse(k >> SHIFT, k & MASK):
                    continue
                return k, c, s
            if not self.floor:
                return None
            self._lower()

    def _lower(self) -> None:
        """The floor down to the count of the ``HEAP_START``-th best pair below it (0 when fewer are left): a
        heap entry for each pair counted between."""
        count = self.count[:self.slots]
        below = np.flatnonzero((count < self.floor) & (count > 0))
        cs = count[below]
        m = len(cs)
        floor = int(np.partition(cs, m - HEAP_START)[m - HEAP_START]) if m > HEAP_START else 0
        up = cs >= floor
        self._push(self.key[below[up]], below[up], cs[up], heapify=False)
        self.floor = floor

    def _push(self, keys: np.ndarray, slots: np.ndarray, cs: np.ndarray, heapify: bool) -> None:
        fresh = map(or_, map(lshift, keys.tolist(), repeat(SLOT)), slots.tolist())  # > 64 bits
        entries = map(sub, fresh, map(lshift, cs.tolist(), repeat(PACK + SLOT)))
        if heapify:
            self.heap.extend(entries)
            heapq.heapify(self.heap)
        else:
            deque(map(heapq.heappush, repeat(self.heap), entries), maxlen=0)

    def push_back(self, k: int, c: int, s: int) -> None:
        heapq.heappush(self.heap, ((k << SLOT) | s) - (c << (PACK + SLOT)))

    def spots(self, k: int, s: int) -> Tuple[np.ndarray, np.ndarray]:
        """The nodes where pair ``k`` (slot ``s``) starts now (left to right, non-overlapping), and their right
        parts."""
        lo = int(self.start[s])
        at = self.nodes[lo:lo + int(self.length[s])]
        self.read += len(at)
        left, right = k >> SHIFT, k & MASK
        sym, nxt = self.sym, self.nxt
        q = nxt[at]
        ok = (sym[at] == left) & (q >= 0)
        at, q = at[ok], q[ok]
        ok = sym[q] == right
        at, q = at[ok], q[ok]
        if left == right and len(at) > 1:  # a run a a a ...: every other node, from the run's first
            i = np.arange(len(at))
            cont = np.zeros(len(at), dtype=bool)
            cont[1:] = self.prv[at[1:]] == at[:-1]
            first = np.maximum.accumulate(np.where(cont, 0, i))
            keep = ((i - first) & 1) == 0
            at, q = at[keep], q[keep]
        return at, q

    def merge(self, k: int, s: int, new_id: int) -> Tuple[List[int], int]:
        """Merge pair ``k`` (slot ``s``) into ``new_id`` everywhere; the changed units (ascending) and the
        tokens the corpus lost (weighted)."""
        at, q = self.spots(k, s)
        self.count[s] = 0
        if not len(at):
            return [], 0
        sym, nxt, prv, weight = self.sym, self.nxt, self.prv, self.weight
        r = nxt[q]
        more = r >= 0
        lft = prv[at]
        keep = lft >= 0  # a left neighbour, not the right part of the spot before (counted there)
        keep[1:] &= lft[1:] != q[:-1]
        ending = np.concatenate((lft[keep], q[more]))  # pairs that end here (besides the merged ones)
        self._end(self.slot[ending], weight[ending])
        sym[at] = new_id
        sym[q] = -1
        nxt[at] = r
        prv[r[more]] = at[more]
        lft = prv[at]
        keep = lft >= 0
        keep[1:] &= lft[1:] != at[:-1]  # the spot before, counted as a spot with a right neighbour
        begins = np.sort(np.concatenate((lft[keep], at[more])))
        self._begin((sym[begins] << SHIFT) | sym[nxt[begins]], begins, stable=False)
        owners = self.owner[at]
        self.touched[owners] = True
        first = np.ones(len(owners), dtype=bool)
        first[1:] = owners[1:] != owners[:-1]
        return owners[first].tolist(), int(weight[at].sum())

    def _end(self, slots: np.ndarray, w: np.ndarray) -> None:
        """Occurrences that end: their pairs' counts down (summed per slot)."""
        if not len(slots):
            return
        order = np.argsort(slots)
        slots = slots[order]
        firsts = np.flatnonzero(np.concatenate(([True], slots[1:] != slots[:-1])))
        self.count[slots[firsts]] -= np.add.reduceat(w[order], firsts)

    def _begin(self, keys: np.ndarray, nodes: np.ndarray, stable: bool) -> None:
        """New pairs ``keys`` at ``nodes`` (ascending): a slot each, its count, its nodes listed (one slice,
        ascending) and a heap entry."""
        if not len(keys):
            return
        keys, nodes = self._by_pair(keys, nodes)
        firsts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
        lengths = np.diff(np.append(firsts, len(keys)))
        m = len(firsts)
        s0 = self._grow(m)
        slots = np.arange(s0, s0 + m, dtype=np.int64)
        self.slot[nodes] = np.repeat(slots, lengths)
        cs = np.add.reduceat(self.weight[nodes], firsts)
        self.count[s0:s0 + m] = cs
        self.start[s0:s0 + m] = self._append(nodes) + firsts
        self.length[s0:s0 + m] = lengths
        self.key[s0:s0 + m] = keys[firsts]
        if stable and m > HEAP_START:  # the first count: the heap starts with its best pairs (and ties)
            self.floor = int(np.partition(cs, m - HEAP_START)[m - HEAP_START])
        up = cs >= self.floor  # the others wait below the floor
        self._push(keys[firsts][up], slots[up], cs[up], heapify=stable)

    def _by_pair(self, keys: np.ndarray, nodes: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """``keys`` and ``nodes`` sorted by pair, then node: one sort of values ``key * nodes + node`` (ten
        times an argsort's speed on the first count) when that fits in 63 bits."""
        total = len(self.sym) + 1
        if int(keys.max()) < (1 << 63) // total:
            both = np.sort(keys * total + nodes)
            return both // total, both % total
        order = np.argsort(keys, kind="stable")
        return keys[order], nodes[order]

    def _grow(self, m: int) -> int:
        """Room for ``m`` more slots (the arrays double when full); the first new slot."""
        s0 = self.slots
        if s0 + m > len(self.count):
            size = max(2 * len(self.count), s0 + m, 1024)
            for name in ("count", "start", "length", "key"):
                old = getattr(self, name)
                grown = np.zeros(size, dtype=np.int64)
                grown[:s0] = old[:s0]
                setattr(self, name, grown)
        self.slots = s0 + m
        return s0

    def _append(self, nodes: np.ndarray) -> int:
        """Add ``nodes`` to the node list (it doubles when full); where they start."""
        used, n = self.used, len(nodes)
        if used + n > len(self.nodes):
            grown = np.empty(max(2 * len(self.nodes), used + n), dtype=np.int64)
            grown[:used] = self.nodes[:used]
            self.nodes = grown
        self.nodes[used:used + n] = nodes
        self.used = used + n
        return used

    def write_back(self, segs: List[List[int]]) -> None:
        """Each changed unit's symbols into its list (in place: the lists are the trainer's)."""
        live = self.sym >= 0
        flat = self.sym[live].tolist()
        bounds = np.concatenate(([0], np.cumsum(np.bincount(self.owner[live], minlength=len(segs))))).tolist()
        for w in np.flatnonzero(self.touched).tolist():
            segs[w][:] = flat[bounds[w]:bounds[w + 1]]
        self.touched[:] = False


def flat_eligible(trainer: TrainerLike) -> bool:
    """Whether :func:`run_merges` can go flat on ``trainer``: its pair index not built yet, the ``hf`` tie rule, no rule
    that removes tokens or orders pairs (PickyBPE), no merge picked by hand, and a big corpus."""
    return (trainer._index is None and trainer.config.tie_break == "hf" and trainer._rules is None
            and not trainer.picks and sum(map(len, trainer._segs)) >= FLAT_SYMBOLS)


def run_merges(trainer: TrainerLike, merges: Optional[int], vocab_size: Optional[int],
               progress: Optional[Callable[[Progress], None]], cancel: Optional[Callable[[], bool]]
               ) -> List[MergeStep]:
    """:meth:`Trainer.run`: merges (records without details) until ``merges`` / ``vocab_size`` / a stop rule,
    ``cancel`` asked between merges (the merges done are kept, :class:`Cancelled` raised). Over
    :class:`FlatPairs` when :func:`flat_eligible` (the same steps and undo log; the words written back at the
    end, on a cancel too), else step by step on the pair index. A merge whose token exists already (two pairs
    spelling one token) ends the flat part: the pair index takes the rest."""
    flat = FlatPairs(trainer._segs, trainer.freqs) if flat_eligible(trainer) else None
    left = flat.pairs_left() if flat is not None else len(trainer._idx.counts)
    target = run_target(trainer.config, merges, vocab_size, trainer.merge_count, trainer.vocab_size, left)
    out: List[MergeStep] = []
    with gc_paused():  # records are light; detail() the last one when it is shown
        try:
            while True:
                if merges is not None and trainer.merge_count >= merges:
                    break
                if vocab_size is not None and trainer.vocab_size >= vocab_size:
                    break
                if cancel is not None and cancel():
                    raise Cancelled()
                step = trainer.step(detail=False) if flat is None else _step(trainer, flat)
                if step is None and trainer.stop_reason == HAND_OVER:
                    flat.write_back(trainer._segs)  # type: ignore[union-attr]
                    flat, trainer.stop_reason = None, None
                    continue
                if step is None:
                    break
                out.append(step)
                if progress is not None and (len(out) & 63) == 0:
                    progress(Progress(trainer.merge_count, target, "merges"))
        finally:
            if flat is not None:
                flat.write_back(trainer._segs)
    if progress is not None:  # finished: report done == total even when a stop rule came early
        progress(Progress(trainer.merge_count, trainer.merge_count, "merges"))
    return out


def _step(trainer: TrainerLike, flat: FlatPairs) -> Optional[MergeStep]:
    """:meth:`Trainer.step` (``detail=False``) on ``flat``; None with ``stop_reason`` set when a stop rule
    holds, or :data:`HAND_OVER` (the step is not taken) when the merge's token exists already."""
    reason = limit_reached(trainer.config, len(trainer.history), trainer.vocab_size, trainer.initial_vocab_size)
    if reason:
        trainer.stop_reason = reason
        return None
    best = flat.pop_best(trainer._refuse)
    if best is None:
        trainer.stop_reason = "no_pairs"
        return None
    k, count, s = best
    if count < trainer.config.min_frequency:
        flat.push_back(k, count, s)
        trainer.stop_reason = "min_frequency"
        return None
    left, right = k >> SHIFT, k & MASK
    raw = trainer._tokens[left] + trainer._tokens[right]
    if raw in trainer._ids:
        flat.push_back(k, count, s)
        trainer.stop_reason = HAND_OVER
        return None
    trainer.stop_reason = None
    new_id = trainer._add_token(raw)
    changed, removed = flat.merge(k, s, new_id)
    trainer._total_tokens -= removed
    words = tuple(changed)
    trainer._undo_log.append((left, right, new_id, True, words, None, None))
    step = trainer._record(left, right, new_id, count, True, words, None, None)
    trainer.history.append(step)
    return step
