"""Long work off the GUI thread, named as in superqt's ``thread_worker`` (which napari uses).

Loading a corpus, opening a vocabulary or training thousands of merges takes longer than a frame, so
it runs on a worker thread while the window stays responsive. The worker thread runs only core code
and emits signals; Qt delivers each signal to the GUI thread as a queued call, so no class here ever
touches a widget.

There are two kinds of worker, as in superqt:

* :class:`FunctionWorker` calls one function once, ``fn(progress=..., cancel=...)`` (load a corpus,
  open a vocabulary). It reports ``progressed`` at most ~20 times a second, then exactly one of
  ``returned(result)``, ``errored(exception)`` or ``aborted()``. Cancelling is Qt's
  ``requestInterruption()``: the core sees it through its ``cancel`` callable and stops by raising
  :class:`~bpe_core.types.Cancelled`, which the worker turns into ``aborted``.
* :class:`GeneratorWorker` iterates a generator (a training run: a timeline ``Move`` that yields
  merges). Instead of one signal per item, which would flood the GUI with thousands of calls, it
  collects the items and every ~50 ms turns the collected ones into one batch (``snapshot(items)``,
  still on the worker thread, so it may read the trainer) and emits ``yielded``; the GUI then takes
  the batches with :meth:`GeneratorWorker.take_batches`. ``ended`` says the generator has stopped.

:class:`LatestWorker` keeps at most one function worker going: starting a new call aborts the one
before (a second load replaces the first), and only the latest call's signals reach the owner.
:class:`Threads` holds each worker until its thread has really ended.

Workers run Python, so they share the GIL with the GUI thread. By default a thread that wants the GIL
back waits up to 5 ms, and the GUI thread asks for it at every call from Qt into Python (each slot,
each paint, each model ``data()``), so painting one frame could wait hundreds of times.
:func:`share_the_gil` shortens that wait to 50 µs while workers exist (issue 9: the window froze for
seconds during Run to target; at 0.5 ms a seek's repaint still waited ~100 ms in all, at 50 µs ~10 ms;
the worker loses next to nothing, since it is interrupted only while the GUI thread wants the GIL).
:data:`GUI_FIRST` goes further for work nobody waits for: a background worker pauses while a frame is
being painted.
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
    """A short time in which background workers keep off the GIL so that the GUI thread can paint.

    The GUI thread has just published a frame and is about to paint it: it calls :meth:`paint_soon`.
    Until the frame is painted (:meth:`lift`) or the time runs out, a :class:`GeneratorWorker` made with
    ``background=True`` (the trainer catching up or reading ahead, work nobody is waiting for) waits
    between items instead of competing for the GIL at each of the GUI thread's calls into Python.
    """

    def __init__(self) -> None:
        self.until = 0.0  # time.monotonic() deadline; a float store is atomic

    def paint_soon(self, seconds: float) -> None:
        """Keep background workers waiting for at most ``seconds`` (the session lifts it once the frame is
        painted)."""
        self.until = time.monotonic() + seconds

    def lift(self) -> None:
        """Let background workers go on now (the user is waiting for what they make next)."""
        self.until = 0.0

    def wait(self, interrupted: Callable[[], bool]) -> None:
        """Called by a background worker between items: wait while the GUI thread paints."""
        while time.monotonic() < self.until and not interrupted():
            time.sleep(0.001)


#: the process's one GuiFirst (there is one GUI thread)
GUI_FIRST = GuiFirst()


def share_the_gil() -> None:
    """Let a thread waiting for the GIL (the GUI thread) get it within ~50 µs (process-wide, idempotent)."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)


class FunctionWorker(QThread):
    """Calls ``fn(progress=report, cancel=is_cancelled)`` once on its own thread.

    ``progressed(Progress)`` comes at most every 50 ms (and for the last report); then exactly one of
    ``returned(result)``, ``errored(exception)`` or ``aborted()``. A call interrupted after ``fn``
    returned still counts as aborted: the owner asked for it to be dropped. Qt's own ``started`` and
    ``finished`` come as for every QThread.
    """

    progressed = Signal(object)  # Progress
    returned = Signal(object)  # fn's result
    errored = Signal(object)  # the exception fn raised
    aborted = Signal()

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
            self.aborted.emit()
        except Exception as exc:  # noqa: BLE001 - every failure goes to the GUI as a message
            self.errored.emit(exc)
        else:
            if self.isInterruptionRequested():
                self.aborted.emit()
            else:
                self.returned.emit(result)


