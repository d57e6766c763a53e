"""Named presets: exact reproductions of the seeds and of Hugging Face's BpeTrainer.

Names are fixed (tests outside this repository use them). ``docs/seeds.md`` lists, for each
seed, every place where we follow the text rather than its buggy code.

>>> make_config("byte-ascii").vocab_size
2000
>>> make_config("byte-ascii", num_merges=10).vocab_size is None
True
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Dict

from bpe_core.types import BPELensError, TrainerConfig


@dataclass(frozen=True)
class Preset:
    name: str
    reproduces: str
    description: str
    config: TrainerConfig


def _p(name: str, reproduces: str, description: str, **kw: Any) -> Preset:
    return Preset(name, reproduces, description, TrainerConfig(preset=name, **kw))


PRESETS: Dict[str, Preset] = {p.name: p for p in [
    _p("nltk-wordpunct", "seed 000",
       "Punkt sentences + NLTK wordpunct words, '</w>', ids by subword frequency, greedy encoder",
       pretokenizer="punkt-wordpunct", end_of_word_suffix="</w>", num_merges=1000,
       alphabet_order="first-seen", encode_mode="seed000-greedy"),
    _p("byte-ascii", "seed 001",
       "byte-level, ASCII regex, 256-byte base (ids 0-255), min frequency 2",
       pretokenizer="seed001", unit="bytes", full_byte_alphabet=True, alphabet_order="bytes",
       min_frequency=2, vocab_size=2000),
    _p("char-whitespace", "seed 002",
       "whitespace words, '</w>', sorted alphabet; vocab size = alphabet + merges",
       pretokenizer="whitespace", end_of_word_suffix="</w>", vocab_size=1000, vocab_size_counts="merges",
       keep_unknown=True),
    _p("hf-course", "seed 003",
       "GPT-2 byte-level words (Ġ), lowercased before pre-tokenizing, alphabet + <|endoftext|>",
       pretokenizer="gpt2", unit="bytes", lowercase=True, lowercase_encode=False,
       special_tokens=("<|endoftext|>",), specials_position="after-alphabet", vocab_size=50,
       vocab_size_counts="merges", keep_unknown=True),
    _p("hf-course-literal", "seed 003, as printed",
       "the course's literal order: GPT-2 glyph words lowercased after pre-tokenizing (Ġ becomes ġ)",
       pretokenizer="gpt2-glyphs", lowercase_words=True, lowercase_encode=False,
       special_tokens=("<|endoftext|>",), specials_position="after-alphabet", vocab_size=50,
       vocab_size_counts="merges", keep_unknown=True),
    _p("cjk-mixed", "seed 004",
       "Han runs are words of characters, other word runs get '</w>', punctuation alone",
       pretokenizer="cjk", end_of_word_suffix="</w>", num_merges=100, alphabet_order="first-seen",
       keep_unknown=True),
    _p("gpt2", "HF ByteLevel BpeTrainer",
       "GPT-2 regex + byte-level, 256-glyph initial alphabet, min frequency 2, HF tie rule",
       pretokenizer="gpt2", unit="bytes", full_byte_alphabet=True, tie_break="hf", min_frequency=2,
       vocab_size=30000, special_tokens=("<|endoftext|>",), file_decoding="tokenizers"),
    _p("char-hf", "HF BPE + WhitespaceSplit",
       "whitespace-split words, characters, no suffix, HF tie rule",
       pretokenizer="whitespace-split", tie_break="hf", vocab_size=1000, file_decoding="tokenizers"),
    _p("superbpe", "SuperBPE stage 1 (PythonNut/superbpe train_tokenizer.sh)",
       "o200k's regex without contractions + byte-level, alphabet seen, HF tie rule; --variant superbpe for stage 2",
       pretokenizer="superbpe-stage1", unit="bytes", tie_break="hf", vocab_size=30000, file_decoding="tokenizers"),
    _p("picky", "PickyBPE (pchizhov/picky_bpe bpe_trainer.py)",
       "\u2581 + str.split() words, characters (0.9999 coverage, the rest <UNK>), <PAD> <UNK> <BOS> <EOS> at 0-3, "
       "IoS threshold 0.9, ties by pair-table order",
       pretokenizer="picky", variant="picky", ios_threshold=0.9, tie_break="table-order",
       alphabet_order="first-seen", special_tokens=("<PAD>", "<UNK>", "<BOS>", "<EOS>"), vocab_size=8000),
]}

_FIELDS = {f.name for f in fields(TrainerConfig)}


def make_config(name: str, **overrides: Any) -> TrainerConfig:
    """The preset's config with ``overrides`` applied (None values are ignored).

    Giving ``num_merges`` without ``vocab_size`` drops the preset's vocab size (and the
    other way round), so "--merges 500" means 500 merges. Giving both keeps both: training stops
    at whichever comes first, as seed 002's ``vocab_size`` and ``max_iter`` do.

    >>> c = make_config("char-whitespace", vocab_size=17, num_merges=3)
    >>> c.vocab_size, c.num_merges
    (17, 3)
    >>> cfg = make_config("gpt2", num_merges=500)
    >>> cfg.unit, cfg.pretokenizer, cfg.num_merges, cfg.vocab_size
    ('bytes', 'gpt2', 500, None)
    """
    if name not in PRESETS:
        raise BPELensError(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}")
    given = {k: v for k, v in overrides.items() if v is not None}
    bad = sorted(set(given) - _FIELDS)
    if bad:
        raise BPELensError(f"unknown setting(s): {', '.join(bad)}")
    if "num_merges" in given and "vocab_size" not in given:
        given["vocab_size"] = None
    if "vocab_size" in given and "num_merges" not in given:
        given["num_merges"] = None
    if "special_tokens" in given:
        given["special_tokens"] = tuple(given["special_tokens"])
    return replace(PRESETS[name].config, **given)
