"""Any word's segmentation at any known merge, from the merge records alone (no trainer).

Seeking a large corpus's trainer from merge 5,000 back to 100 takes seconds (every undo rewrites the
pair counts), but what a view shows at merge k needs far less: the segmentations of the words on
screen. A merge record lists the words it changed (``MergeStep.changed_words``), so an index from word
to the ranks that changed it answers "word i at merge k" by replaying at most one merge per change of
that word on its initial segmentation, with :func:`~bpe_core.analysis.replay.merge_pair` — the same
left-to-right merge the trainer applies, and then the step's removals (:func:`apply_step`).

The index grows with the records added since it was last asked (~1 µs per changed word); the
timeline feeds it as it publishes, a batch at a time, so a seek finds it ready.

>>> from bpe_core.types import MergeStep, TrainingStats
>>> st = TrainingStats(0, 0, 0, 0, 0)
>>> steps = [MergeStep(1, 0, 1, 3, "a", "b", "ab", 2, True, (0, 1), (), (), st),
...          MergeStep(2, 3, 2, 4, "ab", "c", "abc", 1, True, (1,), (), (), st)]
>>> wc = WordChanges([(0, 1), (0, 1, 2)])
>>> [wc.segmentation(1, k, steps) for k in (0, 1, 2)]
[(0, 1, 2), (3, 2), (4,)]
>>> wc.changed_between(0, 1, 2, steps), wc.changed_between(1, 1, 2, steps)
(False, True)
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from bpe_core.base.merge import merge_pair
from bpe_core.types import MergeStep

Segmentation = Tuple[int, ...]


class WordChanges:
    """Word index -> the ranks (ascending) of the known merges that changed it; see the module doc."""

    def __init__(self, initial: Sequence[Segmentation]) -> None:
        self._initial = initial
        self._ranks: Dict[int, List[int]] = {}
        self._indexed = 0  # the records indexed so far: ranks 1.._indexed

    def update(self, steps: Sequence[MergeStep], limit: Optional[int] = None) -> bool:
        """Index the records not yet seen (``steps`` is the timeline's list of known merges), at most
        ``limit`` of them (a GUI indexes a bulk run's records a slice at a time); True: all are indexed."""
        if len(steps) < self._indexed:
            self.truncate(len(steps))
        end = len(steps) if limit is None else min(len(steps), self._indexed + limit)
        ranks = self._ranks
        for step in steps[self._indexed:end]:
            rank = step.rank
            for i in step.changed_words:
                got = ranks.get(i)
                if got is None:
                    ranks[i] = [rank]
                else:
                    got.append(rank)
        self._indexed = end
        return end == len(steps)

    def add(self, word_ranks: Mapping[int, List[int]], first: int, last: int) -> bool:
        """Index the records of ranks ``first..last`` from :func:`ranks_by_word`'s table of them; False
        (nothing done) when records before ``first`` are not indexed yet: :meth:`update` then."""
        at = self._indexed
        if not first <= at + 1 <= last:
            return at >= last
        ranks = self._ranks
        if first == at + 1 and not ranks:  # the first frame: its lists become the index (a frame is applied once)
            ranks.update(word_ranks)
        else:
            get = ranks.get
            for i, new in word_ranks.items():
                if new[0] <= at:
                    new = [r for r in new if r > at]
                got = get(i)
                if got is None:
                    ranks[i] = new  # the frame's own list (built for this; a frame is applied once)
                else:
                    got.extend(new)
        self._indexed = last
        return True

    def truncate(self, n: int) -> None:
        """Forget the records after rank ``n`` (the timeline dropped them: a different future)."""
        if n >= self._indexed:
            return
        for i in [i for i, r in self._ranks.items() if r[-1] > n]:
            kept = self._ranks[i][: bisect_right(self._ranks[i], n)]
            if kept:
                self._ranks[i] = kept
            else:
                del self._ranks[i]
        self._indexed = n

    def changed_between(self, i: int, a: int, b: int, steps: Sequence[MergeStep]) -> bool:
        """Whether a known merge with rank in (min(a, b), max(a, b)] changed word ``i``."""
        self.update(steps)
        ranks = self._ranks.get(i)
        if not ranks:
            return False
        lo, hi = min(a, b), max(a, b)
        return bisect_right(ranks, hi) > bisect_right(ranks, lo)

    def segmentation(self, i: int, k: int, steps: Sequence[MergeStep]) -> Segmentation:
        """Word ``i`` after the first ``k`` known merges (``steps[:k]``)."""
        self.update(steps)
        seg = self._initial[i]
        ranks = self._ranks.get(i, ())
        for rank in ranks[: bisect_right(ranks, k)] if ranks else ():
            after = apply_step(seg, steps[rank - 1])
            if after is not None:
                seg = after
        return seg


def word_history(initial: Tuple[int, ...], history: Sequence[MergeStep]) -> List[Tuple[object, Tuple[int, ...]]]:
    """A word's segmentation at the start (step None) and after every merge of ``history`` that changed it."""
    seg = initial
    out: List[Tuple[object, Tuple[int, ...]]] = [(None, seg)]
    for step in history:
        if step.left in seg or step.removals:
            new = apply_step(seg, step)  # None: the step did not change this word
            if new is not None:
                seg = new
                out.append((step, seg))
    return out


def apply_step(seg: Sequence[int], step: MergeStep) -> Optional[Segmentation]:
    """``seg`` after one step: its merge, left to right, then each of its removals (every occurrence of the
    removed token replaced by its split), as the trainer applied them; None when the step left it unchanged.

    >>> from bpe_core.types import Removal, TrainingStats
    >>> st = TrainingStats(0, 0, 0, 0, 0)
    >>> step = MergeStep(2, 3, 1, 4, "aa", "b", "aab", 1, True, (0, 1), (), (), st, (Removal(3, "aa", (0, 0), 2, 2),))
    >>> apply_step((3, 1, 3), step), apply_step((3, 3), step), apply_step((0, 1), step)
    ((4, 0, 0), (0, 0, 0, 0), None)
    """
    merged = merge_pair(list(seg), step.left, step.right, step.new_id)
    out = merged
    for r in step.removals:
        cur = out if out is not None else seg
        if r.token_id in cur:
            out = [x for s in cur for x in (r.split if s == r.token_id else (s,))]
    return None if out is None else tuple(out)


def ranks_by_word(steps: Sequence[MergeStep]) -> Dict[int, List[int]]:
    """Word -> the ranks of ``steps`` (ascending) that changed it: a frame's part of the seek index."""
    out: Dict[int, List[int]] = {}
    get = out.get
    for step in steps:
        rank = step.rank
        for i in step.changed_words:
            got = get(i)
            if got is None:
                out[i] = [rank]
            else:
                got.append(rank)
    return out

