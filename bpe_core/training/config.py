"""Training settings: checked before any reading, converted to and from a file's plain dict.

One home for what a :class:`~bpe_core.types.TrainerConfig` may hold and how it is stored: the
trainer checks it, the native format writes and reads it, continuing a vocabulary recovers it.

>>> cfg = TrainerConfig(unit="bytes", special_tokens=("<s>",))
>>> config_from_dict(config_to_dict(cfg), "example") == cfg
True
>>> check_config(TrainerConfig(unit="bytes", end_of_word_suffix="</w>"))
Traceback (most recent call last):
...
bpe_core.types.BPELensError: an end-of-word suffix needs character units, not bytes
"""
from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any, Dict, Optional

from bpe_core.model import BPEModel
from bpe_core.types import TIE_BREAKS, BPELensError, TrainerConfig


def check_config(cfg: TrainerConfig) -> None:
    """Raise :class:`BPELensError` for a setting no training can use (called before any reading)."""
    if cfg.tie_break not in TIE_BREAKS:
        raise BPELensError(f"unknown tie rule {cfg.tie_break!r}; choose one of {', '.join(TIE_BREAKS)}")
    if cfg.unit not in ("chars", "bytes"):
        raise BPELensError(f"unknown unit {cfg.unit!r}; choose chars or bytes")
    if cfg.unit == "bytes" and cfg.end_of_word_suffix:
        raise BPELensError("an end-of-word suffix needs character units, not bytes")
    for name in ("vocab_size", "num_merges"):
        v = getattr(cfg, name)
        if v is not None and v < 0:
            raise BPELensError(f"{name.replace('_', ' ')} must be 0 or more, not {v}")
    if cfg.min_frequency < 0:
        raise BPELensError(f"min frequency must be 0 or more, not {cfg.min_frequency}")


def config_to_dict(cfg: TrainerConfig) -> Dict[str, Any]:
    """The config as JSON-ready fields (special tokens as a list)."""
    d = asdict(cfg)
    d["special_tokens"] = list(cfg.special_tokens)
    return d


def config_from_dict(d: Dict[str, Any], source: str) -> Optional[TrainerConfig]:
    """A config from a file's stored fields (unknown keys ignored); None for an empty dict.

    ``source`` names the file in the error a bad field raises.
    """
    if not d:
        return None
    known = {f.name for f in fields(TrainerConfig)}
    kw = {k: v for k, v in d.items() if k in known}
    if "special_tokens" in kw:
        kw["special_tokens"] = tuple(kw["special_tokens"])
    try:
        return TrainerConfig(**kw)
    except TypeError as exc:
        raise BPELensError(f"{source}: bad config ({exc})") from None


def config_of(model: BPEModel) -> TrainerConfig:
    """The training settings stored in a native file, or GPT-2-like ones for other formats.

    >>> config_of(BPEModel(unit="bytes", tokens=[], source_format="tiktoken")).pretokenizer
    'gpt2'
    """
    cfg = config_from_dict(model.config, model.name or "vocabulary") if model.source_format == "native" else None
    if cfg is not None:
        return cfg
    if model.unit == "bytes":
        return TrainerConfig(preset="continued", pretokenizer="gpt2", unit="bytes", tie_break="hf")
    return TrainerConfig(preset="continued", pretokenizer="whitespace-split", tie_break="hf")
