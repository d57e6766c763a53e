"""Train a trainer to its stop rules one of the two ways a run can go: ``steps`` (the pair index, the app's way) or
``flat`` (bpe_core.training.flat_run, the ``train`` command's way on a big corpus; forced here on any size). The
trainer must have been made with ``lazy_index=(way == "flat")``."""
from __future__ import annotations

from bpe_core.training import flat_run

WAYS = ["steps", "flat"]


def run_as(trainer, way: str) -> None:
    old, flat_run.FLAT_SYMBOLS = flat_run.FLAT_SYMBOLS, 0
    try:
        assert flat_run.flat_eligible(trainer) == (way == "flat")
        trainer.run()
    finally:
        flat_run.FLAT_SYMBOLS = old
