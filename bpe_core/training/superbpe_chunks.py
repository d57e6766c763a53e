"""SuperBPE's replay, its first step: the stage-2 units cut into chunks and each chunk named, in numpy.

A unit is cut before each space that follows an ASCII character no token joins to a space (no merge can cross
there; :func:`bpe_core.training.superbpe.inherit`). The 17.6 MB bench corpus has 230k units, 3.06M chunks and
157k distinct chunks: a Python string and a dict look-up per chunk took 0.55 s, so here a batch of units is joined
by an ASCII mark no unit holds, encoded to UTF-8 once, and cut on the bytes (a space's byte is a space, an ASCII
character's byte is that character). A chunk of at most 15 bytes is named by its bytes and length packed in two
64-bit words, found in an open-addressing table in numpy (exact: the key is the chunk); a longer one by its bytes in
a dict. A chunk's name is the place of its first appearance among all chunks, so sorting the names orders the
distinct chunks by first appearance.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Sequence, Tuple

import numpy as np

from bpe_core.types import Cancelled

__all__ = ["BATCH_CHARS", "MARKS", "cut_chunks", "name_spans"]

#: candidate marks between units (the first that no unit of a batch holds; with every one held: word by word)
MARKS = tuple(chr(c) for c in range(32))
BATCH_CHARS = 1 << 20
SHORT = 15  # bytes: a chunk up to this long is named by two 64-bit words
_LOW = np.array([(1 << (8 * n)) - 1 for n in range(9)], np.uint64)  # the low n bytes of a 64-bit word
_M1, _M2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F)


class ShortKeys:
    """(k1, k2) keys -> names, many at a time: an open-addressing table in numpy (linear probing), grown to keep it
    at most half full between calls."""

    def __init__(self, bits: int = 16) -> None:
        self._empty(bits)

    def _empty(self, bits: int) -> None:
        self.k1 = np.zeros(1 << bits, np.uint64)
        self.k2 = np.zeros(1 << bits, np.uint64)
        self.names = np.full(1 << bits, -1, np.int64)
        self.bits, self.count = bits, 0

    def _home(self, k1: np.ndarray, k2: np.ndarray) -> np.ndarray:
        h = k1 * _M1 ^ (k2 + (k2 >> np.uint64(29))) * _M2
        return ((h ^ (h >> np.uint64(31))) * _M1 >> np.uint64(64 - self.bits)).astype(np.int64)

    def name(self, k1: np.ndarray, k2: np.ndarray, places: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """Each key's name, and which keys were added (their indices): a key not in the table is added, named by
        the smallest of its ``places`` (non-negative). The copies of a key follow the same probe sequence, so they
        meet at the same empty slot in the same round, where the smallest place among all keys there wins; the
        others stay and read the slot again."""
        self._room(len(k1))
        out = np.empty(len(k1), np.int64)
        added: List[np.ndarray] = []
        todo, slot, mask = np.arange(len(k1)), self._home(k1, k2), (1 << self.bits) - 1
        least = np.full(1 << self.bits, np.iinfo(np.int64).max, np.int64) if len(k1) else None
        while len(todo):
            name = self.names[slot]
            full = name >= 0
            hit = full & (self.k1[slot] == k1) & (self.k2[slot] == k2)
            out[todo[hit]] = name[hit]
            empty = np.flatnonzero(~full)
            if len(empty):
                spots, wanted = slot[empty], places[todo[empty]]
                np.minimum.at(least, spots, wanted)
                won = empty[least[spots] == wanted]
                least[spots] = np.iinfo(np.int64).max
                at = slot[won]
                self.k1[at], self.k2[at], self.names[at] = k1[won], k2[won], places[todo[won]]
                self.count += len(won)
                added.append(todo[won])
                hit[won] = True
                out[todo[won]] = places[todo[won]]
            other = full & ~hit
            slot = np.where(other, (slot + 1) & mask, slot)
            left = ~hit
            todo, slot, k1, k2 = todo[left], slot[left], k1[left], k2[left]
        return out, np.concatenate(added) if added else np.zeros(0, np.int64)

    def _room(self, coming: int) -> None:
        """Grow until ``coming`` new keys cannot fill the table, and it is at most half full."""
        bits = self.bits
        while 2 * self.count > 1 << bits or self.count + coming >= 3 << (bits - 2):
            bits += 1
        if bits != self.bits:
            full = self.names >= 0
            k1, k2, names = self.k1[full], self.k2[full], self.names[full]
            self._empty(bits)
            self.name(k1, k2, names)


def cut_chunks(words: Sequence[str], free: Sequence[str], cut: Callable[[str], List[str]],
               cancel: Callable[[], bool] | None = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The chunks of ``words`` (cut before a space that follows a character of ``free``, as ``cut`` does one
    word): the distinct chunks' UTF-8 bytes (lone surrogates as ``surrogatepass`` writes them) one after the other
    in order of first appearance (uint8) and each one's length (int64), every chunk's index among them in order
    (int32 below 2**31 chunks) and each word's number of chunks (int64)."""
    is_free = np.zeros(256, bool)
    is_free[[ord(c) for c in free]] = True
    table, longs = ShortKeys(), {}  # type: ShortKeys, Dict[bytes, int]
    names: List[np.ndarray] = []
    per_word: List[np.ndarray] = []
    found: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # new chunks: first places, lengths, bytes
    sizes = np.cumsum(np.fromiter(map(len, words), np.int64, len(words)) + 1)
    stops = np.unique(np.searchsorted(sizes, np.arange(BATCH_CHARS, int(sizes[-1]) + BATCH_CHARS, BATCH_CHARS)) + 1
                      ).tolist() if len(words) else []
    small = np.int32 if len(words) and sizes[-1] < 1 << 31 else np.int64  # names: below the characters and marks
    start = done = 0
    for stop in stops:
        if cancel is not None and cancel():
            raise Cancelled()
        stop = min(stop, len(words))
        if stop <= start:
            continue
        data, begins, ends, counts = _cut_batch(words[start:stop], is_free, cut)
        names.append(_name(data, begins, ends, done, table, longs, found).astype(small))
        per_word.append(counts)
        done += len(begins)
        start = stop
    return _distinct(found, names, per_word, done)


