"""Continuing training from a loaded vocabulary (bpe_core/training/continuing.py, ``train --from``).

The loaded merges stay ranks 0..N-1 and new merges follow; encoding with the first N merges equals the
original tokenizer (``tokenizers`` itself says what GPT-2 gives); N merges, saved, then M more equal
N+M in one run (that run is the reference: a single uninterrupted training).
"""
from __future__ import annotations

import json

import pytest

from bpe_core import Encoder, make_config
from bpe_core.cli.commands import main
from bpe_core.formats.detect import open_vocabulary
from bpe_core.formats.native import write_native
from bpe_core.training.continuing import continue_training, continued_config
from bpe_core.training.trainer import Trainer
from tests.core.paths import EXAMPLES, need
from tests.reference import from_glyphs

GPT2 = "gpt2/tokenizer.json"


def gpt2_merge_bytes(path) -> list:
    merges = json.loads(path.read_text("utf-8"))["model"]["merges"]
    pairs = [m.split(" ") if isinstance(m, str) else m for m in merges]
    return [(from_glyphs(a), from_glyphs(b)) for a, b in pairs]


def as_bytes(model, merges) -> list:
    return [(model.tokens[a], model.tokens[b]) for a, b in merges]


def test_gpt2_continued_keeps_its_merges_and_encodes_like_gpt2():
    from tokenizers import Tokenizer
    path = need(GPT2)
    gpt2 = open_vocabulary(path)
    corpus = EXAMPLES / "seed004_zh_en_de.txt"
    t = continue_training(gpt2, corpus, config=continued_config(gpt2, merges=40))
    assert t.undo() is None  # the loaded merges are the floor
    steps = t.run()
    m = t.model()
    reference = gpt2_merge_bytes(path)
    assert len(m.merges) == len(reference) + 40 == 50040
    assert as_bytes(m, m.merges[:50000]) == reference  # ranks 0..49,999 are GPT-2's
    assert all(s.new_id >= 50257 for s in steps if s.created) and m.tokens[:50257] == gpt2.tokens
    tok = Tokenizer.from_file(str(path))
    tok.no_truncation()  # the gpt2 file carries a leftover max_length 50 (SOURCES.md)
    text = corpus.read_text("utf-8") + " Hello <|endoftext|> world  \n\t indented"
    assert Encoder(m, merges_limit=50000).encode_ids(text) == tok.encode(text).ids
    assert len(Encoder(m).encode_ids(text)) < len(tok.encode(text).ids)  # the new merges do work
    # its own pipeline (tokenizer.json's), not a guess at one
    assert type(m.pipeline) is type(gpt2.pipeline)


def _whole_and_continued(preset: str, corpus, n: int, m: int, tmp_path):
    whole = Trainer.from_corpus(str(corpus), make_config(preset, num_merges=n + m, vocab_size=None))
    whole.run()
    part = Trainer.from_corpus(str(corpus), make_config(preset, num_merges=n, vocab_size=None))
    part.run()
    saved = tmp_path / f"{preset}.json"
    write_native(part.model(), str(saved))
    loaded = open_vocabulary(saved)
    more = continue_training(loaded, corpus, config=continued_config(loaded, merges=m))
    more.run()
    return whole.model(), more.model()


@pytest.mark.parametrize("preset, corpus, n, m", [
    ("char-whitespace", EXAMPLES / "seed002_words.txt", 15, 25),   # first-seen ties, </w>
    ("hf-course", EXAMPLES / "seed003_sentences.txt", 20, 30),     # first-seen ties, bytes
    ("gpt2", "wikitext-2-raw/wiki.valid.raw", 150, 150),           # real text, HF ties
])
def test_n_saved_then_m_more_equals_n_plus_m(preset, corpus, n, m, tmp_path):
    corpus = need(corpus) if isinstance(corpus, str) else corpus
    whole, continued = _whole_and_continued(preset, corpus, n, m, tmp_path)
    assert continued.merges == whole.merges and continued.tokens == whole.tokens
    assert continued.merge_counts == whole.merge_counts
    text = corpus.read_text("utf-8")[:2000]
    assert Encoder(continued).encode_ids(text) == Encoder(whole).encode_ids(text)


def test_cli_train_from_gpt2(tmp_path, capsys):
    out = tmp_path / "more.json"
    assert main(["train", str(EXAMPLES / "seed004_mixed.txt"), "--from", str(need(GPT2)), "--merges", "12",
                 "-o", str(out), "-q"]) == 0
    m = open_vocabulary(out)
    assert len(m.merges) == 50012 and as_bytes(m, m.merges[:50000]) == gpt2_merge_bytes(need(GPT2))


@pytest.mark.parametrize("extra, message", [
    (["--preset", "gpt2", "--merges", "5"], "drop --preset"),
    ([], "--from needs --merges"),
])
def test_cli_train_from_refuses_what_it_cannot_keep(extra, message, tmp_path, capsys):
    args = ["train", str(EXAMPLES / "seed004_mixed.txt"), "--from", str(need(GPT2)), "-o", str(tmp_path / "x.json")]
    assert main(args + extra) == 2
    assert message in capsys.readouterr().err


def test_cli_train_needs_a_preset_or_from(tmp_path, capsys):
    assert main(["train", str(EXAMPLES / "seed004_mixed.txt"), "-o", str(tmp_path / "x.json")]) == 2
    assert "--preset" in capsys.readouterr().err
