"""Readers I own (SentencePiece .model, seed 000's folder) and open_vocabulary's sniffing.

Goldens come from the libraries themselves (sentencepiece's own encoder, seed 000's own code in
tests/reference), never from bpe_core.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.detect import detect_format, open_vocabulary, write_vocabulary
from bpe_core.formats.sentencepiece_model import read_sentencepiece
from bpe_core.types import BPELensError

from bpe_core.encoding import seed000_greedy
from tests.reference import seed000

from .paths import need


@pytest.fixture(scope="module")
def spm():
    """sentencepiece, the judge of .model files (only the tests that ask skip without it)."""
    return pytest.importorskip("sentencepiece")


def _need(rel: str) -> Path:
    return need(rel)  # the one resolver (tests/core/paths.py)


@pytest.fixture(scope="module")
def sp_models(spm, tmp_path_factory) -> dict:
    """Tiny real BPE models trained by sentencepiece itself on real text."""
    d = tmp_path_factory.mktemp("sp")
    corpus = d / "corpus.txt"
    corpus.write_bytes(_need("tinyshakespeare.txt").read_bytes()[:200_000])
    common = dict(input=str(corpus), model_type="bpe", minloglevel=2, num_threads=1)
    spm.SentencePieceTrainer.train(model_prefix=str(d / "plain"), vocab_size=300, **common)
    spm.SentencePieceTrainer.train(model_prefix=str(d / "bytes"), vocab_size=400, byte_fallback=True,
                                   user_defined_symbols=["<sep>", "Romeo"], **common)
    spm.SentencePieceTrainer.train(model_prefix=str(d / "uni"), vocab_size=300,
                                   **dict(common, model_type="unigram"))
    return {k: d / f"{k}.model" for k in ("plain", "bytes", "uni")}


def _real_lines() -> list:
    text = _need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8")
    lines = text.splitlines()[:1200]
    lines += _need("chinese/sanguo_yanyi.txt").read_text(encoding="utf-8").splitlines()[100:150]
    return lines + ["  two  spaces  ", "x<sep>y Romeo", "\ufb00 a\u00a8b", "\ttab\there", "", " ", " <sep> "]


@pytest.mark.parametrize("kind", ["plain", "bytes"])
def test_sentencepiece_encodings_equal_sp_encode(spm, sp_models, kind):
    sp = spm.SentencePieceProcessor(model_file=str(sp_models[kind]))
    model = read_sentencepiece(sp_models[kind])
    assert model.vocab_size == sp.get_piece_size() and model.unit == "chars"
    enc = Encoder(model)
    for line in _real_lines():
        want = sp.encode(line)
        assert enc.encode_ids(line) == want, line
        got = enc.encode(line)
        assert got.ids == want, line
        if sp.unk_id() not in want:  # sp shows an unknown piece as its surface text, we as <unk>
            assert [t.display for t in got.tokens] == sp.encode(line, out_type=str), line


def test_sentencepiece_structure(spm, sp_models):
    sp = spm.SentencePieceProcessor(model_file=str(sp_models["bytes"]))
    m = read_sentencepiece(sp_models["bytes"])
    assert m.byte_fallback and m.fuse_unk and m.unk_id == sp.unk_id()
    assert {"<unk>", "<s>", "</s>", "<sep>", "Romeo"} <= set(m.specials)
    assert m.tokens[sp.piece_to_id("<0x41>")] == "<0x41>"  # byte pieces stay tokens
    # every merged piece (score order) is its two recorded parts joined
    for rank, tid in enumerate(m.merge_result, 1):
        a, b = m.merges[rank - 1]
        assert m.tokens[a] + m.tokens[b] == m.tokens[tid]
        assert m.created_by[tid] == rank
    scores = [sp.get_score(t) for t in m.merge_result]
    assert scores == sorted(scores, reverse=True)
    assert "\u2581" in m.tokens  # the word-start mark is kept as it is


def test_sentencepiece_errors(sp_models, tmp_path, monkeypatch):
    with pytest.raises(BPELensError, match="Unigram model, not BPE"):
        read_sentencepiece(sp_models["uni"])
    with pytest.raises(BPELensError, match="Unigram"):
        open_vocabulary(sp_models["uni"])
    cut = tmp_path / "cut.model"
    cut.write_bytes(sp_models["plain"].read_bytes()[:-7])
    with pytest.raises(BPELensError, match=str(cut)):
        open_vocabulary(cut)
    monkeypatch.setitem(sys.modules, "sentencepiece", None)  # as if the extra were not installed
    with pytest.raises(BPELensError, match="install the sentencepiece extra"):
        read_sentencepiece(sp_models["plain"])
    assert detect_format(sp_models["plain"]) == "sentencepiece"  # sniffing needs no sentencepiece


# -- seed 000 -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def seed_trio(tmp_path_factory):
    ref = seed000
    if getattr(ref, "punkt_missing", lambda: None)():
        pytest.skip("Punkt tables missing")
    text = _need("tinyshakespeare.txt").read_text(encoding="utf-8")[:40_000]
    text += "\n中文的测试。Ünïcödé “quotes” back\\slash ½ x"  # non-ASCII keys, escapes
    trained = ref.train_texts([text], merges=250)
    folder = tmp_path_factory.mktemp("seed000")
    trained["tokenizer"].save(str(folder))
    return ref, trained, folder


def test_seed000_reads_and_writes_back_byte_identical(seed_trio, tmp_path):
    ref, trained, folder = seed_trio
    for path in (folder, folder / "freqs.json"):  # the folder or any of its files
        assert detect_format(path) == "seed000"
        model = open_vocabulary(path)
        assert model.algorithm == "seed000-greedy" and model.end_of_word_suffix == "</w>"
        assert model.extras["freqs"] == trained["freqs"]
        assert list(model.extras["freqs"]) == list(trained["freqs"])  # order kept
        assert [model.tokens[i] for i in range(len(model.tokens))] == [
            trained["idx_to_vocab"][i] for i in range(len(trained["idx_to_vocab"]))]
        out = tmp_path / f"out-{path.name}"
        write_vocabulary(model, out, "seed000")
        for name in ("freqs.json", "vocab_to_idx.json", "idx_to_vocab.json"):
            assert (out / name).read_bytes() == (folder / name).read_bytes(), name


def test_seed000_model_encodes_like_the_seed(seed_trio):
    ref, trained, folder = seed_trio
    model = open_vocabulary(folder)
    sample = _need("tinyshakespeare.txt").read_text(encoding="utf-8")[50_000:53_000]
    assert seed000_greedy.encode_seed000(model, sample).ids == ref.encode_text(sample, trained["tokenizer"])


def test_seed000_errors_name_the_file(seed_trio, tmp_path):
    _, _, folder = seed_trio
    for missing in ("freqs.json", "vocab_to_idx.json", "idx_to_vocab.json"):
        d = tmp_path / f"no-{missing}"
        d.mkdir()
        for name in ("freqs.json", "vocab_to_idx.json", "idx_to_vocab.json"):
            if name != missing:
                (d / name).write_bytes((folder / name).read_bytes())
        with pytest.raises(BPELensError, match=f"missing {missing}"):
            open_vocabulary(d)
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("freqs.json", "vocab_to_idx.json"):
        (bad / name).write_bytes((folder / name).read_bytes())
    (bad / "idx_to_vocab.json").write_text('{"0": "x",', encoding="utf-8")
    with pytest.raises(BPELensError, match="idx_to_vocab.json: invalid JSON"):
        open_vocabulary(bad)
    i2v = json.loads((folder / "idx_to_vocab.json").read_text(encoding="utf-8"))
    i2v["0"], i2v["1"] = i2v["1"], i2v["0"]
    (bad / "idx_to_vocab.json").write_text(json.dumps(i2v), encoding="utf-8")
    with pytest.raises(BPELensError, match="maps 0 to"):
        open_vocabulary(bad)


# -- sniffing -----------------------------------------------------------------------------------
@pytest.mark.parametrize("rel, fmt", [
    ("gpt2/vocab.json", "vocab-merges"), ("gpt2/merges.txt", "vocab-merges"),
    ("gpt2/tokenizer.json", "tokenizer.json"), ("gpt-neox-20b/20B_tokenizer.json", "tokenizer.json"),
    ("tiktoken_ranks/r50k_base.tiktoken", "tiktoken"), ("tiktoken_ranks/o200k_base.tiktoken", "tiktoken"),
])
def test_detects_real_files(rel, fmt):
    assert detect_format(_need(rel)) == fmt


def test_detects_renamed_files_by_content(tmp_path):
    tj = tmp_path / "weird.name"
    tj.write_bytes(_need("gpt2/tokenizer.json").read_bytes())
    assert detect_format(tj) == "tokenizer.json"
    tk = tmp_path / "ranks.txt"
    tk.write_bytes(_need("tiktoken_ranks/r50k_base.tiktoken").read_bytes()[:5000])
    assert detect_format(tk) == "tiktoken"
    native = tmp_path / "mine.vocab"
    native.write_text(json.dumps({"format": "bpe-lens", "version": 1}), encoding="utf-8")
    assert detect_format(native) == "native"


@pytest.mark.parametrize("content, message", [
    (None, "no such file or folder"),
    (b"", "the file is empty"),
    (b"  \n\n", "the file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "binary file"),
    (b'{"model": {"type": "BPE", ', "invalid JSON at line 1"),
    (b'[1, 2, 3]', "a JSON list"),
    (b'{"hello": "world"}', "neither a BPE Lens file"),
    (b"\xff\xfe{\x00", "UTF-16 (little-endian, with a byte-order mark) text, not UTF-8"),  # "{" in UTF-16: said so
    (b"\x00\x01\x02\x03\xfe\xfd\x00", "binary file"),
    ("To be, or not to be, that is the question:\nWhether 'tis nobler in the mind to suffer\n".encode(),
     "not a vocabulary format"),
    (b"hello world\nfoo bar\n", "not a vocabulary format"),  # "a b" lines, but no vocab.json beside
])
def test_bad_inputs_name_path_and_problem(tmp_path, content, message):
    p = tmp_path / "input.bin"
    if content is not None:
        p.write_bytes(content)
    for call in (detect_format, open_vocabulary):
        with pytest.raises(BPELensError) as err:
            call(p)
        assert str(p) in str(err.value) and message in str(err.value)
        assert "\n" not in str(err.value)


def test_bad_folders_and_partners(tmp_path):
    with pytest.raises(BPELensError, match="holds no vocabulary"):
        open_vocabulary(tmp_path)
    lone = tmp_path / "lone"
    lone.mkdir()
    (lone / "vocab.json").write_bytes(_need("gpt2/vocab.json").read_bytes())
    with pytest.raises(BPELensError, match="merges.txt"):
        open_vocabulary(lone / "vocab.json")
    broken = tmp_path / "broken.tiktoken"
    broken.write_text("IQ== 0\nIg== one\n", encoding="ascii")
    with pytest.raises(BPELensError, match="broken.tiktoken"):
        open_vocabulary(broken, pattern=r"\w+")
    not_bpe = tmp_path / "wp.json"
    not_bpe.write_text(json.dumps({"model": {"type": "WordPiece", "vocab": {"a": 0}}}), encoding="utf-8")
    with pytest.raises(BPELensError, match="WordPiece"):
        open_vocabulary(not_bpe)


def test_charsmap_normalizer_equals_tokenizers_precompiled(sp_models):
    """The helper hf_pipeline can use for tokenizer.json's Precompiled normalizer."""
    import base64

    from tokenizers import normalizers

    from bpe_core.formats.sentencepiece_model import charsmap_normalizer
    charsmap = base64.b64decode(read_sentencepiece(sp_models["plain"]).extras["precompiled_charsmap"])
    ours, theirs = charsmap_normalizer(charsmap), normalizers.Precompiled(charsmap)
    text = _need("bench/multilingual/ru_anna_karenina.txt").read_text(encoding="utf-8")[:30_000]
    for line in text.splitlines() + _real_lines() + ["\ufb00\u2460\uff28\uff45\u00a0\u3000\u00a8 x\t"]:
        assert ours(line) == theirs.normalize_str(line), line
    with pytest.raises(BPELensError, match="not valid"):
        charsmap_normalizer(b"garbage")
