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

The timeline has two sides, each with one owner (docs/architecture.md, "The Timeline", tells the whole of it).
On the trainer's side a :class:`Move` (forward, back, toward) owns the trainer while a worker drives it, and
hands over immutable :class:`Frame` s. On the published side :meth:`Timeline.apply` folds those frames into
what readers see, on the reading thread only. Without threads, :meth:`step`, :meth:`undo` and :meth:`seek` do
both at once. Moving a big corpus's trainer thousands of merges takes seconds, so :meth:`Timeline.jump`
publishes any known merge at once from the records, and the trainer follows later (:meth:`catch_up`);
:meth:`read_ahead` trains past the position without showing it, so that steps are jumps too.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from bpe_core.base.symbols import display as display_raw
from bpe_core.model import BPEModel
from bpe_core.training.config import DEFAULT_TARGET, target_merges
from bpe_core.training.export import records_model
from bpe_core.training.moves import Frame, Move, Segmentation, undos
from bpe_core.training.ties import Ties, find_ties
from bpe_core.training.trainer import Trainer
from bpe_core.training.word_changes import WordChanges, ranks_by_word, word_history
from bpe_core.types import MergeStep, PairCount, Progress, Raw, TrainerConfig, TrainingStats

__all__ = ["Frame", "Move", "Segmentation", "Timeline", "WordHistory", "target_merges", "TOP_K", "DEFAULT_TARGET"]

#: how many next pairs a frame carries (a chart of the next pairs shows up to this many)
TOP_K = 20
INDEX_SLICE = 32  # records indexed for seeks per frame applied (a bulk frame holds thousands)

WordHistory = List[Tuple[Optional[MergeStep], Segmentation]]
_MERGED = attrgetter("left", "right")


