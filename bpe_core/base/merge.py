"""The one home of "merge a pair in a symbol sequence" and "segment a word with ranked merges".

(And of tiktoken's different rule, which ranks the concatenated bytes: :func:`byte_pair_bounds`.)

The trainer (its pair index and continuing from a vocabulary), the encoder and the replay all
call these, and all read a merge list through one rule, :func:`pair_ranks` (a repeated pair keeps
its last rank, as ``tokenizers``): :func:`merge_table` is the table :func:`segment` merges by.
They differ only in how a merge's result is looked up, never in the loop.

Both routines are linear in the word's length (the segmenter is ``n log n``): a word of 256k
symbols merges in milliseconds. The older in-place ``del syms[i + 1]`` was quadratic there.

>>> merge_pair([1, 2, 1, 2, 2], 1, 2, 9), expand_pair([9, 9, 2], 9, 1, 2)
([9, 9, 2], [1, 2, 1, 2, 2])
>>> segment([0, 1, 2], {(0, 1): (0, 3), (3, 2): (1, 4)})
([4], [0])
"""
from __future__ import annotations

import heapq
from itertools import repeat
from typing import Callable, Dict, List, Optional, Sequence, Tuple

#: (left id, right id) -> (rank, id of the merged token); lower ranks merge first
MergeTable = Dict[Tuple[int, int], Tuple[int, int]]
_NONE = (0, -1)  # a table miss: no token has id -1


def pair_ranks(merges: Sequence[Tuple[int, int]]) -> Dict[Tuple[int, int], int]:
    """Each pair's 0-based rank, the one rule for a merge list: a repeated pair keeps its **last** rank.

    ``tokenizers`` builds its merge map by inserting the merges in order (``tokenizer.json`` and
    vocab.json + merges.txt alike) and GPT-2's ``bpe_ranks`` is ``dict(zip(merges, range(...)))``:
    the later entry overwrites the earlier one, which then never fires (tokenizers drops it when it
    saves the file). The encoder, the replay, the health report and continued training all read
    merges through this function (via :func:`merge_table` / :func:`shadowed_ranks`).

    >>> pair_ranks([(0, 1), (1, 2), (0, 1)])
    {(0, 1): 2, (1, 2): 1}
    """
    return {pair: r for r, pair in enumerate(merges)}


def shadowed_ranks(merges: Sequence[Tuple[int, int]]) -> frozenset:
    """0-based ranks that never fire: their pair is repeated by a later merge (:func:`pair_ranks`).

    >>> sorted(shadowed_ranks([(0, 1), (1, 2), (0, 1), (0, 1)]))
    [0, 2]
    """
    if len(set(merges)) == len(merges):
        return frozenset()
    live = set(pair_ranks(merges).values())
    return frozenset(r for r in range(len(merges)) if r not in live)


def merge_table(merges: Sequence[Tuple[int, int]], results: Sequence[int]) -> MergeTable:
    """The table :func:`segment` merges by: pair -> (rank, ``results[rank]``), ranks by :func:`pair_ranks`.

    ``results[r]`` is the id of the token merge ``r`` makes.

    >>> merge_table([(0, 1), (1, 2), (0, 1)], [3, 4, 3])
    {(0, 1): (2, 3), (1, 2): (1, 4)}
    """
    return {pair: (r, results[r]) for pair, r in pair_ranks(merges).items()}


def find_pair(syms: Sequence[int], left: int, right: int, *, by_right: bool = False) -> List[int]:
    """Start positions of the non-overlapping ``(left, right)`` in ``syms``, left to right.

    ``list.index`` jumps between candidates at C speed. ``by_right`` scans for ``right``
    instead (faster when it is the rarer symbol); only valid when ``left != right``, where
    occurrences cannot overlap. :meth:`~bpe_core.training.pair_index.PairIndex.apply` inlines
    this scan (a call per word the pair touches costs the trainer ~10%); a test checks they agree.

    >>> find_pair([7, 7, 7, 7, 7], 7, 7), find_pair([1, 2, 1, 2], 1, 2, by_right=True)
    ([0, 2], [0, 2])
    """
    spots: List[int] = []
    index = syms.index  # type: ignore[attr-defined]
    if by_right:  # counted first: no ValueError (list.index formats a message) per scanned word
        i = 0
        for _ in range(syms.count(right)):
            i = index(right, i)
            if i and syms[i - 1] == left:
                spots.append(i - 1)
            i += 1
        return spots
    n1 = len(syms) - 1
    i, allowed = -1, 0  # a left symbol inside the previous spot cannot start one
    for _ in range(syms.count(left)):
        i = index(left, i + 1)
        if i >= allowed and i < n1 and syms[i + 1] == right:
            spots.append(i)
            allowed = i + 2
    return spots


