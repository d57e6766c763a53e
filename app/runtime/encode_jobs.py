"""Encoding off the GUI thread, newest text first: the encode pane's background worker.

Encoding 3,000 characters with a vocabulary of thousands of merges takes ~50 ms (the encoder is built
again for each vocabulary), longer than a frame, so it runs on a
:class:`~bpe_lens_app.runtime.worker.FunctionWorker`. :class:`EncodeJobs` runs one encoding at a time. A
job submitted while one runs waits, and a newer job replaces the waiting one, so a held key or fast
typing never piles up encodings. Each result comes back on the GUI thread with the number its job was
submitted under, and the pane shows a result only if it is newer than what it shows. The worker shares
the interpreter with the trainer's; the short GIL switch interval
(:func:`~bpe_lens_app.runtime.worker.share_the_gil`) keeps the GUI thread answering while both run.
"""
from __future__ import annotations

import atexit
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, Signal

from bpe_core import BPEModel, Encoder
from bpe_core.types import Encoding

from .worker import FunctionWorker, Threads

#: every encoding thread not yet ended: a QThread destroyed while running aborts the process
_LIVE = Threads()
atexit.register(_LIVE.wait)


@dataclass(frozen=True)
class EncodeResult:
    number: int  # the job's submission number (increasing)
    encoder: Optional[Encoder]
    encoding: Optional[Encoding]
    error: str
    ms: float  # how long the worker took (encoder and encoding)


def encode_job(model: BPEModel, merges_limit: Optional[int], encoder: Optional[Encoder],
               text: str, make: Callable[[BPEModel, Optional[int]], Encoder]) -> Callable[..., tuple]:
    """A job for :meth:`EncodeJobs.submit`: (encoder, encoding, error) for ``text``."""
    def run(**_: Any) -> tuple:
        try:
            enc = encoder if encoder is not None else make(model, merges_limit)
            return enc, enc.encode(text), ""
        except Exception as exc:  # noqa: BLE001 - a user-facing message beats a dead pane
            return encoder, None, str(exc) or type(exc).__name__
    return run


class EncodeJobs(QObject):
    """One encoding at a time on a worker; the newest waiting job replaces older ones.

    ``finished(EncodeResult)`` comes once per job that ran (a replaced job never runs)."""

    finished = Signal(object)  # EncodeResult

    def __init__(self, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._running: Optional[FunctionWorker] = None
        self._waiting: Optional[tuple] = None
        self._number = 0
        self._threads = Threads()  # kept alive until their thread ends

    @property
    def busy(self) -> bool:
        """Whether a job runs or waits."""
        return self._running is not None or self._waiting is not None

    def submit(self, job: Callable[..., tuple]) -> int:
        """Run ``job`` (see :func:`encode_job`) after the running one; returns its number."""
        self._number += 1
        self._waiting = (self._number, job)
        if self._running is None:
            self._start_next()
        return self._number

    def cancel(self) -> int:
        """Forget the waiting job; results numbered up to the returned number are stale."""
        self._waiting = None
        self._number += 1
        return self._number

    def wait(self) -> None:
        """Block until the running job's thread ends (closing, tests)."""
        self._threads.wait()

    def _start_next(self) -> None:
        number, job = self._waiting
        self._waiting = None
        started = time.perf_counter()

        def timed(**kw: Any) -> tuple:
            return job(**kw) + ((time.perf_counter() - started) * 1000,)

        worker = self._running = FunctionWorker(timed)
        worker.number = number
        # bound slots of this object (not lambdas): Qt queues them to the GUI thread
        worker.returned.connect(self._on_worker_returned)
        worker.errored.connect(self._on_worker_errored)
        self._threads.track(worker)
        _LIVE.track(worker)
        worker.start()

    def _on_worker_returned(self, result: tuple) -> None:
        self._done(self.sender(), result)

    def _on_worker_errored(self, exc: BaseException) -> None:
        self._done(self.sender(), (None, None, str(exc) or type(exc).__name__, 0.0))

    def _done(self, worker: FunctionWorker, result: tuple) -> None:
        if worker is self._running:
            self._running = None
        if self._waiting is not None:
            self._start_next()
        self.finished.emit(EncodeResult(worker.number, *result))
