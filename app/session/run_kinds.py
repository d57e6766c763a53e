"""How the session plans its runs: the kinds of run, which merges stay on the GUI thread, how far the
trainer reads ahead, and when it must catch up with the position.

A *run* is a timeline move carried out on a worker thread. The user starts some runs (Play, Run to target,
a long step or seek); the session starts others on its own, which the user never sees as runs: see
:data:`SILENT`. The numbers here were chosen by measurement; the comments say why.
"""
from __future__ import annotations

import os

from ..runtime.worker import FLUSH_INTERVAL

#: A step, undo or seek of up to this many merges runs on the GUI thread; a longer one runs on a worker.
SYNC_STEPS = 20
#: The kind of the silent run that brings the trainer to the merge a seek jumped to.
CATCH_UP = "catch-up"
#: The kind of the silent run that lets the trainer merge ahead of the position, so that the next steps
#: can be shown from the records at once.
AHEAD = "ahead"
#: The kind of the run that merges a step asked from a key or a button on a worker, so that the GUI thread
#: never waits for the trainer.
KEY_STEP = "key-step"
#: The runs the user did not start as runs: they emit no ``run_started`` and no progress, and
#: :attr:`Session.is_running` is False while they go on.
SILENT = (CATCH_UP, AHEAD, KEY_STEP)
#: How many merges the trainer reads ahead of the position while the user steps (it starts again when half
#: of them are used up), so that a step shows a known merge at once instead of waiting for the trainer.
#: It is on (64) by default because the GUI thread gets the GIL back within 50 µs and background workers
#: wait while a frame is painted (``worker.GUI_FIRST``). On wiki.valid.raw, with 3,000 characters in the
#: encode pane, steps at a person's pace are shown within 15-19 ms (95th percentile) with it and 28-32 ms
#: without it (docs/benchmarks.md). BPE_LENS_READ_AHEAD=0 turns it off, so that benchmarks can compare both.
READ_AHEAD = int(os.environ.get("BPE_LENS_READ_AHEAD", "64"))
#: The read-ahead starts this many milliseconds after a step, once the step's frame has been drawn:
#: the worker and the painting share the GIL.
READ_ON_MS = 10
#: Background workers wait at most this many seconds for a frame to be painted. They usually go on sooner,
#: as soon as the event loop reaches its timers after the repaints (a fixed 20 ms window used to end in the
#: middle of a repaint while a key was held).
PAINT_WINDOW_S = 0.1
#: After a seek or a scrub, the trainer follows once this many milliseconds have passed without another
#: one, so that the new frame is drawn first and scrubbing stays smooth.
CATCH_UP_DELAY_MS = 150
#: Seconds between the frames of a long run (not Play): the panes redraw this often and show progress.
BULK_FRAME_INTERVAL = 1.0

#: Seconds between the frames each kind of run hands to the GUI thread (the others use
#: :data:`BULK_FRAME_INTERVAL`). A read-ahead or a key step hands over every merge as soon as it is made;
#: Play and a catch-up hand over small frames, each applied between two paints.
FRAME_INTERVALS = {"play": FLUSH_INTERVAL, AHEAD: 0.0, KEY_STEP: 0.0, CATCH_UP: FLUSH_INTERVAL}


def frame_interval(kind: str) -> float:
    """Seconds between the frames a run of ``kind`` hands to the GUI thread."""
    return FRAME_INTERVALS.get(kind, BULK_FRAME_INTERVAL)


def needs_catch_up(lead: int, top_pairs_exact: bool, read_ahead: int) -> bool:
    """Whether the trainer must come to the position, given how far it is ahead of it (``lead``, negative
    when it is behind).

    It must when it is behind, and when it is ahead but the top pairs shown at the position are only
    known from the records (not exact), or when it is further ahead than twice the read-ahead.

    >>> needs_catch_up(-3, True, 64), needs_catch_up(10, True, 64), needs_catch_up(10, False, 64)
    (True, False, True)
    """
    return lead < 0 or lead > 0 and (not top_pairs_exact or lead > 2 * read_ahead)
