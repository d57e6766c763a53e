"""Tokens per word per group (script) during training, kept up to date incrementally.

The parity question — is one language starving another? — needs a curve per group over the merge
number. Recounting every word after each merge would cost the whole corpus per step; instead each
word's group is computed once (at load) and its current length is remembered. After a batch of
merges (applied or undone), only the words the merges changed (``MergeStep.changed_words``) are
asked for their new length, and their group's token total moves by the difference: the cost is
the changed words, as for the trainer itself. Given the words' segmentations, a batch of merges (a bulk
step, a run's frame, a jump) is :meth:`replay` ed merge by merge into the changed words, a point at each
merge, exactly as stepping one by one records them (issue 23, finding 6: Step ×500 drew one straight line
from 0 to 500); else one point per batch. Undoing truncates the points past it.

>>> gc = GroupCurves(["Latin", "Han", "Common"], freqs=[2, 1, 5], lengths=[4, 6, 1])
>>> gc.groups, gc.values()
(('Latin', 'Han'), (4.0, 6.0))
>>> gc.update({0: 2}, merge=1); gc.update({1: 3}, merge=2); gc.points
[(0, (4.0, 6.0)), (1, (2.0, 6.0)), (2, (2.0, 3.0))]
>>> gc.update({1: 6}, merge=1); gc.points
[(0, (4.0, 6.0)), (1, (2.0, 6.0))]
>>> from bpe_core.types import MergeStep, TrainingStats
>>> st = TrainingStats(0, 0, 0, 0, 0)
>>> steps = [MergeStep(1, 0, 1, 3, "a", "b", "ab", 2, True, (0, 1), (), (), st),
...          MergeStep(2, 3, 3, 4, "ab", "ab", "abab", 1, True, (0,), (), (), st)]
>>> gc = GroupCurves(["Latin", "Han"], freqs=[1, 1], segmentations=[(0, 1, 0, 1), (0, 1, 2)])
>>> gc.replay(steps); gc.points
[(0, (4.0, 3.0)), (1, (2.0, 2.0)), (2, (1.0, 2.0))]
"""
from __future__ import annotations

from typing import List, Mapping, Optional, Sequence, Tuple

from bpe_core.analysis.scripts import main_scripts
from bpe_core.base.merge import merge_pair
from bpe_core.types import MergeStep

Point = Tuple[int, Tuple[float, ...]]
Segmentation = Tuple[int, ...]


class GroupCurves:
    """Per-group totals (word occurrences, tokens) and the curve of tokens per word over merges.

    ``groups`` names each word's group; only the main ones (``main_scripts``: letters, at least 1%
    of the words) get a curve, the others are ignored. ``lengths`` are the words' token counts at
    merge ``merge`` (normally 0, the initial units); or ``segmentations``, the words' tokens there, which
    :meth:`replay` merges further.
    """

    def __init__(self, groups: Sequence[str], *, freqs: Sequence[int], lengths: Sequence[int] = (),
                 merge: int = 0, share: float = 0.01, segmentations: Optional[Sequence[Segmentation]] = None) -> None:
        self._segs: Optional[List[Segmentation]] = None if segmentations is None else list(segmentations)
        if segmentations is not None:
            lengths = [len(seg) for seg in segmentations]
        self.groups: Tuple[str, ...] = tuple(main_scripts(groups, freqs, share=share))
        index = {g: k for k, g in enumerate(self.groups)}
        self._group = [index.get(g, -1) for g in groups]  # -1: no curve
        self._freqs = list(freqs)
        self._lengths = list(lengths)
        self._words = [0] * len(self.groups)
        self._tokens = [0] * len(self.groups)
        for g, f, n in zip(self._group, self._freqs, self._lengths):
            if g >= 0:
                self._words[g] += f
                self._tokens[g] += f * n
        self.points: List[Point] = [(merge, self.values())]

    def values(self) -> Tuple[float, ...]:
        """Tokens per word of each group now (in ``groups`` order)."""
        return tuple(t / w if w else 0.0 for t, w in zip(self._tokens, self._words))

    def value(self, group: str) -> Optional[float]:
        return self.values()[self.groups.index(group)] if group in self.groups else None

    def update(self, new_lengths: Mapping[int, int], *, merge: int) -> None:
        """Words whose length changed (word index -> its length now), at merge number ``merge``."""
        group, freqs, lengths, tokens = self._group, self._freqs, self._lengths, self._tokens
        for i, n in new_lengths.items():
            g = group[i]
            if g >= 0:
                tokens[g] += freqs[i] * (n - lengths[i])
            lengths[i] = n
        self.record(merge)

    def set_segmentations(self, segs: Mapping[int, Segmentation], *, merge: int) -> None:
        """Words' segmentations now (those a batch changed: an undo, a jump), at merge number ``merge``."""
        if self._segs is not None:
            for i, seg in segs.items():
                self._segs[i] = seg
        self.update({i: len(seg) for i, seg in segs.items()}, merge=merge)

    def replay(self, steps: Sequence[MergeStep]) -> None:
        """Merges applied in order, from the last point's merge on: each is merged into the words it changed
        (the trainer's left-to-right rule), a point after each (needs ``segmentations``)."""
        segs, group, freqs, lengths, tokens = self._segs, self._group, self._freqs, self._lengths, self._tokens
        for step in steps:
            left, right, new = step.left, step.right, step.new_id
            for i in step.changed_words:
                g = group[i]
                if g < 0:
                    continue  # no curve: its tokens are never asked for
                merged = merge_pair(list(segs[i]), left, right, new)
                if merged is not None:
                    tokens[g] += freqs[i] * (len(merged) - lengths[i])
                    lengths[i], segs[i] = len(merged), tuple(merged)
            self.record(step.rank)

    @property
    def replays(self) -> bool:
        """Whether :meth:`replay` can run (the words' segmentations are kept)."""
        return self._segs is not None

    def record(self, merge: int) -> None:
        """The point at ``merge``: later points are dropped (after an undo they are another future)."""
        points = self.points
        while points and points[-1][0] >= merge:
            points.pop()
        points.append((merge, self.values()))