class LatestWorker(QObject):
    """Runs one function at a time on a :class:`FunctionWorker`; starting another aborts the one before.

    Only the latest call reports. Its result goes to the ``on_returned`` callable given to :meth:`start`,
    called on the GUI thread; if that callable raises, the exception is reported as ``errored``, so a bad
    result never replaces what the window shows. Otherwise the latest call's ``progressed``, ``errored``
    or ``aborted`` is passed on. ``track`` is given every worker started, so that the owner can wait for
    them when it closes (see :class:`Threads`).
    """

    progressed = Signal(object)  # Progress
    errored = Signal(object)  # the exception
    aborted = Signal()

    def __init__(self, track: Callable[[QThread], None], parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._track = track
        self._current: Optional[FunctionWorker] = None
        self._on_returned: Callable[[Any], None] = lambda result: None

    @property
    def busy(self) -> bool:
        """Whether a call is under way."""
        return self._current is not None

    def start(self, fn: Callable[..., Any], on_returned: Callable[[Any], None]) -> None:
        """Abort the call under way (if any) and start ``fn`` on a new worker."""
        self.cancel()
        worker = self._current = FunctionWorker(fn)
        self._on_returned = on_returned
        worker.progressed.connect(self._on_worker_progressed)
        worker.returned.connect(self._on_worker_returned)
        worker.errored.connect(self._on_worker_errored)
        worker.aborted.connect(self._on_worker_aborted)
        self._track(worker)
        worker.start()

    def cancel(self) -> None:
        """Ask the call under way to stop; it reports ``aborted`` once it has."""
        if self._current is not None:
            self._current.requestInterruption()

    def _take(self) -> bool:
        """True (and nothing under way any more) when the signal comes from the latest call."""
        if self.sender() is None or self.sender() is not self._current:
            return False
        self._current = None
        return True

    def _on_worker_progressed(self, progress: Progress) -> None:
        if self.sender() is self._current:
            self.progressed.emit(progress)

    def _on_worker_returned(self, result: Any) -> None:
        if self._take():
            try:
                self._on_returned(result)
            except Exception as exc:  # noqa: BLE001 - reported, what the window shows stays
                self.errored.emit(exc)

    def _on_worker_errored(self, exc: BaseException) -> None:
        if self._take():
            self.errored.emit(exc)

    def _on_worker_aborted(self) -> None:
        if self._take():
            self.aborted.emit()


class GeneratorWorker(QThread):
    """Iterates ``items`` on its own thread and hands the GUI batches instead of single items.

    Every ``batch_interval`` seconds the items collected so far become one batch, ``snapshot(items)``
    (run on the worker thread), and ``yielded`` is emitted; the GUI takes the batches, oldest first,
    with :meth:`take_batches`. Between batches, ``progressed(count)`` reports how many items are done,
    at most ~20 times a second (a bulk run shows progress often but draws a batch only once a second:
    drawing competes with the trainer for the GIL). ``interval`` paces the items for Play (seconds
    between items; 0 runs flat out). ``ended(error)`` comes once the generator has stopped, by running
    out, by being aborted (``requestInterruption()``) or by raising (``error`` is then the exception,
    else None); by then every item is in a batch, so a caller that ``wait()``-ed can still take the rest.
    """

    yielded = Signal()  # a batch is ready: take_batches()
    progressed = Signal(int)  # items done so far, between batches
    ended = Signal(object)  # None, or the exception that stopped the generator

    def __init__(self, items: Iterable[Any], snapshot: Callable[[list], Any], *, interval: float = 0.0,
                 batch_interval: float = FLUSH_INTERVAL, background: bool = False, parent=None) -> None:
        super().__init__(parent)
        self._background = background  # waits while GUI_FIRST says the GUI thread paints
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
        """The batches not yet taken, oldest first (called on the GUI thread)."""
        with self._lock:
            out, self._batches = self._batches, []
        return out

    def _flush(self, pending: list) -> None:
        if pending:
            batch = self._snapshot(pending)
            with self._lock:
                self._batches.append(batch)
            self.yielded.emit()

    def _pause(self, until: float) -> None:
        # sleep in short slices so that Pause and Cancel answer within ~20 ms
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
    """The worker threads an owner started, each held until its thread has really ended.

    Qt emits a QThread's ``finished`` just before the thread ends, and destroying a QThread whose thread
    still runs aborts the process, so a worker must be kept a little longer than its signals say.
    :meth:`track` is what a :class:`LatestWorker` is given as ``track``; the owner calls :meth:`wait`
    when it closes.
    """

    def __init__(self) -> None:
        self._threads: set = set()

    def __len__(self) -> int:
        return len(self._threads)

    def track(self, thread: QThread) -> None:
        """Hold ``thread`` until it has ended."""
        self._threads.add(thread)
        thread.finished.connect(lambda t=thread: self._forget(t))

    def _forget(self, thread: QThread) -> None:
        if thread in self._threads:
            thread.wait()  # at most the last instructions of run()
            self._threads.discard(thread)

    def wait(self, timeout_ms: Optional[int] = None, *, interrupt: bool = False) -> None:
        """Wait for every thread (with ``interrupt``, asking each to stop first); a thread still running
        after ``timeout_ms`` stays held."""
        for thread in list(self._threads):
            if interrupt:
                thread.requestInterruption()
            if thread.wait() if timeout_ms is None else thread.wait(timeout_ms):
                self._threads.discard(thread)


#: workers owned by views that may close before them (a tab, a dock): the thread object must outlive the view
_KEPT = Threads()
#: hold a worker until it has ended (a :class:`LatestWorker`'s ``track`` for views without a session)
keep_alive = _KEPT.track


def wait_for_kept(timeout_ms: int = 5000) -> None:
    """Cancel and wait for every worker :func:`keep_alive` holds (the application quits)."""
    _KEPT.wait(timeout_ms, interrupt=True)