class Timeline:
    """The published position on a trainer's run, and the moves that change it (see the module doc).

    >>> from bpe_core.types import TrainerConfig
    >>> tl = Timeline(Trainer({"aaab": 3, "ab": 2}, TrainerConfig()))
    >>> [tl.display(s.new_id) for s in tl.step(2)], tl.undo(2) and tl.merge_count, len(tl.steps)
    (['aa', 'ab'], 0, 2)
    """

    #: record the ties at each position a move passes (on while a tie inspector is shown: only the trainer
    #: standing at a position knows its ties, and reading ahead keeps it elsewhere)
    watch_ties = False

    def __init__(self, trainer: Trainer, *, top_k: int = TOP_K) -> None:
        if trainer.merge_count:
            raise ValueError("a timeline starts from an untrained trainer (merge 0)")
        self.trainer = trainer
        self.top_k = top_k
        self._busy = False
        self._initial: List[Segmentation] = [trainer.segmentation(i) for i in range(len(trainer.words))]
        self._segs: List[Segmentation] = list(self._initial)  # the same tuples: no copy of the words
        self._segs_at = 0  # the trainer's position as of the last frame: where ``_segs`` holds
        self._changes = WordChanges(self._initial)  # segmentations elsewhere, from the records
        self._seg_cache: dict = {}  # word -> segmentation at the position, while it is not ``_segs_at``
        #: every token id ever published (undone merges keep theirs: the timeline still shows them)
        self._tokens = {i: trainer.token(i) for i in range(trainer.vocab_size)}
        self.initial_vocab = trainer.vocab_size
        self.base_model = trainer.model()  # the model at merge 0 (the records extend it: records_model)
        self._full_model = self.base_model  # the last model built from the trainer
        self._model: Optional[Tuple[int, bool, BPEModel]] = None  # (position, full, model)
        self._steps: List[MergeStep] = []
        self._position = self._reached = 0  # the position, and the furthest it has been
        start = self._frame((), False)
        self._top, self._stats, self._vocab_size, self.initial_stats = start.top_pairs, start.stats, \
            start.vocab_size, start.stats
        self._tops = {0: (start.top_pairs, None)}  # position -> the trainer's top pairs (and ties) there
        self._top_exact = True  # the published top pairs are the trainer's at the position (else: from records)
        self._stop_reason: Optional[str] = None

    @classmethod
    def from_corpus(cls, path: str, config: TrainerConfig, *, progress: Optional[Callable[[Progress], None]] = None,
                    cancel: Optional[Callable[[], bool]] = None, factory: Callable[..., Trainer] = Trainer.from_corpus,
                    top_k: int = TOP_K) -> "Timeline":
        """Count ``path``'s words and wrap the new trainer (a worker may call this; it shares nothing yet)."""
        return cls(factory(path, config, progress=progress, cancel=cancel), top_k=top_k)

    # -- published facts (read on the thread that applies frames) -----------------------------------
    config = property(lambda self: self.trainer.config)
    #: the unique words, in order of first appearance (the trainer's list: never mutated)
    words = property(lambda self: self.trainer.words)
    freqs = property(lambda self: self.trainer.freqs)

    def segmentation(self, i: int) -> Segmentation:
        at, k = self._segs_at, self._position
        if at == k:
            return self._segs[i]
        seg = self._seg_cache.get(i)
        if seg is None:
            changes, steps = self._changes, self._steps
            seg = self._seg_cache[i] = (changes.segmentation(i, k, steps)
                                        if changes.changed_between(i, at, k, steps) else self._segs[i])
        return seg

    def initial_segmentation(self, i: int) -> Segmentation:
        """Word ``i`` before any merge (its units)."""
        return self._initial[i]

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
        """Every merge known: the applied ones, then those undone or read ahead (do not mutate)."""
        return self._steps

    @property
    def reached_steps(self) -> List[MergeStep]:
        """The merges the position has reached: the applied ones, then those undone (not those read ahead)."""
        return self._steps if self._reached >= len(self._steps) else self._steps[: self._reached]

    is_moving = property(lambda self: self._busy, doc="A move owns the trainer (the facts may lag it by a batch).")

    @property
    def target_merges(self) -> int:
        """Where the timeline ends: the configured merges, or vocab size minus the alphabet."""
        return target_merges(self.config, self.initial_vocab, len(self._steps))

    def word_history(self, i: int) -> WordHistory:
        """Word ``i``'s segmentation at the start and after every applied merge that changed it."""
        return word_history(self._initial[i], self.history)

    def model(self) -> BPEModel:
        """The vocabulary at the position (cached per position).

        By the trainer when it is free and here; else from the records (seed 000's: the last full one).
        """
        cached = self._model
        full = not self._busy and self.trainer.merge_count == self._position
        if cached is not None and cached[0] == self._position and (cached[1] or not full):
            return cached[2]
        if full:
            model = self._full_model = self.trainer.model()
        elif self.base_model.algorithm == "merges":  # a PickyBPE run's: with its removals and token freqs
            model = records_model(self.base_model, self.history, self.initial_stats.total_tokens)
        else:
            model = self._full_model
        self._model = (self._position, full, model)
        return model

    # -- moves (the trainer side) ---------------------------------------------------------------------
    def forward(self, n: Optional[int] = None, *, detail: bool = False) -> Move:
        """Merge ``n`` more (None: until a stop rule); known steps are merged again, identically.

        ``detail=False`` leaves examples out (bulk moves: half the cost); each frame's ``latest`` has them.
        """
        return self._move(self.trainer.iter_steps(n, detail=detail), False, n)

    def back(self, n: int) -> Move:
        """Undo ``n`` merges (at most down to merge 0)."""
        self._check_free()
        n = max(0, min(n, self.trainer.merge_count))
        return self._move(undos(self.trainer, n), True, n)

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

    def _move(self, items: Iterator[MergeStep], undone: bool, total: Optional[int]) -> Move:
        self._check_free()
        self._busy = True
        return Move(items, undone=undone, total=total, frame=self._frame, release=self._release)

    def _release(self) -> None:
        self._busy = False

    def _frame(self, steps: Sequence[MergeStep], undone: bool) -> Frame:
        trainer = self.trainer
        changed = set().union(*(s.changed_words for s in steps)) if steps else set()
        latest = trainer.detail(trainer.history[-1]) if trainer.history else None
        return Frame(tuple(steps), undone, {i: trainer.segmentation(i) for i in changed},
                     tuple(trainer.top_pairs(self.top_k)), trainer.stats, trainer.vocab_size,
                     trainer.stop_reason, latest, None if undone or not steps else ranks_by_word(steps),
                     find_ties(trainer) if self.watch_ties and steps else None)

    # -- publishing ---------------------------------------------------------------------------------
    def apply(self, frame: Frame, *, show: bool = True) -> List[MergeStep]:
        """Publish ``frame``; returns the steps readers should see (the latest with examples).

        The trainer's side (segmentations, records) always follows the frame; the published position
        follows the steps that pass it (``show=False``: it stays, the steps are only recorded — a
        :meth:`read_ahead`'s frames). After a :meth:`jump` the trainer is elsewhere: its frames
        publish nothing until it reaches the position, and from there on the facts are its own again.
        """
        segs = self._segs
        for i, seg in frame.segmentations.items():
            segs[i] = seg
        steps, latest, at = list(frame.steps), frame.latest, self._position
        shown: List[MergeStep] = []
        if steps and frame.undone:
            self._segs_at = steps[-1].rank - 1
            shown = [s for s in steps if s.rank <= at] if show and self._segs_at < at else []
        elif steps:
            if latest is not None and latest.rank == steps[-1].rank:
                steps[-1] = latest  # the one readers show, with its examples
            self._record(steps)
            if frame.word_ranks is None or not self._changes.add(frame.word_ranks, steps[0].rank, steps[-1].rank):
                self._changes.update(self._steps, INDEX_SLICE)  # the index a seek reads; the rest: index_some
            self._segs_at = steps[-1].rank
            shown = [s for s in steps if s.rank > at] if show and self._segs_at > at else []
        if steps:
            self._tops[self._segs_at] = frame.top_pairs, frame.ties  # the trainer's: exact for a jump there
        if shown:
            self._position, self._seg_cache = self._segs_at, {}
            self._reached = max(self._reached, self._position)
        if self._segs_at == self._position:  # the trainer is at the position: its facts are exact
            if latest is not None and latest.rank == self._position:
                self._steps[latest.rank - 1] = latest
            if steps:
                self._top, self._stats, self._vocab_size = frame.top_pairs, frame.stats, frame.vocab_size
                self._top_exact = True
            self._stop_reason = frame.stop_reason
        return shown

    # -- seeking from the records (no trainer) ------------------------------------------------------
    @property
    def is_lagging(self) -> bool:
        """The trainer is not at the published position (after :meth:`jump`, until :meth:`catch_up` ends)."""
        return self._segs_at != self._position

    def jump(self, k: int) -> Tuple[List[MergeStep], bool]:
        """Publish merge ``k`` (at most the known merges) at once, from the records alone.

        Returns the steps passed and whether they were undone, as :meth:`apply` would. All is exact but
        the top pairs where no frame recorded the trainer's (:attr:`top_pairs_exact`): then they are the
        next known merges with their counts (the first exact). A live move (a catch-up) may go on.
        """
        k, at = max(0, min(k, len(self._steps))), self._position
        if k == at:
            return [], False
        self._position, self._seg_cache, self._reached = k, {}, max(self._reached, k)
        self._stats = self._steps[k - 1].stats if k else self.initial_stats
        self._vocab_size = self._stats.vocab_size
        top = self._tops.get(k, (None,))[0]
        self._top_exact = top is not None
        self._top = top if top is not None else tuple(
            PairCount(s.left, s.right, s.count) for s in self._steps[k:k + self.top_k])
        self._stop_reason = None
        return (self._steps[at:k], False) if k > at else (self._steps[k:at][::-1], True)

    def index_some(self, n: int = INDEX_SLICE) -> bool:
        """Index up to ``n`` more records for seeks (between frames; a seek indexes the rest); True: done."""
        return self._changes.update(self._steps, n)

    def catch_up(self) -> Optional[Move]:
        """The move that brings the trainer to the published position (None: it is there)."""
        return self.toward(self._position) if self.is_lagging else None

    def ties_here(self) -> Optional[Ties]:
        """The ties at the position: recorded where the trainer passed it while :attr:`watch_ties` was on,
        or read from the trainer standing there free. None: neither (the trainer must come here first)."""
        k = self._position
        top, ties = self._tops.get(k, (None, None))
        if ties is None and not self._busy and self.trainer.merge_count == k:
            ties = find_ties(self.trainer)
            self._tops[k] = (top if top is not None else tuple(self.trainer.top_pairs(self.top_k)), ties)
        return ties

    @property
    def top_pairs_exact(self) -> bool:
        """Whether :attr:`top_pairs` are the trainer's at the position (after a jump: maybe from the records)."""
        return self._top_exact

    @property
    def trainer_lead(self) -> int:
        """How many merges the trainer is past the published position (negative: behind it)."""
        return self._segs_at - self._position

    def read_ahead(self, lead: int) -> Optional[Move]:
        """The move that takes the trainer up to ``lead`` merges past the position (not past the target), so
        that steps show at once from the records (:meth:`jump`). Apply its frames with ``show=False``. Each
        merge is detailed as it merges, which costs far less than detailing it later (docs/benchmarks.md).
        None: the trainer is behind, already half that far ahead, at the end, or on seed 000's tables."""
        at, end = self._segs_at, min(self._position + lead, self.target_merges)
        far = at < self._position or at - self._position >= lead // 2 or at >= end
        usable = self.base_model.algorithm == "merges" and not self.trainer.stop_reason
        return self.forward(end - at, detail=True) if usable and not far else None

    def _record(self, steps: Sequence[MergeStep]) -> None:
        known, k0 = self._steps, steps[0].rank - 1 if steps else 0
        if list(map(_MERGED, steps)) == list(map(_MERGED, known[k0:k0 + len(steps)])):
            return  # known merges (a catch-up): the same records, kept (at C speed: thousands a frame)
        for step in steps:
            k = step.rank - 1
            if k < len(known) and (known[k].left, known[k].right) != (step.left, step.right):
                del known[k:]  # a different future (cannot happen with a fixed config)
                self._changes.truncate(k)
                self._reached = min(self._reached, k)
            if k < len(known):
                known[k] = step
            else:
                known.append(step)
            if step.created:
                self._tokens[step.new_id] = step.new_token

    def replace_future(self, k: int, steps: Sequence[MergeStep] = ()) -> None:
        """Forget the known merges after ``k`` and know ``steps`` (ranks k+1...) instead: another branch's
        future (:mod:`bpe_core.training.branches`). The position and the trainer must be at most ``k``."""
        if self._busy or self._position > k or self.trainer.merge_count > k:
            raise ValueError(f"the future after merge {k} can only be replaced from merge {k} or before")
        del self._steps[k:]
        self._changes.truncate(k)
        self._reached = k + len(steps) if steps else min(self._reached, k)  # the branch's merges were reached
        self._tops, self._model = {p: top for p, top in self._tops.items() if p <= k}, None
        self._record(steps)
        self._changes.update(self._steps)

    def settle(self) -> None:
        """After the last frame of a move: publish the trainer's stop reason (a batch may end before it)."""
        if not self._busy and self.trainer.merge_count == self._position:
            self._stop_reason = self.trainer.stop_reason

    # -- both sides at once (no threads) ------------------------------------------------------------
    def _settle_trainer(self) -> None:
        move = self.catch_up()
        if move is not None:
            self.apply(self.walk(move))

    def step(self, n: int = 1) -> List[MergeStep]:
        """Merge ``n`` more, with examples; [] once a stop rule holds (:attr:`stop_reason` says which)."""
        self._settle_trainer()
        return self.apply(self.walk(self.forward(n, detail=True)))

    def undo(self, n: int = 1) -> List[MergeStep]:
        """Undo ``n`` merges; they stay on the timeline (:attr:`steps`)."""
        self._settle_trainer()
        return self.apply(self.walk(self.back(n)))

    def seek(self, k: int) -> List[MergeStep]:
        """Merge or undo until :attr:`merge_count` is ``k``, training further when ``k`` is beyond the known steps."""
        self._settle_trainer()
        return self.apply(self.walk(self.toward(k, detail=True)))

    def reset(self) -> List[MergeStep]:
        """Back to merge 0 (the known steps are kept)."""
        return self.undo(self._position)
