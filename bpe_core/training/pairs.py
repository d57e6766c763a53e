"""Pair keys (``left << SHIFT | right``), a long word's merge counted in aggregate, an undo's word update.

The keys' constants live here so that :mod:`~bpe_core.training.pair_index` and the records share
them; :func:`apply_many` is the merge's count update for a word holding the pair many times,
:func:`replace_word` an undo's for one word; :func:`initial_pairs` the first count and :func:`pair_words`
a recount of the word lists.

>>> from collections import Counter
>>> Counter(pair_keys([1, 2, 1, 2])) == Counter({1 << SHIFT | 2: 2, 2 << SHIFT | 1: 1})
True
"""
from __future__ import annotations

from collections import Counter, defaultdict, deque
from heapq import heappush
from itertools import chain, islice, repeat
from operator import add, lshift, or_
from typing import Any, DefaultDict, Dict, Iterator, List, Optional, Sequence, Set, Tuple

SHIFT = 21  # pair key = left << SHIFT | right; ids stay below 2**21
MASK = (1 << SHIFT) - 1
WORD_SHIFT = 32  # first-seen key = word << 32 | char offset
PACK = 2 * SHIFT  # hf heap entry = pair - (count << PACK): one int, ordered as (-count, pair)
PMASK = (1 << PACK) - 1
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


PairIndexLike = Any  # a PairIndex (counts, where, first, freqs, rule); no import: no cycle


def apply_many(idx: PairIndexLike, w: int, syms: List[int], spots: List[int], left: int, right: int,
               new_id: int, pushed: Set[int], log: Optional[List[Tuple[int, int]]]) -> None:
    """:meth:`PairIndex.apply`'s count updates for one word with many occurrences, aggregated per pair.

    The same net changes as the per-occurrence loop (the log holds them net per pair, which is
    all :func:`~bpe_core.training.records.changed_pairs` reads), with the neighbours counted by
    ``Counter`` in C: a 256k-symbol word's merge takes milliseconds instead of ~0.2 s.
    """
    f, n = idx.freqs[w], len(syms)
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
    counts, where, first = idx.counts, idx.where, idx.first
    for kk, d in delta.items():
        c = counts.get(kk, 0) + d
        if c:
            counts[kk] = c
        else:  # no word holds it now (as in the per-occurrence loop)
            counts.pop(kk, None)
            idx.listed -= len(where.pop(kk, ()))
            first.pop(kk, None)
    if log is not None:
        log.extend(delta.items())
    track_first = idx.rule == "first-seen"
    for kk in made:
        if kk not in counts:  # added and taken away again in this word
            continue
        pushed.add(kk)
        ws = where.get(kk)
        if ws is None:
            where[kk] = [w]
            idx.listed += 1
        elif ws[-1] != w:
            ws.append(w)
            idx.listed += 1
        if track_first and w < first.get(kk, w + 1):
            first[kk] = w


def replace_word(idx: PairIndexLike, w: int, new: List[int]) -> int:
    """:meth:`PairIndex.replace`: word ``w`` gets segmentation ``new`` (an undo); the counts, word lists and
    heap follow. Returns the change in the corpus's token count (weighted).

    A pair no word holds any more is forgotten, as in a merge. The word is listed only under the pairs it
    did not hold before (under those it held it is listed already: the lists are supersets), so undoing
    and redoing a merge adds only what a merge leaves stale (the index rebuilds the lists now and then).
    A long word's symbols and pairs are counted at C speed.
    """
    old = idx.segs[w]
    f = idx.freqs[w]
    counts, where, first, occ = idx.counts, idx.where, idx.first, idx.occ
    idx.scanned += len(old) + len(new)
    idx.symbols += len(new) - len(old)
    if len(old) + len(new) > 2 * MANY:
        for tid, c in Counter(old).items():
            occ[tid] -= c
        for tid, c in Counter(new).items():
            occ[tid] += c
        gone: Dict[int, int] = Counter(pair_keys(old))
        added: Dict[int, int] = Counter(pair_keys(new))
    else:
        for tid in old:
            occ[tid] -= 1
        for tid in new:
            occ[tid] += 1
        gone, added = {}, {}
        for kk in pairs_of(old):
            gone[kk] = gone.get(kk, 0) + 1
        for kk in pairs_of(new):
            added[kk] = added.get(kk, 0) + 1
    listed = 0
    for kk, c in gone.items():
        c = counts[kk] - c * f
        if c or kk in added:
            counts[kk] = c
        else:  # no word holds it now
            del counts[kk]
            listed -= len(where.pop(kk))
            first.pop(kk, None)
    for kk, c in added.items():
        counts[kk] = counts.get(kk, 0) + c * f
        if kk in gone:
            continue
        ws = where.get(kk)
        if ws is None:
            where[kk] = [w]
            listed += 1
        elif ws[-1] != w:
            ws.append(w)
            listed += 1
        if w < first.get(kk, w + 1):
            first[kk] = w
    heap, entry = idx.heap, idx.entry
    for kk in added:  # one heap entry per pair, with its final count
        heappush(heap, entry(kk, counts[kk]))
    idx.pushes += len(added)
    idx.listed += listed
    idx.segs[w] = new
    return f * (len(new) - len(old))


