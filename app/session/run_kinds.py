"""How the session runs commands: run kinds, how many merges on the GUI thread, how far to read ahead."""
from __future__ import annotations

import os

#: step/undo/seek up to this many merges on the GUI thread; more go to a worker
SYNC_STEPS = 20
#: the run kind of the silent move that brings the trainer to a jumped-to position
CATCH_UP = "catch-up"
#: the run kind of the silent move that trains ahead of the position, so that steps show from the records
AHEAD = "ahead"
#: the run kind of a step asked from a key or a button: its merges on a worker (the GUI thread never waits)
KEY_STEP = "key-step"
#: runs the user did not start as runs: no run_started, no progress, not :attr:`Session.is_running`
SILENT = (CATCH_UP, AHEAD, KEY_STEP)
#: how far the trainer reads ahead of the position while the user steps (refilled at half of it), so that
#: a step shows a known merge at once instead of waiting for the trainer. On (64) by default since the GUI
#: thread gets the GIL within 50 µs and background workers wait while a frame is painted
#: (worker.GUI_FIRST): on wiki.valid.raw with 3,000 characters in the encode pane, steps at a person's pace
#: show in p95 15-19 ms with it, 28-32 ms without (docs/benchmarks.md; measured off, 175 ms stalls,
#: when the switch interval was 0.5 ms). BPE_LENS_READ_AHEAD=0 turns it off (benches compare both).
READ_AHEAD = int(os.environ.get("BPE_LENS_READ_AHEAD", "64"))
#: the read-ahead starts this long after a step, once its frame is drawn (the worker shares the GIL)
READ_ON_MS = 10
#: background workers wait at most this long for a frame to be painted (they go on as soon as the event loop
#: reaches its timers, after the repaints: a fixed 20 ms window ended mid-repaint while a key was held)
PAINT_WINDOW_S = 0.1
CATCH_UP_DELAY_MS = 150  # after a jump (a seek, a scrub): the trainer follows once the new frame is drawn
BULK_FRAME_INTERVAL = 1.0  # s between a bulk run's frames (not Play's): the GUI shows progress meanwhile
