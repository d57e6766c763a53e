"""Autosave and crash restore: the workspace is written a few seconds after a change, and a session
that ended without a clean exit is offered back at the next start.

The marker of a clean exit is the autosave file itself: each running app writes
``autosave-PID.bpelens`` in the user's data folder and removes it when it quits cleanly. A file
whose process is gone is therefore what a crash, a ``kill -9`` or a power cut left behind. Two
apps running at once each have their own file, and neither offers the other's (it is alive).

Saving never blocks the GUI thread: the window's state is captured there (small, immutable), then
serialised and written atomically by a :class:`~bpe_lens_app.runtime.worker.FunctionWorker`. A failed write (a
full disk) leaves the previous autosave whole (``formats/atomic.py``) and is reported once.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, List, Optional

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from bpe_core.formats import WORKSPACE_SUFFIX as SUFFIX, Workspace, remove_stale_temps_in, write_workspace

from ...runtime.worker import LatestWorker, Threads

#: the data folder, when set (tests and scratch profiles); else Qt's AppDataLocation
DATA_ENV = "BPE_LENS_APP_DATA"
#: a change is saved at most this long after it happens (a throttle: Play keeps changing things)
AUTOSAVE_DELAY_MS = 3000
PREFIX = "autosave-"
DECLINED = "declined-autosave" + SUFFIX


def data_dir() -> Path:
    """The user's data folder for BPE Lens (created on first use)."""
    folder = Path(os.environ.get(DATA_ENV) or QStandardPaths.writableLocation(QStandardPaths.AppDataLocation))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def autosave_path(folder: Path, pid: Optional[int] = None) -> Path:
    return folder / f"{PREFIX}{os.getpid() if pid is None else pid}{SUFFIX}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def crashed_autosaves(folder: Path) -> List[Path]:
    """Autosaves whose app did not exit cleanly (its process is gone), newest first."""
    found = []
    for path in folder.glob(f"{PREFIX}*{SUFFIX}"):
        pid = path.name[len(PREFIX):-len(SUFFIX)]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            found.append(path)
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


class Autosaver(QObject):
    """Writes ``capture()`` to this process's autosave file at most :data:`AUTOSAVE_DELAY_MS` after a
    change (:meth:`changed`); nothing is written when the state is what was written last.
    ``capture`` returns None when there is nothing worth restoring (the file is then removed);
    while ``busy()`` (a restore under way) the save waits for the next tick; once ``live()`` is False
    (the window has closed) nothing more is saved."""

    failed = Signal(str)  # a write failed (the previous autosave is intact)

    def __init__(self, capture: Callable[[], Optional[Workspace]], folder: Path, parent=None, *,
                 busy: Callable[[], bool] = lambda: False, live: Callable[[], bool] = lambda: True) -> None:
        super().__init__(parent)
        # what killed apps' saves left here (``.autosave-PID.bpelens.bpe-lens-tmp-*``): their writers are gone
        self.cleaned = remove_stale_temps_in(folder)
        self._capture = capture
        self._busy, self._live = busy, live
        self.path = autosave_path(folder)
        self._threads = Threads()
        self._writes = LatestWorker(self._threads.track, self)
        self._writes.errored.connect(self._on_writes_errored)
        self._timer = QTimer(self, singleShot=True, interval=AUTOSAVE_DELAY_MS)
        self._timer.timeout.connect(self.save_now)
        self._last: Optional[Workspace] = None
        self._reported = False
        self.writes = 0  # files written (tests, the status bar)

    def changed(self, *_args) -> None:
        """Something the workspace holds changed: save within the delay (not pushed back by more changes)."""
        if not self._timer.isActive():
            self._timer.start()

    def save_now(self) -> None:
        """Capture and write (on a worker) unless nothing changed since the last write."""
        self._timer.stop()
        if not self._live():  # the window has closed
            return
        if self._writes.busy or self._busy():  # one write at a time; nothing captured mid-restore
            self._timer.start()
            return
        ws = self._capture()
        if ws == self._last:
            return
        if ws is None:
            self._last = None
            self.path.unlink(missing_ok=True)
            return
        self._last, path = ws, str(self.path)

        def write(*, progress, cancel) -> None:
            write_workspace(ws, path)

        self._writes.start(write, self._on_written)

    def adopt(self, crashed: Path) -> None:
        """Take over a crashed session's autosave as this process's own (renamed: never two copies)."""
        os.replace(crashed, self.path)

    def finish(self) -> None:
        """A clean exit: no more saves, writes in flight finished, the autosave (the crash marker) removed."""
        self._timer.stop()
        self.wait()
        self.path.unlink(missing_ok=True)

    def wait(self) -> None:
        self._threads.wait()

    def _on_written(self, _result) -> None:
        self.writes += 1
        self._reported = False

    def _on_writes_errored(self, exc: BaseException) -> None:
        self._last = None  # try again at the next change
        if not self._reported:  # once, not every few seconds while the disk stays full
            self._reported = True
            self.failed.emit(f"Autosave failed: {exc}")
