"""The "table-order" tie rule: among pairs with the top count, the one that entered the pair table first.

This is the order of PickyBPE's reference (pchizhov/picky_bpe), whose pair table is a ``Counter`` and whose
choice is ``most_common(1)``: the first pair, in insertion order, with the highest count. A pair gets a
serial number when it enters the table and keeps it until it leaves: it enters when its count goes from 0
to positive (in the initial count: corpus order, each word left to right; after a merge or a removal: the
changed words in order, each left to right) and leaves when its count falls back to 0. A removed token's
inner pairs (the neighbours inside its split) enter the table even with count 0, as the reference adds them
(``pinned``), and keep their serial until a count they gain is lost again.

The serials live in ``PairIndex.serial`` (the heap key is ``(-count, serial, pair)``); :class:`TableOrder`
keeps them current after each merge and removal and takes them back on undo. ``batches`` records where each
update's serials begin and whether the reference orders that update by iterating a Python set (its words
hash by address): ties inside such an update are not determined by the reference's code.

>>> order = initial_serials([[1, 2, 3], [2, 3, 1]])
>>> [(k >> 21, k & ((1 << 21) - 1), s) for k, s in order.items()]
[(1, 2, 0), (2, 3, 1), (3, 1, 2)]
"""
from __future__ import annotations

from bisect import bisect_right
from heapq import heappush
from itertools import chain
from typing import Dict, Iterable, List, Sequence, Tuple

from bpe_core.training.pairs import pair_keys

__all__ = ["TableOrder", "initial_serials", "UNSEEN"]

#: the serial of a live pair not numbered yet (only inside a merge, before :meth:`TableOrder.sync`)
UNSEEN = 1 << 62

Token = Tuple[int, int, Dict[int, int], List[int]]


def initial_serials(segs: Sequence[Sequence[int]]) -> Dict[int, int]:
    """Pair key -> serial for the first count: in corpus order, each word left to right."""
    return {k: i for i, k in enumerate(dict.fromkeys(chain.from_iterable(map(pair_keys, segs))))}


class TableOrder:
    """Keeps ``PairIndex.serial`` as the reference's pair table would number its pairs (see the module doc)."""

    def __init__(self, idx) -> None:
        self.idx = idx
        self.serial: Dict[int, int] = idx.serial
        self.next = max(self.serial.values(), default=-1) + 1
        #: (first serial of an update, whether the reference iterates a set to order it)
        self.batches: List[Tuple[int, bool]] = [(0, False)]

    def sync(self, befores: Iterable[Sequence[int]], afters: Iterable[Sequence[int]], set_ordered: bool,
             pinned: Sequence[int] = ()) -> Token:
        """After words changed from ``befores`` to ``afters``: pairs gone from the table lose their serial,
        pairs new to it get the next ones (``pinned`` first, in their own update); returns the undo token."""
        counts, serial = self.idx.counts, self.serial
        popped: Dict[int, int] = {}
        for seg in befores:
            for kk in pair_keys(seg):
                if kk not in counts and kk in serial:
                    popped[kk] = serial.pop(kk)
        start, nb = self.next, len(self.batches)
        assigned: List[int] = []
        if pinned:
            self.batches.append((self.next, False))
            self._number(pinned, assigned, True)
        self.batches.append((self.next, set_ordered))
        for seg in afters:
            self._number(pair_keys(seg), assigned, False)
        return start, nb, popped, assigned

    def _number(self, keys: Iterable[int], assigned: List[int], pin: bool) -> None:
        counts, serial, heap = self.idx.counts, self.serial, self.idx.heap
        for kk in keys:
            if kk in serial or not (pin or kk in counts):
                continue
            serial[kk] = s = self.next
            self.next += 1
            assigned.append(kk)
            c = counts.get(kk, 0)
            if c > 0:
                heappush(heap, (-c, s, kk))
                self.idx.pushes += 1

    def restore(self, token: Token) -> None:
        """Undo, first half (before the words go back): the pairs that left the table get their serials back."""
        self.serial.update(token[2])

    def forget(self, token: Token) -> None:
        """Undo, second half (after the words went back): the serials given out are taken back."""
        start, nb, _, assigned = token
        for kk in assigned:
            del self.serial[kk]
        self.next = start
        del self.batches[nb:]

    def batch_of(self, serial: int) -> Tuple[int, bool]:
        """(update number, set-ordered) of the update that gave out ``serial``."""
        i = bisect_right(self.batches, (serial, True)) - 1
        return i, self.batches[i][1]