def merge_in_place(syms: List[int], spots: Sequence[int], new: int) -> None:
    """Replace the pair at each of ``spots`` (ascending, non-overlapping, at least one) by ``new``.

    The k-th merged pair sits at ``spots[k] - k`` afterwards. One spot costs one ``del`` (a C
    ``memmove``); more are rebuilt from the first spot on in one pass, so a word with thousands of
    occurrences stays linear (a ``del`` per occurrence, as before, took 6 s on a 256k-symbol word).

    >>> s = [1, 2, 1, 2, 3]; merge_in_place(s, [0, 2], 9); s
    [9, 9, 3]
    """
    first = spots[0]
    if len(spots) == 1:
        syms[first] = new
        del syms[first + 1]
        return
    tail = [new]
    prev = first + 2
    for i in spots[1:]:
        tail += syms[prev:i]
        tail.append(new)
        prev = i + 2
    tail += syms[prev:]
    syms[first:] = tail


def merge_pair(syms: Sequence[int], left: int, right: int, new: int) -> Optional[List[int]]:
    """A copy of ``syms`` with every ``(left, right)`` merged, left to right; None if there was none.

    >>> merge_pair([1, 1, 1, 2], 1, 1, 9)
    [9, 1, 2]
    >>> merge_pair([1, 2], 2, 1, 9) is None
    True
    """
    spots = find_pair(syms, left, right)
    if not spots:
        return None
    out = list(syms)
    merge_in_place(out, spots, new)
    return out


def expand_pair(syms: Sequence[int], new: int, left: int, right: int) -> List[int]:
    """Undo one merge: every ``new`` back to ``left, right`` (one pass of slices, linear).

    >>> expand_pair([9, 3, 9], 9, 1, 2)
    [1, 2, 3, 1, 2]
    """
    out: List[int] = []
    index = syms.index  # type: ignore[attr-defined]
    prev = 0
    try:
        while True:
            i = index(new, prev)
            out += syms[prev:i]
            out.append(left)
            out.append(right)
            prev = i + 1
    except ValueError:
        out += syms[prev:]
        return out


def segment(ids: List[int], table: MergeTable, fired: Optional[List[Tuple[int, int, int]]] = None
            ) -> Tuple[List[int], List[int]]:
    """Merge the adjacent pair of lowest rank, the leftmost on equal ranks, until none is in ``table``.

    This is Hugging Face ``tokenizers``' ``Word::merge_all`` (and GPT-2's ``bpe``): a heap of
    candidate pairs over a linked list, a popped entry skipped when its pair no longer makes the
    entry's token. Returns the final ids and, for each, the index in ``ids`` where it starts
    (the encoder turns those into spans; ``ids`` itself is not changed).

    ``fired`` (a list) receives ``(rank, start, new)`` for each merge as it happens, ``start`` being
    the index in ``ids`` where the left token begins: :mod:`bpe_core.analysis.explain` replays these
    ("why this split") instead of running a second merge loop. The encoder passes none.

    >>> segment([0, 0, 0], {(0, 0): (0, 1)})
    ([1, 0], [0, 2])
    >>> log = []; segment([0, 1, 2], {(0, 1): (0, 3), (3, 2): (1, 4)}, log)[0], log
    ([4], [(0, 0, 3), (1, 0, 4)])
    """
    n = len(ids)
    if n < 2:
        return list(ids), list(range(n))
    get = table.get
    heap = []
    for i in range(n - 1):
        hit = get((ids[i], ids[i + 1]))
        if hit is not None:
            heap.append((hit[0], i, hit[1]))
    if not heap:
        return list(ids), list(range(n))
    cur = list(ids)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    alive = [True] * n
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        rank, i, new = pop(heap)
        j = nxt[i]
        # stale: the left symbol is gone, or the pair at i no longer makes `new` (tokenizers' check)
        if not alive[i] or j >= n or get((cur[i], cur[j]), _NONE)[1] != new:
            continue
        if fired is not None:
            fired.append((rank, i, new))
        cur[i] = new
        alive[j] = False
        k = nxt[i] = nxt[j]
        if k < n:
            prv[k] = i
            hit = get((new, cur[k]))
            if hit is not None:
                push(heap, (hit[0], i, hit[1]))
        a = prv[i]
        if a >= 0:
            hit = get((cur[a], new))
            if hit is not None:
                push(heap, (hit[0], a, hit[1]))
    starts = [k for k in range(n) if alive[k]]
    return [cur[k] for k in starts], starts


