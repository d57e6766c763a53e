"""What a merge record tells about the merge: its example words and the pairs whose count moved.

The trainer builds these for a :class:`~bpe_core.types.MergeStep` (right away, or later through
``Trainer.detail`` for bulk runs); they read the trainer's state right after the merge.

A merge is ``(left, right, new_id)``; ``befores`` holds the changed words' segmentations before
it when the merge reused an existing token (otherwise they are rebuilt by expanding ``new_id``).

>>> segs, freqs = [[5, 3], [2]], [4, 1]
>>> word_changes(["abc", "x"], freqs, segs, [0], None, (1, 2, 5), 16)[0].before
(1, 2, 3)
"""
from __future__ import annotations

import heapq
from typing import Dict, List, Optional, Sequence, Tuple

from bpe_core.training.pair_index import MASK, SHIFT, expand, pairs_of
from bpe_core.types import WordChange

Merge = Tuple[int, int, int]


def changed_pairs(counts: Dict[int, int], segs: List[List[int]], freqs: List[int], changed: Sequence[int],
                  befores: Optional[List[List[int]]], merge: Merge,
                  log: Optional[List[Tuple[int, int]]] = None) -> Tuple[Tuple[int, int, int], ...]:
    """``(left, right, count now)`` of every pair whose count the merge moved (net), in pair order.

    ``log`` holds the count changes the merge made; without it the changed words are diffed.
    """
    left, right, new_id = merge
    delta: Dict[int, int] = {}
    for kk, d in log or ():
        delta[kk] = delta.get(kk, 0) + d
    for j, w in enumerate(changed if log is None else ()):
        after = segs[w]
        before = befores[j] if befores is not None else expand(after, new_id, left, right)
        f = freqs[w]
        for kk in pairs_of(before):
            delta[kk] = delta.get(kk, 0) - f
        for kk in pairs_of(after):
            delta[kk] = delta.get(kk, 0) + f
    touched = sorted(kk for kk, d in delta.items() if d)  # canonical order: (left, right)
    return tuple([(kk >> SHIFT, kk & MASK, counts.get(kk, 0)) for kk in touched])


def word_changes(words: List[str], freqs: List[int], segs: List[List[int]], changed: Sequence[int],
                 befores: Optional[List[List[int]]], merge: Merge, limit: int) -> Tuple[WordChange, ...]:
    """The ``limit`` most frequent changed words, before and after (ties: word order)."""
    left, right, new_id = merge
    if len(changed) > limit:
        picked = heapq.nlargest(limit, range(len(changed)), key=lambda j: freqs[changed[j]])
    else:
        picked = sorted(range(len(changed)), key=lambda j: -freqs[changed[j]])
    examples = []
    for j in picked:
        w = changed[j]
        after = tuple(segs[w])
        before = tuple(befores[j]) if befores is not None else expand(after, new_id, left, right)
        examples.append(WordChange(w, words[w], freqs[w], before, after))
    return tuple(examples)
