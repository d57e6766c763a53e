"""Long work off the GUI thread: a QThread that runs one core call or iterates a core generator.

Two shapes, after napari/superqt's ``thread_worker``:

* :class:`CallWorker` runs ``fn(progress=..., cancel=...)`` once (load a corpus, open a vocabulary).
  Progress reports are throttled to ~20 a second; Cancel is ``requestInterruption()``, which the
  core sees through its ``cancel`` callable and answers with :class:`~bpe_core.types.Cancelled`.
* :class:`StepWorker` iterates a generator of merges (``Trainer.iter_steps()``, or undos), checks
  for interruption between items and hands the GUI *batches*: every ~50 ms it calls ``snapshot(items)``
  (still on the worker thread, so it may read the trainer), queues the result and emits
  ``batch_ready`` — never one signal per merge.

Neither class touches a QWidget: the worker thread only runs core code and emits signals, which
Qt delivers to the GUI thread as queued calls.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterator, Optional

from PySide6.QtCore import QThread, Signal

from bpe_core.types import Cancelled, Progress

#: at most this many batches / progress reports a second reach the GUI
FLUSH_INTERVAL = 0.05


class CallWorker(QThread):
    """``fn(progress=cb, cancel=cb)`` on a thread; one of succeeded / failed / cancelled follows."""

    progressed = Signal(object)  # Progress
    succeeded = Signal(object)  # fn's result
    failed = Signal(object)  # the exception
    cancelled = Signal()

    def __init__(self, fn: Callable[..., Any], parent=None) -> None:
        super().__init__(parent)
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


class StepWorker(QThread):
    """Iterate ``items`` on a thread; hand over ``snapshot(batch)`` results at most ~20 times a second.

    ``interval`` (seconds) paces the items for Play; 0 runs flat out. After the thread ends every
    item has been flushed, so a caller that ``wait()``-ed can still :meth:`take_batches` the rest.
    """

    batch_ready = Signal()
    ended = Signal(object)  # None, or the exception that stopped the generator

    def __init__(self, items: Iterator[Any], snapshot: Callable[[list], Any], *, interval: float = 0.0,
                 parent=None) -> None:
        super().__init__(parent)
        self._items = items
        self._snapshot = snapshot
        self._interval = interval
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
        last_flush = time.monotonic()
        try:
            while not self.isInterruptionRequested():
                started = time.monotonic()
                item = next(self._items, None)
                if item is None:
                    break
                pending.append(item)
                self.count += 1
                now = time.monotonic()
                if now - last_flush >= FLUSH_INTERVAL or self._interval >= FLUSH_INTERVAL:
                    self._flush(pending)
                    pending, last_flush = [], now
                if self._interval:
                    self._pause(started + self._interval)
        except Exception as exc:  # noqa: BLE001
            error = exc
        close = getattr(self._items, "close", None)
        if close is not None:
            close()  # a generator's cleanup (``finally``) runs here, on the thread that owns the trainer
        self._flush(pending)
        self.ended.emit(error)
