"""The session's runs: timeline moves carried out on a worker thread, one at a time, and the silent runs
that keep the trainer close to the position.

A *run* is a :class:`~bpe_core.training.timeline.Move` (the merges to make or undo) handed to a
:class:`~bpe_lens_app.runtime.worker.GeneratorWorker`. The worker makes the merges and hands over *frames* (the
merges made since the last frame); :class:`Runs` gives each frame to the session, which applies it to the
timeline on the GUI thread and tells the panes. Only one run goes on at a time: starting a command stops
the run before it.

Some runs are started by the user (Play, Run to target, a long step or seek); they are announced with
``run_started``, report ``run_progress`` and end with ``run_finished``. The others are silent
(:data:`~bpe_lens_app.session.run_kinds.SILENT`): after a seek the trainer *catches up* with the position
shown from the records, and after a step it *reads ahead* a little, so that the next step can be shown
at once. The user never sees them as runs. What follows a silent run is decided in ends.py.

A command that needs the trainer at the position while it is elsewhere is kept as :attr:`Runs.waiting`
and runs once the trainer has arrived.
"""
from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import QObject, QTimer

from bpe_core.training import Frame, Move

from ..runtime.worker import GeneratorWorker, Threads
from .ends import Next, after_key_step, after_silent_move
from .payloads import RunEnd, RunProgress, user_message
from .known_end import KnownEnd
from .run_kinds import AHEAD, CATCH_UP, CATCH_UP_DELAY_MS, KEY_STEP, READ_ON_MS, SILENT, frame_interval, needs_catch_up


