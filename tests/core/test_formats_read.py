"""The three readers: real files load with the right shape; every kind of bad input is a BPELensError."""
from __future__ import annotations

import base64
import json
import shutil
import time
from pathlib import Path

import pytest

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats import read_tiktoken, read_tokenizer_json, read_vocab_merges
from bpe_core.types import BPELensError

from .paths import need

SMALL = {"version": "1.0", "added_tokens": [], "normalizer": None, "pre_tokenizer": {"type": "Whitespace"},
         "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "c": 3}, "merges": ["a b"]}}


def write_json(path: Path, d) -> str:
    path.write_text(json.dumps(d), encoding="utf-8")
    return str(path)


def small(**model) -> dict:
    d = json.loads(json.dumps(SMALL))
    d["model"].update(model)
    return d


# -- tokenizer.json -----------------------------------------------------------------------------
def test_gpt2_tokenizer_json_shape_and_load_time() -> None:
    t = time.perf_counter()
    m = read_tokenizer_json(str(need("gpt2/tokenizer.json")))
    elapsed = time.perf_counter() - t
    assert elapsed < 3.0  # target 1 s (bench/bench_encode.py); generous here for a busy machine
    assert (m.unit, m.vocab_size, len(m.merges), m.specials) == ("bytes", 50257, 50000, {"<|endoftext|>": 50256})
    assert m.tokens[50256] == "<|endoftext|>" and m.tokens[464] == b"The"
    assert m.config["pre_tokenizer"]["type"] == "ByteLevel" and "truncation" not in m.config
    assert m.token_info(m.id_of(b" the")).parts == (m.id_of(b" t"), m.id_of(b"he"))


def test_neox_added_tokens() -> None:
    m = read_tokenizer_json(str(need("gpt-neox-20b/20B_tokenizer.json")))
    assert m.config["normalizer"] == {"type": "NFC"}
    assert m.specials["<|endoftext|>"] == 0 and m.specials["<|padding|>"] == 1
    assert m.tokens[50254] == " " * 24 and " " * 24 not in m.specials  # added, not special
    assert 50254 in m.extras["added_only"]


def test_merges_as_strings_or_pairs_read_the_same(tmp_path: Path) -> None:
    a = read_tokenizer_json(write_json(tmp_path / "a.json", small(merges=["a b"])))
    b = read_tokenizer_json(write_json(tmp_path / "b.json", small(merges=[["a", "b"]])))
    assert a.merges == b.merges == [(0, 1)] and a.unit == "chars"
    assert Encoder(b).encode_ids("abc ab") == [2, 3, 2]


def test_dropout_truncation_padding_are_ignored(tmp_path: Path) -> None:
    d = small(dropout=0.5)
    d["truncation"] = {"max_length": 1}
    d["padding"] = {"strategy": "BatchLongest"}
    assert Encoder(read_tokenizer_json(write_json(tmp_path / "t.json", d))).encode_ids("ab ab ab") == [2, 2, 2]


@pytest.mark.parametrize("content, message", [
    ("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}", "truncated JSON"),
    ("{\"model\": {\"type\": \"BPE\",, }}", "not valid JSON"),
    ("hello world", "not valid JSON"),
    ("[1, 2, 3]", "no \"model\" object"),
])
def test_not_json(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "tokenizer.json").write_text(content, encoding="utf-8")
    with pytest.raises(BPELensError, match=message):
        read_tokenizer_json(str(tmp_path / "tokenizer.json"))


@pytest.mark.parametrize("kind", ["WordPiece", "Unigram", "WordLevel"])
def test_other_model_types_are_refused(tmp_path: Path, kind: str) -> None:
    d = {"model": {"type": kind, "vocab": {"a": 0}}}
    with pytest.raises(BPELensError, match=f"is a {kind} tokenizer; BPE Lens reads BPE models only"):
        read_tokenizer_json(write_json(tmp_path / "tokenizer.json", d))


@pytest.mark.parametrize("merges, bad", [(["a b", "a x"], "merge 2 \\(a x\\) names 'x'"),
                                         ([["a", "b"], ["b", "c"]], "merge 2 \\(b c\\) names 'bc'")])
def test_merge_with_token_outside_vocab(tmp_path: Path, merges, bad: str) -> None:
    with pytest.raises(BPELensError, match=bad):
        read_tokenizer_json(write_json(tmp_path / "tokenizer.json", small(merges=merges)))


def test_malformed_merge_entry(tmp_path: Path) -> None:
    with pytest.raises(BPELensError, match="merge 1 is 'a b c'"):
        read_tokenizer_json(write_json(tmp_path / "tokenizer.json", small(merges=["a b c"])))


def test_binary_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "tokenizer.json").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    with pytest.raises(BPELensError, match="binary file"):
        read_tokenizer_json(str(tmp_path / "tokenizer.json"))
    with pytest.raises(BPELensError, match="nope.json: no such file or folder"):
        read_tokenizer_json(str(tmp_path / "nope.json"))


