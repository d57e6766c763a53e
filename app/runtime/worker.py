"""Long work off the GUI thread: a QThread that runs one core call or iterates a core generator.

Two shapes, after napari/superqt's ``thread_worker``:

* :class:`CallWorker` runs ``fn(progress=..., cancel=...)`` once (load a corpus, open a vocabulary).
  Progress reports are throttled to ~20 a second; Cancel is ``requestInterruption()``, which the
  core sees through its ``cancel`` callable and answers with :class:`~bpe_core.types.Cancelled`.
* :class:`StepWorker` iterates a generator of merges (a :class:`~bpe_core.training.timeline.Move`),
  checks for interruption between items and hands the GUI *batches*: every ~50 ms it calls
  ``snapshot(items)`` (still on the worker thread, so it may read the trainer; for a move, its
  ``frame``), queues the result and emits ``batch_ready`` — never one signal per merge.

:class:`CallSlot` keeps at most one call going (a new load supersedes the one before) and reports
only the current call's outcome.

No class here touches a QWidget: the worker thread only runs core code and emits signals, which
Qt delivers to the GUI thread as queued calls.

Workers run Python, so they hold the GIL: by default a thread that wants it back waits up to 5 ms,
and the GUI thread asks for it at every call from Qt into Python (each slot, each paint, each model
``data()``), so one frame could wait hundreds of times. :func:`share_the_gil` shortens the switch
interval to 50 µs while workers exist (issue 9: the window froze for seconds during Run to target;
at 0.5 ms a seek's repaint with the trainer catching up still waited ~100 ms in all, at 50 µs ~10 ms;
the worker loses next to nothing: it is only interrupted while the GUI thread wants the GIL).
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Any, Callable, Iterable, Optional

from PySide6.QtCore import QObject, QThread, Signal

from bpe_core.types import Cancelled, Progress

#: at most this many batches / progress reports a second reach the GUI
FLUSH_INTERVAL = 0.05
#: the GIL switch interval while a worker runs (Python's default: 5 ms)
SWITCH_INTERVAL = 0.00005


class GuiFirst:
    """A window in which background work stays off the GIL: the GUI thread has just published a frame and is
    about to paint it (:meth:`paint_soon`); a background :class:`StepWorker` (``background=True``: the
    trainer catching up or reading ahead, which nobody is waiting for) waits it out between merges. Painting
    with such a worker running costs the GUI thread a wait at each of its hundreds of calls into Python."""

    def __init__(self) -> None:
        self.until = 0.0  # time.monotonic() deadline; a float store is atomic

    def paint_soon(self, seconds: float) -> None:
        """Open the window for at most ``seconds`` (the session ends it once the frame is painted: :meth:`lift`)."""
        self.until = time.monotonic() + seconds

    def lift(self) -> None:
        """End the window now (the user waits for what a background worker makes next)."""
        self.until = 0.0

    def wait(self, interrupted: Callable[[], bool]) -> None:
        while time.monotonic() < self.until and not interrupted():
            time.sleep(0.001)


#: the process's one window (one GUI thread)
GUI_FIRST = GuiFirst()


def share_the_gil() -> None:
    """Let a thread waiting for the GIL (the GUI thread) get it within ~50 µs (process-wide, idempotent)."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)


class CallWorker(QThread):
    """``fn(progress=cb, cancel=cb)`` on a thread; one of succeeded / failed / cancelled follows."""

    progressed = Signal(object)  # Progress
    succeeded = Signal(object)  # fn's result
    failed = Signal(object)  # the exception
    cancelled = Signal()

    def __init__(self, fn: Callable[..., Any], parent=None) -> None:
        super().__init__(parent)
        share_the_gil()
        self._fn = fn
        self._last_report = 0.0

    def _report(self, progress: Progress) -> None:
        now = time.monotonic()
        if now - self._last_report >= FLUSH_INTERVAL or progress.done >= progress.total:
            self._last_report = now
            self.progressed.emit(progress)

    def run(self) -> None:
        try:
            result = self._fn(progress=self._report, cancel=self.isInterruptionRequested)
        except Cancelled:
            self.cancelled.emit()
        except Exception as exc:  # noqa: BLE001 - every failure goes to the GUI as a message
            self.failed.emit(exc)
        else:
            if self.isInterruptionRequested():
                self.cancelled.emit()
            else:
                self.succeeded.emit(result)


