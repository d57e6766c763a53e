"""Keeping the pair index's lazy structures in proportion to the live state, however the trainer is scrubbed.

:class:`~bpe_core.training.pair_index.PairIndex` never searches its heap or its pair -> words lists to
delete: a heap entry goes stale when its pair's count moves, a listed word when it loses the pair, and
both are skipped when read. Training forward reads them away as fast as it adds them, but scrubbing back
and forth does not: 20 round trips of 500 merges grew a heap to 2 M entries for 8.6k pairs (26 -> 413 MB),
as each undo pushes its words' pairs again and lists a word again under a pair it held before the merge
(where it may still be listed, stale). :func:`bound`, run after each merge and undo, rebuilds either
structure from the live state once it has outgrown it; a rebuild costs no more than the entries added
since the last one, so the work stays amortised O(1) per entry and the memory bounded.
"""
from __future__ import annotations

from typing import Any

from bpe_core.training.pairs import pair_words

#: the heap is rebuilt past HEAP_SLACK entries per live pair, the word lists past LIST_SLACK times their size
#: after the first count or the last rebuild plus a quarter of the symbols (plus SLACK_MIN each: small states
#: are left alone). A full train never gets there: its heap holds at most 1.4 entries per pair on the 17.6 MB
#: corpus and its lists only shrink
HEAP_SLACK, LIST_SLACK, SLACK_MIN = 2, 2, 4096

PairIndexLike = Any  # a PairIndex; no import: no cycle


def bound(idx: PairIndexLike) -> None:
    """Rebuild the heap or the word lists of ``idx`` if they have outgrown the live state."""
    if len(idx.heap) > HEAP_SLACK * len(idx.counts) + SLACK_MIN:
        idx.rebuild_heap()
    if idx.listed > LIST_SLACK * idx.listed_base + (idx.symbols >> 2) + SLACK_MIN:
        rebuild_where(idx)


def rebuild_where(idx: PairIndexLike) -> None:
    """Each live pair's words exactly (once each, ascending), recounted from the words; the first-seen
    rule's lower bounds become exact."""
    idx.scanned += idx.symbols
    idx.where = where = pair_words(idx.segs)
    idx.listed = idx.listed_base = sum(map(len, where.values()))
    idx.first = {k: ws[0] for k, ws in where.items()}
