"""One wording per message kind (issue 24): every reader says a missing or unreadable file the same way.

A corpus, a vocabulary in any format, a workspace, a word-count table and the CLI's ``--file`` all read
files; a user who mistypes a path meets one sentence, ``PATH: no such file or folder``, whichever of them
read it (there were three: "file not found (PATH)", "PATH does not exist", "PATH: no such file").
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Dict

import pytest

from bpe_core.base.file_errors import no_such_file, read_error
from bpe_core.cli.commands import main
from bpe_core.corpus.counting import iter_lines
from bpe_core.corpus.table import read_table
from bpe_core.formats import read_tiktoken, read_tokenizer_json, read_vocab_merges
from bpe_core.formats.detect import open_vocabulary
from bpe_core.formats.native import read_native
from bpe_core.formats.sentencepiece_model import read_sentencepiece
from bpe_core.formats.workspace import read_workspace
from bpe_core.types import BPELensError

READERS: Dict[str, Callable[[str], Any]] = {
    "corpus": lambda p: list(iter_lines(p)),
    "word-count table": read_table,
    "tokenizer.json": read_tokenizer_json,
    "native vocabulary": read_native,
    ".tiktoken": lambda p: read_tiktoken(p, pattern=r"\S+"),
    "sentencepiece .model": read_sentencepiece,
    "any vocabulary": open_vocabulary,
    "workspace": read_workspace,
}
NAMES = {"word-count table": "words.tsv", ".tiktoken": "r50k_base.tiktoken", "sentencepiece .model": "sp.model"}


def _message(reader: str, path: Path) -> str:
    with pytest.raises(BPELensError) as e:
        READERS[reader](str(path))
    return str(e.value)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_missing_file_is_said_in_one_wording(tmp_path: Path, reader: str) -> None:
    path = tmp_path / NAMES.get(reader, "gone.json")
    assert _message(reader, path) == f"{path}: no such file or folder"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
@pytest.mark.parametrize("reader", sorted(set(READERS) - {"any vocabulary"}))
def test_an_unreadable_file_is_said_in_one_wording(tmp_path: Path, reader: str) -> None:
    path = tmp_path / NAMES.get(reader, "locked.json")
    path.write_bytes(b"x")
    path.chmod(0)
    assert _message(reader, path) == f"{path}: cannot read (Permission denied)"


def test_a_missing_partner_file_names_what_is_missing(tmp_path: Path) -> None:
    """vocab.json without merges.txt is another kind: the pair is incomplete, said as such."""
    (tmp_path / "vocab.json").write_text("{}", encoding="utf-8")
    with pytest.raises(BPELensError, match="needs merges.txt beside it"):
        read_vocab_merges(str(tmp_path / "vocab.json"))


def test_the_cli_says_it_in_the_same_wording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vocab = tmp_path / "v.tiktoken"
    vocab.write_text("YQ== 0\nYg== 1\n", encoding="ascii")
    gone = tmp_path / "notes.txt"
    assert main(["encode", "--vocab", str(vocab), "--pattern", r"\S+", "--file", str(gone)]) != 0
    assert capsys.readouterr().err.strip().endswith(f"error: {gone}: no such file or folder")


def test_read_error_keeps_the_reason_and_the_path() -> None:
    assert str(read_error("a/b.txt", FileNotFoundError(2, "No such file or directory"))) == no_such_file("a/b.txt")
    assert str(read_error("a/b.txt", IsADirectoryError(21, "Is a directory"))) == "a/b.txt: cannot read (Is a directory)"


NOT_UTF8 = b"caf\xe9 1\n"  # Latin-1: the first bad byte is byte 3


@pytest.mark.parametrize("reader", ["corpus", "word-count table", "tokenizer.json", "any vocabulary"])
def test_text_that_is_not_utf8_is_said_in_one_wording(tmp_path: Path, reader: str) -> None:
    path = tmp_path / NAMES.get(reader, "latin1.json")
    path.write_bytes(NOT_UTF8)
    said = _message(reader, path)
    assert said.split(": ", 1)[-1].startswith("not valid UTF-8 at byte 3"), said


@pytest.mark.parametrize("reader", ["corpus", "tokenizer.json", ".tiktoken"])
def test_a_binary_file_is_said_in_one_wording(tmp_path: Path, reader: str) -> None:
    path = tmp_path / NAMES.get(reader, "image.json")
    path.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    assert _message(reader, path) == f"{path.name}: looks like a binary file (NUL byte at byte 8), not text"
