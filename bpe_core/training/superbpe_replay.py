"""SuperBPE's replay in numpy: each distinct chunk of the stage-2 units merged once, all at a time.

:func:`bpe_core.training.superbpe.inherit` replays stage 1's merges on the stage-2 units (whole lines of the
17.6 MB bench corpus: 230k units, 3.06M chunks, 157k of them distinct, 4M ids after the replay). Here:

* :func:`~bpe_core.training.superbpe_chunks.cut_chunks` (its own module): a unit is cut before each space that
  follows an ASCII character no token joins to a space (no merge can cross there); each chunk gets the index of
  its first appearance among the distinct chunks.
* :func:`chunk_units`: the distinct chunks' units as ids of the stage-1 model (a unit it lacks, a *stranger*,
  gets an id past its tokens, in order of first appearance: it never merges), in first-appearance order too.
* :func:`merge_by_rank`: every distinct chunk merged by rank at once, one merge per chunk per round (the lowest
  rank, leftmost on ties: a chunk's merges are its own, so merging them side by side changes nothing), each
  pair ever adjacent that is a merge marked *seen* (the fork keeps exactly those merges).
* :func:`expand`: the chunks' final ids laid out per occurrence: all units' ids in one array, and each unit's
  length.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from bpe_core.training.superbpe_chunks import name_spans
from bpe_core.types import Cancelled, Raw

__all__ = ["chunk_units", "expand", "merge_by_rank", "merge_pieces", "rank_table"]

Cancel = Optional[Callable[[], bool]]


def _ask(cancel: Cancel) -> None:
    if cancel is not None and cancel():
        raise Cancelled()


def chunk_units(data: np.ndarray, lens: np.ndarray, symbols: Callable[[str], Sequence[Raw]], ids: Dict[Raw, int],
                base: int, plain: Optional[str]) -> Tuple[np.ndarray, np.ndarray, List[Raw]]:
    """The units of the chunks (``data``: their UTF-8 bytes one after the other, ``lens`` bytes each) as ids (all
    chunks' in one int64 array, and each chunk's length) and the distinct units in order of first appearance. A
    unit ``ids`` lacks (a stranger) gets the id ``base + k``, k its place among the strangers in order of first
    appearance (``base``: above every id of ``ids``).

    ``plain`` ("bytes" or "chars") says that ``symbols`` gives a chunk's UTF-8 bytes or characters, which are then
    read at once; otherwise (or for bytes with a lone surrogate, which has none) ``symbols`` is asked chunk by
    chunk."""
    raw = data.tobytes()
    if plain == "bytes":
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            plain = None
    if plain is None:
        ends = np.cumsum(lens).tolist()
        chunks = [raw[a:b].decode("utf-8", "surrogatepass") for a, b in zip([0] + ends, ends)]
        return _units_one_by_one(chunks, symbols, ids, base)
    if plain == "bytes":
        points = data.astype(np.int64)
        values, inverse = np.arange(256), points
    else:
        points = np.frombuffer(raw.decode("utf-8", "surrogatepass").encode("utf-32-le", "surrogatepass"),
                               np.uint32).astype(np.int64)
        heads = np.concatenate(([0], np.cumsum((data & 0xC0) != 0x80)))  # characters before each byte
        lens = np.diff(heads[np.cumsum(lens)], prepend=0)
        values, inverse = np.unique(points, return_inverse=True)
        inverse = inverse.reshape(-1)
    first = np.full(len(values), len(points), np.int64)
    np.minimum.at(first, inverse, np.arange(len(points)))  # each value's first appearance
    order = np.flatnonzero(first < len(points))
    order = order[np.argsort(first[order], kind="stable")]
    raws: List[Raw] = [bytes([v]) if plain == "bytes" else chr(v) for v in values[order].tolist()]
    lut = np.empty(len(values), np.int64)
    strangers = 0
    for slot, unit in zip(order.tolist(), raws):
        got = ids.get(unit)
        if got is None:
            got, strangers = base + strangers, strangers + 1
        lut[slot] = got
    return lut[inverse], lens.astype(np.int64), raws


def _units_one_by_one(chunks: List[str], symbols: Callable[[str], Sequence[Raw]], ids: Dict[Raw, int],
                      base: int) -> Tuple[np.ndarray, np.ndarray, List[Raw]]:
    flat: List[int] = []
    lens: List[int] = []
    seen: Dict[Raw, int] = {}
    strangers = 0
    for chunk in chunks:
        units = symbols(chunk)
        for u in units:
            if u not in seen:
                if u in ids:
                    seen[u] = ids[u]
                else:
                    seen[u], strangers = base + strangers, strangers + 1
            flat.append(seen[u])
        lens.append(len(units))
    return np.array(flat, np.int64), np.array(lens, np.int64), list(seen)


def rank_table(ranks: Dict[Tuple[int, int], Tuple[int, int]], size: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                                    int]:
    """``ranks`` (pair -> (rank, new id)) as arrays: the pairs' keys ``a * base + b``, each key's rank, each rank's
    new id (-1 where no pair has it), and ``base``; ids are below ``size``."""
    base = max(size, 1)
    keys = np.array([a * base + b for a, b in ranks], np.int64)
    rank = np.array([r for r, _ in ranks.values()], np.int64)
    top = int(rank.max()) + 1 if len(rank) else 0
    new = np.full(top + 1, -1, np.int64)
    new[rank] = [n for _, n in ranks.values()]
    return keys, rank, new, base


class PairRanks:
    """A merge's rank by its pair, for many pairs at once: an open-addressing hash table of the pairs' keys
    (``a * base + b``) in numpy, a quarter full, probed linearly; ``top`` for a pair that is no merge."""

    def __init__(self, keys: np.ndarray, ranks: np.ndarray, top: int) -> None:
        bits = max(4, (4 * len(keys)).bit_length())
        self.mask, self.shift, self.top = (1 << bits) - 1, np.uint64(64 - bits), top
        self.keys = np.full(1 << bits, -1, np.int64)
        self.ranks = np.full(1 << bits, top, np.int32)
        todo, slot = np.arange(len(keys)), self._home(keys)
        while len(todo):
            empty = self.keys[slot] == -1
            taken, first = np.unique(slot[empty], return_index=True)  # one key per empty slot this round
            winners = todo[empty][first]
            self.keys[taken], self.ranks[taken] = keys[winners], ranks[winners]
            left = np.ones(len(todo), bool)
            left[np.flatnonzero(empty)[first]] = False
            todo, slot = todo[left], (slot[left] + 1) & self.mask

    def _home(self, keys: np.ndarray) -> np.ndarray:
        return ((keys.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> self.shift).astype(np.int64)

    def __call__(self, keys: np.ndarray) -> np.ndarray:
        out = np.full(len(keys), self.top, np.int32)
        todo, slot = np.arange(len(keys)), self._home(keys)
        while len(todo):
            found = self.keys[slot]
            hit = found == keys
            out[todo[hit]] = self.ranks[slot[hit]]
            more = ~hit & (found != -1)
            todo, slot, keys = todo[more], (slot[more] + 1) & self.mask, keys[more]
        return out


def merge_by_rank(seq: np.ndarray, lens: np.ndarray, table: Tuple[np.ndarray, np.ndarray, np.ndarray, int],
                  cancel: Cancel = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each segment of ``seq`` (``lens`` long each) merged by rank: (the merged ids, each segment's new length,
    which ranks' pairs were ever adjacent, as a bool per rank)."""
    keys, rank, new, base = table
    top = len(new) - 1  # "no merge": above every rank
    seen = np.zeros(top + 1, bool)
    lookup = PairRanks(keys, rank, top)

    def ranks_at(left: np.ndarray, right: np.ndarray) -> np.ndarray:
        return lookup(left.astype(np.int64) * base + right)

    n_seg = len(lens)
    out_lens = np.zeros(n_seg, np.int64)
    done: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    idx = np.flatnonzero(lens > 0)
    lens = lens[idx].astype(np.int64)
    seq = seq.astype(np.int32)  # ids and ranks are far below 2**31
    starts = np.cumsum(lens) - lens
    r = np.full(len(seq), top, np.int32)
    if len(seq) > 1:
        same = np.ones(len(seq) - 1, bool)
        same[starts[1:] - 1] = False
        inner = np.flatnonzero(same)
        r[inner] = ranks_at(seq[inner], seq[inner + 1])
    seen[r] = True
    while len(lens):
        _ask(cancel)
        low = np.minimum.reduceat(r, starts)
        finished = low == top
        if finished.any():
            elems = np.repeat(finished, lens)
            done.append((idx[finished], lens[finished], seq[elems]))
            keep = ~finished
            seq, r, idx, lens, low = seq[~elems], r[~elems], idx[keep], lens[keep], low[keep]
            starts = np.cumsum(lens) - lens
            if not len(lens):
                break
        hits = np.flatnonzero(r == np.repeat(low, lens))
        owner = np.searchsorted(starts, hits, side="right") - 1
        first = hits[np.r_[True, owner[1:] != owner[:-1]]]
        seq[first] = new[low]
        gone = np.ones(len(seq), bool)
        gone[first + 1] = False
        seq, r = seq[gone], r[gone]
        lens = lens - 1
        starts = np.cumsum(lens) - lens
        at = first - np.arange(len(first))
        left = at[at > starts] - 1
        r[left] = ranks_at(seq[left], seq[left + 1])
        has_right = at + 1 < starts + lens
        right = at[has_right]
        r[right] = ranks_at(seq[right], seq[right + 1])
        r[at[~has_right]] = top
        seen[r[left]] = True
        seen[r[right]] = True
    for i, n, _ in done:
        out_lens[i] = n
    offsets = np.cumsum(out_lens) - out_lens
    out = np.empty(int(out_lens.sum()), np.int64)
    for i, n, s in done:
        out[np.repeat(offsets[i] - (np.cumsum(n) - n), n) + np.arange(len(s))] = s
    return out, out_lens, seen[:top]