class CallSlot(QObject):
    """One :class:`CallWorker` at a time: ``start`` supersedes (and cancels) the call before it.

    Only the current call reports: ``on_success(result)`` runs on the GUI thread (what it raises
    goes to ``failed``, so a bad result cannot lose the current state), else ``failed``/``cancelled``.
    ``track`` is given every worker started (the owner waits for them when closing).
    """

    progressed = Signal(object)  # Progress
    failed = Signal(object)  # the exception
    cancelled = Signal()

    def __init__(self, track: Callable[[QThread], None], parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._track = track
        self._current: Optional[CallWorker] = None
        self._on_success: Callable[[Any], None] = lambda result: None

    @property
    def busy(self) -> bool:
        return self._current is not None

    def start(self, fn: Callable[..., Any], on_success: Callable[[Any], None]) -> None:
        self.cancel()
        worker = self._current = CallWorker(fn)
        self._on_success = on_success
        worker.progressed.connect(self._on_worker_progressed)
        worker.succeeded.connect(self._on_worker_succeeded)
        worker.failed.connect(self._on_worker_failed)
        worker.cancelled.connect(self._on_worker_cancelled)
        self._track(worker)
        worker.start()

    def cancel(self) -> None:
        if self._current is not None:
            self._current.requestInterruption()

    def _take(self) -> bool:
        """True (and the slot free again) when the sender is the current call."""
        if self.sender() is None or self.sender() is not self._current:
            return False
        self._current = None
        return True

    def _on_worker_progressed(self, progress: Progress) -> None:
        if self.sender() is self._current:
            self.progressed.emit(progress)

    def _on_worker_succeeded(self, result: Any) -> None:
        if self._take():
            try:
                self._on_success(result)
            except Exception as exc:  # noqa: BLE001 - reported, the current state stays
                self.failed.emit(exc)

    def _on_worker_failed(self, exc: BaseException) -> None:
        if self._take():
            self.failed.emit(exc)

    def _on_worker_cancelled(self) -> None:
        if self._take():
            self.cancelled.emit()


class StepWorker(QThread):
    """Iterate ``items`` on a thread; hand over ``snapshot(batch)`` results every ``batch_interval`` s.

    ``interval`` (seconds) paces the items for Play; 0 runs flat out. Between batches ``progressed``
    reports the count ~20 times a second (a bulk run shows progress and draws a batch only once a
    second: drawing competes with the trainer for the GIL). After the thread ends every item has
    been flushed, so a caller that ``wait()``-ed can still :meth:`take_batches` the rest.
    """

    batch_ready = Signal()
    progressed = Signal(int)  # items done so far, between batches
    ended = Signal(object)  # None, or the exception that stopped the generator

    def __init__(self, items: Iterable[Any], snapshot: Callable[[list], Any], *, interval: float = 0.0,
                 batch_interval: float = FLUSH_INTERVAL, background: bool = False, parent=None) -> None:
        super().__init__(parent)
        self._background = background  # waits out :data:`GUI_FIRST` between items
        share_the_gil()
        self._items = iter(items)
        self._close = getattr(items, "close", None)  # a generator's or a timeline move's
        self._snapshot = snapshot
        self._interval = interval
        self._batch_interval = batch_interval
        self._lock = threading.Lock()
        self._batches: list = []
        self.count = 0  # items done (read by the GUI for progress; an int write is atomic)

    def set_interval(self, interval: float) -> None:
        """Change the pace while running (Play's speed); the next item waits the new interval."""
        self._interval = interval  # one attribute store: atomic, read by the worker between items

    def take_batches(self) -> list:
        """The snapshots not yet taken, oldest first (GUI thread)."""
        with self._lock:
            out, self._batches = self._batches, []
        return out

    def _flush(self, pending: list) -> None:
        if pending:
            batch = self._snapshot(pending)
            with self._lock:
                self._batches.append(batch)
            self.batch_ready.emit()

    def _pause(self, until: float) -> None:
        # sleep in short slices so Pause/Cancel answer within ~20 ms
        while not self.isInterruptionRequested() and (left := until - time.monotonic()) > 0:
            time.sleep(min(left, 0.02))

    def run(self) -> None:
        pending: list = []
        error: Optional[BaseException] = None
        last_flush = last_report = time.monotonic()
        try:
            while not self.isInterruptionRequested():
                started = time.monotonic()
                if self._background:
                    GUI_FIRST.wait(self.isInterruptionRequested)
                item = next(self._items, None)
                if item is None:
                    break
                pending.append(item)
                self.count += 1
                now = time.monotonic()
                if now - last_flush >= self._batch_interval or self._interval >= FLUSH_INTERVAL:
                    self._flush(pending)
                    pending, last_flush = [], now
                elif now - last_report >= FLUSH_INTERVAL:
                    self.progressed.emit(self.count)
                    last_report = now
                if self._interval:
                    self._pause(started + self._interval)
        except Exception as exc:  # noqa: BLE001
            error = exc
        try:
            self._flush(pending)  # the last batch, while the items (a timeline move) still own the trainer
        except Exception as exc:  # noqa: BLE001
            error = error or exc
        finally:
            if self._close is not None:
                self._close()  # a generator's cleanup (``finally``) runs here, on the thread that owns the trainer
        self.ended.emit(error)


class Threads:
    """The worker threads an owner started, each held until it has really ended: ``finished`` comes just
    before a QThread ends, and one destroyed while it runs aborts the process. :meth:`track` is a
    :class:`CallSlot`'s ``track``; :meth:`wait` when the owner closes."""

    def __init__(self) -> None:
        self._threads: set = set()

    def __len__(self) -> int:
        return len(self._threads)

    def track(self, thread: QThread) -> None:
        self._threads.add(thread)
        thread.finished.connect(lambda t=thread: self._forget(t))

    def _forget(self, thread: QThread) -> None:
        if thread in self._threads:
            thread.wait()  # at most the last instructions of run()
            self._threads.discard(thread)

    def wait(self, timeout_ms: Optional[int] = None, *, interrupt: bool = False) -> None:
        """Wait for every thread (``interrupt``: asking each to stop first); one still running after
        ``timeout_ms`` stays held."""
        for thread in list(self._threads):
            if interrupt:
                thread.requestInterruption()
            if thread.wait() if timeout_ms is None else thread.wait(timeout_ms):
                self._threads.discard(thread)


#: workers owned by views that may close before them (a tab, a dock): the thread object must outlive it
_KEPT = Threads()
#: hold a worker until it has ended (a :class:`CallSlot`'s ``track`` for views without a session)
keep_alive = _KEPT.track


def wait_for_kept(timeout_ms: int = 5000) -> None:
    """Cancel and wait for every worker :func:`keep_alive` holds (the application quits)."""
    _KEPT.wait(timeout_ms, interrupt=True)
