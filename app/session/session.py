"""Commands in, past-tense signals out: the app's one door to the core.

Widgets never touch the trainer. They call a command (``step``, ``seek``, ``play``, ...) and redraw
from the facts the session emits (``steps_applied``, ``reset_done``, ...) and from its read-only
views (``segmentation(i)``, ``top_pairs``, ``display(id)``, ``history``, ``stats``).

Every fact is the core's :class:`~bpe_core.training.timeline.Timeline`'s; the session keeps none of
its own. Up to :data:`SYNC_STEPS` merges run on the GUI thread; more run as a timeline *move* on a
:class:`~bpe_lens_app.runtime.worker.GeneratorWorker`, which hands over a frame of what changed ~20 times a second.
The session applies each frame on the GUI thread (``Timeline.apply``), so a pane may read the session
at any time without racing the worker.

Seeking to a known merge never waits for the trainer: ``Timeline.jump`` publishes it from the records
at once, and a silent *catch-up* move brings the trainer there on a worker (``caught_up`` follows;
a newer seek redirects it). A command that needs the trainer waits for it without blocking.
"""
from __future__ import annotations

import os
from typing import Callable, List, Optional

from PySide6.QtCore import QObject, QTimer

# re-exported: the panes and the window take these from the session, their one door to the core
from bpe_core import PRESETS, MergeStep, Timeline, TrainerConfig, make_config  # noqa: F401
from bpe_core.training import TOP_K, Frame, Move  # noqa: F401

from ..runtime.coalesce import later
from .corpus_files import corpus_factory, corpus_name, corpus_paths
from .payloads import CorpusInfo, RunEnd, RunProgress, user_message  # noqa: F401
from .defaults import DEFAULT_PRESET, default_config, default_trainer_factory  # noqa: F401
from .run_kinds import (AHEAD, BULK_FRAME_INTERVAL, CATCH_UP, CATCH_UP_DELAY_MS, KEY_STEP,  # noqa: F401
                               PAINT_WINDOW_S, READ_AHEAD, READ_ON_MS, SILENT, SYNC_STEPS)
from .ends import RunEnds
from .replay import Replays
from .views import SessionViews
from .workbench_adapter import WorkbenchAdapter
from ..runtime.worker import FLUSH_INTERVAL, GUI_FIRST, LatestWorker, GeneratorWorker, Threads


