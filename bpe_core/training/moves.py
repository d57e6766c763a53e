"""A walk along a timeline (:class:`Move`) and what its driver hands to readers (:class:`Frame`).

See :mod:`bpe_core.training.timeline` for the design: a move owns the trainer while it is live and
is driven on any one thread; frames are immutable, cheap per batch, and published by the reader.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, List, Mapping, Optional, Sequence, Tuple

from bpe_core.training.ties import Ties
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
    #: (:attr:`Timeline.watch_ties <bpe_core.training.timeline.Timeline.watch_ties>`); else None
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


def undos(trainer: Trainer, n: int) -> Iterator[MergeStep]:
    """Undo up to ``n`` merges, yielding each (a move's items)."""
    for _ in range(n):
        step = trainer.undo()
        if step is None:
            return
        yield step
