"""A walk along a timeline (:class:`Move`) and what its driver hands to readers (:class:`Frame`).

See :mod:`bpe_core.training.timeline` for the design: a move owns the trainer while it is live and
is driven on any one thread; frames are immutable, cheap per batch, and published by the reader.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterator, List, Mapping, Optional, Sequence, Tuple

from bpe_core.training.ties import Ties, find_ties
from bpe_core.training.trainer import Trainer
from bpe_core.types import MergeStep, PairCount, TrainingStats

Segmentation = Tuple[int, ...]


@dataclass(frozen=True)
class Frame:
    """What readers need after some merges, read from the trainer by whoever owns it (do not mutate)."""

    steps: Tuple[MergeStep, ...]
    #: True when ``steps`` were undone (in the order they were undone)
    undone: bool
    #: word index -> segmentation, for every word the steps changed
    segmentations: Mapping[int, Segmentation]
    top_pairs: Tuple[PairCount, ...]
    stats: TrainingStats
    vocab_size: int
    stop_reason: Optional[str]
    #: the trainer's last merge with its examples (moves merge without them: half the cost)
    latest: Optional[MergeStep] = None
    #: word -> the ranks of ``steps`` that changed it (merges done), for the seek index: built where the
    #: move runs, so that the thread that publishes only extends one list per word (the timeline that applies
    #: the frame takes these lists over: a frame is applied once)
    word_ranks: Optional[Mapping[int, List[int]]] = None
    #: the ties where the trainer stands after ``steps``, read only while the timeline watches them
    #: (:attr:`TieWatch.watch_ties`); else None
    ties: Optional[Ties] = None


class Move:
    """A walk along the timeline: iterate over it for each merge done (or undone), then :meth:`close` it.

    It owns the trainer from creation until it is closed (``with move:`` closes it too), so its last
    frame can still be taken after the last merge. It may be driven on any thread, one at a time.
    ``total`` is the number of merges asked for (None: until a stop rule).
    """

    def __init__(self, items: Iterator[MergeStep], *, undone: bool, total: Optional[int],
                 frame: Callable[[Sequence[MergeStep], bool], Frame], release: Callable[[], None]) -> None:
        self._frame, self._release = frame, release
        self._items = items
        self._live = True
        self.undone = undone
        self.total = total

    def __iter__(self) -> Iterator[MergeStep]:
        return self._items  # the generator itself: no extra call per merge

    def __enter__(self) -> "Move":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop here (the merges so far stay) and hand the trainer back; safe to call twice."""
        if self._live:
            self._live = False
            close = getattr(self._items, "close", None)
            try:
                if close is not None:
                    close()  # a generator's ``finally`` runs on the thread that owns the trainer
            finally:
                self._release()

    def frame(self, steps: Sequence[MergeStep]) -> Frame:
        """The frame after ``steps`` (the merges since the last frame): where the move runs, before closing it."""
        return self._frame(steps, self.undone)


class TieWatch:
    """A :class:`~bpe_core.training.timeline.Timeline` mixin: the ties at positions the trainer has left.

    The tie inspector reads the ties where the position is, and only the trainer standing there knows them
    (:func:`~bpe_core.training.ties.find_ties`); reading ahead keeps it elsewhere. While :attr:`watch_ties` is
    on, each frame carries the ties where its move left the trainer (a read-ahead: every merge), kept with
    that position's top pairs (``_tops``: position -> (top pairs, ties or None)), dropped with them.
    """

    #: record the ties at each position a move passes (on while a tie inspector is shown)
    watch_ties = False

    def _watched_frame(self, steps: Sequence[MergeStep], undone: bool) -> Frame:
        """A move's frame (:meth:`Timeline._frame`), with the ties while watched (on the move's thread)."""
        frame = self._frame(steps, undone)
        return replace(frame, ties=find_ties(self.trainer)) if self.watch_ties and steps else frame

    def ties_here(self) -> Optional[Ties]:
        """The ties at the position: recorded where the trainer passed it while watched, or read from the
        trainer standing there free. None: neither (the trainer must come here: ``catch_up``)."""
        k = self._position
        top, ties = self._tops.get(k, (None, None))
        if ties is None and not self._busy and self.trainer.merge_count == k:
            ties = find_ties(self.trainer)
            self._tops[k] = (top if top is not None else tuple(self.trainer.top_pairs(self.top_k)), ties)
        return ties


def undos(trainer: Trainer, n: int) -> Iterator[MergeStep]:
    """Undo up to ``n`` merges, yielding each (a move's items)."""
    for _ in range(n):
        step = trainer.undo()
        if step is None:
            return
        yield step
