"""The pair index's work in bulk, with numpy: the first count of a big corpus, and a merge that touches many words.

SuperBPE's stage 2 trains on ~4M tokens in 230k superword units of the 17.6 MB corpus (plain BPE: 0.66M
symbols), so the pair index's first count and its merges' count updates are where its time goes
(docs/benchmarks.md, "SuperBPE stage 2 made faster again"). Both do the same work as their per-item loops
(:func:`~bpe_core.training.pairs.initial_pairs`, :meth:`~bpe_core.training.pair_index.PairIndex.apply`) with
the per-occurrence arithmetic in numpy and one dict update per distinct pair:

* :func:`initial_pairs_bulk`: the keys of all neighbour pairs in one array, sorted (stably: each pair's words
  stay ascending), then each pair's count and word list from the runs of equal keys;
* :func:`apply_bulk`: a merge's spots are found word by word as before, but each spot only records its two
  neighbours; the count changes are summed per pair in numpy and written once per pair, and each new pair's
  words are appended once each, ascending. The counts after the merge are the loop's; a pair whose count
  went to 0 and back within the merge keeps its older listed words (the lists are supersets either way).

>>> counts, where = initial_pairs_bulk([[1, 2, 1, 2], [2, 1], [3]], [3, 5, 7])
>>> counts == {1 << SHIFT | 2: 6, 2 << SHIFT | 1: 8}, where == {1 << SHIFT | 2: [0, 0], 2 << SHIFT | 1: [0, 1]}
(True, True)
"""
from __future__ import annotations

from itertools import chain
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from bpe_core.base.merge import merge_in_place
from bpe_core.training.pairs import PAIRS_SLICE, SHIFT

__all__ = ["BULK_SYMBOLS", "BULK_WORDS", "apply_bulk", "initial_pairs_bulk"]

#: the first count goes through numpy from this many symbols (below, the per-slice count is as fast)
BULK_SYMBOLS = 1 << 20
#: a merge goes through :func:`apply_bulk` when it visits at least this many listed words
BULK_WORDS = 64

PairIndexLike = Any  # a PairIndex; no import: no cycle


