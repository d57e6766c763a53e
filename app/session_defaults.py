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
#: a step shows a known merge at once instead of merging on the GUI thread. Off (0) by default: measured
#: on wiki.valid.raw (docs/benchmarks.md), a read-ahead *thread* costs the GUI thread more in waits for
#: the GIL (holding Space: longest stall 175 ms with it, 51-62 ms without) than it saves in merging.
#: BPE_LENS_READ_AHEAD=64 turns it on (benches compare both).
READ_AHEAD = int(os.environ.get("BPE_LENS_READ_AHEAD", "0"))
#: the read-ahead starts this long after a step, once its frame is drawn (the worker shares the GIL)
READ_ON_MS = 10
CATCH_UP_DELAY_MS = 150  # after a jump (a seek, a scrub): the trainer follows once the new frame is drawn
BULK_FRAME_INTERVAL = 1.0  # s between a bulk run's frames (not Play's): the GUI shows progress meanwhile
