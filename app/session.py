"""Commands in, past-tense signals out: the app's one door to the core.

Widgets never touch the trainer. They call a command (``step``, ``seek``, ``play``, ...) and redraw
from the facts the session emits (``steps_applied``, ``reset_done``, ...) and from its read-only
views (``segmentation(i)``, ``top_pairs``, ``display(id)``, ``history``, ``stats``).

Every fact is the core's :class:`~bpe_core.training.timeline.Timeline`'s; the session keeps none of
its own. Up to :data:`SYNC_STEPS` merges run on the GUI thread; more run as a timeline *move* on a
:class:`~bpe_lens_app.worker.StepWorker`, which hands over a frame of what changed ~20 times a second.
The session applies each frame on the GUI thread (``Timeline.apply``), so a pane may read the session
at any time without racing the worker.

Seeking to a known merge never waits for the trainer: ``Timeline.jump`` publishes it from the records
at once, and a silent *catch-up* move brings the trainer there on a worker (``caught_up`` follows;
a newer seek redirects it). A command that needs the trainer waits for it without blocking.
"""
from __future__ import annotations

import os
from typing import Callable, List, Optional, Tuple

from PySide6.QtCore import QObject, Signal

from bpe_core.model import BPEModel
from bpe_core.training.timeline import DEFAULT_TARGET, TOP_K, Frame, Move, Timeline, WordHistory, target_merges
from bpe_core.training.trainer import Trainer
from bpe_core.types import MergeStep, PairCount, Raw, TrainerConfig, TrainingStats

from .defaults import DEFAULT_PRESET, PRESETS, default_config, default_trainer_factory, make_config  # noqa: F401
from .facts import Fact
from .payloads import CorpusInfo, RunEnd, RunProgress, user_message
from .worker import FLUSH_INTERVAL, CallSlot, StepWorker

