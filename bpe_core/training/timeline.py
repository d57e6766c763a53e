"""The position on a training run: steps taken and undone, seek, a word's history, the model at merge k.

A :class:`Timeline` wraps a :class:`~bpe_core.training.trainer.Trainer` (at merge 0) and remembers every
merge it has seen, including those undone: BPE training is deterministic, so scrubbing back keeps the
later merges visible and stepping forward again reproduces them (a step that differs, which a fixed
configuration cannot produce, drops the old future).

>>> from bpe_core.types import TrainerConfig
>>> tl = Timeline(Trainer({"low": 5, "lower": 2, "newest": 6, "widest": 3},
...                       TrainerConfig(end_of_word_suffix="</w>")))
>>> [tl.display(t) for t in tl.segmentation(2)]
['n', 'e', 'w', 'e', 's', 't', '</w>']
>>> [tl.display(s.new_id) for s in tl.step(3)]
['es', 'est', 'est</w>']
>>> _ = tl.seek(1); tl.merge_count, len(tl.steps)
(1, 3)
>>> [tl.display(t) for t in tl.segmentation(2)]
['n', 'e', 'w', 'es', 't', '</w>']
>>> [(step and step.rank, [tl.display(t) for t in seg]) for step, seg in tl.word_history(3)][-1]
(1, ['w', 'i', 'd', 'es', 't', '</w>'])

Design: two sides, one owner each
---------------------------------
The trainer mutates in place and a long run takes seconds, so a GUI must run it on a worker thread
while it keeps drawing. Copying the trainer's state for the GUI after every merge would double the
cost of a step. Instead the timeline keeps two sides apart:

* **the trainer side**: a :class:`Move` (from :meth:`Timeline.forward`, :meth:`Timeline.back` or
  :meth:`Timeline.toward`) iterates over the merges done or undone, lazily (napari's pattern: the
  core yields, a worker drives it and may stop between merges). A move owns the trainer from its
  creation until it is closed (a second move while one is live raises). Every so often its driver
  calls :meth:`Move.frame` with the merges since the last frame: an immutable :class:`Frame` holding
  only what changed (the segmentations of the changed words, the top pairs, the stats, the latest
  step with examples). Its cost is per batch, not per merge: a run at full speed makes ~20 a second.
* **the published side**: :meth:`Timeline.apply` folds a frame into the facts every reader sees
  (:meth:`segmentation`, :attr:`top_pairs`, :attr:`history`, :meth:`model`, ...). Only the thread that
  reads (the GUI thread) calls it, so reads never race a running move; the published segmentations
  are one list updated in place for the changed words only.

Without threads, :meth:`Timeline.step`, :meth:`undo`, :meth:`seek` and :meth:`reset` do both at once.
The published facts are exact after every applied frame; between frames they lag the trainer by the
merges of one batch. :meth:`model` builds the full model from the trainer when no move is live and
the trainer is where the published position is; during a move it is built from the published
records (same tokens, merges and counts, without touching the trainer).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterator, List, Mapping, Optional, Sequence, Tuple

from bpe_core.encoding.merge import merge_pair
from bpe_core.encoding.symbols import display as display_raw
from bpe_core.model import BPEModel
from bpe_core.training.trainer import Trainer
from bpe_core.types import MergeStep, PairCount, Progress, Raw, TrainerConfig, TrainingStats

#: how many next pairs a frame carries (a chart of the next pairs shows up to this many)
TOP_K = 20
#: the timeline's length when the configuration sets neither vocab_size nor num_merges
DEFAULT_TARGET = 1000

Segmentation = Tuple[int, ...]
WordHistory = List[Tuple[Optional[MergeStep], Segmentation]]


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


def target_merges(config: TrainerConfig, initial_vocab: Optional[int], known: int = 0,
                  default: int = DEFAULT_TARGET) -> int:
    """Where a timeline ends: the configured merges, or the vocab size minus the alphabet.

    >>> target_merges(TrainerConfig(vocab_size=300), 256), target_merges(TrainerConfig(), 256, 1500)
    (44, 1500)
    """
    if config.num_merges is not None:
        return config.num_merges
    if config.vocab_size is not None and initial_vocab is not None:
        return max(1, config.vocab_size - initial_vocab)
    return max(default, known)


class Move:
    """A walk along the timeline: iterate over it for each merge done (or undone), then :meth:`close` it.

    It owns the trainer from creation until it is closed (``with move:`` closes it too), so its last
    frame can still be taken after the last merge. It may be driven on any thread, one at a time.
    ``total`` is the number of merges asked for (None: until a stop rule).
    """

    def __init__(self, timeline: "Timeline", items: Iterator[MergeStep], *, undone: bool,
                 total: Optional[int]) -> None:
        timeline._claim()
        self._timeline = timeline
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
                self._timeline._release()

    def frame(self, steps: Sequence[MergeStep]) -> Frame:
        """The frame after ``steps`` (the merges since the last frame): where the move runs, before closing it."""
        return self._timeline._frame(steps, self.undone)


def _undos(trainer: Trainer, n: int) -> Iterator[MergeStep]:
    for _ in range(n):
        step = trainer.undo()
        if step is None:
            return
        yield step


class Timeline:
    """The published position on a trainer's run, and the moves that change it (see the module doc).

    >>> from bpe_core.types import TrainerConfig
    >>> tl = Timeline(Trainer({"aaab": 3, "ab": 2}, TrainerConfig()))
    >>> [tl.display(s.new_id) for s in tl.step(2)], tl.undo(2) and tl.merge_count, len(tl.steps)
    (['aa', 'ab'], 0, 2)
    """

    def __init__(self, trainer: Trainer, *, top_k: int = TOP_K) -> None:
        if trainer.merge_count:
            raise ValueError("a timeline starts from an untrained trainer (merge 0)")
        self.trainer = trainer
        self.top_k = top_k
        self._busy = False
        self._initial: List[Segmentation] = [trainer.segmentation(i) for i in range(len(trainer.words))]
        self._segs: List[Segmentation] = list(self._initial)  # the same tuples: no copy of the words
        #: every token id ever published (undone merges keep theirs: the timeline still shows them)
        self._tokens = {i: trainer.token(i) for i in range(trainer.vocab_size)}
        self.initial_vocab = trainer.vocab_size
        self._base_model = trainer.model()
        self._full_model = self._base_model  # the last model built from the trainer
        self._model: Optional[Tuple[int, bool, BPEModel]] = None  # (position, full, model)
        self._steps: List[MergeStep] = []
        self._position = 0
        start = self._frame((), False)
        self._top, self._stats, self._vocab_size = start.top_pairs, start.stats, start.vocab_size
        self._stop_reason: Optional[str] = None

    @classmethod
    def from_corpus(cls, path: str, config: TrainerConfig, *,
                    progress: Optional[Callable[[Progress], None]] = None,
                    cancel: Optional[Callable[[], bool]] = None,
                    factory: Callable[..., Trainer] = Trainer.from_corpus, top_k: int = TOP_K) -> "Timeline":
        """Count ``path``'s words and wrap the new trainer (a worker may call this; it shares nothing yet)."""
        return cls(factory(path, config, progress=progress, cancel=cancel), top_k=top_k)

    # -- published facts (read on the thread that applies frames) -----------------------------------
    @property
    def config(self) -> TrainerConfig:
        return self.trainer.config

    @property
    def words(self) -> List[str]:
        """The unique words, in order of first appearance (the trainer's list: never mutated)."""
        return self.trainer.words

    @property
    def freqs(self) -> List[int]:
        return self.trainer.freqs

    def segmentation(self, i: int) -> Segmentation:
        return self._segs[i]

    def token(self, token_id: int) -> Raw:
        return self._tokens[token_id]

    def display(self, token_id: int) -> str:
        return display_raw(self._tokens[token_id])

    @property
    def top_pairs(self) -> Tuple[PairCount, ...]:
        return self._top

    @property
    def merge_count(self) -> int:
        """The position: how many merges are applied."""
        return self._position

    @property
    def vocab_size(self) -> int:
        return self._vocab_size

    @property
    def stats(self) -> TrainingStats:
        return self._stats

    @property
    def stop_reason(self) -> Optional[str]:
        return self._stop_reason

    @property
    def history(self) -> List[MergeStep]:
        """The merges applied now, rank 1 first."""
        return self._steps[: self._position]

    @property
    def steps(self) -> List[MergeStep]:
        """Every merge known: the applied ones, then those undone (do not mutate)."""
        return self._steps

    @property
    def is_moving(self) -> bool:
        """A move owns the trainer (the published facts may lag it by one batch)."""
        return self._busy

    @property
    def target_merges(self) -> int:
        """Where the timeline ends: the configured merges, or vocab size minus the alphabet."""
        return target_merges(self.config, self.initial_vocab, len(self._steps))

    def word_history(self, i: int) -> WordHistory:
        """Word ``i``'s segmentation at the start and after every applied merge that changed it."""
        seg = self._initial[i]
        out: WordHistory = [(None, seg)]
        for step in self.history:
            if step.left in seg:
                new = merge_pair(list(seg), step.left, step.right, step.new_id)  # None: not in this word
                if new is not None:
                    seg = tuple(new)
                    out.append((step, seg))
        return out

    def model(self) -> BPEModel:
        """The vocabulary at the position (cached per position).

        Built by the trainer when it is free and at the position; during a move, from the published
        records (a model that needs the trainer's tables, seed 000's, stays the last full one).
        """
        cached = self._model
        full = not self._busy and self.trainer.merge_count == self._position
        if cached is not None and cached[0] == self._position and (cached[1] or not full):
            return cached[2]
        if full:
            model = self._full_model = self.trainer.model()
        elif self._base_model.algorithm == "merges":
            model = self._records_model()
        else:
            model = self._full_model
        self._model = (self._position, full, model)
        return model

    def _records_model(self) -> BPEModel:
        base, history = self._base_model, self.history
        return dataclasses.replace(
            base, tokens=list(base.tokens) + [s.new_token for s in history if s.created],
            merges=list(base.merges) + [(s.left, s.right) for s in history],
            merge_counts=list(base.merge_counts) + [s.count for s in history], config=dict(base.config))

    # -- moves (the trainer side) ---------------------------------------------------------------------
    def forward(self, n: Optional[int] = None, *, detail: bool = False) -> Move:
        """Merge ``n`` more (None: until a stop rule); known steps are merged again, identically.

        ``detail=False`` leaves examples out (bulk moves: half the cost); each frame's ``latest`` has them.
        """
        return Move(self, self.trainer.iter_steps(n, detail=detail), undone=False, total=n)

    def back(self, n: int) -> Move:
        """Undo ``n`` merges (at most down to merge 0)."""
        self._check_free()
        n = max(0, min(n, self.trainer.merge_count))
        return Move(self, _undos(self.trainer, n), undone=True, total=n)

    def toward(self, k: int, *, detail: bool = False) -> Move:
        """Merge or undo until the position is ``k`` (or a stop rule holds first)."""
        self._check_free()  # before reading the trainer
        at = self.trainer.merge_count
        k = max(0, k)
        return self.forward(k - at, detail=detail) if k >= at else self.back(at - k)

    def walk(self, move: Move) -> Frame:
        """Run ``move`` to its end here and return one frame for all of it."""
        with move:
            return move.frame(list(move))

    def _check_free(self) -> None:
        if self._busy:
            raise RuntimeError("another move owns the trainer; close it first")

    def _claim(self) -> None:
        self._check_free()
        self._busy = True

    def _release(self) -> None:
        self._busy = False

    def _frame(self, steps: Sequence[MergeStep], undone: bool) -> Frame:
        trainer = self.trainer
        changed = set().union(*(s.changed_words for s in steps)) if steps else set()
        latest = trainer.detail(trainer.history[-1]) if trainer.history else None
        return Frame(tuple(steps), undone, {i: trainer.segmentation(i) for i in changed},
                     tuple(trainer.top_pairs(self.top_k)), trainer.stats, trainer.vocab_size,
                     trainer.stop_reason, latest)

    # -- publishing ---------------------------------------------------------------------------------
    def apply(self, frame: Frame) -> List[MergeStep]:
        """Publish ``frame``; returns its steps as readers should see them (the latest with examples)."""
        if not frame.steps:
            self._stop_reason = frame.stop_reason
            return []
        segs = self._segs
        for i, seg in frame.segmentations.items():
            segs[i] = seg
        steps = list(frame.steps)
        latest = frame.latest
        if frame.undone:
            self._position = steps[-1].rank - 1
        else:
            if latest is not None and latest.rank == steps[-1].rank:
                steps[-1] = latest  # the one readers show, with its examples
            self._record(steps)
            self._position = steps[-1].rank
        if latest is not None and latest.rank == self._position:
            self._steps[latest.rank - 1] = latest
        self._top, self._stats, self._vocab_size = frame.top_pairs, frame.stats, frame.vocab_size
        self._stop_reason = frame.stop_reason
        return steps

    def _record(self, steps: Sequence[MergeStep]) -> None:
        known = self._steps
        for step in steps:
            k = step.rank - 1
            if k < len(known) and (known[k].left, known[k].right) != (step.left, step.right):
                del known[k:]  # a different future (cannot happen with a fixed config)
            if k < len(known):
                known[k] = step
            else:
                known.append(step)
            if step.created:
                self._tokens[step.new_id] = step.new_token

    def settle(self) -> None:
        """After the last frame of a move: publish the trainer's stop reason (a batch may end before it)."""
        if not self._busy and self.trainer.merge_count == self._position:
            self._stop_reason = self.trainer.stop_reason

    # -- both sides at once (no threads) ------------------------------------------------------------
    def step(self, n: int = 1) -> List[MergeStep]:
        """Merge ``n`` more, with examples; [] once a stop rule holds (:attr:`stop_reason` says which)."""
        return self.apply(self.walk(self.forward(n, detail=True)))

    def undo(self, n: int = 1) -> List[MergeStep]:
        """Undo ``n`` merges; they stay on the timeline (:attr:`steps`)."""
        return self.apply(self.walk(self.back(n)))

    def seek(self, k: int) -> List[MergeStep]:
        """Merge or undo until :attr:`merge_count` is ``k``, training further when ``k`` is beyond the known steps."""
        return self.apply(self.walk(self.toward(k, detail=True)))

    def reset(self) -> List[MergeStep]:
        """Back to merge 0 (the known steps are kept)."""
        return self.undo(self._position)
