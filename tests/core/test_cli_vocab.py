"""``python -m bpe_core inspect | convert | replay``: through a real subprocess and through run_*."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core.cli import vocab as cli_vocab

from .paths import need
REPO = Path(__file__).resolve().parents[2]


_need = need  # the one resolver (tests/core/paths.py)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpe_core", *map(str, args)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def _parse(*args: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli_vocab.register(parser.add_subparsers(dest="command"))
    return parser.parse_args([str(a) for a in args])


def _one_line_error(proc_or_err: str, command: str) -> None:
    lines = proc_or_err.strip().splitlines()
    # issue 25: the line names the program and the subcommand
    assert len(lines) == 1 and lines[0].startswith(f"bpe-lens-cli {command}: error: ")
    assert "Traceback" not in proc_or_err


# -- inspect ------------------------------------------------------------------------------------
def test_inspect_gpt2_text_and_tree():
    p = cli("inspect", _need("gpt2/vocab.json"), "--top", "3", "--tree", " Lincoln")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    for want in ("format:        vocab-merges", "BPE, byte-level", "vocab size:    50257 (ids 0..50256)",
                 "merges:        50000", '"<|endoftext|>"=50256', "pre-tokenizer: ByteLevel",
                 "longest tokens (3):", "merge tree:", "ĠLincoln  #12406  merge 12151", "└─ n  #77"):
        assert want in out, want


def test_inspect_json_for_several_formats(tmp_path):
    cases = [(_need("gpt-neox-20b/20B_tokenizer.json"), "tokenizer.json", 50277, 50009, "NFC"),
             (_need("tiktoken_ranks/r50k_base.tiktoken"), "tiktoken", 50257, 50000, "none")]
    for path, fmt, size, merges, normalizer in cases:
        p = cli("inspect", path, "--json", "--top", "2")
        assert p.returncode == 0, p.stderr
        info = json.loads(p.stdout)
        assert (info["format"], info["vocab_size"], info["merges"], info["normalizer"]) == (fmt, size, merges, normalizer)
        assert info["unreachable_tokens"] == 0 and len(info["longest_tokens"]) == 2


def test_inspect_sentencepiece(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(_need("tinyshakespeare.txt").read_bytes()[:100_000])
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(tmp_path / "sp"), vocab_size=300,
                                   model_type="bpe", minloglevel=2, num_threads=1)
    info = json.loads(cli("inspect", tmp_path / "sp.model", "--json").stdout)
    assert info["format"] == "sentencepiece" and info["normalizer"] == "nmt_nfkc" and info["unit"] == "chars"
    assert info["options"]["unk_token"] == "<unk>"


# -- convert ------------------------------------------------------------------------------------
def test_convert_gpt2_to_every_format(tmp_path):
    src = _need("gpt2/tokenizer.json")
    p = cli("convert", src, tmp_path / "vm", "--to", "vocab-merges")
    assert p.returncode == 0 and "50257 tokens, 50000 merges" in p.stderr
    assert (tmp_path / "vm" / "vocab.json").read_bytes() == _need("gpt2/vocab.json").read_bytes()
    assert (tmp_path / "vm" / "merges.txt").read_bytes() == _need("gpt2/merges.txt").read_bytes()
    assert cli("convert", tmp_path / "vm" / "merges.txt", tmp_path / "g.tiktoken", "--to", "tiktoken").returncode == 0
    assert (tmp_path / "g.tiktoken").read_bytes() == _need("tiktoken_ranks/r50k_base.tiktoken").read_bytes()
    assert cli("convert", tmp_path / "g.tiktoken", tmp_path / "g.json", "--to", "tokenizer.json",
               "--pattern", r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s""").returncode == 0
    assert cli("convert", tmp_path / "g.json", tmp_path / "native.json", "--to", "native").returncode == 0
    info = json.loads(cli("inspect", tmp_path / "native.json", "--json").stdout)
    assert info["format"] == "native" and info["merges"] == 50000


# -- replay -------------------------------------------------------------------------------------
def test_train_then_replay_reproduces_the_training_counts(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(_need("tinyshakespeare.txt").read_bytes()[:150_000])
    vocab = tmp_path / "v.json"
    t = cli("train", corpus, "--preset", "gpt2", "--merges", "300", "-o", vocab, "-q")
    assert t.returncode == 0, t.stderr
    p = cli("replay", "--vocab", vocab, corpus, "--json", "-q")
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert len(report["merges"]) == 300
    assert [m["count"] for m in report["merges"]] == [m["trained_count"] for m in report["merges"]]
    assert report["dead_merges"] == [] and report["summary"]["dead_merges"] == 0
    text = cli("replay", "--vocab", vocab, _need("wikitext-2-raw/wiki.valid.raw"), "--limit", "3", "-q")
    assert text.returncode == 0 and "first 3 merges" in text.stdout and "distinct words:" in text.stdout


def test_replay_gpt2_json_lists_every_merge():
    p = cli("replay", "--vocab", _need("gpt2/vocab.json"), _need("wikitext-2-raw/wiki.valid.raw"), "--json", "-q")
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert len(report["merges"]) == 50000 and report["merges"][0]["left"] == "Ġ"
    assert len(report["dead_merges"]) == report["summary"]["dead_merges"] > 0
    assert all(report["merges"][r - 1]["count"] == 0 for r in report["dead_merges"])


# -- bad input ----------------------------------------------------------------------------------
def test_bad_input_is_one_line_and_exit_2(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    binary = tmp_path / "b.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    corrupt = tmp_path / "c.json"
    corrupt.write_text('{"model": ', encoding="utf-8")
    gpt2 = _need("gpt2/vocab.json")
    cases = [
        ("inspect", tmp_path / "missing.json"), ("inspect", empty), ("inspect", binary), ("inspect", corrupt),
        ("inspect", gpt2, "--tree", "no such token here"), ("inspect", tmp_path),
        ("convert", gpt2, tmp_path / "o", "--to", "yaml"), ("convert", gpt2, tmp_path / "s", "--to", "seed000"),
        ("convert", corrupt, tmp_path / "o.json", "--to", "native"),
        ("replay", "--vocab", gpt2, tmp_path / "missing.txt"), ("replay", "--vocab", gpt2, empty, "-q"),
        ("replay", "--vocab", binary, empty), ("replay", gpt2),
    ]
    for args in cases:
        p = cli(*args)
        assert p.returncode == 2, (args, p.stderr)
        _one_line_error(p.stderr, args[0])
        assert p.stdout == ""


def test_run_functions_directly(tmp_path, capsys):
    assert cli_vocab.run_inspect(_parse("inspect", tmp_path / "nope")) == 2
    _one_line_error(capsys.readouterr().err, "inspect")
    assert cli_vocab.run_convert(_parse("convert", _need("gpt2/vocab.json"), tmp_path / "t.json",
                                        "--to", "tokenizer.json")) == 0
    assert "tokenizer.json written" in capsys.readouterr().err
    assert cli_vocab.run_inspect(_parse("inspect", tmp_path / "t.json", "--top", "1")) == 0
    assert "format:        tokenizer.json" in capsys.readouterr().out
    assert cli_vocab.run_replay(_parse("replay", "--vocab", tmp_path / "t.json", tmp_path / "nope.txt", "-q")) == 2
    _one_line_error(capsys.readouterr().err, "replay")
    assert cli_vocab.run_replay(_parse("replay", "--vocab", tmp_path / "t.json", _need("tinyshakespeare.txt"),
                                       "--limit", "-1")) == 2
    assert "--limit" in capsys.readouterr().err
