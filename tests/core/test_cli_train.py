"""`python -m bpe_core train|encode` end to end, and one-line errors for every bad input."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from .paths import find

VALID = find("wikitext-2-raw/wiki.valid.raw")  # shipped in tests/data/real


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "bpe_core", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_train_then_encode_json(tmp_path):
    out = tmp_path / "v.json"
    r = cli("train", VALID, "--preset", "gpt2", "--vocab-size", "600", "-o", out)
    assert r.returncode == 0, r.stderr
    assert "merging" in r.stderr and "100.0%" in r.stderr  # the progress bar
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "bpe-lens" and data["version"] == 1 and data["preset"] == "gpt2"
    assert len(data["vocab"]) == 600 and data["merges"][0][2] > 0
    assert data["merges"][0][:2] == ["Ġ", "t"]  # byte-level tokens in GPT-2 glyphs
    r = cli("encode", "--vocab", out, "--text", "The tower is tall.", "--json")
    assert r.returncode == 0, r.stderr
    enc = json.loads(r.stdout)
    assert "".join(enc["tokens"]).replace("Ġ", " ") == "The tower is tall."
    assert len(enc["ids"]) == len(enc["tokens"])


def test_train_merges_and_tie_break_flags(tmp_path):
    out = tmp_path / "v.json"
    r = cli("train", VALID, "--preset", "char-whitespace", "--merges", "25", "--tie-break", "lexicographic",
            "--min-word-count", "2", "-q", "-o", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data["merges"]) == 25 and data["config"]["tie_break"] == "lexicographic"
    assert r.stderr == ""


def test_vocab_size_and_merges_together_stop_at_whichever_comes_first(tmp_path):
    """Seed 002 sets vocab_size and max_iter together (issue 10): both flags are allowed."""
    out = tmp_path / "v.json"
    r = cli("train", VALID, "--preset", "char-whitespace", "--vocab-size", "100000", "--merges", "7", "-q", "-o", out)
    assert r.returncode == 0, r.stderr
    assert len(json.loads(out.read_text(encoding="utf-8"))["merges"]) == 7
    r = cli("train", VALID, "--preset", "gpt2", "--vocab-size", "300", "--merges", "500", "-q", "-o", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert len(data["vocab"]) == 300 and len(data["merges"]) == 300 - 257


def test_train_reads_compressed_corpus(tmp_path):
    gz = tmp_path / "c.txt.gz"
    gz.write_bytes(gzip.compress(VALID.read_bytes()[:200_000]))
    r = cli("train", gz, "--preset", "byte-ascii", "--vocab-size", "300", "-q", "-o", tmp_path / "v.json")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("args, message", [
    (["train", "NOPE.txt", "--preset", "gpt2", "-o", "x.json"], "NOPE.txt"),
    (["train", "{valid}", "--preset", "nonsense", "-o", "x.json"], "nonsense"),
    (["train", "{valid}", "--preset", "gpt2", "--vocab-size", "-5", "-o", "x.json"], "vocab size"),
    (["train", "{valid}", "--preset", "gpt2", "--vocab-size", "ten", "-o", "x.json"], "invalid int"),
    (["train", "{valid}", "--preset", "gpt2", "-o", "/no/such/folder/x.json"], "folder"),
    (["train", "{empty}", "--preset", "gpt2", "-o", "x.json"], "empty"),
    (["train", "{binary}", "--preset", "gpt2", "-o", "x.json"], "binary"),
    (["encode", "--vocab", "{empty}", "--text", "x"], "empty"),
    (["encode", "--vocab", "NOPE.json", "--text", "x"], "NOPE.json"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02" * 100)
    subst = {"{valid}": str(VALID), "{empty}": str(tmp_path / "empty.txt"), "{binary}": str(tmp_path / "binary.txt")}
    r = cli(*[subst.get(a, a) for a in args], cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = [ln for ln in r.stderr.split("\n") if ln.strip()]
    # issue 25: the line names the program and the subcommand (none before a subcommand is known)
    prefix = f"bpe-lens-cli {args[0]}: error: " if args[:1] in (["train"], ["encode"]) else "bpe-lens-cli: error: "
    assert len(lines) == 1 and lines[0].startswith(prefix) and "Traceback" not in r.stderr, r.stderr
    assert message.lower() in lines[0].lower()


def test_undecodable_corpus_names_offset_and_replace_works(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"hello world\n" * 10 + b"caf\xe9 au lait\n")
    r = cli("train", bad, "--preset", "char-whitespace", "--merges", "5", "-o", tmp_path / "v.json")
    assert r.returncode == 2 and "123" in r.stderr  # 10 * 12 bytes + "caf"
    r = cli("train", bad, "--preset", "char-whitespace", "--merges", "5", "--errors", "replace", "-q",
            "-o", tmp_path / "v.json")
    assert r.returncode == 0, r.stderr