class Session(SessionViews, RunEnds, Replays):
    def __init__(self, *, trainer_factory: Optional[Callable] = None, config: Optional[TrainerConfig] = None,
                 parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._factory = trainer_factory or default_trainer_factory()
        self._config = config or default_config()
        self._tl: Optional[Timeline] = None
        self._corpus: Optional[CorpusInfo] = None
        self._threads = Threads()  # every worker started, held until it has ended
        self._calls = LatestWorker(self._threads.track)
        self._calls.progressed.connect(self.load_progress)
        self._calls.errored.connect(self._on_calls_errored)
        self._calls.aborted.connect(self.load_cancelled)
        self._run: Optional[GeneratorWorker] = None
        self._run_kind = ""
        self._run_total: Optional[int] = None
        self._run_goal: Optional[int] = None
        self._speed = 5.0
        self._then: Optional[Callable[[], None]] = None  # a command waiting for the trainer to catch up
        self._next_step = 0  # a key step asked while one is on its way (the newest only: held keys never queue)
        self.read_ahead = READ_AHEAD  # merges the trainer runs ahead of the position (0: never)
        self.decode_errors = "strict"  # bytes that are not UTF-8: "strict" (an error) or "replace" (U+FFFD)
        self.last_load: tuple = ()  # (paths, config, factory) of the newest load_corpus: "Decode with replacement"
        self._read_on = QTimer(self, singleShot=True, interval=READ_ON_MS)  # read ahead once a frame is drawn
        self._read_on.timeout.connect(self._on_read_on_timeout)
        # after a jump the trainer catches up once the new frame is drawn and scrubbing pauses: a worker
        # started at once would compete for the GIL with the repaint (issue 9: seek stalls)
        self._settle_later = QTimer(self, singleShot=True, interval=CATCH_UP_DELAY_MS)
        self._settle_later.timeout.connect(self._on_read_on_timeout)
        self._indexing = QTimer(self, singleShot=True, interval=0)  # records indexed for seeks, a slice a pass
        self._indexing.timeout.connect(self._on_indexing_timeout)
        self._init_replay()  # Run to target over known merges: from the records (session_replay.py)
        # the open vocabularies and the training run, as events carrying their subject (workbench_adapter.py)
        self.workbench = WorkbenchAdapter(self, self._calls)
        self.workbench.vocabulary_opened.connect(lambda vocabulary: self.vocabulary_opened.emit(vocabulary.model))

    @property
    def is_loading(self) -> bool:
        return self._calls.busy

    @property
    def is_running(self) -> bool:  # a run the user started (a silent catch-up or read-ahead is not one)
        return self._replaying or self._run is not None and self._run_kind not in SILENT

    @property
    def is_catching_up(self) -> bool:
        """The trainer is not where the facts need it yet (the top pairs may be the next known merges)."""
        return self._tl is not None and (self._needs_catch_up() or self._run_kind == CATCH_UP and self._run is not None)

    @property
    def run_goal(self) -> Optional[int]:
        """The merge a forward run the user started heads for (Run to target, a long step); None: unknown."""
        return self._run_goal if self.is_running else None

    @property
    def run_kind(self) -> str:
        return "run" if self._replaying else self._run_kind if self.is_running else ""

    @property
    def core(self) -> Optional[Timeline]:  # the timeline, for commands kept in their own modules (app/session/branches.py)
        return self._tl

    def when_ready(self, then: Callable[[], None]) -> bool:  # trainer free at the position, else then() once it is
        return self._ready(then)

    def republish(self, undone: List[MergeStep], applied: List[MergeStep]) -> None:  # what a branch command did
        self.tokens_renamed.emit()  # first: caches of token texts by id are stale
        for steps, were_undone in ((undone, True), (applied, False)):
            if steps:
                self._show(steps, were_undone)

    # -- commands: corpus and settings ----------------------------------------------------------------
    def load_corpus(self, path, config: Optional[TrainerConfig] = None, factory: Optional[Callable] = None) -> None:
        """Count ``path``'s words on a worker (``factory``: this load's trainer maker); the corpus stays till then.
        ``path``: a file, or several counted as one corpus as the CLI does (app/session/corpus_files.py)."""
        self._stop_run("cancelled")
        for timer in (self._read_on, self._settle_later):  # the old timeline's: none reads ahead on the new one
            timer.stop()
        config = config or self._config
        paths = corpus_paths(path)
        factory = factory or self._factory
        self.last_load = (paths, config, factory)
        make = corpus_factory(factory, self.decode_errors)

        def load(*, progress, cancel):
            return Timeline.from_corpus(paths, config, progress=progress, cancel=cancel, factory=make)

        self._calls.start(load, lambda timeline: self._install(timeline, paths, config))
        self.loading_started.emit(f"Counting words in {corpus_name(paths)}")

    def set_config(self, config: TrainerConfig) -> None:
        """New training settings: the corpus is counted again and training restarts at merge 0."""
        if self._corpus is None:
            self._config = config
            self.config_changed.emit(config)
        else:
            self.load_corpus(self._corpus.paths or self._corpus.path, config)

    def open_vocabulary(self, path: str, *, pattern: Optional[str] = None) -> None:
        """Read a saved vocabulary (any supported format) on a worker; ``vocabulary_opened`` follows.
        ``pattern``: the split regex of a ``.tiktoken`` file other than OpenAI's own."""
        path = os.fspath(path)
        self.workbench.open_vocabulary(path, pattern=pattern)
        self.loading_started.emit(f"Opening {os.path.basename(path)}")

    def cancel(self) -> None:
        """Cancel a load or stop a run (what has been merged so far stays)."""
        self._calls.cancel()
        self._stop_run("cancelled")

    # -- commands: training ---------------------------------------------------------------------------
    def step(self, n: int = 1) -> None:
        """Merge ``n`` more: a merge read ahead shows at once; else the trainer merges (a worker past SYNC_STEPS)."""
        if self._run is not None and self._run_kind == AHEAD:
            self._stop_run("paused")  # at most one merge away; what it read is kept
        if self._jumped(self.merge_count + n, n) or not self._ready(lambda: self.step(n)):
            return
        if n > SYNC_STEPS:
            self._start_run("seek", self._tl.forward(n), n)
        elif not self._publish(self._tl.walk(self._tl.forward(n, detail=True))):
            self.run_finished.emit(RunEnd("step", self.stop_reason or "done", self.merge_count))
        else:
            self._read_on.start()

    def request_step(self, n: int = 1, *, repeat: bool = False) -> None:
        """A step asked for from the keyboard or a button: the trainer merges on a worker, the GUI thread never
        waits. Asked while one is on its way, it follows that one: added to what waits, or (``repeat``: a held
        key) replacing it, so held keys never queue. While the trainer reads ahead, a merge it has not reached
        yet shows when it has (a newer request replaces this one)."""
        if self._jumped(self.merge_count + n, n):
            return
        if self._run is not None and self._run_kind == AHEAD:
            self._then = lambda: self.request_step(n)
            GUI_FIRST.lift()  # the user waits for the read-ahead's next merge: it need not wait for paints
        elif self._run is not None and self._run_kind == KEY_STEP:
            self._next_step = n if repeat else self._next_step + n
        elif n > SYNC_STEPS:
            self.step(n)
        elif self._ready(lambda: self.request_step(n)):
            self._start_run(KEY_STEP, self._tl.forward(n, detail=True), n)

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
        """Merge on a worker, flat out, until the configured vocab size / merges (Cancel stops); merges
        already known show from the records (session_replay.py)."""
        if not self._replay_to_target() and self._ready(self.run_to_target):
            total = max(0, self.target_merges - self.merge_count)
            self._start_run("run", self._tl.forward(), total or None)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Stop every worker and wait for it (closing the window)."""
        self._stop_run("cancelled")
        self._threads.wait(timeout_ms, interrupt=True)

    # -- internals: calls (load, open) ----------------------------------------------------------------
    def _ready(self, then: Callable[[], None]) -> bool:
        """Loaded, not loading, trainer at the position (else ``then`` waits for it); a run is stopped first."""
        self._end_replay("paused")
        if self._tl is None or self._calls.busy:
            return False
        if not (self._run is not None and self._run_kind == CATCH_UP):
            self._stop_run("paused")
            if not self._tl.is_lagging:
                return True
            self._catch_up(exact=True)
        self._then = then
        return False

    def _jumped(self, k: int, distance: int) -> bool:
        """Known merge ``k`` from the records (far, or the trainer is elsewhere anyway); False: move the trainer."""
        tl = self._tl
        if tl is None or self._calls.busy or not 0 <= k <= len(tl.steps) or k == tl.merge_count:
            return False
        silent = self._run is not None and self._run_kind in (CATCH_UP, AHEAD)
        if distance <= SYNC_STEPS and not tl.is_lagging and not silent:
            return False
        if not silent:
            self._stop_run("paused")
        self._end_replay("paused")
        self._then = None
        self._show(*tl.jump(k))
        if self._run is None and self._needs_catch_up():
            self._settle_later.start()  # restarted by each jump while scrubbing
        elif self._run is None:
            self._read_on.start()  # after this frame is drawn: the worker would compete for the GIL
        elif self._run_kind == CATCH_UP or self._needs_catch_up():
            self._run.requestInterruption()  # redirected when it ends (never waited for here)
        return True

    def _needs_catch_up(self) -> bool:
        """The trainer must come to the position: behind it, or ahead where the facts are not exact
        (top pairs from the records), or too far ahead for reading ahead."""
        tl = self._tl
        lead = tl.trainer_lead if tl is not None else 0
        return lead < 0 or lead > 0 and (not tl.top_pairs_exact or lead > 2 * self.read_ahead)

    def _catch_up(self, exact: bool = False) -> None:
        """Bring the trainer to the position on a worker; or, when it may stay or be there, read ahead."""
        tl = self._tl
        if exact or self._needs_catch_up():
            move, kind = tl.catch_up(), CATCH_UP
        else:
            move, kind = (tl.read_ahead(self.read_ahead) if self.read_ahead else None), AHEAD
        if move is not None:
            self._start_run(kind, move, move.total)

    def _on_calls_errored(self, exc: BaseException) -> None:
        self.error_raised.emit(user_message(exc))

    def _install(self, timeline: Timeline, paths: tuple, config: TrainerConfig) -> None:
        self._tl, self._config = timeline, config
        stats = timeline.stats
        self._corpus = CorpusInfo(
            path=paths[0], name=corpus_name(paths), unique_words=len(timeline.words),
            total_words=stats.total_words, total_units=stats.total_units,
            initial_vocab=timeline.initial_vocab, config=config, paths=paths)
        self.config_changed.emit(config)
        self.corpus_loaded.emit(self._corpus)

    def _on_indexing_timeout(self) -> None:
        if self._tl is not None and not self._tl.index_some():
            self._indexing.start()  # next pass: input and paints go first

    def _on_read_on_timeout(self) -> None:
        if self._tl is not None and self._run is None and not self._calls.busy and self._replay is None:
            self._catch_up()

    # -- internals: runs (a timeline move on a worker) ------------------------------------------------
    def _start_run(self, kind: str, move: Move, total: Optional[int], *, interval: float = 0.0) -> None:
        # read ahead: a frame a merge; a catch-up: small frames (each applied between paints, none shown)
        batch = {"play": FLUSH_INTERVAL, AHEAD: 0.0, KEY_STEP: 0.0, CATCH_UP: FLUSH_INTERVAL}.get(kind, BULK_FRAME_INTERVAL)
        worker = GeneratorWorker(move, move.frame, interval=interval, batch_interval=batch, background=kind in (CATCH_UP, AHEAD))
        worker.yielded.connect(self._on_run_batch_ready)
        worker.progressed.connect(self._on_run_progressed)
        worker.ended.connect(self._on_run_ended)
        self._run, self._run_kind, self._run_total = worker, kind, total
        self._run_goal = self.merge_count + total if total and not move.undone else None
        self._threads.track(worker)
        if kind not in SILENT:
            self.run_started.emit(kind)
        worker.start()

    def _publish(self, frame: Frame, show: bool = True) -> bool:
        """Apply ``frame`` to the timeline and tell the panes; False when it held no merge."""
        steps = self._tl.apply(frame, show=show)
        self._indexing.start()
        self._note_end()
        if steps:
            self._show(steps, frame.undone)
        return bool(steps)

    def _show(self, steps: List[MergeStep], undone: bool) -> None:
        """Tell the panes; background workers wait while they take the steps in and paint them (until a
        coalesce.PassQueue turn after what the panes posted, their repaints; at most PAINT_WINDOW_S). A zero timer
        started here could run before those repaints when timers came due meanwhile."""
        GUI_FIRST.paint_soon(PAINT_WINDOW_S)
        (self.steps_undone if undone else self.steps_applied).emit(steps)
        later(self, GUI_FIRST.lift)

    def _drain(self) -> None:
        worker = self._run
        frames = worker.take_batches()
        for frame in frames:
            self._publish(frame, show=self._run_kind != AHEAD)
        if frames and self._run_kind == AHEAD and self._then is not None:
            then, self._then = self._then, None
            then()  # a step that waited for the merge this frame read (it waits again if still unknown)
        elif frames and self._run_kind not in SILENT:
            self.run_progress.emit(RunProgress(self._run_kind, worker.count, self._run_total, self.merge_count))

    def _on_run_batch_ready(self) -> None:
        worker = self.sender()
        if worker is not None and worker is self._run:
            self._drain()

    def _on_run_progressed(self, count: int) -> None:
        if self.sender() is self._run and self._run_kind not in SILENT:
            self.run_progress.emit(RunProgress(self._run_kind, count, self._run_total, self.merge_count))

    def _on_run_ended(self, error) -> None:
        if self.sender() is not None and self.sender() is self._run:
            self._end_run(None, error)

    def _stop_run(self, reason: str) -> None:
        self._end_replay(reason)
        if self._run is not None:
            self._run.requestInterruption()
            self._end_run(reason, None)

    def _end_run(self, reason: Optional[str], error: Optional[BaseException]) -> None:
        """The worker has ended or was asked to (at most one merge away): apply the rest, then report."""
        self._run.wait()
        self._drain()
        kind, merged = self._run_kind, self._run.count
        self._run = None
        self._tl.settle()
        self._note_end()
        if kind in (CATCH_UP, AHEAD):
            self._on_catch_up_ended(kind, reason, error)
            return
        if kind == KEY_STEP:
            self._on_key_step_ended(reason, error, merged)
            return
        if error is not None:
            self.error_raised.emit(user_message(error))
            reason = "error"
        elif reason is None:
            reason = (self.stop_reason or "done") if kind in ("run", "play") else "done"
            self._read_on.start()  # the read-ahead, once the run's last frame is painted (:meth:`_show`)
        if kind == "reset":
            self.reset_done.emit()
        self.run_finished.emit(RunEnd(kind, reason, self.merge_count))
