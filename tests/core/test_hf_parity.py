"""The `gpt2` and `char-hf` presets learn exactly what Hugging Face tokenizers learns, on real text.

Same merges in the same order and the same vocabulary (token -> id). tokenizers trains on the same
lines (train_from_iterator keeps each line's newline, like train(files)).
"""
from __future__ import annotations

import json
import os

import pytest

from bpe_core.presets import make_config
from bpe_core.base.symbols import to_glyphs
from bpe_core.training.trainer import Trainer
from tests.core.run_ways import WAYS, run_as

from .paths import need

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
tokenizers = pytest.importorskip("tokenizers")


def lines_of(rel: str, start: int = 0, count: int | None = None) -> list[str]:
    with open(need(rel), encoding="utf-8-sig") as f:  # universal newlines, like our corpus reader
        lines = f.readlines()
    return lines[start:None if count is None else start + count]


def hf_tokenizer(preset: str, vocab: int):
    """A tokenizers BPE with the preset's pre-tokenizer, and its trainer (the reference)."""
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
    return tok, trainer


def hf_result(tok):
    """(merges as pairs, vocab) of a trained tokenizers BPE."""
    model = json.loads(tok.to_str())["model"]
    merges = [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]]
    return merges, model["vocab"]


def hf_train(lines, preset: str, vocab: int):
    tok, trainer = hf_tokenizer(preset, vocab)
    tok.train_from_iterator(lines, trainer)
    return hf_result(tok)


def ours(lines, preset: str, vocab: int, way: str = "steps"):
    """Our merges and vocabulary: step by step on the pair index (the app's way) or over flat arrays (the
    ``train`` command's way on a big corpus; forced here on any size)."""
    from bpe_core.corpus.counting import count_words_in_texts
    cfg = make_config(preset, vocab_size=vocab)
    t = Trainer(count_words_in_texts(lines, cfg), cfg, lazy_index=way == "flat")
    run_as(t, way)
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


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("rel, start, count, preset, vocab", CASES,
                         ids=[f"{c[0].split('/')[-1]}-{c[3]}-{c[4]}" for c in CASES])
def test_same_merges_and_vocab_as_tokenizers(rel, start, count, preset, vocab, way):
    lines = lines_of(rel, start, count)
    our_merges, our_vocab = ours(lines, preset, vocab, way)
    hf_merges, hf_vocab = hf_train(lines, preset, vocab)
    first = next((i for i, (a, b) in enumerate(zip(our_merges, hf_merges)) if a != b), None)
    assert first is None, f"merge {first + 1}: ours {our_merges[first]} vs tokenizers {hf_merges[first]}"
    assert len(our_merges) == len(hf_merges)
    assert our_vocab == hf_vocab


# -- files as tokenizers reads them: CRLF lines and a BOM (issue 10) ---------------------------------

def hf_train_file(path, preset: str, vocab: int):
    """tokenizers' own file reader (``train(files)``): bytes as they are, ``\\r`` and a BOM kept."""
    tok, trainer = hf_tokenizer(preset, vocab)
    tok.train([str(path)], trainer)
    return hf_result(tok)


def ours_file(path, preset: str, vocab: int):
    t = Trainer.from_corpus(str(path), make_config(preset, vocab_size=vocab))
    t.run()
    text = (lambda r: to_glyphs(r) if isinstance(r, bytes) else r)
    merges = [(text(s.left_token), text(s.right_token)) for s in t.history]
    return merges, {text(t.token(i)): i for i in range(t.vocab_size)}


def assert_same_as_tokenizers(path, preset: str, vocab: int):
    our_merges, our_vocab = ours_file(path, preset, vocab)
    hf_merges, hf_vocab = hf_train_file(path, preset, vocab)
    first = next((i for i, (a, b) in enumerate(zip(our_merges, hf_merges)) if a != b), None)
    assert first is None, f"merge {first + 1}: ours {our_merges[first]} vs tokenizers {hf_merges[first]}"
    assert len(our_merges) == len(hf_merges)
    assert our_vocab == hf_vocab
    return our_merges, our_vocab


def slice_bytes(rel: str, lines: int) -> bytes:
    """The first ``lines`` lines of a file, byte for byte (CRLF and a BOM as they are)."""
    data = need(rel).read_bytes()
    cut = 0
    for _ in range(lines):
        cut = data.index(b"\n", cut) + 1
    return data[:cut]


CRLF_CASES = [("bench/gutenberg/war_and_peace.txt", "gpt2", 1200), ("bench/gutenberg/war_and_peace.txt", "char-hf", 800),
              ("bench/gutenberg/moby_dick.txt", "gpt2", 1000), ("bench/gutenberg/moby_dick.txt", "char-hf", 600)]


@pytest.mark.parametrize("rel, preset, vocab", CRLF_CASES, ids=[f"{c[0].split('/')[-1]}-{c[1]}" for c in CRLF_CASES])
def test_crlf_and_bom_files_read_as_tokenizers_does(tmp_path, rel, preset, vocab):
    """A 1500-line slice copied byte for byte: CRLF lines (Moby Dick also starts with a BOM)."""
    data = slice_bytes(rel, 1500)
    assert b"\r\n" in data
    path = tmp_path / "slice.txt"
    path.write_bytes(data)
    merges, vocab_ = assert_same_as_tokenizers(path, preset, vocab)
    if preset == "gpt2":  # the "\r" stays: tokenizers merges č + Ċ early
        assert ("č", "Ċ") in merges[:20]
    if data.startswith(b"\xef\xbb\xbf"):  # the BOM stays in the first word, as in tokenizers
        t = Trainer.from_corpus(str(path), make_config(preset, vocab_size=vocab))
        assert t.words[0].startswith("\ufeff")
        if preset == "char-hf":  # its alphabet is the characters seen: U+FEFF among them, as in tokenizers
            assert "\ufeff" in vocab_


def test_seed_presets_keep_python_text_mode(tmp_path):
    """Seed presets read like the seeds' open(): CRLF becomes "\\n" (and no "\\r" reaches a word)."""
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"low lower\r\nlowest low\r\n")
    t = Trainer.from_corpus(str(path), make_config("hf-course", vocab_size=40))
    assert not any("\r" in w for w in t.words)
    t = Trainer.from_corpus(str(path), make_config("gpt2", vocab_size=300))
    assert "\r\n" in t.words


@pytest.mark.slow
@pytest.mark.parametrize("preset, vocab", [("gpt2", 8000), ("char-hf", 5000)])
def test_whole_crlf_file_as_tokenizers(preset, vocab):
    assert_same_as_tokenizers(need("bench/gutenberg/war_and_peace.txt"), preset, vocab)