def name_spans(data: np.ndarray, begins: np.ndarray, ends: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct spans of ``data`` (uint8) from ``begins`` to ``ends``: their bytes one after the other in order
    of first appearance and each one's length, and each span's index among them."""
    found: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    names = _name(data, begins, ends, 0, ShortKeys(), {}, found)
    distinct, lens, index, _ = _distinct(found, [names], [], len(begins))
    return distinct, lens, index


def _cut_batch(words: Sequence[str], is_free: np.ndarray,
               cut: Callable[[str], List[str]]) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The UTF-8 bytes of ``words`` with where each chunk begins and ends in them, and each word's number of
    chunks."""
    for mark in MARKS:
        text = mark.join(words)
        if text.count(mark) == len(words) - 1:
            break
    else:  # every mark is in the text: word by word
        pieces = [cut(w) for w in words]
        chunks = [c.encode("utf-8", "surrogatepass") for p in pieces for c in p]
        ends = np.cumsum(np.fromiter(map(len, chunks), np.int64, len(chunks)))
        return (np.frombuffer(b"".join(chunks), np.uint8), ends - np.diff(ends, prepend=0), ends,
                np.fromiter(map(len, pieces), np.int64, len(pieces)))
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), np.uint8)
    n = len(data)
    spaces = np.flatnonzero(data == 32)
    spaces = spaces[spaces > 0]
    before = data[spaces - 1]
    edge = np.zeros(n + 1, bool)  # where a chunk ends: a cut, a mark, the end
    edge[spaces[is_free[before] & (before != ord(mark))]] = True
    marks = data == ord(mark)
    edge[:n] |= marks
    edge[n] = True
    ends = np.flatnonzero(edge)
    after_mark = marks[ends[:-1]]
    begins = np.concatenate(([0], ends[:-1] + after_mark))
    counts = np.bincount(np.concatenate(([0], np.cumsum(after_mark))), minlength=len(words)).astype(np.int64)
    return data, begins, ends, counts


def _name(data: np.ndarray, begins: np.ndarray, ends: np.ndarray, done: int, table: ShortKeys,
          longs: Dict[bytes, int], found: List[Tuple[np.ndarray, np.ndarray, np.ndarray]]) -> np.ndarray:
    """Each chunk's name (the place of its first appearance among all chunks; this batch's start at ``done``),
    new chunks noted in ``found``."""
    lens = ends - begins
    out = np.empty(len(begins), np.int64)
    short = np.flatnonzero(lens <= SHORT)
    padded = np.zeros(len(data) + 16, np.uint8)
    padded[:len(data)] = data
    eights = np.ndarray((len(data) + 9,), np.uint64, padded, strides=(1,))  # the 8 bytes from each byte on
    at, size = begins[short], lens[short]
    k1 = eights[at] & _LOW[np.minimum(size, 8)]
    k2 = eights[at + 8] & _LOW[np.clip(size - 8, 0, 8)] | size.astype(np.uint64) << np.uint64(56)
    got, new = table.name(k1, k2, done + short)
    if len(new):
        at = short[new]
        both = np.stack((k1[new], k2[new]), axis=1).view(np.uint8)  # each new key's 16 bytes
        found.append((done + at, lens[at], both[np.arange(16) < lens[at, None]]))
    out[short] = got
    long = np.flatnonzero(lens > SHORT)
    if len(long):
        raw = data.tobytes()
        chunks = list(map(raw.__getitem__, map(slice, begins[long].tolist(), ends[long].tolist())))
        places = (done + long).tolist()
        named = np.array(list(map(longs.setdefault, chunks, places)), np.int64)
        fresh = np.flatnonzero(named == done + long)
        out[long] = named
        if len(fresh):
            at = long[fresh]
            found.append((done + at, lens[at], np.frombuffer(b"".join(chunks[i] for i in fresh.tolist()), np.uint8)))
    return out


def _distinct(found: List[Tuple[np.ndarray, np.ndarray, np.ndarray]], names: List[np.ndarray],
              per_word: List[np.ndarray], total: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct chunks' bytes and lengths in order of first appearance, each chunk's index, each word's
    number of chunks."""
    empty = np.zeros(0, np.int64)
    if not found:
        return np.zeros(0, np.uint8), empty, empty, np.concatenate(per_word) if per_word else empty
    places = np.concatenate([f[0] for f in found])
    lens = np.concatenate([f[1] for f in found])
    data = np.concatenate([f[2] for f in found])
    order = np.argsort(places, kind="stable")
    starts = np.cumsum(lens) - lens
    sizes = lens[order]
    at = np.cumsum(sizes) - sizes
    data = data[np.repeat(starts[order] - at, sizes) + np.arange(int(sizes.sum()))]
    index = np.zeros(total, np.int32 if total < 1 << 31 else np.int64)  # a first place -> the chunk's index
    index[places[order]] = np.arange(len(order))
    chunks = np.empty(total, index.dtype)
    done = 0
    for part in names:
        chunks[done:done + len(part)] = index[part]
        done += len(part)
    return data, sizes, chunks, np.concatenate(per_word) if per_word else empty
