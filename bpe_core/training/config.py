"""What training does with its settings: the alphabet's order, the stop rules, where a timeline ends,
and the settings and tokens of a vocabulary trained further.

The settings' checks and their dict form live below the stages, in :mod:`bpe_core.base.config`.
"""
from __future__ import annotations

from typing import Dict, List, Optional

from bpe_core.base.config import config_from_dict
from bpe_core.base.symbols import BYTE_GLYPHS, display
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, Raw, TrainerConfig


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
