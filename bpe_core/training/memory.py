"""Keeping Python's cyclic garbage collector off the trainer's long-lived state.

A trainer holds millions of small objects (segmentations, pair sets, records) that live as long
as it does and never form cycles; full collections over them cause 50-300 ms pauses in long runs
(FACTS.md). The trainer freezes what survives, and pauses the collector during a run.

>>> import gc
>>> with gc_paused():
...     gc.isenabled()
False
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    """The collector off for the block; what the block built is frozen (long-lived too) at its end."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()  # a full collection over what the run built would take seconds
        if was:
            gc.enable()