def segment_all(words: List[List[int]], table: MergeTable) -> List[List[int]]:
    """:func:`segment` for many words (a new list each), equal words segmented once.

    >>> segment_all([[0, 1], [0, 1], [1]], {(0, 1): (0, 2)})
    [[2], [2], [1]]
    """
    cache: Dict[Tuple[int, ...], List[int]] = {}
    out = []
    for ids in words:
        key = tuple(ids)
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = segment(ids, table)[0]
        out.append(list(hit))
    return out


# -- tiktoken: merge by the rank of the concatenated bytes ----------------------------------
#: "no rank": never the minimum while a real pair is left
NO_RANK = 1 << 62


def byte_pair_bounds(data: bytes, rank: Callable[[bytes, int], int], stop: int = NO_RANK,
                     fired: Optional[List[Tuple[int, int]]] = None) -> List[int]:
    """Part boundaries after tiktoken's ``_byte_pair_merge``: merge the adjacent parts whose
    concatenation has the lowest rank (the leftmost on ties) while that rank is below ``stop``.

    ``rank(part, NO_RANK)`` looks a part up (``dict.get`` works). Pair ranks sit in a list so
    ``min`` scans at C speed: the fastest way for short pieces (see :func:`byte_pair_bounds_long`).
    Recovering a tiktoken file's merges runs the same loop with ``stop`` = the token's own rank.
    ``fired`` (a list) receives ``(rank, part index)`` for each merge of part ``i`` with part
    ``i + 1`` (:mod:`bpe_core.analysis.explain` replays them).

    >>> byte_pair_bounds(b"abc", {b"ab": 1, b"bc": 0, b"abc": 2}.get)
    [0, 3]
    >>> byte_pair_bounds(b"abc", {b"ab": 1, b"bc": 0, b"abc": 2}.get, stop=2)
    [0, 1, 3]
    """
    bounds = list(range(len(data) + 1))
    pr = list(map(rank, [data[i:i + 2] for i in range(len(data) - 1)], repeat(NO_RANK)))
    while pr:
        best = min(pr)
        if best >= stop:
            break
        i = pr.index(best)  # the leftmost lowest rank, as tiktoken
        if fired is not None:
            fired.append((best, i))
        del bounds[i + 1]
        del pr[i]
        if i > 0:
            pr[i - 1] = rank(data[bounds[i - 1]:bounds[i + 1]], NO_RANK)
        if i < len(pr):
            pr[i] = rank(data[bounds[i]:bounds[i + 2]], NO_RANK)
    return bounds


def byte_pair_bounds_long(data: bytes, rank: Callable[[bytes], Optional[int]]) -> List[int]:
    """:func:`byte_pair_bounds` with a heap and a linked list: ``n log n`` for 10k-byte pieces.

    >>> byte_pair_bounds_long(b"abc", {b"ab": 1, b"bc": 0, b"abc": 2}.get)
    [0, 3]
    """
    n = len(data)
    nxt = list(range(1, n + 2))
    prv = list(range(-1, n))
    alive = [True] * (n + 1)
    heap = [(r, i, i + 2) for i in range(n - 1) if (r := rank(data[i:i + 2])) is not None]
    heapq.heapify(heap)
    while heap:
        r, i, end = heapq.heappop(heap)
        if not alive[i] or nxt[i] > n or nxt[nxt[i]] != end:
            continue  # stale: a boundary inside or at this pair is gone
        alive[nxt[i]] = False
        nxt[i] = end
        prv[end] = i
        for a in (prv[i], i):
            if a >= 0 and nxt[a] < n:
                e2 = nxt[nxt[a]]
                r2 = rank(data[a:e2])
                if r2 is not None:
                    heapq.heappush(heap, (r2, a, e2))
    bounds = [0]
    while bounds[-1] < n:
        bounds.append(nxt[bounds[-1]])
    return bounds
