"""What a new session starts with: the preset a new window trains with, its settings, and the function
that makes a trainer from a corpus file."""
from __future__ import annotations

from typing import Callable, Optional

from bpe_core import PRESETS, BPELensError, Trainer, TrainerConfig, make_config

DEFAULT_PRESET = "gpt2"


def default_trainer_factory() -> Callable:
    """The function that makes a trainer from a corpus file (tests pass a slower one)."""
    return Trainer.from_corpus


def default_config(preset: Optional[str] = None) -> TrainerConfig:
    """The training settings of ``preset``, or of the default preset (GPT-2's) when none is named."""
    name = preset or (DEFAULT_PRESET if DEFAULT_PRESET in PRESETS else next(iter(PRESETS)))
    if name not in PRESETS:
        raise BPELensError(f"Unknown preset {name!r}; choose one of: {', '.join(PRESETS)}")
    return make_config(name)
