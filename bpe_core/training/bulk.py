"""The pair index's work in bulk, with numpy: the first count of a big corpus, and a merge that touches many words.

SuperBPE's stage 2 trains on ~4M tokens in 230k superword units of the 17.6 MB corpus (plain BPE: 0.66M
symbols), so the pair index's first count and its merges' count updates are where its time goes
(docs/benchmarks.md, "SuperBPE stage 2 made faster again"). Both do the same work as their per-item loops
(:func:`~bpe_core.training.pairs.initial_pairs`, :meth:`~bpe_core.training.pair_index.PairIndex.apply`) with
the per-occurrence arithmetic in numpy and one dict update per distinct pair:

* :func:`initial_pairs_bulk`: the keys of all neighbour pairs in one array, sorted (stably: each pair's words
  stay ascending), then each pair's count and word list from the runs of equal keys;
* :func:`apply_flat` (a merge of two different tokens): the listed words' symbols in one array, the spots where
  ``left`` meets ``right`` inside a word, their neighbours and the words' spot counts found in numpy; Python only
  merges each changed word in place. :func:`apply_bulk` (``left == right``, whose spots may overlap) finds them
  word by word as the loop does. Either way the count changes are summed per pair in numpy, read and written at
  C speed (``map`` over the dicts, one ``dict.update``), each new pair's words appended once each, ascending, and
  its heap entry pushed. The counts after the merge are the loop's; a pair whose count went to 0 and back
  within the merge keeps its older listed words (the lists are supersets either way).

>>> counts, where = initial_pairs_bulk([[1, 2, 1, 2], [2, 1], [3]], [3, 5, 7])
>>> counts == {1 << SHIFT | 2: 6, 2 << SHIFT | 1: 8}, where == {1 << SHIFT | 2: [0, 0], 2 << SHIFT | 1: [0, 1]}
(True, True)
"""
from __future__ import annotations

from collections import deque
from heapq import heappush
from itertools import chain, compress, repeat
from operator import is_, lshift, sub
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from bpe_core.base.merge import find_pair, merge_in_place
from bpe_core.training.index_bounds import bound
from bpe_core.training.pairs import PACK, PAIRS_SLICE, SHIFT

__all__ = ["BULK_SYMBOLS", "BULK_WORDS", "apply_bulk", "apply_flat", "initial_pairs_bulk"]

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
    ws = list(map(list(range(n)).__getitem__, owner.tolist()))  # one int object per word, as the lists share
    bounds = starts.tolist() + [len(ws)]
    where = {k: ws[a:b] for k, a, b in zip(ks, bounds, bounds[1:])}
    return dict(zip(ks, sums.tolist())), where


def apply_bulk(idx: PairIndexLike, words: List[int], left: int, right: int, new_id: int,
               befores: Optional[List[List[int]]]) -> Tuple[List[int], int]:
    """:meth:`PairIndex.apply`'s merge of (left, right) -> new_id in ``words`` (ascending, repeats allowed)
    without a log and for a rule other than first-seen, its count changes summed per pair in numpy.
    Returns the changed words and the tokens the corpus lost (weighted); the heap gets the new pairs."""
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
        spots = find_pair(syms, left, right, by_right=by_right)  # the one scan (PairIndex.apply inlines it)
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
    if lw or rw:
        _update(idx, lp, lw, rp, rw, left, right, new_id)
    else:
        bound(idx)
    return changed, removed


def apply_flat(idx: PairIndexLike, words: List[int], left: int, right: int, new_id: int,
               befores: Optional[List[List[int]]]) -> Tuple[List[int], int]:
    """:func:`apply_bulk` for two different tokens (their spots cannot overlap), the spots found in numpy too:
    the listed words' symbols in one array, a spot where ``left`` meets ``right`` inside a word; Python then
    only merges each changed word in place."""
    segs = idx.segs
    uw = np.unique(np.asarray(words, dtype=np.int64))
    uwl = uw.tolist()
    lists = list(map(segs.__getitem__, uwl))
    lens = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    total = int(lens.sum())
    idx.scanned += total
    a = np.fromiter(chain.from_iterable(lists), dtype=np.int64, count=total)
    ends = np.cumsum(lens)
    starts = ends - lens
    owner = np.repeat(np.arange(len(lists), dtype=np.int64), lens)
    hit = np.zeros(total, dtype=bool)
    hit[:-1] = (a[:-1] == left) & (a[1:] == right) & (owner[:-1] == owner[1:])
    sp = np.flatnonzero(hit)
    if not len(sp):
        bound(idx)
        return [], 0
    so = owner[sp]
    first_at, last_at = starts[so], ends[so]
    has_l = sp > first_at
    after_spot = has_l & (sp - 2 >= first_at) & hit[np.maximum(sp - 2, 0)]  # the new token on its left
    lp = np.where(after_spot, new_id, a[np.maximum(sp - 1, 0)])[has_l]
    lw = uw[so][has_l]
    has_r = sp + 2 < last_at
    rp = a[np.minimum(sp + 2, total - 1)][has_r]
    rw = uw[so][has_r]
    ns = np.bincount(so, minlength=len(lists))
    changed_at = np.flatnonzero(ns)
    changed = uw[changed_at].tolist()
    merged = int(ns.sum())
    removed = int((_freqs(idx)[uw] * ns).sum())
    if befores is not None:
        befores.extend(segs[w][:] for w in changed)
    local = (sp - first_at).tolist()
    single = (ns[so] == 1).tolist()
    many: dict = {}
    for w, i, one in zip(so.tolist(), local, single):
        syms = lists[w]
        if one:
            syms[i] = new_id
            del syms[i + 1]
        else:
            many.setdefault(w, []).append(i)
    for w, spots in many.items():
        merge_in_place(lists[w], spots, new_id)
    occ = idx.occ
    occ[left] -= merged
    occ[right] -= merged
    occ[new_id] += merged
    idx.symbols -= merged
    if len(lw) or len(rw):
        _update(idx, lp, lw, rp, rw, left, right, new_id)
    else:
        bound(idx)
    return changed, removed