def merge_pieces(data: np.ndarray, lens: np.ndarray, unit_ids: np.ndarray, joins: Set[bytes],
                 table: Tuple[np.ndarray, np.ndarray, np.ndarray, int],
                 cancel: Cancel = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`merge_by_rank` of byte-level chunks (``data``: their bytes, ``lens`` each, ``unit_ids`` those bytes'
    ids) piece by piece: a chunk is cut between two bytes no token holds side by side (no merge joins them), each
    distinct piece merged once (157k distinct chunks of the bench corpus have 293k pieces, 80k distinct, less than
    half the bytes), and the chunks' ids put together from their pieces'."""
    together = np.zeros((256, 256), bool)
    for pair in joins:
        if len(pair) == 2:
            together[pair[0], pair[1]] = True
    first = np.ones(len(data), bool)  # where a piece begins
    first[1:] = ~together[data[:-1], data[1:]]
    ends = np.cumsum(lens)
    first[(ends - lens)[lens > 0]] = True
    begins = np.flatnonzero(first)
    pieces, sizes, index = name_spans(data, begins, np.append(begins[1:], len(data)))
    per_chunk = np.bincount(np.searchsorted(ends, begins, side="right"), minlength=len(lens))
    byte_ids = np.zeros(256, np.int64)
    byte_ids[data] = unit_ids
    merged, merged_lens, seen = merge_by_rank(byte_ids[pieces], sizes, table, cancel)
    ids, chunk_lens = expand(merged, merged_lens, index, per_chunk)
    return ids, chunk_lens, seen


def expand(ids: np.ndarray, lens: np.ndarray, occurrences: np.ndarray,
           per_word: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The words' ids, all in one array, and each word's length: ``occurrences`` (each chunk's index, in order)
    laid out from the chunks' ids (``ids``, ``lens`` long each); ``per_word``: each word's number of chunks."""
    total = int(np.bincount(occurrences, minlength=len(lens)) @ lens)  # the words' ids
    small = np.int32 if max(len(ids), total) < 1 << 31 else np.int64
    lens = lens.astype(small)
    sizes = lens[occurrences]
    ends = np.cumsum(sizes, dtype=small)
    source = (np.cumsum(lens, dtype=small) - lens)[occurrences]  # each chunk's first id among the chunks' ids
    source -= ends
    source += sizes
    source = np.repeat(source, sizes)  # each id's place among the chunks' ids ...
    source += np.arange(len(source), dtype=small)  # ... from its place among the words'
    flat = ids[source]
    del source
    word_ends = np.concatenate(([0], ends))[np.cumsum(per_word)]
    return flat, np.diff(word_ends, prepend=0).astype(np.int64)
