"""Writers: files that the real libraries load and that encode exactly like our Encoder.

The judges are ``tokenizers``, ``tiktoken``, sentencepiece and seed 000's own code; real files
from shared/data (GPT-2, GPT-NeoX, r50k/cl100k) and vocabularies trained by our Trainer.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bpe_core.formats.atomic import atomic_write_bytes, atomic_write_text
from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.detect import open_vocabulary, write_vocabulary
from bpe_core.formats.writers import merges_txt, tiktoken_text, vocab_json
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError

from .paths import need  # ../shared/data beside the checkout
from tests.reference import seed000


@pytest.fixture(scope="module")
def tokenizers():
    """Hugging Face tokenizers, the judge of tokenizer.json files (only the tests that ask skip without it)."""
    return pytest.importorskip("tokenizers")


@pytest.fixture(scope="module")
def lines() -> list:
    """Real text: WikiText lines (with their newlines) and classical Chinese."""
    text = need("wikitext-2-raw/wiki.test.raw").read_text(encoding="utf-8")[:120_000]
    zh = need("chinese/sanguo_yanyi.txt").read_text(encoding="utf-8")[:15_000]
    return text.splitlines(keepends=True) + zh.splitlines(keepends=True) + ["", "  ", "<|endoftext|>x"]


def _trained(preset: str, size: int) -> BPEModel:
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer
    text = need("tinyshakespeare.txt").read_text(encoding="utf-8")[:150_000]
    trainer = Trainer.from_texts([text], make_config(preset, vocab_size=size))
    trainer.run()
    return trainer.model()


def _hf_ids(tok, line: str) -> list:
    return tok.encode(line, add_special_tokens=False).ids


# -- atomic writes --------------------------------------------------------------------------------
def test_atomic_write_replaces_and_keeps_mode(tmp_path):
    p = tmp_path / "v.json"
    atomic_write_text(p, "one")
    os.chmod(p, 0o640)
    atomic_write_text(p, "twö")
    assert p.read_text(encoding="utf-8") == "twö"
    assert stat.S_IMODE(p.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["v.json"]


def test_atomic_write_failure_keeps_old_file_and_removes_temp(tmp_path, monkeypatch):
    p = tmp_path / "v.json"
    atomic_write_bytes(p, b"old")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(BPELensError, match="No space left"):
        atomic_write_bytes(p, b"new")
    assert p.read_bytes() == b"old" and os.listdir(tmp_path) == ["v.json"]
    monkeypatch.undo()
    with pytest.raises(BPELensError, match="does not exist"):
        atomic_write_text(tmp_path / "nope" / "v.json", "x")
    with pytest.raises(BPELensError, match="cannot be encoded"):
        atomic_write_text(p, "\ud800")
    assert p.read_bytes() == b"old"


# -- tokenizer.json -------------------------------------------------------------------------------
def _models():
    from bpe_core.formats.tiktoken_file import read_tiktoken
    yield "gpt2-files", lambda: open_vocabulary(need("gpt2/vocab.json"))
    yield "neox", lambda: open_vocabulary(need("gpt-neox-20b/20B_tokenizer.json"))
    yield "cl100k", lambda: read_tiktoken(str(need("tiktoken_ranks/cl100k_base.tiktoken")))
    yield "trained-gpt2", lambda: _trained("gpt2", 700)
    yield "trained-char-hf", lambda: _trained("char-hf", 500)
    yield "trained-seed001", lambda: _trained("byte-ascii", 500)


@pytest.mark.parametrize("name, make", list(_models()), ids=[n for n, _ in _models()])
def test_tokenizer_json_loads_in_tokenizers_and_encodes_like_us(tokenizers, tmp_path, lines, name, make):
    model = make()
    path = tmp_path / "tokenizer.json"
    write_vocabulary(model, path, "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(path))
    enc = Encoder(model)
    for line in lines:
        assert _hf_ids(hf, line) == enc.encode_ids(line), (name, line[:60])
    back = open_vocabulary(path)  # and it reads back with the same vocabulary and merges
    assert back.tokens == model.tokens and back.merges == model.merges and back.specials == model.specials


def test_tokenizer_json_of_real_files_encodes_like_the_original(tokenizers, tmp_path, lines):
    for rel in ("gpt2/tokenizer.json", "gpt-neox-20b/20B_tokenizer.json"):
        orig = tokenizers.Tokenizer.from_file(str(need(rel)))
        orig.no_truncation()  # the GPT-2 copy carries a leftover max_length=50 (SOURCES.md)
        out = tmp_path / Path(rel).name
        write_vocabulary(open_vocabulary(need(rel)), out, "tokenizer.json")
        new = tokenizers.Tokenizer.from_file(str(out))
        for line in lines:
            assert _hf_ids(new, line) == _hf_ids(orig, line), (rel, line[:60])


def test_sentencepiece_model_as_tokenizer_json_encodes_like_sentencepiece(tokenizers, tmp_path, lines):
    spm = pytest.importorskip("sentencepiece")
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(need("tinyshakespeare.txt").read_bytes()[:200_000])
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(tmp_path / "sp"), vocab_size=400,
                                   model_type="bpe", byte_fallback=True, user_defined_symbols=["<sep>"],
                                   minloglevel=2, num_threads=1)
    sp = spm.SentencePieceProcessor(model_file=str(tmp_path / "sp.model"))
    write_vocabulary(open_vocabulary(tmp_path / "sp.model"), tmp_path / "sp.json", "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "sp.json"))
    # Known gap (writers.py): text that begins with a user-defined piece; not in these lines.
    for line in [ln.rstrip("\n") for ln in lines] + ["a <sep>b", "x<sep>y", "  two  spaces "]:
        assert _hf_ids(hf, line) == sp.encode(line), line
        assert hf.decode(sp.encode(line)) == sp.decode(sp.encode(line)).replace(" \u2047 ", "<unk>"), line


def test_tokenizer_json_refuses_what_it_cannot_express(tmp_path):
    seedish = BPEModel(unit="chars", tokens=["a", "</w>", "a</w>"], merges=[(0, 1)], end_of_word_suffix="</w>")
    with pytest.raises(BPELensError, match="separate end-of-word symbol"):
        write_vocabulary(seedish, tmp_path / "t.json", "tokenizer.json")
    dup = BPEModel(unit="chars", tokens=["a", "a"])
    with pytest.raises(BPELensError, match="two ids"):
        write_vocabulary(dup, tmp_path / "t.json", "tokenizer.json")
    assert not (tmp_path / "t.json").exists()
    with pytest.raises(BPELensError, match="unknown output format"):
        write_vocabulary(dup, tmp_path / "t.json", "yaml")


# -- vocab.json + merges.txt ----------------------------------------------------------------------
def test_gpt2_files_round_trip_byte_identical(tmp_path):
    model = open_vocabulary(need("gpt2/tokenizer.json"))
    write_vocabulary(model, tmp_path, "vocab-merges")
    assert (tmp_path / "vocab.json").read_bytes() == need("gpt2/vocab.json").read_bytes()
    assert (tmp_path / "merges.txt").read_bytes() == need("gpt2/merges.txt").read_bytes()
    write_vocabulary(model, tmp_path / "x" / "gpt2-vocab.json", "vocab-merges")
    assert (tmp_path / "x" / "gpt2-merges.txt").read_bytes() == need("gpt2/merges.txt").read_bytes()
    for name in ("gpt2-vocab.json", "mine.json", "encoder.json"):  # every name reads back as written
        out = tmp_path / name.replace(".", "_") / name
        write_vocabulary(model, out, "vocab-merges")
        back = open_vocabulary(out)
        assert back.tokens == model.tokens and back.merges == model.merges, name


def test_vocab_merges_refuses_spaces_in_merges():
    m = BPEModel(unit="chars", tokens=["a", " ", "a "], merges=[(0, 1)])
    with pytest.raises(BPELensError, match="space or newline"):
        merges_txt(m)
    assert vocab_json(m) == '{"a": 0, " ": 1, "a ": 2}'


# -- .tiktoken ------------------------------------------------------------------------------------
def test_gpt2_as_tiktoken_is_r50k(tmp_path):
    model = open_vocabulary(need("gpt2/vocab.json"))
    write_vocabulary(model, tmp_path / "gpt2.tiktoken", "tiktoken")
    assert (tmp_path / "gpt2.tiktoken").read_bytes() == need("tiktoken_ranks/r50k_base.tiktoken").read_bytes()


def test_trained_model_as_tiktoken_loads_in_tiktoken(tmp_path, lines):
    tiktoken = pytest.importorskip("tiktoken")
    import tiktoken.load  # a submodule, not imported by "import tiktoken"
    from bpe_core.formats.tiktoken_file import R50K_PATTERN, read_tiktoken
    model = _trained("gpt2", 700)
    path = tmp_path / "mine.tiktoken"
    write_vocabulary(model, path, "tiktoken")
    ranks = tiktoken.load.load_tiktoken_bpe(str(path))
    assert len(ranks) == sum(1 for i, t in enumerate(model.tokens) if t is not None and i not in model.special_ids)
    tk = tiktoken.Encoding("mine", pat_str=R50K_PATTERN, mergeable_ranks=ranks, special_tokens=dict(model.specials))
    back = read_tiktoken(str(path), pattern=R50K_PATTERN, specials=dict(model.specials))
    assert back.tokens == model.tokens and back.merges == model.merges
    enc = Encoder(back)
    for line in lines:
        assert tk.encode(line, allowed_special="all") == enc.encode_ids(line), line[:60]


def test_tiktoken_refuses_chars_and_out_of_order_ids():
    with pytest.raises(BPELensError, match="character-level"):
        tiktoken_text(BPEModel(unit="chars", tokens=["a"]))
    swapped = BPEModel(unit="bytes", tokens=[b"a", b"b", b"c", b"bc", b"ab"], merges=[(0, 1), (1, 2)])
    with pytest.raises(BPELensError, match="merge order"):
        tiktoken_text(swapped)


# -- seed 000 for other character models ----------------------------------------------------------
def test_seed000_files_for_a_trained_suffix_model_encode_like_us(tmp_path):
    model = _trained("char-whitespace", 600)
    write_vocabulary(model, tmp_path / "seed", "seed000")
    tok = seed000.BytePairTokenizer.load(str(tmp_path / "seed"))  # the seed's own loader and encoder
    enc = Encoder(model)
    words = sorted(set(need("tinyshakespeare.txt").read_text(encoding="utf-8")[300_000:700_000].split()))
    words = [w for w in words if all(c in model.vocab for c in w)]
    assert len(words) > 5000
    for w in words:
        assert tok.get_byte_ids(tok.merge_bytes(list(w) + ["</w>"])) == enc.encode_ids(w), w
    back = open_vocabulary(tmp_path / "seed")
    assert all(back.tokens[i] == t for i, t in enumerate(model.tokens))


def test_seed000_refuses_bytes_and_suffixless(tmp_path):
    with pytest.raises(BPELensError, match="byte-level"):
        write_vocabulary(BPEModel(unit="bytes", tokens=[b"a"]), tmp_path / "s", "seed000")
    with pytest.raises(BPELensError, match="appends '</w>'"):
        write_vocabulary(BPEModel(unit="chars", tokens=["a"]), tmp_path / "s", "seed000")
    assert not (tmp_path / "s").exists()


def test_hf_suffix_and_prefix_models_round_trip(tokenizers, tmp_path, lines, monkeypatch):
    """Vocabularies trained by tokenizers itself with end_of_word_suffix / continuing_subword_prefix."""
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    from tokenizers import models, pre_tokenizers, trainers
    from tokenizers.implementations import CharBPETokenizer
    corpus = str(need("tinyshakespeare.txt"))
    suffix = CharBPETokenizer()
    suffix.train([corpus], vocab_size=600, show_progress=False)
    suffix.save(str(tmp_path / "suffix.json"))
    prefix = tokenizers.Tokenizer(models.BPE(unk_token="[UNK]", continuing_subword_prefix="##"))
    prefix.pre_tokenizer = pre_tokenizers.Whitespace()
    prefix.train([corpus], trainers.BpeTrainer(vocab_size=600, continuing_subword_prefix="##",
                                               special_tokens=["[UNK]"], show_progress=False))
    prefix.save(str(tmp_path / "prefix.json"))
    for name in ("suffix.json", "prefix.json"):
        model = open_vocabulary(tmp_path / name)
        write_vocabulary(model, tmp_path / f"out-{name}", "tokenizer.json")
        orig = tokenizers.Tokenizer.from_file(str(tmp_path / name))
        new = tokenizers.Tokenizer.from_file(str(tmp_path / f"out-{name}"))
        enc = Encoder(model)
        for line in lines:
            assert _hf_ids(new, line) == _hf_ids(orig, line) == enc.encode_ids(line), (name, line[:60])
        assert open_vocabulary(tmp_path / f"out-{name}").merges == model.merges
