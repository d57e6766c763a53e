"""Training settings: checked before any reading, converted to and from a file's plain dict.

One home for what a :class:`~bpe_core.types.TrainerConfig` may hold and how it is stored: the
trainer checks it, the native format writes and reads it, continuing a vocabulary recovers it; where
a timeline ends (:func:`target_merges`).

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
from typing import Any, Dict, List, Optional

from bpe_core.base.symbols import BYTE_GLYPHS, display
from bpe_core.model import BPEModel
from bpe_core.types import TIE_BREAKS, BPELensError, Raw, TrainerConfig


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
    for name in ("min_frequency", "min_word_count"):
        v = getattr(cfg, name)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise BPELensError(f"{name.replace('_', ' ')} must be 0 or more, not {v!r}")


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


def keeps_its_pipeline(model: BPEModel) -> bool:
    """Whether continuing ``model`` keeps its own pipeline: an imported one (its pipeline leaves the
    symbols to the model); a vocabulary trained here is re-counted with its stored settings instead."""
    return model.source_format != "native" and model.pipeline is not None and not model.pipeline.decides_symbols


def alphabet_order(seen: Dict[Raw, None], cfg: TrainerConfig) -> List[Raw]:
    """The base symbols in id order, as ``cfg.alphabet_order`` says (``seen``: first appearance).

    ``full_byte_alphabet`` adds the bytes no word holds (to ``seen`` too).

    >>> alphabet_order({b"b": None, b"a": None}, TrainerConfig(unit="bytes", alphabet_order="bytes"))
    [b'a', b'b']
    """
    if cfg.unit == "bytes" and cfg.full_byte_alphabet:
        for b in range(256):
            seen.setdefault(bytes([b]), None)
    if cfg.alphabet_order == "first-seen":
        return list(seen)
    if cfg.alphabet_order == "bytes" or cfg.unit == "chars":
        return sorted(seen)  # type: ignore[type-var]
    # bytes sorted like HF sorts GPT-2 glyph characters (by code point)
    return sorted(seen, key=lambda b: BYTE_GLYPHS[b[0]] if len(b) == 1 else display(b))  # type: ignore[index]


def limit_reached(cfg: TrainerConfig, merge_count: int, vocab_size: int, initial_vocab_size: int) -> Optional[str]:
    """The stop rule of ``cfg`` that holds now ("merges", "vocab_size"), or None.

    >>> limit_reached(TrainerConfig(vocab_size=300), 44, 300, 256)
    'vocab_size'
    """
    if cfg.num_merges is not None and merge_count >= cfg.num_merges:
        return "merges"
    if cfg.vocab_size is not None:
        size = vocab_size if cfg.vocab_size_counts == "distinct" else initial_vocab_size + merge_count
        if size >= cfg.vocab_size:
            return "vocab_size"
    return None


def run_target(cfg: TrainerConfig, merges: Optional[int], vocab_size: Optional[int], merge_count: int,
               current_vocab: int, pairs_left: int) -> int:
    """The merge count a run expects to reach (for progress): the nearest of its limits and ``cfg``'s.

    >>> run_target(TrainerConfig(num_merges=50), None, 300, 0, 256, 1000)
    44
    """
    candidates = [merges, cfg.num_merges]
    for v in (vocab_size, cfg.vocab_size):
        if v is not None:
            candidates.append(merge_count + max(0, v - current_vocab))
    known = [c for c in candidates if c is not None]
    return min(known) if known else merge_count + pairs_left


def adopted_tokens(model: BPEModel, config: TrainerConfig, initial: List[List[Raw]]) -> List[Raw]:
    """A trainer continuing ``model``: its tokens (ids kept), then the symbols of ``initial`` it lacks."""
    if model.unit != config.unit:
        raise BPELensError(f"the vocabulary is {model.unit}-level but the settings say {config.unit}")
    if any(t is None for t in model.tokens):
        raise BPELensError("the vocabulary leaves ids unused; it cannot be continued")
    tokens: List[Raw] = list(model.tokens)  # type: ignore[arg-type]
    have = set(tokens)
    for syms in initial:  # symbols the vocabulary lacks join as new base tokens
        for sym in syms:
            if sym not in have:
                have.add(sym)
                tokens.append(sym)
    return tokens


#: the timeline's length when the configuration sets neither vocab_size nor num_merges
DEFAULT_TARGET = 1000


def target_merges(config: TrainerConfig, initial_vocab: Optional[int], known: int = 0,
                  default: int = DEFAULT_TARGET) -> int:
    """Where a timeline ends: the configured merges, or the vocab size minus the alphabet.

    >>> target_merges(TrainerConfig(vocab_size=300), 256), target_merges(TrainerConfig(), 256, 1500)
    (44, 1500)
    """
    if config.num_merges is not None:
        return config.num_merges
    if config.vocab_size is not None and initial_vocab is not None:
        return max(1, config.vocab_size - initial_vocab)
    return max(default, known)