class Runs(QObject):
    """The run going on, if any, and the trainer following the position (see the module's description).

    The session gives it two functions: ``publish(frame, show)`` applies a frame and tells the panes
    (False when it held no merge), and ``replaying()`` says whether a replay is showing known merges
    (the trainer then waits). Where a run met a stop rule is noted in ``known_end``. Runs report through
    the session's own signals, and read how far the trainer may read ahead from ``session.read_ahead``.
    """

    def __init__(self, session, threads: Threads, known_end: KnownEnd, *, publish: Callable[[Frame, bool], bool],
                 replaying: Callable[[], bool]) -> None:
        super().__init__(session)
        self._session, self._threads, self._known_end = session, threads, known_end
        self._publish, self._replaying = publish, replaying
        self.worker: Optional[GeneratorWorker] = None  # the run going on
        self.kind = ""  # its kind: "run", "play", "seek", or one of the silent kinds
        self.total: Optional[int] = None  # how many merges it is to make, when known
        self.goal: Optional[int] = None  # the merge a forward run is heading for, when known
        self.waiting: Optional[Callable[[], None]] = None  # a command waiting for the trainer
        self.steps_asked = 0  # steps asked by key while a key step is on its way (held keys never queue)
        # The trainer reads ahead once a step's frame is drawn, and catches up once the user stops scrubbing:
        # a worker started at once would compete with the repaint for the GIL (issue 9: seeks stalled).
        self.read_on = QTimer(self, singleShot=True, interval=READ_ON_MS)
        self.read_on.timeout.connect(self._on_follow_timeout)
        self.follow_later = QTimer(self, singleShot=True, interval=CATCH_UP_DELAY_MS)
        self.follow_later.timeout.connect(self._on_follow_timeout)

    def is_a(self, *kinds: str) -> bool:
        """A run of one of ``kinds`` is going on."""
        return self.worker is not None and self.kind in kinds

    @property
    def user_started(self) -> bool:
        """A run the user started is going on (not a silent one)."""
        return self.worker is not None and self.kind not in SILENT

    # -- starting and stopping ----------------------------------------------------------------------------
    def start(self, kind: str, move: Move, total: Optional[int], *, interval: float = 0.0) -> None:
        """Carry out ``move`` on a worker (``interval``: seconds between merges, for Play)."""
        worker = GeneratorWorker(move, move.frame, interval=interval, batch_interval=frame_interval(kind),
                                 background=kind in (CATCH_UP, AHEAD))
        worker.yielded.connect(self._on_worker_yielded)
        worker.progressed.connect(self._on_worker_progressed)
        worker.ended.connect(self._on_worker_ended)
        self.worker, self.kind, self.total = worker, kind, total
        self.goal = self._session.merge_count + total if total and not move.undone else None
        self._threads.track(worker)
        if kind not in SILENT:
            self._session.run_started.emit(kind)
        worker.start()

    def stop(self, reason: str) -> None:
        """Stop the run going on, if any, for ``reason`` ("paused", "cancelled"): it is at most one merge away."""
        if self.worker is not None:
            self.worker.requestInterruption()
            self._end(reason, None)

    def stop_timers(self) -> None:
        """Forget a read-ahead or catch-up planned for the current timeline (a new corpus is coming)."""
        self.read_on.stop()
        self.follow_later.stop()

    # -- the trainer following the position ---------------------------------------------------------------
    def needs_catch_up(self) -> bool:
        """The trainer must come to the position (see :func:`~bpe_lens_app.session.run_kinds.needs_catch_up`)."""
        tl = self._session.core
        return tl is not None and needs_catch_up(tl.trainer_lead, tl.top_pairs_exact, self._session.read_ahead)

    def catch_up(self, exact: bool = False) -> None:
        """Bring the trainer to the position on a worker, or, when it may stay where it is, let it read ahead."""
        tl = self._session.core
        if exact or self.needs_catch_up():
            move, kind = tl.catch_up(), CATCH_UP
        else:
            lead = self._session.read_ahead  # 0: the trainer never reads ahead
            move, kind = (tl.read_ahead(lead) if lead else None), AHEAD
        if move is not None:
            self.start(kind, move, move.total)

    def _on_follow_timeout(self) -> None:
        """A step's frame is drawn, or the user stopped scrubbing: the trainer follows, unless it is busy."""
        s = self._session
        if s.core is not None and self.worker is None and not s.is_loading and not self._replaying():
            self.catch_up()

    # -- frames and ends ----------------------------------------------------------------------------------
    def _drain(self) -> None:
        """Publish every frame the worker has handed over."""
        worker, s = self.worker, self._session
        frames = worker.take_batches()
        for frame in frames:
            self._publish(frame, self.kind != AHEAD)
        if frames and self.kind == AHEAD and self.waiting is not None:
            then, self.waiting = self.waiting, None
            then()  # a step that waited for the merge this frame read (it waits again if still unknown)
        elif frames and self.kind not in SILENT:
            s.run_progress.emit(RunProgress(self.kind, worker.count, self.total, s.merge_count))

    def _on_worker_yielded(self) -> None:
        worker = self.sender()
        if worker is not None and worker is self.worker:
            self._drain()

    def _on_worker_progressed(self, count: int) -> None:
        if self.sender() is self.worker and self.kind not in SILENT:
            self._session.run_progress.emit(RunProgress(self.kind, count, self.total, self._session.merge_count))

    def _on_worker_ended(self, error) -> None:
        if self.sender() is not None and self.sender() is self.worker:
            self._end(None, error)

    def _end(self, reason: Optional[str], error: Optional[BaseException]) -> None:
        """The worker has ended, or was asked to: apply the rest, then report. ``reason`` is None when the
        run ended by itself."""
        s = self._session
        self.worker.wait()
        self._drain()
        kind, merged = self.kind, self.worker.count
        self.worker = None
        s.core.settle()
        self._known_end.note(s.core)
        if kind in SILENT:
            self._after_silent_run(kind, reason, error, merged)
            return
        if error is not None:
            s.error_raised.emit(user_message(error))
            reason = "error"
        elif reason is None:
            reason = (s.stop_reason or "done") if kind in ("run", "play") else "done"
            self.read_on.start()  # the read-ahead, once the run's last frame is painted
        if kind == "reset":
            s.reset_done.emit()
        s.run_finished.emit(RunEnd(kind, reason, s.merge_count))

    def _after_silent_run(self, kind: str, reason: Optional[str], error: Optional[BaseException], merged: int) -> None:
        """Do what ends.py says follows a catch-up, a read-ahead or a key step."""
        failed, stopped = error is not None, reason is not None
        if kind == KEY_STEP:
            then, asked, self.steps_asked = None, self.steps_asked, 0
            after = after_key_step(failed=failed, stopped=stopped, merged=merged, steps_asked=asked)
        else:
            then, self.waiting = self.waiting, None
            arrived = not self.needs_catch_up() and not (kind == CATCH_UP and self._session.core.is_lagging)
            after = after_silent_move(kind, failed=failed, stopped=stopped, arrived=arrived, waiting=then is not None)
        self._do(after, then, error)

    def _do(self, after: Next, then: Optional[Callable[[], None]], error: Optional[BaseException]) -> None:
        """Carry out ``after``'s actions in order; ``then`` is the command that was waiting, if any."""
        s = self._session
        if after.report_error:
            s.error_raised.emit(user_message(error))
        if after.caught_up:
            s.caught_up.emit()
        if after.step_finished:
            s.run_finished.emit(RunEnd("step", s.stop_reason or "done", s.merge_count))
        if after.run_waiting:
            then()
        if after.steps_asked:
            s.request_step(after.steps_asked)
        if after.catch_up_again:
            self.waiting = then
            self.catch_up()
        if after.read_on:
            self.read_on.start()
        if after.follow_later:
            self.follow_later.start()

