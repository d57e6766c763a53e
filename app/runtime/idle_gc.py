"""The cyclic garbage collector's full passes only while the app is idle.

A full pass walks every tracked object: after a few thousand merges that is 20-80 ms on the GUI thread,
at whatever moment the allocation counters say (measured: the longest stalls while holding Space were
such passes, bench/bench_stall.py prints them). The young generations stay automatic (they are cheap:
only new objects); the full pass runs here once nothing has happened for :data:`IDLE_MS`, when nobody
is waiting for a frame. Nothing is leaked: cyclic garbage waits until the next pause, memory that plain
reference counting frees (almost all of it) is freed at once as before.
"""
from __future__ import annotations

import gc

from PySide6.QtCore import QTimer

#: quiet time (no merge shown, no run, no typing) before a full collection
IDLE_MS = 1500
#: the full generation's threshold while the app runs: high enough never to be reached by itself
NEVER = 1_000_000_000


_saved = {"windows": 0, "threshold": gc.get_threshold()}


def install(window) -> None:
    """Take the full collections off the allocation counters for as long as a window is open, and run one
    each time the window has been quiet for :data:`IDLE_MS` (no merge shown, no run, nothing typed).

    The timer restarts on every sign of activity; a worker that is still running counts as activity,
    because a collection on the GUI thread would hold the GIL the worker needs.
    """
    if _saved["windows"] == 0:
        _saved["threshold"] = gc.get_threshold()
        gc.set_threshold(_saved["threshold"][0], _saved["threshold"][1], NEVER)
    _saved["windows"] += 1
    timer = QTimer(window, singleShot=True, interval=IDLE_MS)
    s = window.session
    busy = lambda: s.is_running or s.is_catching_up or s.is_loading  # noqa: E731 - a worker needs the GIL
    timer.timeout.connect(lambda: timer.start() if busy() else gc.collect())
    for signal in (s.steps_applied, s.steps_undone, s.run_started, s.run_finished, s.corpus_loaded,
                   s.vocabulary_opened):
        signal.connect(lambda *_: timer.start())
    window.encode.editor.textChanged.connect(timer.start)
    window.destroyed.connect(_on_window_destroyed)
    window.idle_gc_timer = timer  # for tests


def _on_window_destroyed(*_) -> None:
    """The last window gone (tests make many in one process): the collector's own schedule again."""
    _saved["windows"] -= 1
    if _saved["windows"] == 0:
        gc.set_threshold(*_saved["threshold"])
