"""How a run of each training rule starts in the app: the settings its session loads and the function that
makes its trainer.

Plain BPE and PickyBPE are rules of the Trainer: the corpus and the config are all. SuperBPE starts as its
stage 1, plain BPE with the run's own stop rules, and its stage 2 is a continuation from the transition
point (continuations.py). Parity-aware BPE reads one file per language (or a word-count table with a language
column) through :meth:`~bpe_core.variants.parity_run.ParityTrainer.from_languages`.

>>> from bpe_core.presets import make_config
>>> stage_one(make_config("gpt2", variant="superbpe", transition=500)).variant
'bpe'
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from bpe_core.types import BPELensError, TrainerConfig

__all__ = ["stage_one", "parity_factory"]


def stage_one(config: TrainerConfig) -> TrainerConfig:
    """The settings a SuperBPE run trains with up to its transition point: plain BPE, the same stop rules (so
    stage 2, continued from there, keeps them). Raises :class:`BPELensError` for settings SuperBPE refuses."""
    from bpe_core.training.superbpe import stage1_config

    stage1_config(config)  # the core's checks: a preset SuperBPE cannot continue is refused here, in one line
    return replace(config, variant="bpe", transition=None)


def parity_factory(languages: str) -> Callable:
    """A trainer factory ``(corpus, config, *, progress, cancel)`` for a parity-aware run over ``languages`` (a
    folder of one file per language, dev text in its ``dev/``, or a word-count table with a language column);
    the corpus the session names is that same source."""
    if not languages:
        raise BPELensError("parity-aware BPE needs its languages: a folder of one file per language, "
                           "or a word-count table")

    def make(_corpus, config: TrainerConfig, *, progress=None, cancel=None, **_extra):
        from bpe_core.variants.parity_run import ParityTrainer

        return ParityTrainer.from_languages(languages, config, progress=progress, cancel=cancel)

    return make
