"""How the session runs commands: run kinds, how many merges on the GUI thread, how far to read ahead."""
from __future__ import annotations

#: step/undo/seek up to this many merges on the GUI thread; more go to a worker
SYNC_STEPS = 20
#: the run kind of the silent move that brings the trainer to a jumped-to position
CATCH_UP = "catch-up"
#: the run kind of the silent move that trains ahead of the position, so that steps show from the records
AHEAD = "ahead"
#: how far the trainer reads ahead of the position while the user steps (refilled at half of it). A step
#: then shows a known merge at once instead of merging on the GUI thread: early merges on a real corpus
#: change thousands of words (tens of ms each, more than a frame).
READ_AHEAD = 64
#: the read-ahead starts this long after a step, once its frame is drawn (the worker shares the GIL)
READ_ON_MS = 10
BULK_FRAME_INTERVAL = 1.0  # s between a bulk run's frames (not Play's): the GUI shows progress meanwhile
