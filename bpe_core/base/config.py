"""Training settings checked before any reading, and converted to and from a file's plain dict.

A :class:`~bpe_core.types.TrainerConfig` is stored by the native vocabulary format, by workspace files
and by word-count tables, and checked by the trainer, the CLI and the app. Those all stand above this
module, so the config's dict form lives here, in the base layer, and none of them needs another.

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

from bpe_core.types import TIE_RULES, VARIANTS, BPELensError, TrainerConfig


def check_config(cfg: TrainerConfig) -> None:
    """Raise :class:`BPELensError` for a setting no training can use (called before any reading)."""
    if cfg.tie_break not in TIE_RULES:
        raise BPELensError(f"unknown tie rule {cfg.tie_break!r}; choose one of {', '.join(TIE_RULES)}")
    if cfg.unit not in ("chars", "bytes"):
        raise BPELensError(f"unknown unit {cfg.unit!r}; choose chars or bytes")
    if cfg.unit == "bytes" and cfg.end_of_word_suffix:
        raise BPELensError("an end-of-word suffix needs character units, not bytes")
    for name in ("vocab_size", "num_merges"):
        v = getattr(cfg, name)
        if v is not None and v < 0:
            raise BPELensError(f"{name.replace('_', ' ')} must be 0 or more, not {v}")
    check_variant(cfg)
    for name in ("min_frequency", "min_word_count"):
        v = getattr(cfg, name)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise BPELensError(f"{name.replace('_', ' ')} must be 0 or more, not {v!r}")


def check_variant(cfg: TrainerConfig) -> None:
    """Raise :class:`BPELensError` for a training rule's bad setting.

    >>> check_variant(TrainerConfig(variant="picky", ios_threshold=1.5))
    Traceback (most recent call last):
    ...
    bpe_core.types.BPELensError: the IoS threshold must be between 0 and 1, not 1.5
    """
    if cfg.variant not in VARIANTS:
        raise BPELensError(f"unknown training rule {cfg.variant!r}; choose one of {', '.join(VARIANTS)}")
    if cfg.variant == "picky" and not 0 <= cfg.ios_threshold <= 1:
        raise BPELensError(f"the IoS threshold must be between 0 and 1, not {cfg.ios_threshold}")
    if cfg.variant == "superbpe" and (cfg.transition is None or cfg.transition < 0):
        raise BPELensError("SuperBPE needs a transition point: the merges of stage 1 (0 or more), "
                           f"not {cfg.transition}")
    if cfg.variant == "parity" and cfg.parity_mode not in ("base", "window", "hybrid", "ratio"):
        raise BPELensError(f"unknown parity-aware mode {cfg.parity_mode!r}; choose base, window, hybrid or ratio")


def vocab_size_floor(cfg: TrainerConfig) -> Optional[int]:
    """The tokens training starts with when the settings alone tell (all 256 bytes and the special
    tokens); None when it depends on the corpus's alphabet.

    >>> vocab_size_floor(TrainerConfig(unit="bytes", full_byte_alphabet=True, special_tokens=("<s>",)))
    257
    >>> vocab_size_floor(TrainerConfig()) is None
    True
    """
    if cfg.unit == "bytes" and cfg.full_byte_alphabet:
        return 256 + len(set(cfg.special_tokens))
    return None


def check_vocab_size(cfg: TrainerConfig, initial: Optional[int], what: Optional[str] = None) -> None:
    """Refuse a vocab size below the ``initial`` tokens training starts with: it would stop at once,
    no merge learned (tokenizers does so silently; we say it). Equal is allowed: zero merges, as asked.
    ``what`` says what those tokens are when not the settings' alphabet (a vocabulary continued).

    >>> check_vocab_size(TrainerConfig(vocab_size=0, unit="bytes", full_byte_alphabet=True), 256)
    Traceback (most recent call last):
    ...
    bpe_core.types.BPELensError: vocab size 0 is below the 256 tokens training starts with (every byte); no merge would be learned: give a vocab size of 256 or more (256 + the merges you want)
    """
    if cfg.vocab_size is None or initial is None or cfg.vocab_size >= initial:
        return
    specials = len(set(cfg.special_tokens))
    if what is None and cfg.unit == "bytes" and cfg.full_byte_alphabet:
        what = "every byte" + (f" and {specials} special token{'s' * (specials > 1)}" if specials else "")
    elif what is None:
        what = "the corpus's alphabet" + (" and the special tokens" if specials else "")
    raise BPELensError(f"vocab size {cfg.vocab_size} is below the {initial} tokens training starts with ({what}); "
                       f"no merge would be learned: give a vocab size of {initial} or more ({initial} + the merges "
                       "you want)")


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
    defaults = {f.name: f.default for f in fields(TrainerConfig)}
    kw = {k: v for k, v in d.items() if k in defaults}
    for k, v in kw.items():  # a text, flag or number field holds that type (a list suffix breaks encoding)
        want = type(defaults[k])
        if want in (str, bool, int) and type(v) is not want:
            raise BPELensError(f"{source}: bad config (\"{k}\" is {type(v).__name__}, expected {want.__name__})")
    if "special_tokens" in kw:
        if not isinstance(kw["special_tokens"], (list, tuple)) or not all(isinstance(t, str) for t in kw["special_tokens"]):
            raise BPELensError(f"{source}: bad config (\"special_tokens\" must be a list of strings)")
        kw["special_tokens"] = tuple(kw["special_tokens"])
    try:
        return TrainerConfig(**kw)
    except TypeError as exc:
        raise BPELensError(f"{source}: bad config ({exc})") from None
