"""The `gpt2` and `char-hf` presets learn exactly what Hugging Face tokenizers learns, on real text.

Same merges in the same order and the same vocabulary (token -> id). tokenizers trains on the same
lines (train_from_iterator keeps each line's newline, like train(files)).
"""
from __future__ import annotations

import json
import os

import pytest

from bpe_core.presets import make_config
from bpe_core.encoding.symbols import to_glyphs
from bpe_core.training.trainer import Trainer

from .paths import need

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
tokenizers = pytest.importorskip("tokenizers")


def lines_of(rel: str, start: int = 0, count: int | None = None) -> list[str]:
    with open(need(rel), encoding="utf-8-sig") as f:  # universal newlines, like our corpus reader
        lines = f.readlines()
    return lines[start:None if count is None else start + count]


def hf_train(lines, preset: str, vocab: int):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    tok = Tokenizer(models.BPE())
    if preset == "gpt2":
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, show_progress=False,
                                      special_tokens=["<|endoftext|>"],
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    else:
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        trainer = trainers.BpeTrainer(vocab_size=vocab, show_progress=False)
    tok.train_from_iterator(lines, trainer)
    model = json.loads(tok.to_str())["model"]
    merges = [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]]
    return merges, model["vocab"]


def ours(lines, preset: str, vocab: int):
    t = Trainer.from_texts(lines, make_config(preset, vocab_size=vocab))
    t.run()
    text = (lambda r: to_glyphs(r) if isinstance(r, bytes) else r)
    merges = [(text(s.left_token), text(s.right_token)) for s in t.history]
    return merges, {text(t.token(i)): i for i in range(t.vocab_size)}


CASES = [
    ("tinyshakespeare.txt", 0, None, "gpt2", 6000),
    ("tinyshakespeare.txt", 0, None, "char-hf", 4000),
    ("wikitext-2-raw/wiki.test.raw", 0, None, "gpt2", 8000),
    ("bench/multilingual/ru_anna_karenina.txt", 0, 3000, "gpt2", 5000),
    ("bench/multilingual/de_faust.txt", 0, None, "char-hf", 3000),
    ("chinese/sanguo_yanyi.txt", 0, 600, "char-hf", 3000),
    ("chinese/sanguo_yanyi.txt", 0, 1500, "gpt2", 4000),
]


@pytest.mark.parametrize("rel, start, count, preset, vocab", CASES,
                         ids=[f"{c[0].split('/')[-1]}-{c[3]}-{c[4]}" for c in CASES])
def test_same_merges_and_vocab_as_tokenizers(rel, start, count, preset, vocab):
    lines = lines_of(rel, start, count)
    our_merges, our_vocab = ours(lines, preset, vocab)
    hf_merges, hf_vocab = hf_train(lines, preset, vocab)
    first = next((i for i, (a, b) in enumerate(zip(our_merges, hf_merges)) if a != b), None)
    assert first is None, f"merge {first + 1}: ours {our_merges[first]} vs tokenizers {hf_merges[first]}"
    assert len(our_merges) == len(hf_merges)
    assert our_vocab == hf_vocab