def initial_pairs(segs: Sequence[Sequence[int]], freqs: Sequence[int]) -> Tuple[Dict[int, int], Dict[int, List[int]]]:
    """Each adjacent pair's count (weighted by ``freqs``) and the words holding it, ascending, at C speed.

    A word holding a pair twice is listed twice (1 % of the entries on real text): the index reads
    these lists as supersets and a repeated word finds nothing the second time. All words go into one
    list, each followed by a separator (-1, no token's id); the keys of all neighbour pairs and their
    words are zipped by ``map`` into per-key lists (``defaultdict``'s own ``__getitem__`` makes them),
    and the separator's pairs, whose keys are negative, are dropped. The same work as a Python loop
    over the ~600k pairs of a 17.6 MB corpus's 81k words, in a third of the time (docs/benchmarks.md); a
    slice of :data:`PAIRS_SLICE` words a pass, so another thread (the GUI's) gets the GIL between passes.

    >>> counts, where = initial_pairs([[1, 2, 1, 2], [2, 1]], [3, 5])
    >>> counts == {1 << SHIFT | 2: 6, 2 << SHIFT | 1: 8}, where == {1 << SHIFT | 2: [0, 0], 2 << SHIFT | 1: [0, 1]}
    (True, True)
    """
    where = _pair_lists(segs)
    fget = freqs.__getitem__
    return {k: sum(map(fget, ws)) for k, ws in where.items()}, where


def pair_words(segs: Sequence[Sequence[int]]) -> Dict[int, List[int]]:
    """Each adjacent pair's words, ascending, each word once (the pair index rebuilds its lists with this).

    >>> pair_words([[1, 2, 1, 2], [2, 1]]) == {1 << SHIFT | 2: [0], 2 << SHIFT | 1: [0, 1]}
    True
    """
    return {k: ws if len(ws) == 1 else list(dict.fromkeys(ws)) for k, ws in _pair_lists(segs).items()}


def _pair_lists(segs: Sequence[Sequence[int]]) -> Dict[int, List[int]]:
    """Pair key -> the words holding it, ascending, a word once per occurrence (see :func:`initial_pairs`)."""
    lists: DefaultDict[int, List[int]] = defaultdict(list)
    for lo in range(0, len(segs), PAIRS_SLICE):  # a slice of words a pass: the GIL is free between passes
        part = segs[lo:lo + PAIRS_SLICE]
        flat = list(chain.from_iterable(chain.from_iterable(zip(part, repeat(_SEP)))))
        keys = map(or_, map(lshift, flat, repeat(SHIFT)), islice(flat, 1, None))
        # a word owns the pairs starting at its symbols and at the separator after it (-1 <= key < 0)
        owners = chain.from_iterable(map(repeat, range(lo, lo + len(part)), map(add, map(len, part), repeat(1))))
        deque(map(list.append, map(lists.__getitem__, keys), owners), maxlen=0)
    return {k: ws for k, ws in lists.items() if k >= 0}


_SEP = (-1,)
#: words per pass of :func:`initial_pairs`: one pass over every word held the GIL for its whole length (32 ms on
#: wiki.valid.raw, several times that on the 17.6 MB corpus: the window froze while a corpus loaded)
PAIRS_SLICE = 2048