@pytest.mark.parametrize("where, d, name", [
    ("normalizer", {"type": "Precompiled", "precompiled_charsmap": ""}, "Precompiled normalizer"),
    ("pre_tokenizer", {"type": "UnicodeScripts"}, "UnicodeScripts pre-tokenizer"),
    ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [{"type": "Whitespace"}, {"type": "Nope"}]},
     "Nope pre-tokenizer"),
])
def test_unsupported_components_are_named(tmp_path: Path, where: str, d: dict, name: str) -> None:
    doc = small()
    doc[where] = d
    with pytest.raises(BPELensError, match=name):
        read_tokenizer_json(write_json(tmp_path / "tokenizer.json", doc))


def test_bad_split_pattern(tmp_path: Path) -> None:
    doc = small()
    doc["pre_tokenizer"] = {"type": "Split", "pattern": {"Regex": "(unclosed"}, "behavior": "Isolated", "invert": False}
    with pytest.raises(BPELensError, match="Split pattern does not compile"):
        read_tokenizer_json(write_json(tmp_path / "tokenizer.json", doc))


# -- vocab.json + merges.txt ----------------------------------------------------------------------
def test_gpt2_files_from_either_file() -> None:
    a = read_vocab_merges(str(need("gpt2/vocab.json")))
    b = read_vocab_merges(str(need("gpt2/merges.txt")))
    hf = read_tokenizer_json(str(need("gpt2/tokenizer.json")))
    assert a.merges == b.merges == hf.merges and a.tokens == hf.tokens
    assert a.specials == {"<|endoftext|>": 50256} and a.unit == "bytes"


@pytest.mark.parametrize("vocab_name, merges_name, given", [
    ("encoder.json", "vocab.bpe", "vocab.bpe"), ("gpt2-vocab.json", "gpt2-merges.txt", "gpt2-vocab.json"),
    ("vocab.json", "merges.txt", "merges.txt")])
def test_sibling_names(tmp_path: Path, vocab_name: str, merges_name: str, given: str) -> None:
    shutil.copy(need("gpt2/vocab.json"), tmp_path / vocab_name)
    shutil.copy(need("gpt2/merges.txt"), tmp_path / merges_name)
    assert len(read_vocab_merges(str(tmp_path / given)).merges) == 50000


def _tiny_pair(tmp_path: Path, merges: str, vocab=None) -> None:
    (tmp_path / "vocab.json").write_text(json.dumps(vocab or {"a": 0, "b": 1, "ab": 2}), encoding="utf-8")
    (tmp_path / "merges.txt").write_text(merges, encoding="utf-8")


def test_missing_sibling(tmp_path: Path) -> None:
    _tiny_pair(tmp_path, "#version: 0.2\na b\n")
    (tmp_path / "merges.txt").unlink()
    with pytest.raises(BPELensError, match="vocab.json needs merges.txt beside it"):
        read_vocab_merges(str(tmp_path / "vocab.json"))


def test_merges_txt_bad_token_names_line(tmp_path: Path) -> None:
    _tiny_pair(tmp_path, "#version: 0.2\na b\nb q\n")
    with pytest.raises(BPELensError, match="merges.txt line 3 \\(b q\\) names 'q'"):
        read_vocab_merges(str(tmp_path / "merges.txt"))
    _tiny_pair(tmp_path, "#version: 0.2\na b c\n")
    with pytest.raises(BPELensError, match="line 2 is not a merge"):
        read_vocab_merges(str(tmp_path / "vocab.json"))


