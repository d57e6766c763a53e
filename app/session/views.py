"""What the session shows: its signals and its read-only views of the timeline's published facts.

Split from :mod:`session` (commands and runs) so that each stays readable; the session is the only
subclass, and these read what it holds (``_tl``, ``_config``, ``_corpus``, ``_speed``).
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from PySide6.QtCore import QObject, Signal

from bpe_core import BPEModel, MergeStep, Trainer, TrainerConfig
from bpe_core.training import WordHistory, changed_word_examples as word_changes, target_merges
from bpe_core.types import PairCount, Raw, TrainingStats, WordChange

from .facts import Fact
from .payloads import CorpusInfo


class SessionViews(QObject):
    loading_started = Signal(str)  # what is being read: a load started (progress bar + Cancel)
    load_progress = Signal(object)  # bpe_core.types.Progress
    corpus_loaded = Signal(object)  # CorpusInfo
    load_cancelled = Signal()
    # object, not list: PySide would copy a list into a QVariantList and back for every slot (a bulk frame of
    # 3,000 merges: ~5 ms an emission); the slots share the one list and never change it
    steps_applied = Signal(object)  # list[MergeStep], oldest first
    steps_undone = Signal(object)  # list[MergeStep], in the order they were undone
    reset_done = Signal()
    run_started = Signal(str)  # kind
    run_progress = Signal(object)  # RunProgress
    run_finished = Signal(object)  # RunEnd
    error_raised = Signal(str)
    vocabulary_opened = Signal(object)  # BPEModel
    config_changed = Signal(object)  # TrainerConfig
    tokens_renamed = Signal()  # a branch was picked or switched: ids past the alphabet may name other tokens
    caught_up = Signal()  # the trainer reached the position a seek jumped to: its exact top pairs are published


    # -- read-only views (GUI thread): the timeline's published facts ---------------------------------
    words = Fact[List[str]](list)  # the unique words, in order of first appearance
    freqs = Fact[List[int]](list)
    top_pairs = Fact[Tuple[PairCount, ...]](tuple)  # the next merges, in the order the tie rule takes them
    merge_count = Fact[int](int)
    vocab_size = Fact[int](int)
    stats = Fact[Optional[TrainingStats]]()
    initial_stats = Fact[Optional[TrainingStats]]()  # at merge 0
    history = Fact[List[MergeStep]](list)  # the merges applied now, rank 1 first
    timeline = Fact[List[MergeStep]](list, name="reached_steps")  # every merge reached: applied, then undone

    @property
    def stop_reason(self) -> Optional[str]:
        """Why training stopped at the position: the trainer's rule, or the one a run met there before (the
        trainer may be elsewhere after a seek or a replay; session_replay.py remembers it)."""
        tl = self._tl
        if tl is None or tl.stop_reason:
            return tl and tl.stop_reason
        return self._known_stop() if tl.merge_count == len(tl.steps) else None

    def segmentation(self, i: int) -> Tuple[int, ...]:
        return self._tl.segmentation(i)

    def token(self, token_id: int) -> Raw:
        return self._tl.token(token_id)

    def display(self, token_id: int) -> str:
        return self._tl.display(token_id)

    def next_step(self) -> Optional[MergeStep]:
        """The merge a step would show next, when it is known already (read ahead, or undone)."""
        tl = self._tl
        return tl.steps[tl.merge_count] if tl is not None and tl.merge_count < len(tl.steps) else None

    def examples(self, step: MergeStep) -> Tuple[WordChange, ...]:
        """``step``'s most frequent changed words before and after it: its own examples, or, for the merge at the
        position, made from the records (a bulk run's merges carry none: issue 23, finding 3)."""
        tl = self._tl
        if step.examples or not step.changed_words or tl is None or tl.merge_count != step.rank:
            return step.examples
        segs = _AtPosition(tl.segmentation)
        return word_changes(tl.words, tl.freqs, segs, step.changed_words, None, (step.left, step.right, step.new_id),
                            Trainer.EXAMPLES)

    def word_history(self, i: int) -> WordHistory:
        """Word ``i``'s segmentation at the start and after every merge that changed it."""
        return self._tl.word_history(i)

    @property
    def config(self) -> TrainerConfig:
        return self._config

    @property
    def corpus(self) -> Optional[CorpusInfo]:
        return self._corpus

    @property
    def _trainer(self) -> Optional[Trainer]:  # tests slow its steps down
        return self._tl.trainer if self._tl is not None else None

    @property
    def is_loaded(self) -> bool:
        return self._tl is not None

    @property
    def speed(self) -> float:
        return self._speed

    @property
    def target_merges(self) -> int:
        """Where the timeline ends: the configured merges, or vocab size minus the alphabet."""
        return self._tl.target_merges if self._tl else target_merges(self._config, None)

    def model(self) -> Optional[BPEModel]:
        """The vocabulary as trained so far (cached per merge count)."""
        return self._tl.model() if self._tl else None


class _AtPosition:
    """The words' segmentations at the position, indexed as a list (what ``word_changes`` reads)."""

    def __init__(self, segmentation) -> None:
        self._segmentation = segmentation

    def __getitem__(self, i: int) -> Tuple[int, ...]:
        return self._segmentation(i)
