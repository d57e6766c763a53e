"""How a run of each training rule starts in the app: the settings its session loads and the function that
makes its trainer.

Plain BPE and PickyBPE are rules of the Trainer: the corpus and the config are all. SuperBPE starts as its
stage 1, plain BPE with the run's own stop rules, and its stage 2 is a continuation from the transition
point (continuations.py). Parity-aware BPE reads one file per language (or a word-count table with a language
column) through :meth:`~bpe_core.variants.parity_run.ParityTrainer.from_languages`.

>>> from bpe_core.presets import make_config
>>> stage_one(make_config("gpt2", variant="superbpe", transition=500)).variant
'bpe'
>>> text_rule(make_config("gpt2", variant="parity")).variant
'bpe'
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from bpe_core.types import BPELensError, TrainerConfig

__all__ = ["stage_one", "parity_factory", "check_languages", "text_rule", "rule_name"]


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


def check_languages(source: str) -> None:
    """Refuse, in one line, a languages source that cannot make a parity run, before anything is read: nothing
    given, nothing there, a folder without language files, a text file that is not a table with a language
    column (its header ``language<TAB>word<TAB>count``; a Parquet table is checked when read)."""
    if not source:
        raise BPELensError("parity-aware BPE needs its languages: a folder of one .txt file per language, "
                           "or a word-count table with a language column")
    p = Path(source)
    if p.is_dir():
        from bpe_core.corpus.languages import language_files
        language_files(p)
        return
    if not p.is_file():
        raise BPELensError(f"{source}: no such file or folder")
    from bpe_core.corpus.table import LANGUAGE_HEADER, is_parquet
    if is_parquet(p):
        return
    try:
        with open(p, "rb") as f:
            first = f.readline(4096).decode("utf-8-sig", "replace")
    except OSError as exc:
        raise BPELensError(f"{source}: cannot be read ({exc.strerror})") from None
    if tuple(c.strip().lower() for c in first.split("\t")) != LANGUAGE_HEADER:
        raise BPELensError(f"{p.name}: not a table of languages (its first line is not language<TAB>word<TAB>"
                           "count): give a folder of one .txt file per language")


def text_rule(config: TrainerConfig) -> TrainerConfig:
    """The settings a text corpus is trained with when a parity run is left (a corpus opened, another rule): the
    same, with plain BPE for parity-aware BPE (it reads languages, not one text)."""
    return replace(config, variant="bpe") if config.variant == "parity" else config


def rule_name(config: TrainerConfig) -> str:
    """A run's training rule in words, as the app names it everywhere ("plain BPE", "PickyBPE τ=0.6",
    "parity-aware BPE", "SuperBPE"): the one home of these names. A parity-aware run in another mode than base
    names it, as PickyBPE names its τ (two parity runs read apart).

    >>> from bpe_core.presets import make_config
    >>> rule_name(make_config("gpt2", variant="picky", ios_threshold=0.9))
    'PickyBPE τ=0.9'
    >>> rule_name(make_config("gpt2", variant="parity")), rule_name(make_config("gpt2", variant="parity",
    ...                                                                         parity_mode="ratio"))
    ('parity-aware BPE', 'parity-aware BPE in ratio mode')
    """
    modes = {"window": f"window mode ({config.parity_window}, α={config.parity_alpha})",
             "hybrid": f"hybrid mode ({config.parity_global_merges:,} global merges)"}
    # "in ... mode", not ", ... mode": the name stands in comma-separated lists (the crash offer's runs beside)
    mode = "" if config.parity_mode == "base" else f" in {modes.get(config.parity_mode, config.parity_mode + ' mode')}"
    names = {"bpe": "plain BPE", "picky": f"PickyBPE τ={config.ios_threshold}", "parity": f"parity-aware BPE{mode}",
             "superbpe": "SuperBPE"}
    return names.get(config.variant, config.variant)