def initial_pairs_bulk(segs: Sequence[Sequence[int]], freqs: Sequence[int]
                       ) -> Tuple[Dict[int, int], Dict[int, List[int]]]:
    """:func:`~bpe_core.training.pairs.initial_pairs` in numpy: each pair's weighted count and its words,
    ascending, a word once per occurrence. The symbols are read a slice of words at a time (the GIL is
    free between slices); the keys' dicts are in ascending key order."""
    n = len(segs)
    lens = np.fromiter(map(len, segs), dtype=np.int64, count=n)
    total = int(lens.sum())
    if total < 2:
        return {}, {}
    flat = np.concatenate([np.fromiter(chain.from_iterable(segs[lo:lo + PAIRS_SLICE]), dtype=np.int64,
                                       count=int(lens[lo:lo + PAIRS_SLICE].sum()))
                           for lo in range(0, n, PAIRS_SLICE)])
    owner = np.repeat(np.arange(n, dtype=np.int64), lens)
    inside = owner[:-1] == owner[1:]  # a pair inside one word, not across two
    keys = ((flat[:-1] << SHIFT) | flat[1:])[inside]
    owner = owner[:-1][inside]
    if not len(keys):
        return {}, {}
    order = np.argsort(keys, kind="stable")
    keys, owner = keys[order], owner[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    sums = np.add.reduceat(np.asarray(freqs, dtype=np.int64)[owner], starts)
    ks = keys[starts].tolist()
    ws = owner.tolist()
    bounds = starts.tolist() + [len(ws)]
    where = {k: ws[a:b] for k, a, b in zip(ks, bounds, bounds[1:])}
    return dict(zip(ks, sums.tolist())), where


def apply_bulk(idx: PairIndexLike, words: List[int], left: int, right: int, new_id: int,
               befores: Optional[List[List[int]]]) -> Tuple[List[int], int, Set[int]]:
    """:meth:`PairIndex.apply`'s merge of (left, right) -> new_id in ``words`` (ascending, repeats allowed)
    without a log and for a rule other than first-seen, its count changes summed per pair in numpy.
    Returns the changed words, the tokens the corpus lost (weighted) and the pairs to push on the heap."""
    segs, freqs, counts, where, first = idx.segs, idx.freqs, idx.counts, idx.where, idx.first
    occ = idx.occ
    by_right = left != right and occ[right] < occ[left]
    lp: List[int] = []  # per spot with a left neighbour: the neighbour as the merge finds it, and the word
    lw: List[int] = []
    rp: List[int] = []  # per spot with a right neighbour: the neighbour, and the word
    rw: List[int] = []
    changed: List[int] = []
    removed = merged = scanned = 0
    last = -1
    for w in words:
        if w == last:
            continue
        last = w
        syms = segs[w]
        scanned += len(syms)
        spots = []
        if by_right:
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
                i, allowed = -1, 0
                for _ in range(c):
                    i = index(left, i + 1)
                    if i >= allowed and i < n1 and syms[i + 1] == right:
                        spots.append(i)
                        allowed = i + 2
        if not spots:
            continue
        if befores is not None:
            befores.append(syms[:])
        n = len(syms)
        ns = len(spots)
        if ns == 1:
            i = spots[0]
            if i:
                lp.append(syms[i - 1])
                lw.append(w)
            if i + 2 < n:
                rp.append(syms[i + 2])
                rw.append(w)
            syms[i] = new_id
            del syms[i + 1]
        else:
            after = -3
            for i in spots:
                if i:
                    lp.append(new_id if i == after + 2 else syms[i - 1])
                    lw.append(w)
                if i + 2 < n:
                    rp.append(syms[i + 2])
                    rw.append(w)
                after = i
            merge_in_place(syms, spots, new_id)
        removed += freqs[w] * ns
        merged += ns
        changed.append(w)
    occ[left] -= merged
    occ[right] -= merged
    occ[new_id] += merged
    idx.scanned += scanned
    idx.symbols -= merged
    pushed = _update(idx, lp, lw, rp, rw, left, right, new_id) if lw or rw else set()
    idx.pushes += len(pushed)
    return changed, removed, pushed


def _update(idx: PairIndexLike, lp: List[int], lw: List[int], rp: List[int], rw: List[int],
            left: int, right: int, new_id: int) -> Set[int]:
    """The merge's count changes, one dict write per pair, and each new pair's words listed; the new pairs
    with a count (to push)."""
    counts, where, first = idx.counts, idx.where, idx.first
    fr = np.asarray(idx.freqs, dtype=np.int64) if len(lw) + len(rw) > len(idx.freqs) >> 4 else None
    lpa, lwa = np.array(lp, dtype=np.int64), np.array(lw, dtype=np.int64)
    rpa, rwa = np.array(rp, dtype=np.int64), np.array(rw, dtype=np.int64)
    f = (np.concatenate((fr[lwa], fr[rwa])) if fr is not None else
         np.array([idx.freqs[w] for w in chain(lw, rw)], dtype=np.int64))
    old = np.concatenate(((lpa << SHIFT) | left, (right << SHIFT) | rpa))
    new = np.concatenate(((lpa << SHIFT) | new_id, (new_id << SHIFT) | rpa))
    keys = np.concatenate((old, new))
    weights = np.concatenate((-f, f))
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    listed = 0
    for k, d in zip(keys[starts].tolist(), np.add.reduceat(weights, starts).tolist()):
        c = counts.get(k, 0) + d
        if c:
            counts[k] = c
        else:  # no word holds it now (or it came and went within this merge)
            counts.pop(k, None)
            listed -= len(where.pop(k, ()))
            first.pop(k, None)
    # each new pair's words, ascending and once each: sorted by (pair, word)
    owners = np.concatenate((lwa, rwa))
    order = np.lexsort((owners, new))
    nk, nw = new[order], owners[order]
    keep = np.concatenate(([True], (nk[1:] != nk[:-1]) | (nw[1:] != nw[:-1])))
    nk, nw = nk[keep], nw[keep]
    starts = np.flatnonzero(np.concatenate(([True], nk[1:] != nk[:-1])))
    ws_all = nw.tolist()
    bounds = starts.tolist() + [len(ws_all)]
    pushed: Set[int] = set()
    for k, a, b in zip(nk[starts].tolist(), bounds, bounds[1:]):
        if k not in counts:  # added and taken away again in this merge
            continue
        pushed.add(k)
        ws = where.get(k)
        if ws is None:
            where[k] = ws_all[a:b]
            listed += b - a
        else:
            if ws[-1] == ws_all[a]:
                a += 1
            ws += ws_all[a:b]
            listed += b - a
    idx.listed += listed
    return pushed
