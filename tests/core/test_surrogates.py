"""A lone surrogate (U+D800..U+DFFF) is no Unicode text: it has no UTF-8 bytes, so no byte-level BPE can
start from it. Every way in (the Python API, JSON lines whose escapes make one, the command line) says so
in one BPELensError naming where it is, never a raw UnicodeEncodeError."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bpe_core import Encoder, Trainer, make_config
from bpe_core.cli.commands import main
from bpe_core.formats.detect import open_vocabulary
from bpe_core.types import BPELensError

from .paths import need

TEXT = "hello ab\ud800cd world"  # the surrogate at character index 8


def test_from_texts_with_a_byte_preset_names_the_text_and_the_character():
    with pytest.raises(BPELensError, match=r"text 1 has a lone surrogate \(U\+D800\) at character index 8"):
        Trainer.from_texts(["fine text", TEXT], make_config("gpt2", num_merges=3))
    with pytest.raises(BPELensError, match=r"text 0 .*U\+DFFF\) at character index 0"):
        Trainer.from_texts(["\udfff"], make_config("hf-course", num_merges=3))


@pytest.mark.parametrize("vocab", ["gpt2/tokenizer.json", "tiktoken_ranks/o200k_base.tiktoken", "trained"])
def test_encoding_names_the_character(vocab):
    if vocab == "trained":
        t = Trainer.from_texts(["ab cd ab cd"], make_config("gpt2", num_merges=2))
        t.run()
        model = t.model()
    else:
        model = open_vocabulary(need(vocab))
    enc = Encoder(model)
    for call in (enc.encode_ids, enc.encode):
        with pytest.raises(BPELensError, match=r"the text has a lone surrogate \(U\+D800\) at character index 8"):
            call(TEXT)
    long = "word " * 20_000 + "\udc80"
    with pytest.raises(BPELensError, match=r"U\+DC80\) at character index 100000"):
        enc.encode_ids(long)
    assert enc.encode_ids("hello ab") == enc.encode_ids("hello ab")  # the encoder still works after it


def test_count_of_json_lines_names_the_line_and_the_character(tmp_path, capsys):
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text('{"text": "fine"}\n{"text": "hello ab\\ud800cd world"}\n', "utf-8")
    out = tmp_path / "c.tsv"
    code = main(["count", str(corpus), "--field", "text", "--preset", "gpt2", "--workers", "1", "-q", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.strip() == ("bpe-lens-cli count: error: docs.jsonl: the JSON line at byte 17: the text has a lone "
                                         "surrogate (U+D800) at character index 8: it is no Unicode text "
                                         "(it has no UTF-8 bytes)"), err
    assert not out.exists()


def test_encode_command_line_inputs_cannot_carry_a_surrogate(tmp_path):
    vocab = str(need("gpt2/tokenizer.json"))
    cmd = [sys.executable, "-m", "bpe_core", "encode", "--vocab", vocab]
    # a surrogate's UTF-8-like bytes (CESU) on argv, in a file, on standard input
    r = subprocess.run(cmd + [b"--text", b"ab\xed\xa0\x80"], capture_output=True, text=True)
    assert r.returncode == 2 and "bpe-lens-cli encode: error: --text: not valid UTF-8 at byte 2" in r.stderr, r.stderr
    (tmp_path / "t.txt").write_bytes(b"ab\xed\xa0\x80")
    r = subprocess.run(cmd + ["--file", str(tmp_path / "t.txt")], capture_output=True, text=True)
    assert r.returncode == 2 and "not valid UTF-8 at byte 2" in r.stderr, r.stderr
    r = subprocess.run(cmd, input=b"ab\xed\xa0\x80", capture_output=True)
    assert r.returncode == 2 and b"standard input: not valid UTF-8 at byte 2" in r.stderr, r.stderr
