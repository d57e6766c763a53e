"""The one owner of state: commands in, past-tense signals out.

Widgets never touch the trainer. They call a command (``step``, ``seek``, ``play``, ...) and
redraw from the facts the session emits (``steps_applied``, ``reset_done``, ...) and from its
read-only views (``segmentation(i)``, ``top_pairs``, ``display(id)``, ``history``, ``stats``).

Those views are *mirrors* the session keeps on the GUI thread. During a long run a
:class:`~bpe_lens_app.worker.StepWorker` owns the trainer; it snapshots what changed (segmentations of the
changed words, the top pairs, the stats) on its own thread and the session applies the snapshot,
so a pane may read the session at any time without racing the worker.

The session also remembers steps that were undone (the *timeline*): BPE training is deterministic,
so scrubbing back keeps the later merges visible and stepping forward again reproduces them.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from PySide6.QtCore import QObject, Signal

from bpe_core.model import BPEModel
from bpe_core.presets import PRESETS, make_config
from bpe_core.analysis.replay import merge_pair
from bpe_core.encoding.symbols import display as display_raw
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError, MergeStep, PairCount, Raw, TrainerConfig, TrainingStats

from .worker import CallWorker, StepWorker

#: how many next pairs the session keeps (the pair chart shows up to this many)
TOP_K = 20
#: step/undo/seek up to this many merges on the GUI thread; more go to a worker
SYNC_STEPS = 20
#: the timeline's length when the configuration sets neither vocab_size nor num_merges
DEFAULT_TARGET = 1000
DEFAULT_PRESET = "gpt2"


def default_trainer_factory() -> Callable:
    return Trainer.from_corpus


def default_config(preset: Optional[str] = None) -> TrainerConfig:
    name = preset or (DEFAULT_PRESET if DEFAULT_PRESET in PRESETS else next(iter(PRESETS)))
    if name not in PRESETS:
        raise BPELensError(f"Unknown preset {name!r}; choose one of: {', '.join(PRESETS)}")
    return make_config(name)


def user_message(exc: BaseException) -> str:
    """What the user reads for an exception: our own messages as they are, others named."""
    if isinstance(exc, BPELensError):
        return str(exc)
    if isinstance(exc, UnicodeDecodeError):
        return f"The file is not UTF-8 text ({exc.reason} at byte {exc.start})."
    if isinstance(exc, OSError):
        return f"Cannot open {exc.filename or 'the file'}: {exc.strerror or exc}"
    return f"Unexpected error: {type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class CorpusInfo:
    path: str
    name: str
    unique_words: int
    total_words: int
    total_units: int
    initial_vocab: int
    config: TrainerConfig


@dataclass(frozen=True)
class RunProgress:
    kind: str  # "run" | "play" | "seek"
    done: int
    total: Optional[int]
    merge_count: int


@dataclass(frozen=True)
class RunEnd:
    kind: str
    #: why it ended: the trainer's stop reason, "paused", "cancelled", "done" or an error message
    reason: str
    merge_count: int


@dataclass(frozen=True)
class Snapshot:
    """What the GUI needs after some steps, read from the trainer by whoever owns it."""

    steps: Tuple[MergeStep, ...]
    undone: bool
    segmentations: dict  # word index -> segmentation, for every word the steps changed
    top_pairs: Tuple[PairCount, ...]
    stats: TrainingStats
    vocab_size: int
    stop_reason: Optional[str]
    #: the trainer's last merge with its examples (runs merge without them: half the cost)
    latest: Optional[MergeStep] = None


@dataclass(frozen=True)
class _Loaded:
    path: str
    trainer: object
    base_model: BPEModel
    segmentations: list
    snapshot: Snapshot


def _snapshot(trainer, steps: Sequence[MergeStep], undone: bool) -> Snapshot:
    changed = set().union(*(s.changed_words for s in steps)) if steps else set()
    latest = trainer.detail(trainer.history[-1]) if trainer.history else None
    return Snapshot(tuple(steps), undone, {i: trainer.segmentation(i) for i in changed},
                    tuple(trainer.top_pairs(TOP_K)), trainer.stats, trainer.vocab_size, trainer.stop_reason,
                    latest)


def _undos(trainer, n: int) -> Iterator[MergeStep]:
    for _ in range(n):
        step = trainer.undo()
        if step is None:
            return
        yield step


def _load(factory: Callable, path: str, config: TrainerConfig, *, progress, cancel) -> _Loaded:
    trainer = factory(path, config, progress=progress, cancel=cancel)
    segs = [trainer.segmentation(i) for i in range(len(trainer.words))]
    return _Loaded(path, trainer, trainer.model(), segs, _snapshot(trainer, [], False))


class Session(QObject):
    loading_started = Signal(str)  # what is being read: a load started (progress bar + Cancel)
    load_progress = Signal(object)  # bpe_core.types.Progress
    corpus_loaded = Signal(object)  # CorpusInfo
    load_cancelled = Signal()
    steps_applied = Signal(list)  # list[MergeStep], oldest first
    steps_undone = Signal(list)  # list[MergeStep], in the order they were undone
    reset_done = Signal()
    run_started = Signal(str)  # kind
    run_progress = Signal(object)  # RunProgress
    run_finished = Signal(object)  # RunEnd
    error_raised = Signal(str)
    vocabulary_opened = Signal(object)  # BPEModel
    config_changed = Signal(object)  # TrainerConfig

    def __init__(self, *, trainer_factory: Optional[Callable] = None, config: Optional[TrainerConfig] = None,
                 parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._factory = trainer_factory or default_trainer_factory()
        self._config = config or default_config()
        self._trainer = None
        self._corpus: Optional[CorpusInfo] = None
        self._call: Optional[CallWorker] = None
        self._run: Optional[StepWorker] = None
        self._run_kind = ""
        self._run_total: Optional[int] = None
        self._speed = 5.0
        self._threads: set = set()
        self._clear_mirrors()

    def _clear_mirrors(self) -> None:
        self._words: List[str] = []
        self._freqs: List[int] = []
        self._segs: List[Tuple[int, ...]] = []
        self._initial_segs: List[Tuple[int, ...]] = []
        self._tokens: dict = {}
        self._timeline: List[MergeStep] = []
        self._merge_count = 0
        self._top: Tuple[PairCount, ...] = ()
        self._stats: Optional[TrainingStats] = None
        self._vocab_size = 0
        self._stop_reason: Optional[str] = None
        self._base_model: Optional[BPEModel] = None
        self._model_cache: Optional[BPEModel] = None

    # -- read-only views (GUI thread) ---------------------------------------------------------------
    @property
    def config(self) -> TrainerConfig:
        return self._config

    @property
    def corpus(self) -> Optional[CorpusInfo]:
        return self._corpus

    @property
    def is_loaded(self) -> bool:
        return self._trainer is not None

    @property
    def is_loading(self) -> bool:
        return self._call is not None

    @property
    def is_running(self) -> bool:
        return self._run is not None

    @property
    def run_kind(self) -> str:
        return self._run_kind if self._run else ""

    @property
    def speed(self) -> float:
        return self._speed

    @property
    def words(self) -> List[str]:
        return self._words

    @property
    def freqs(self) -> List[int]:
        return self._freqs

    def segmentation(self, i: int) -> Tuple[int, ...]:
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
        return self._merge_count

    @property
    def vocab_size(self) -> int:
        return self._vocab_size

    @property
    def stats(self) -> Optional[TrainingStats]:
        return self._stats

    @property
    def stop_reason(self) -> Optional[str]:
        return self._stop_reason

    @property
    def history(self) -> List[MergeStep]:
        """The merges applied now, rank 1 first."""
        return self._timeline[: self._merge_count]

    @property
    def timeline(self) -> List[MergeStep]:
        """Every merge known: the applied ones, then those undone (do not mutate)."""
        return self._timeline

    @property
    def target_merges(self) -> int:
        """Where the timeline ends: the configured merges, or vocab size minus the alphabet."""
        cfg = self._config
        if cfg.num_merges is not None:
            return cfg.num_merges
        if cfg.vocab_size is not None and self._corpus is not None:
            return max(1, cfg.vocab_size - self._corpus.initial_vocab)
        return max(DEFAULT_TARGET, len(self._timeline))

    def word_history(self, i: int) -> List[Tuple[Optional[MergeStep], Tuple[int, ...]]]:
        """Word ``i``'s segmentation at the start and after every merge that changed it."""
        seg = self._initial_segs[i]
        out: List[Tuple[Optional[MergeStep], Tuple[int, ...]]] = [(None, seg)]
        for step in self.history:
            if step.left in seg:
                new = merge_pair(list(seg), step.left, step.right, step.new_id)  # None: not in this word
                if new is not None:
                    seg = tuple(new)
                    out.append((step, seg))
        return out

    def model(self) -> Optional[BPEModel]:
        """The vocabulary as trained so far (cached per merge count)."""
        if self._base_model is None:
            return None
        if self._model_cache is None:
            if self._run is None:
                self._model_cache = self._trainer.model()
            else:  # the worker owns the trainer: build it from the mirrors
                history = self.history
                tokens = list(self._base_model.tokens) + [s.new_token for s in history if s.created]
                self._model_cache = dataclasses.replace(
                    self._base_model, tokens=tokens, merges=[(s.left, s.right) for s in history],
                    merge_counts=[s.count for s in history])
        return self._model_cache

    # -- commands: corpus and settings ----------------------------------------------------------------
    def load_corpus(self, path: str, config: Optional[TrainerConfig] = None) -> None:
        """Count ``path``'s words on a worker; the current corpus stays until the new one is ready."""
        self._stop_run("cancelled")
        config = config or self._config
        path = os.fspath(path)
        factory = self._factory

        def load(*, progress, cancel):
            return _load(factory, path, config, progress=progress, cancel=cancel)

        self._start_call(load, lambda loaded: self._install(loaded, config))
        self.loading_started.emit(f"Counting words in {os.path.basename(path)}")

    def set_config(self, config: TrainerConfig) -> None:
        """New training settings: the corpus is counted again and training restarts at merge 0."""
        if self._corpus is None:
            self._config = config
            self.config_changed.emit(config)
        else:
            self.load_corpus(self._corpus.path, config)

    def open_vocabulary(self, path: str, *, pattern: Optional[str] = None) -> None:
        """Read a saved vocabulary (any supported format) on a worker; ``vocabulary_opened`` follows.
        ``pattern``: the split regex of a ``.tiktoken`` file other than OpenAI's own."""
        from bpe_core.formats.detect import open_vocabulary

        path = os.fspath(path)
        self._start_call(lambda *, progress, cancel: open_vocabulary(path, pattern=pattern),
                         self.vocabulary_opened.emit)
        self.loading_started.emit(f"Opening {os.path.basename(path)}")

    def cancel(self) -> None:
        """Cancel a load or stop a run (what has been merged so far stays)."""
        if self._call is not None:
            self._call.requestInterruption()
        self._stop_run("cancelled")

    # -- commands: training ---------------------------------------------------------------------------
    def step(self, n: int = 1) -> None:
        if not self._ready():
            return
        if n > SYNC_STEPS:
            self._start_run("seek", self._trainer.iter_steps(n, detail=False), n)
            return
        steps = list(self._trainer.iter_steps(n))
        if steps:
            self._apply(_snapshot(self._trainer, steps, False))
        else:
            self._note_stop()

    def undo(self, n: int = 1) -> None:
        if not self._ready():
            return
        n = min(n, self._merge_count)
        if n > SYNC_STEPS:
            self._start_run("seek", _undos(self._trainer, n), n, undone=True)
        elif n > 0:
            steps = list(_undos(self._trainer, n))
            self._apply(_snapshot(self._trainer, steps, True))

    def seek(self, k: int) -> None:
        """Step or undo until ``merge_count == k`` (or the trainer stops)."""
        if not self._ready():
            return
        k = max(0, k)
        if k > self._merge_count:
            self.step(k - self._merge_count)
        elif k < self._merge_count:
            self.undo(self._merge_count - k)

    def reset(self) -> None:
        """Back to merge 0 (the timeline is kept, so stepping forward replays it)."""
        if not self._ready():
            return
        if self._merge_count > SYNC_STEPS:
            self._start_run("reset", _undos(self._trainer, self._merge_count), self._merge_count, undone=True)
        else:
            self.undo(self._merge_count)
            self.reset_done.emit()

    def play(self, speed: Optional[float] = None) -> None:
        """Step on a worker at ``speed`` merges a second until paused or the target is reached."""
        if speed is not None:
            self._speed = max(0.1, float(speed))
        if self._ready():
            self._start_run("play", self._trainer.iter_steps(detail=False), None, interval=1.0 / self._speed)

    def set_speed(self, speed: float) -> None:
        """Play's pace in merges a second; a play in progress follows at once."""
        self._speed = max(0.1, float(speed))
        if self._run is not None and self._run_kind == "play":
            self._run.set_interval(1.0 / self._speed)

    def pause(self) -> None:
        self._stop_run("paused")

    def run_to_target(self) -> None:
        """Merge on a worker, flat out, until the configured vocab size / merges (Cancel stops)."""
        if self._ready():
            total = max(0, self.target_merges - self._merge_count)
            self._start_run("run", self._trainer.iter_steps(detail=False), total or None)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Stop every worker and wait for it (closing the window)."""
        self._stop_run("cancelled")
        for worker in list(self._threads):
            worker.requestInterruption()
            if worker.wait(timeout_ms):
                self._threads.discard(worker)

    # -- internals ------------------------------------------------------------------------------------
    def _ready(self) -> bool:
        """Loaded and not loading; a run in progress is stopped first (its steps are kept)."""
        if self._trainer is None or self._call is not None:
            return False
        self._stop_run("paused")
        return True

    def _track(self, worker) -> None:
        self._threads.add(worker)
        worker.finished.connect(self._on_thread_finished)

    def _on_thread_finished(self) -> None:
        worker = self.sender()
        if worker in self._threads:
            worker.wait()  # finished() is sent just before the thread ends
            self._threads.discard(worker)

    def _start_call(self, fn: Callable, on_success: Callable) -> None:
        if self._call is not None:
            self._call.requestInterruption()
        worker = CallWorker(fn)
        worker.on_success = on_success
        self._call = worker
        worker.progressed.connect(self._on_call_progressed)
        worker.succeeded.connect(self._on_call_succeeded)
        worker.failed.connect(self._on_call_failed)
        worker.cancelled.connect(self._on_call_cancelled)
        self._track(worker)
        worker.start()

    def _take_call(self) -> Optional[CallWorker]:
        """The worker that sent the signal if it is the current call (a superseded call is ignored)."""
        worker = self.sender()
        if worker is None or worker is not self._call:
            return None
        self._call = None
        return worker

    def _on_call_progressed(self, progress) -> None:
        if self.sender() is self._call:
            self.load_progress.emit(progress)

    def _on_call_succeeded(self, result) -> None:
        worker = self._take_call()
        if worker is not None:
            try:
                worker.on_success(result)
            except Exception as exc:  # noqa: BLE001 - a bad result must not lose the current state
                self.error_raised.emit(user_message(exc))

    def _on_call_failed(self, exc) -> None:
        if self._take_call() is not None:
            self.error_raised.emit(user_message(exc))

    def _on_call_cancelled(self) -> None:
        if self._take_call() is not None:
            self.load_cancelled.emit()

    def _install(self, loaded: _Loaded, config: TrainerConfig) -> None:
        trainer = loaded.trainer
        self._trainer = trainer
        self._clear_mirrors()
        self._config = config
        self._words, self._freqs = list(trainer.words), list(trainer.freqs)
        self._segs = list(loaded.segmentations)
        self._initial_segs = list(loaded.segmentations)
        self._base_model = loaded.base_model
        self._tokens = dict(enumerate(loaded.base_model.tokens))
        snap = loaded.snapshot
        self._top, self._stats, self._vocab_size = snap.top_pairs, snap.stats, snap.vocab_size
        self._corpus = CorpusInfo(
            path=loaded.path, name=os.path.basename(loaded.path), unique_words=len(self._words),
            total_words=snap.stats.total_words, total_units=snap.stats.total_units,
            initial_vocab=snap.vocab_size, config=config)
        self.config_changed.emit(config)
        self.corpus_loaded.emit(self._corpus)

    def _start_run(self, kind: str, items: Iterator, total: Optional[int], *, undone: bool = False,
                   interval: float = 0.0) -> None:
        trainer = self._trainer
        worker = StepWorker(items, lambda steps: _snapshot(trainer, steps, undone), interval=interval)
        worker.batch_ready.connect(self._on_run_batch_ready)
        worker.ended.connect(self._on_run_ended)
        self._run, self._run_kind, self._run_total = worker, kind, total
        self._model_cache = None
        self._track(worker)
        self.run_started.emit(kind)
        worker.start()

    def _drain(self) -> None:
        worker = self._run
        if worker is None:
            return
        batches = worker.take_batches()
        for snap in batches:
            self._apply(snap)
        if batches:
            self.run_progress.emit(RunProgress(self._run_kind, worker.count, self._run_total, self._merge_count))

    def _on_run_batch_ready(self) -> None:
        worker = self.sender()
        if worker is not None and worker is self._run:
            self._drain()

    def _on_run_ended(self, error) -> None:
        worker = self.sender()
        if worker is None or worker is not self._run:
            return  # stopped by _stop_run, which already drained it
        self._run.wait()
        self._drain()
        kind = self._run_kind
        self._run = None
        self._model_cache = None
        if error is not None:
            self.error_raised.emit(user_message(error))
            reason = "error"
        elif kind == "run" or kind == "play":
            reason = self._stop_reason or "done"
        else:
            reason = "done"
        if kind == "reset":
            self.reset_done.emit()
        self.run_finished.emit(RunEnd(kind, reason, self._merge_count))

    def _stop_run(self, reason: str) -> None:
        worker = self._run
        if worker is None:
            return
        worker.requestInterruption()
        worker.wait()  # at most one merge away
        self._drain()
        kind = self._run_kind
        self._run = None
        self._model_cache = None
        if kind == "reset":
            self.reset_done.emit()
        self.run_finished.emit(RunEnd(kind, reason, self._merge_count))

    def _apply(self, snap: Snapshot) -> None:
        if not snap.steps:
            return
        segs = self._segs
        for i, seg in snap.segmentations.items():
            segs[i] = seg
        timeline = self._timeline
        steps = list(snap.steps)
        if snap.undone:
            self._merge_count = steps[-1].rank - 1
        else:
            if snap.latest is not None and snap.latest.rank == steps[-1].rank:
                steps[-1] = snap.latest  # the one the panes show with its examples
            for step in steps:
                k = step.rank - 1
                if k < len(timeline) and (timeline[k].left, timeline[k].right) != (step.left, step.right):
                    del timeline[k:]  # a different future (cannot happen with a fixed config)
                if k < len(timeline):
                    timeline[k] = step
                else:
                    timeline.append(step)
                if step.created:
                    self._tokens[step.new_id] = step.new_token
            self._merge_count = steps[-1].rank
        if snap.latest is not None and snap.latest.rank == self._merge_count:
            timeline[snap.latest.rank - 1] = snap.latest
        self._top, self._stats, self._vocab_size = snap.top_pairs, snap.stats, snap.vocab_size
        self._stop_reason = snap.stop_reason
        self._model_cache = None
        (self.steps_undone if snap.undone else self.steps_applied).emit(steps)

    def _note_stop(self) -> None:
        self._stop_reason = self._trainer.stop_reason
        self.run_finished.emit(RunEnd("step", self._stop_reason or "done", self._merge_count))
