"""A training run on the workbench: a corpus counted once, the :class:`~bpe_core.training.timeline.Timeline`
that trains on it, and the run's branches.

The timeline owns the position (merges taken, undone, read ahead); :class:`~bpe_core.training.branches.
Branches` owns the futures picked by hand. A run only ties them to the corpus they came from, and says what
a workspace saves of it (:meth:`TrainingRun.saved`).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "c.txt")
>>> _ = open(path, "w").write("low lower lowest\\n")
>>> run = TrainingRun.open("r1", RunCorpus((path,)), TrainerConfig())
>>> [run.timeline.display(s.new_id) for s in run.timeline.step(2)], run.saved().merges
(['lo', 'low'], (('l', 'o', 3), ('lo', 'w', 3)))
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional, Tuple

from bpe_core.formats.workspace import CorpusRef, SavedMerges, corpus_ref
from bpe_core.training.branches import Branches
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer, check_config  # as the training face names it
from bpe_core.types import Progress, TrainerConfig
from bpe_core.workbench.records import RunCorpus
from bpe_core.workbench.saved import SavedRun

ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]


def count_corpus(corpus: RunCorpus, config: TrainerConfig, *, progress: ProgressFn = None,
                 cancel: CancelFn = None) -> Timeline:
    """Count ``corpus``'s words (several files as one corpus, as the CLI counts them) into a fresh timeline.

    Slow for a big corpus: a worker's job. It shares nothing until it returns.
    """
    from bpe_core.corpus.files import count_words_in_files

    check_config(config)  # before reading a possibly large corpus
    counts = count_words_in_files([Path(p) for p in corpus.paths], config, progress=progress, cancel=cancel,
                                  errors=corpus.decode_errors)
    return Timeline(Trainer(counts, config))


class TrainingRun:
    """One corpus's training: ``timeline`` (the position) and ``branches`` (futures picked by hand)."""

    def __init__(self, run_id: str, corpus: RunCorpus, timeline: Timeline,
                 refs: Tuple[CorpusRef, ...] = (), *, parent: Optional[str] = None,
                 transition: Optional[int] = None) -> None:
        self.id = run_id
        #: the run this one continues (workbench/continuations.py: SuperBPE's stage 2), and the parent's
        #: merge it starts from; None for a run trained from its corpus alone
        self.parent, self.transition = parent, transition
        self.corpus = corpus
        self.timeline = timeline
        self.branches = Branches(timeline)
        #: the corpus files' sizes and sha256 when known (hashed when opened from a workspace, or by
        #: :meth:`hash_corpus`); a workspace saves them so a changed corpus is noticed
        self.refs = refs
        self._saved_merges = SavedMerges()  # converts only the merges not seen at the last save (autosaves)

    @classmethod
    def open(cls, run_id: str, corpus: RunCorpus, config: TrainerConfig, *, progress: ProgressFn = None,
             cancel: CancelFn = None) -> "TrainingRun":
        """Count the corpus and start at merge 0."""
        return cls(run_id, corpus, count_corpus(corpus, config, progress=progress, cancel=cancel))

    @property
    def config(self) -> TrainerConfig:
        return self.timeline.config

    @property
    def merges_trained(self) -> int:
        """Every merge the run trained itself, not only those up to its position (undone ones are lost with it
        too); a continuation's inherited merges are its parent's, not counted here."""
        tl = self.timeline
        return max(len(tl.reached_steps), tl.merge_count)

    @property
    def vocab_target(self) -> Optional[int]:
        """The vocabulary the run stops at: its settings' size, or its vocabulary at merge 0 plus its number
        of merges when that comes first; None when neither is set, or for PickyBPE's number of merges
        (its removals make the vocabulary unknown ahead)."""
        cfg, tl = self.config, self.timeline
        ends = [] if cfg.vocab_size is None else [cfg.vocab_size]
        if cfg.num_merges is not None and cfg.variant != "picky":
            ends.append(tl.initial_vocab + cfg.num_merges)
        return min(ends, default=None)

    @property
    def vocab_ceiling(self) -> Optional[int]:
        """The most tokens a PickyBPE run stopping at a number of merges ends with (each merge adds one token,
        each removal takes one out: its vocabulary at merge 0 plus its merges), when that comes before its
        vocabulary size; None for any other run (:attr:`vocab_target` is its end)."""
        cfg = self.config
        if cfg.variant != "picky" or cfg.num_merges is None:
            return None
        ceiling = self.timeline.initial_vocab + cfg.num_merges
        return ceiling if cfg.vocab_size is None or cfg.vocab_size > ceiling else None

    def hash_corpus(self, *, cancel: CancelFn = None) -> Tuple[CorpusRef, ...]:
        """The corpus files' sizes and sha256 (read in blocks: a worker's job for a big corpus), kept."""
        self.refs = tuple(corpus_ref(p, cancel=cancel) for p in self.corpus.paths)
        return self.refs

    def corpus_refs(self) -> Tuple[CorpusRef, ...]:
        """The files as a workspace saves them: hashed when known, else their path and size (sha256 None)."""
        known = {r.path: r for r in self.refs}
        return tuple(known.get(p) or CorpusRef(p, _size(p), None) for p in self.corpus.paths)

    def branches_data(self) -> Tuple[dict, ...]:
        """The branches as plain data when there is more than the rule's one line of merges: several
        branches, or a pair picked by hand where no merge followed yet (no fork, but not the rule's merge)."""
        branches = self.branches.all()
        return (self.branches.to_data(),) if len(branches) > 1 or any(b.picks for b in branches) else ()

    def saved(self, keep: int = 0) -> SavedRun:
        """What a workspace keeps of the run: corpus files, settings, position, the merges applied, branches.

        ``keep``: the furthest merge a branch of this run starts from (its continuations'); the known merges
        up to there are saved too when the run stands below it, so the branches reopen from them."""
        tl = self.timeline
        history = tl.history
        known = tl.steps[:keep] if keep > len(history) else history
        return SavedRun(self.id, self.corpus_refs(), self.config, len(history), self._saved_merges(known),
                        self.branches_data(), self.corpus.decode_errors, self.parent, self.transition)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return -1
