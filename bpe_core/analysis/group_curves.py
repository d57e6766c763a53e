"""Tokens per word per group (script) during training, kept up to date incrementally.

Tokens per word is the Measures chart's (:mod:`bpe_core.analysis.curves`): a group's tokens over the
whitespace-separated words of the run's text in that script (``words``: :func:`~bpe_core.analysis.scripts.text_words`,
read once per run, :func:`~bpe_core.analysis.variant_compare.corpus_words`), the groups being the main scripts
weighed by characters (``main``: :class:`~bpe_core.analysis.variant_compare.WordGroups`). The run's pieces
cannot tell where a whitespace word starts (GPT-2 cuts "don't" in two and a Tamil word at each mark), so
without the text's words a group's pieces are what it divides by, and the values are *tokens per piece*
(:attr:`GroupCurves.per_word` is False; the chart says so). The points keep the groups' token totals, so the
words may come later (the text is read on a worker) and the curve so far is divided by them then.

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
>>> gc.groups, gc.values(), gc.per_word
(('Latin', 'Han'), (4.0, 6.0), False)
>>> gc.update({0: 2}, merge=1); gc.update({1: 3}, merge=2); gc.points
[(0, (4.0, 6.0)), (1, (2.0, 6.0)), (2, (2.0, 3.0))]
>>> gc.update({1: 6}, merge=1); gc.points
[(0, (4.0, 6.0)), (1, (2.0, 6.0))]
>>> gc.set_words({"Latin": 2, "Han": 2}); gc.points  # the text's words: 2 Latin words, 2 Han ones
[(0, (4.0, 3.0)), (1, (2.0, 3.0))]
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
Totals = Tuple[int, Tuple[int, ...]]  # a merge and each group's tokens there
Segmentation = Tuple[int, ...]


class GroupCurves:
    """Per-group totals (tokens; words) and the curve of tokens per word over merges.

    ``groups`` names each of the run's words' (pieces') group. ``main``: the groups with a curve, in order
    (the Measures groups: the main scripts weighed by characters); by default the letter groups holding at
    least ``share`` of the pieces (``main_scripts``). ``words``: the whitespace-separated words of the run's
    text per group, what tokens per word divides by (:meth:`set_words` when read later); without them a
    group's pieces are (tokens per piece). ``lengths`` are the pieces' token counts at merge ``merge``
    (normally 0, the initial units); or ``segmentations``, their tokens there, which :meth:`replay` merges
    further. Only the pieces of a group with a curve are followed.
    """

    def __init__(self, groups: Sequence[str], *, freqs: Sequence[int], lengths: Sequence[int] = (),
                 merge: int = 0, share: float = 0.01, segmentations: Optional[Sequence[Segmentation]] = None,
                 main: Optional[Sequence[str]] = None, words: Optional[Mapping[str, int]] = None) -> None:
        self._segs: Optional[List[Segmentation]] = None if segmentations is None else list(segmentations)
        if segmentations is not None:
            lengths = [len(seg) for seg in segmentations]
        self.groups: Tuple[str, ...] = tuple(main_scripts(groups, freqs, share=share) if main is None else main)
        index = {g: k for k, g in enumerate(self.groups)}
        self._group = [index.get(g, -1) for g in groups]  # -1: no curve
        self._freqs = list(freqs)
        self._lengths = list(lengths)
        self._pieces = [0] * len(self.groups)
        self._tokens = [0] * len(self.groups)
        for g, f, n in zip(self._group, self._freqs, self._lengths):
            if g >= 0:
                self._pieces[g] += f
                self._tokens[g] += f * n
        self._words: List[int] = self._pieces
        self.per_word = False
        if words is not None:
            self.set_words(words)
        self._totals: List[Totals] = [(merge, tuple(self._tokens))]

    def set_words(self, words: Mapping[str, int]) -> None:
        """The run's text's whitespace-separated words per group: the curve, past points included, becomes
        tokens per word (constants: a step's cost does not change)."""
        self._words = [words.get(g, 0) for g in self.groups]
        self.per_word = True

    def _per(self, tokens: Sequence[int]) -> Tuple[float, ...]:
        return tuple(t / w if w else 0.0 for t, w in zip(tokens, self._words))

    def values(self) -> Tuple[float, ...]:
        """Tokens per word of each group now (in ``groups`` order; per piece without the text's words)."""
        return self._per(self._tokens)

    @property
    def points(self) -> List[Point]:
        """The curve: (merge, each group's value) at each point recorded."""
        return [(m, self._per(t)) for m, t in self._totals]

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
        totals = self._totals
        while totals and totals[-1][0] >= merge:
            totals.pop()
        totals.append((merge, tuple(self._tokens)))

    @property
    def first_merge(self) -> int:
        """The merge of the first point (where tracking started)."""
        return self._totals[0][0]

    @property
    def last_merge(self) -> int:
        """The merge of the last point."""
        return self._totals[-1][0]