def test_tiny_pair_encodes_and_adds_endoftext(tmp_path: Path) -> None:
    _tiny_pair(tmp_path, "#version: 0.2\na b\n")
    m = read_vocab_merges(str(tmp_path / "vocab.json"))
    assert m.specials == {"<|endoftext|>": 3}
    assert Encoder(m).encode_ids("ab<|endoftext|>ba") == [2, 3, 1, 0]


def test_vocab_not_json_or_binary(tmp_path: Path) -> None:
    _tiny_pair(tmp_path, "#version: 0.2\na b\n")
    (tmp_path / "vocab.json").write_text("{\"a\": 0,", encoding="utf-8")
    with pytest.raises(BPELensError, match="truncated JSON"):
        read_vocab_merges(str(tmp_path / "merges.txt"))
    (tmp_path / "vocab.json").write_bytes(b"\0\1\2\3")
    with pytest.raises(BPELensError, match="binary file"):
        read_vocab_merges(str(tmp_path / "merges.txt"))
    (tmp_path / "vocab.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(BPELensError, match="not a JSON object"):
        read_vocab_merges(str(tmp_path / "merges.txt"))


# -- .tiktoken -----------------------------------------------------------------------------------
def _ranks_file(path: Path, tokens) -> str:
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for r, t in enumerate(tokens)), encoding="ascii")
    return str(path)


def test_known_tiktoken_files() -> None:
    m = read_tiktoken(str(need("tiktoken_ranks/cl100k_base.tiktoken")))
    assert m.algorithm == "tiktoken" and m.unit == "bytes" and m.specials["<|endofprompt|>"] == 100276
    assert Encoder(m).encode_ids("hello world") == [15339, 1917]
    assert m.__dict__["_merges"] is None  # encoding never needed the merges: still not recovered
    assert len(m.merges) == 100256 - 256 and m.tokens[100256] is None
    assert m.merge_result[:3] == [256, 257, 258]  # merge k makes the token of rank 255 + k


def test_unknown_tiktoken_name_needs_pattern(tmp_path: Path) -> None:
    path = _ranks_file(tmp_path / "mine.tiktoken", [bytes([b]) for b in range(256)] + [b"ab"])
    with pytest.raises(BPELensError, match="a split pattern is required"):
        read_tiktoken(path)
    m = read_tiktoken(path, pattern=r"\S+|\s+", specials={"<s>": 300})
    assert m.merges == [(97, 98)] and m.tokens[300] == "<s>"
    assert Encoder(m).encode_ids("ab<s> ba") == [256, 300, 32, 98, 97]


def test_tiktoken_bad_lines_and_binary(tmp_path: Path) -> None:
    (tmp_path / "r50k_base.tiktoken").write_text("YQ== 0\nnot-base64! 1\n", encoding="ascii")
    with pytest.raises(BPELensError, match="line 2 is not 'base64 rank'"):
        read_tiktoken(str(tmp_path / "r50k_base.tiktoken"))
    (tmp_path / "r50k_base.tiktoken").write_bytes(b"\0\0\0")
    with pytest.raises(BPELensError, match="binary file"):
        read_tiktoken(str(tmp_path / "r50k_base.tiktoken"))
    with pytest.raises(BPELensError, match="missing.tiktoken: no such file or folder"):
        read_tiktoken(str(tmp_path / "missing.tiktoken"), pattern=r"\S+")


def test_tiktoken_bad_pattern_and_clashing_special(tmp_path: Path) -> None:
    path = _ranks_file(tmp_path / "x.tiktoken", [bytes([b]) for b in range(256)])
    with pytest.raises(BPELensError, match="pattern does not compile"):
        read_tiktoken(path, pattern="(")
    with pytest.raises(BPELensError, match="also a rank"):
        read_tiktoken(path, pattern=r"\S+", specials={"<s>": 5})