def _freqs(idx: PairIndexLike) -> np.ndarray:
    """The words' frequencies as an array (they never change), made once per index."""
    fr = getattr(idx, "bulk_freqs", None)
    if fr is None or len(fr) != len(idx.freqs):
        fr = idx.bulk_freqs = np.asarray(idx.freqs, dtype=np.int64)
    return fr


def _word_ids(idx: PairIndexLike) -> List[int]:
    """``list(range(words))``, made once per index: word lists filled from numpy share these ints."""
    ids = getattr(idx, "bulk_ids", None)
    if ids is None or len(ids) != len(idx.segs):
        ids = idx.bulk_ids = list(range(len(idx.segs)))
    return ids


def _update(idx: PairIndexLike, lp: List[int], lw: List[int], rp: List[int], rw: List[int],
            left: int, right: int, new_id: int) -> None:
    """The merge's count changes, written per pair at C speed (``map`` over the dicts), each new pair's words
    listed, and a heap entry for each new pair that has a count."""
    counts, where, first = idx.counts, idx.where, idx.first
    fr = _freqs(idx)
    lpa, lwa = np.asarray(lp, dtype=np.int64), np.asarray(lw, dtype=np.int64)
    rpa, rwa = np.asarray(rp, dtype=np.int64), np.asarray(rw, dtype=np.int64)
    f = np.concatenate((fr[lwa], fr[rwa]))
    old = np.concatenate(((lpa << SHIFT) | left, (right << SHIFT) | rpa))
    new = np.concatenate(((lpa << SHIFT) | new_id, (new_id << SHIFT) | rpa))
    keys = np.concatenate((old, new))
    weights = np.concatenate((-f, f))
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    ks = keys[starts]
    kl = ks.tolist()
    now = np.fromiter(map(counts.get, kl, repeat(0)), dtype=np.int64, count=len(kl)) + \
        np.add.reduceat(weights, starts)
    zero = now == 0
    gone = ks[zero].tolist()  # no word holds these now (or they came and went within this merge): forgotten
    deque(map(counts.pop, gone, repeat(None)), maxlen=0)
    listed = -sum(map(len, map(where.pop, gone, repeat(()))))
    if first:
        deque(map(first.pop, gone, repeat(None)), maxlen=0)
    counts.update(zip(ks[~zero].tolist(), now[~zero].tolist()))
    # each new pair's words, ascending and once each: sorted by (pair, word)
    owners = np.concatenate((lwa, rwa))
    order = np.lexsort((owners, new))
    nk, nw = new[order], owners[order]
    keep = np.concatenate(([True], (nk[1:] != nk[:-1]) | (nw[1:] != nw[:-1])))
    nk, nw = nk[keep], nw[keep]
    starts = np.flatnonzero(np.concatenate(([True], nk[1:] != nk[:-1])))
    bounds = np.append(starts, len(nk))
    fresh = nk[starts]
    alive = ~zero[np.searchsorted(ks, fresh)]  # a new pair left with a count
    ws_all = list(map(_word_ids(idx).__getitem__, nw.tolist()))  # the index's own ints: no 28 bytes an entry
    alive_keys = fresh[alive].tolist()
    parts = [ws_all[a:b] for a, b in zip(bounds[:-1][alive].tolist(), bounds[1:][alive].tolist())]
    listed += int((bounds[1:] - bounds[:-1])[alive].sum())
    held = list(map(where.get, alive_keys))
    where.update(compress(zip(alive_keys, parts), map(is_, held, repeat(None))))
    for ws, part in zip(held, parts):
        if ws is not None:  # listed already (a token made before, or a pair that came back)
            if ws[-1] == part[0]:
                listed -= 1
                part = part[1:]
            ws += part
    idx.listed += listed
    idx.pushes += len(alive_keys)
    cs = now[np.searchsorted(ks, fresh[alive])].tolist()
    heap = idx.heap
    if idx.rule == "hf":  # the entry is one int, pair - (count << PACK), made and pushed at C speed
        deque(map(heappush, repeat(heap), map(sub, alive_keys, map(lshift, cs, repeat(PACK)))), maxlen=0)
    else:
        for k, c in zip(alive_keys, cs):
            heappush(heap, idx.entry(k, c))
    bound(idx)
