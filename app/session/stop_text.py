"""Why training stopped, in words a user reads in the status bar.

The trainer's stop reasons are short codes (``min_frequency``, ``no_pairs``, ``vocab_size``,
``merges``); the status bar says what they mean for this run and where it ended:
``no pair occurs twice any more (min frequency 2) — 8,105 merges, vocabulary 8,362``.
"""
from __future__ import annotations

from bpe_core import TrainerConfig

__all__ = ["stop_text", "STOP_RULES"]

#: stop reasons that are rules of the training (the run reached its end), not a user's choice
STOP_RULES = frozenset({"min_frequency", "no_pairs", "vocab_size", "merges"})


def stop_text(reason: str, config: TrainerConfig, merges: int, vocab: int) -> str:
    """One sentence: why the run ended and where.

    >>> from bpe_core.presets import make_config
    >>> stop_text("min_frequency", make_config("gpt2"), 8105, 8362)
    'no pair occurs twice any more (min frequency 2) — 8,105 merges, vocabulary 8,362'
    >>> stop_text("cancelled", make_config("gpt2"), 12, 269)
    'cancelled at merge 12 (the merges so far are kept) — vocabulary 269'
    """
    where = f"{merges:,} merges, vocabulary {vocab:,}"
    if reason == "min_frequency":
        f = config.min_frequency
        often = "twice" if f == 2 else f"{f:,} times"
        return f"no pair occurs {often} any more (min frequency {f:,}) — {where}"
    if reason == "no_pairs":
        return f"every word is a single token: no pairs left to merge — {where}"
    if reason == "vocab_size":
        return f"the vocabulary reached its target size ({config.vocab_size:,}) — {where}"
    if reason == "merges":
        return f"the target number of merges ({config.num_merges:,}) is reached — {where}"
    if reason == "cancelled":
        return f"cancelled at merge {merges:,} (the merges so far are kept) — vocabulary {vocab:,}"
    if reason == "paused":
        return f"paused at merge {merges:,} — vocabulary {vocab:,}"
    if reason == "done":
        return f"at merge {merges:,} — vocabulary {vocab:,}"
    return f"stopped at merge {merges:,}: {reason}"