#: step/undo/seek up to this many merges on the GUI thread; more go to a worker
SYNC_STEPS = 20
#: the run kind of the silent move that brings the trainer to a jumped-to position
CATCH_UP = "catch-up"
BULK_FRAME_INTERVAL = 1.0  # s between a bulk run's frames (not Play's): the GUI shows progress meanwhile
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
    caught_up = Signal()  # the trainer reached the position a seek jumped to: its exact top pairs are published
    tokens_renamed = Signal()  # a branch was picked or switched: ids past the alphabet may name other tokens

    def __init__(self, *, trainer_factory: Optional[Callable] = None, config: Optional[TrainerConfig] = None,
                 parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._factory = trainer_factory or default_trainer_factory()
        self._config = config or default_config()
        self._tl: Optional[Timeline] = None
        self._corpus: Optional[CorpusInfo] = None
        self._calls = CallSlot(self._track)
        self._calls.progressed.connect(self.load_progress)
        self._calls.failed.connect(self._on_calls_failed)
        self._calls.cancelled.connect(self.load_cancelled)
        self._run: Optional[StepWorker] = None
        self._run_kind = ""
        self._run_total: Optional[int] = None
        self._speed = 5.0
        self._threads: set = set()
        self._then: Optional[Callable[[], None]] = None  # a command waiting for the trainer to catch up

    # -- read-only views (GUI thread): the timeline's published facts ---------------------------------
    words = Fact[List[str]](list)  # the unique words, in order of first appearance
    freqs = Fact[List[int]](list)
    top_pairs = Fact[Tuple[PairCount, ...]](tuple)  # the next merges, in the order the tie rule takes them
    merge_count = Fact[int](int)
    vocab_size = Fact[int](int)
    stats = Fact[Optional[TrainingStats]]()
    stop_reason = Fact[Optional[str]]()
    history = Fact[List[MergeStep]](list)  # the merges applied now, rank 1 first
    timeline = Fact[List[MergeStep]](list, name="steps")  # every merge known: applied, then undone

    def segmentation(self, i: int) -> Tuple[int, ...]:
        return self._tl.segmentation(i)

    def token(self, token_id: int) -> Raw:
        return self._tl.token(token_id)

    def display(self, token_id: int) -> str:
        return self._tl.display(token_id)

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
    def is_loading(self) -> bool:
        return self._calls.busy

    @property
    def is_running(self) -> bool:  # a run the user started (a silent catch-up is not one)
        return self._run is not None and self._run_kind != CATCH_UP

    @property
    def is_catching_up(self) -> bool:
        """The trainer is not at the position yet (the top pairs may be the next known merges)."""
        return self._tl is not None and self._tl.is_lagging

    @property
    def run_kind(self) -> str:
        return self._run_kind if self.is_running else ""

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

    @property
    def core(self) -> Optional[Timeline]:  # the timeline, for commands kept in their own modules (app/branches.py)
        return self._tl

    def when_ready(self, then: Callable[[], None]) -> bool:  # trainer free at the position, else then() once it is
        return self._ready(then)

    def republish(self, undone: List[MergeStep], applied: List[MergeStep]) -> None:  # what a branch command did
        self.tokens_renamed.emit()  # first: caches of token texts by id are stale
        for steps, signal in ((undone, self.steps_undone), (applied, self.steps_applied)):
            if steps:
                signal.emit(steps)

    # -- commands: corpus and settings ----------------------------------------------------------------
    def load_corpus(self, path: str, config: Optional[TrainerConfig] = None) -> None:
        """Count ``path``'s words on a worker; the current corpus stays until the new one is ready."""
        self._stop_run("cancelled")
        config = config or self._config
        path = os.fspath(path)
        factory = self._factory

        def load(*, progress, cancel):
            return Timeline.from_corpus(path, config, progress=progress, cancel=cancel, factory=factory)

        self._calls.start(load, lambda timeline: self._install(timeline, path, config))
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
        self._calls.start(lambda *, progress, cancel: open_vocabulary(path, pattern=pattern),
                          self.vocabulary_opened.emit)
        self.loading_started.emit(f"Opening {os.path.basename(path)}")

    def cancel(self) -> None:
        """Cancel a load or stop a run (what has been merged so far stays)."""
        self._calls.cancel()
        self._stop_run("cancelled")

    # -- commands: training ---------------------------------------------------------------------------
    def step(self, n: int = 1) -> None:
        if self._jumped(self.merge_count + n, n) or not self._ready(lambda: self.step(n)):
            return
        if n > SYNC_STEPS:
            self._start_run("seek", self._tl.forward(n), n)
        elif not self._publish(self._tl.walk(self._tl.forward(n, detail=True))):
            self.run_finished.emit(RunEnd("step", self.stop_reason or "done", self.merge_count))

    def undo(self, n: int = 1) -> None:
        n = min(n, self.merge_count)
        if self._jumped(self.merge_count - n, n) or not self._ready(lambda: self.undo(n)):
            return
        if n > SYNC_STEPS:
            self._start_run("seek", self._tl.back(n), n)
        elif n > 0:
            self._publish(self._tl.walk(self._tl.back(n)))

    def seek(self, k: int) -> None:
        """Step or undo until ``merge_count == k`` (or the trainer stops); a known merge shows at once."""
        k = max(0, k)
        if self._jumped(k, abs(k - self.merge_count)) or not self._ready(lambda: self.seek(k)):
            return
        if k > self.merge_count:
            self.step(k - self.merge_count)
        elif k < self.merge_count:
            self.undo(self.merge_count - k)

    def reset(self) -> None:
        """Back to merge 0 (the timeline is kept, so stepping forward replays it)."""
        if self._jumped(0, self.merge_count):
            self.reset_done.emit()
        elif not self._ready(self.reset):
            return
        else:
            self.undo(self.merge_count)
            self.reset_done.emit()

    def play(self, speed: Optional[float] = None) -> None:
        """Step on a worker at ``speed`` merges a second until paused or the target is reached."""
        if speed is not None:
            self._speed = max(0.1, float(speed))
        if self._ready(self.play):
            self._start_run("play", self._tl.forward(), None, interval=1.0 / self._speed)

    def set_speed(self, speed: float) -> None:
        """Play's pace in merges a second; a play in progress follows at once."""
        self._speed = max(0.1, float(speed))
        if self._run is not None and self._run_kind == "play":
            self._run.set_interval(1.0 / self._speed)

    def pause(self) -> None:
        if self.is_running:  # a catch-up goes on
            self._stop_run("paused")

    def run_to_target(self) -> None:
        """Merge on a worker, flat out, until the configured vocab size / merges (Cancel stops)."""
        if self._ready(self.run_to_target):
            total = max(0, self.target_merges - self.merge_count)
            self._start_run("run", self._tl.forward(), total or None)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Stop every worker and wait for it (closing the window)."""
        self._stop_run("cancelled")
        for worker in list(self._threads):
            worker.requestInterruption()
            if worker.wait(timeout_ms):
                self._threads.discard(worker)

    # -- internals: calls (load, open) ----------------------------------------------------------------
    def _ready(self, then: Callable[[], None]) -> bool:
        """Loaded, not loading, trainer at the position (else ``then`` waits for it); a run is stopped first."""
        if self._tl is None or self._calls.busy:
            return False
        if not (self._run is not None and self._run_kind == CATCH_UP):
            self._stop_run("paused")
            if not self._tl.is_lagging:
                return True
            self._catch_up()
        self._then = then
        return False

    def _jumped(self, k: int, distance: int) -> bool:
        """Known merge ``k`` from the records (far, or the trainer is elsewhere anyway); False: move the trainer."""
        tl = self._tl
        if tl is None or self._calls.busy or not 0 <= k <= len(tl.steps) or k == tl.merge_count:
            return False
        catching_up = self._run is not None and self._run_kind == CATCH_UP
        if distance <= SYNC_STEPS and not tl.is_lagging and not catching_up:
            return False
        if not catching_up:
            self._stop_run("paused")
        self._then = None
        steps, undone = tl.jump(k)
        (self.steps_undone if undone else self.steps_applied).emit(steps)
        if self._run is not None:
            self._run.requestInterruption()  # redirected when it ends (never waited for here)
        else:
            self._catch_up()
        return True

    def _catch_up(self) -> None:
        move = self._tl.catch_up()
        if move is not None:
            self._start_run(CATCH_UP, move, move.total)

    def _track(self, worker) -> None:
        self._threads.add(worker)
        worker.finished.connect(self._on_thread_finished)

    def _on_thread_finished(self) -> None:
        worker = self.sender()
        if worker in self._threads:
            worker.wait()  # finished() is sent just before the thread ends
            self._threads.discard(worker)

    def _on_calls_failed(self, exc: BaseException) -> None:
        self.error_raised.emit(user_message(exc))

    def _install(self, timeline: Timeline, path: str, config: TrainerConfig) -> None:
        self._tl, self._config = timeline, config
        stats = timeline.stats
        self._corpus = CorpusInfo(
            path=path, name=os.path.basename(path), unique_words=len(timeline.words),
            total_words=stats.total_words, total_units=stats.total_units,
            initial_vocab=timeline.initial_vocab, config=config)
        self.config_changed.emit(config)
        self.corpus_loaded.emit(self._corpus)

    # -- internals: runs (a timeline move on a worker) ------------------------------------------------
    def _start_run(self, kind: str, move: Move, total: Optional[int], *, interval: float = 0.0) -> None:
        worker = StepWorker(move, move.frame, interval=interval,
                            batch_interval=FLUSH_INTERVAL if kind == "play" else BULK_FRAME_INTERVAL)
        worker.batch_ready.connect(self._on_run_batch_ready)
        worker.progressed.connect(self._on_run_progressed)
        worker.ended.connect(self._on_run_ended)
        self._run, self._run_kind, self._run_total = worker, kind, total
        self._track(worker)
        if kind != CATCH_UP:
            self.run_started.emit(kind)
        worker.start()

    def _publish(self, frame: Frame) -> bool:
        """Apply ``frame`` to the timeline and tell the panes; False when it held no merge."""
        steps = self._tl.apply(frame)
        if steps:
            (self.steps_undone if frame.undone else self.steps_applied).emit(steps)
        return bool(steps)

    def _drain(self) -> None:
        worker = self._run
        frames = worker.take_batches()
        for frame in frames:
            self._publish(frame)
        if frames and self._run_kind != CATCH_UP:
            self.run_progress.emit(RunProgress(self._run_kind, worker.count, self._run_total, self.merge_count))

    def _on_run_batch_ready(self) -> None:
        worker = self.sender()
        if worker is not None and worker is self._run:
            self._drain()

    def _on_run_progressed(self, count: int) -> None:
        if self.sender() is self._run and self._run_kind != CATCH_UP:
            self.run_progress.emit(RunProgress(self._run_kind, count, self._run_total, self.merge_count))

    def _on_run_ended(self, error) -> None:
        if self.sender() is not None and self.sender() is self._run:
            self._end_run(None, error)

    def _stop_run(self, reason: str) -> None:
        if self._run is not None:
            self._run.requestInterruption()
            self._end_run(reason, None)

    def _end_run(self, reason: Optional[str], error: Optional[BaseException]) -> None:
        """The worker has ended or was asked to (at most one merge away): apply the rest, then report."""
        self._run.wait()
        self._drain()
        kind = self._run_kind
        self._run = None
        self._tl.settle()
        if kind == CATCH_UP:
            self._on_catch_up_ended(reason, error)
            return
        if error is not None:
            self.error_raised.emit(user_message(error))
            reason = "error"
        elif reason is None:
            reason = (self.stop_reason or "done") if kind in ("run", "play") else "done"
        if kind == "reset":
            self.reset_done.emit()
        self.run_finished.emit(RunEnd(kind, reason, self.merge_count))

    def _on_catch_up_ended(self, reason: Optional[str], error: Optional[BaseException]) -> None:
        """Arrived: tell the panes, then run the command that waited. Redirected: go on to the new position."""
        then, self._then = self._then, None
        if error is not None:
            self.error_raised.emit(user_message(error))
        elif not self._tl.is_lagging:
            self.caught_up.emit()
            if then is not None and reason is None:
                then()
        elif reason is None:  # redirected by a newer jump (stopped by Cancel or a load: it stays)
            self._then = then
            self._catch_up()
