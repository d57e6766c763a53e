"""Corpus files: decoding like Python's open(), compressed files, errors, progress/cancel, counting."""
from __future__ import annotations

import bz2
import gzip
import lzma
import os
import time
from collections import Counter
from pathlib import Path
from typing import List

import pytest

from bpe_core.corpus import counting as corpus
from bpe_core.corpus.counting import count_words, count_words_in_texts, iter_lines, read_text
from bpe_core.pretokenize.pretokenizers import get_pretokenizer
from bpe_core.types import BPELensError, Cancelled, Progress, TrainerConfig

ALICE = "bench/gutenberg/alice_in_wonderland.txt"  # CRLF + BOM
BIG = "bench/gutenberg/les_miserables.txt"  # 3.3 MB, CRLF + BOM, no final newline: parallel path
COMPRESS = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}


def python_lines(path: Path) -> List[str]:
    with open(path, encoding="utf-8-sig") as f:  # what a user's own script would read
        return list(f)


def put(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


class TestReading:
    def test_lines_like_python_open(self, real) -> None:
        for rel in (ALICE, "tinyshakespeare.txt", "chinese/sanguo_yanyi.txt", "bench/multilingual/de_faust.txt"):
            path = real.path(rel)
            assert list(iter_lines(path)) == python_lines(path), rel
            assert read_text(path) == real.text(rel)

    @pytest.mark.parametrize("ext", list(COMPRESS))
    def test_compressed_round_trip(self, real, tmp_path: Path, ext: str) -> None:
        raw = real.path(ALICE).read_bytes()
        # Detected by magic bytes: the misleading ".txt" name must not matter.
        for name in (f"alice.txt{ext}", "alice.txt"):
            path = put(tmp_path, name, COMPRESS[ext](raw))
            assert list(iter_lines(path)) == python_lines(real.path(ALICE))

    def test_bom_crlf_lone_cr_and_last_line(self, tmp_path: Path) -> None:
        data = b"\xef\xbb\xbfa\r\nb\rc\n\xef\xbb\xbfd\r\n\r\ne"
        path = put(tmp_path, "x.txt", data)
        assert list(iter_lines(path)) == ["a\n", "b\n", "c\n", "\ufeffd\n", "\n", "e"]  # only a LEADING BOM goes
        assert list(iter_lines(path)) == python_lines(path)

    def test_text_starting_like_a_magic_number_is_text(self, tmp_path: Path) -> None:
        path = put(tmp_path, "b.txt", b"BZh9 is not bzip2\n")  # the real magic goes on "1AY&SY"
        assert list(iter_lines(path)) == ["BZh9 is not bzip2\n"]

    def test_long_line_crosses_blocks(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(corpus, "BLOCK_BYTES", 64)
        text = "é" * 100 + "\r\n" + "x" * 70 + "\r" + "\n" * 3 + "end"
        path = put(tmp_path, "long.txt", text.encode())
        assert list(iter_lines(path)) == python_lines(path)


class TestErrors:
    def message(self, path, **kw) -> str:
        with pytest.raises(BPELensError) as e:
            list(iter_lines(path, **kw))
        assert "\n" not in str(e.value)
        return str(e.value)

    def test_missing_and_folder(self, tmp_path: Path) -> None:
        assert self.message(tmp_path / "nope.txt") == f"{tmp_path / 'nope.txt'}: no such file or folder"
        assert self.message(tmp_path) == f"{tmp_path.name}: is a folder, not a file"

    @pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
    def test_permission_denied(self, tmp_path: Path) -> None:
        path = put(tmp_path, "secret.txt", b"x")
        path.chmod(0)
        assert self.message(path) == f"{path}: cannot read (Permission denied)"

    @pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs Linux /proc")
    def test_unreadable(self) -> None:
        # Opens fine, but reading it fails with an I/O error.
        assert self.message("/proc/self/mem").startswith("/proc/self/mem: cannot read (")

    def test_not_utf8_names_the_real_offset(self, real, tmp_path: Path) -> None:
        raw = bytearray(real.path("tinyshakespeare.txt").read_bytes())
        raw[123456] = 0xFF
        want = "corpus.txt: not valid UTF-8 at byte 123456 (0xFF); decode with replacement to continue"
        assert self.message(put(tmp_path, "corpus.txt", bytes(raw))) == want
        gz = put(tmp_path, "corpus.txt.gz", gzip.compress(bytes(raw)))
        assert self.message(gz) == want.replace("corpus.txt", "corpus.txt.gz")
        with pytest.raises(BPELensError, match="^corpus.txt: not valid UTF-8 at byte 123456 "):
            count_words(tmp_path / "corpus.txt", TrainerConfig())
        text = read_text(gz, errors="replace")
        assert text[123456] == "\ufffd" and len(text) == len(raw)

    def test_not_utf8_after_bom_and_in_a_cut_character(self, tmp_path: Path) -> None:
        path = put(tmp_path, "c.txt", b"\xef\xbb\xbfab\xc3\nz")  # a 2-byte character cut by the newline
        assert self.message(path).startswith("c.txt: not valid UTF-8 at byte 5 (0xC3);")
        assert list(iter_lines(path, errors="replace")) == ["ab\ufffd\n", "z"]

    def test_empty_and_whitespace(self, tmp_path: Path) -> None:
        assert self.message(put(tmp_path, "e.txt", b"")) == "e.txt: the file is empty"
        assert self.message(put(tmp_path, "bom.txt", b"\xef\xbb\xbf")) == "bom.txt: the file is empty"
        assert self.message(put(tmp_path, "e.gz", gzip.compress(b""))) == "e.gz: the file is empty"
        ws = put(tmp_path, "ws.txt", b" \r\n\t\n\xe3\x80\x80\n")
        assert self.message(ws) == "ws.txt: the file contains only whitespace"
        with pytest.raises(BPELensError, match="^ws.txt: the file contains only whitespace$"):
            count_words(ws, TrainerConfig(pretokenizer="gpt2"))

    @pytest.mark.parametrize("ext", list(COMPRESS))
    def test_corrupt_compressed(self, real, tmp_path: Path, ext: str) -> None:
        packed = COMPRESS[ext](real.path(ALICE).read_bytes())
        kind = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}[ext]
        truncated = put(tmp_path, f"cut{ext}", packed[: len(packed) // 2])
        assert self.message(truncated).startswith(f"cut{ext}: corrupt {kind} data (")
        garbled = bytearray(packed)
        garbled[len(packed) // 2: len(packed) // 2 + 64] = bytes(64)
        assert self.message(put(tmp_path, f"bad{ext}", bytes(garbled))).startswith(f"bad{ext}: corrupt {kind} data (")

    def test_binary(self, real, tmp_path: Path) -> None:
        png = put(tmp_path, "image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
        assert self.message(png) == "image.txt: looks like a binary file (NUL byte at byte 8), not text"
        text = real.path(ALICE).read_bytes()
        late = put(tmp_path, "late.txt", text[:20000] + b"\x00" + text[20000:])  # after 8 KB: decoded as U+0000
        assert "\x00" in read_text(late)


class TestProgressAndCancel:
    @pytest.mark.parametrize("workers", [1, 2])
    def test_progress(self, real, workers: int) -> None:
        seen: List[Progress] = []
        path = real.path(BIG)
        start = time.monotonic()
        count_words(path, TrainerConfig(pretokenizer="whitespace"), progress=seen.append, workers=workers)
        elapsed = time.monotonic() - start
        size = path.stat().st_size
        assert seen[-1] == Progress(size, size, "bytes")
        assert [p.done for p in seen] == sorted(p.done for p in seen)
        assert len(seen) <= elapsed * 20 + 2

    def test_cancel_sequential_and_parallel(self, real) -> None:
        path = real.path(BIG)
        for workers in (1, 2):
            calls = []
            with pytest.raises(Cancelled):
                count_words(path, TrainerConfig(pretokenizer="gpt2"), workers=workers,
                            cancel=lambda: calls.append(1) or len(calls) > 1)
        with pytest.raises(Cancelled):
            next(iter_lines(path, cancel=lambda: True))

    def test_cancel_during_punkt(self, real) -> None:
        # Progress is reported only while sentences are split: cancel once that has started.
        seen: List[Progress] = []
        with pytest.raises(Cancelled):
            count_words(real.path(ALICE), TrainerConfig(pretokenizer="punkt-wordpunct"),
                        progress=seen.append, cancel=lambda: bool(seen))
        assert 0 < seen[0].done < seen[0].total


def reference_count(path: Path, config: TrainerConfig) -> dict:
    """The obvious loop: each line (Python open) through the pre-tokenizer, first appearance order."""
    pre, out = get_pretokenizer(config), {}
    for line in python_lines(path):
        for w in pre.words(line.lower() if config.lowercase else line):
            out[w] = out.get(w, 0) + 1
    return out


class TestCounting:
    @pytest.mark.parametrize("name", ["whitespace", "gpt2", "seed001", "cjk"])
    def test_sequential_equals_reference(self, real, name: str) -> None:
        path = real.path("chinese/sanguo_yanyi.txt" if name == "cjk" else ALICE)
        config = TrainerConfig(pretokenizer=name, lowercase=name == "gpt2")
        got = count_words(path, config, workers=1)
        assert list(got.items()) == list(reference_count(path, config).items())
        assert list(got.items()) == list(count_words_in_texts(iter_lines(path), config).items())

    def test_parallel_equals_sequential(self, real, caplog: pytest.LogCaptureFixture) -> None:
        path = real.path(BIG)
        config = TrainerConfig(pretokenizer="gpt2", unit="bytes")
        seq = count_words(path, config, workers=1)
        par = count_words(path, config, workers=2)
        assert list(par.items()) == list(seq.items())  # counts AND first-appearance order
        assert sum(seq.values()) > 500_000
        assert "worker pool failed" not in caplog.text  # the pool really ran

    def test_a_script_from_stdin_counts_silently(self, real, tmp_path: Path) -> None:
        # A script read from stdin cannot be re-imported by spawn/forkserver workers: the pool
        # forks instead (or counts in one process), with no child traceback and no warning
        # (issue 14 asks for silence; this test used to expect the fallback's warning).
        import subprocess
        import sys

        code = (f"from bpe_core.corpus.counting import count_words\nfrom bpe_core.types import TrainerConfig\n"
                f"print(len(count_words({str(real.path(BIG))!r}, TrainerConfig(), workers=2)))\n")
        env = dict(os.environ, PYTHONPATH=str(real.repo))
        out = subprocess.run([sys.executable, "-"], input=code, env=env, cwd=tmp_path, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert int(out.stdout) == len(count_words(real.path(BIG), TrainerConfig(), workers=1))
        assert out.stderr == ""

    def test_parallel_many_chunks(self, real, monkeypatch: pytest.MonkeyPatch) -> None:
        # Small chunks: many merges, words first seen in late chunks, a lowercasing config.
        monkeypatch.setattr(corpus, "PARALLEL_MIN_BYTES", 0)
        monkeypatch.setattr(corpus, "BLOCK_BYTES", 1 << 16)
        path = real.path("bench/multilingual/ru_anna_karenina.txt")
        config = TrainerConfig(pretokenizer="whitespace", lowercase=True)
        seq = count_words(path, config, workers=1)
        assert list(corpus._count_blocks(path, config, "strict", None, None, 2).items()) == list(seq.items())

    def test_parallel_reports_bad_bytes_like_sequential(self, real, tmp_path: Path) -> None:
        raw = bytearray(real.path(BIG).read_bytes())
        raw[2_900_001] = 0xFE
        path = put(tmp_path, "big.txt", bytes(raw))
        for workers in (1, 2):
            with pytest.raises(BPELensError) as e:
                count_words(path, TrainerConfig(), workers=workers)
            assert str(e.value) == ("big.txt: not valid UTF-8 at byte 2900001 (0xFE); "
                                    "decode with replacement to continue")
        replaced = count_words(path, TrainerConfig(), workers=2, errors="replace")
        assert replaced == count_words(path, TrainerConfig(), workers=1, errors="replace")

    def test_punkt_wordpunct_is_seed000_create_vocab(self, real, nltk_with_our_tables: None) -> None:
        from collections import defaultdict

        from nltk import sent_tokenize, wordpunct_tokenize

        path = real.path(ALICE)
        vocab: dict = defaultdict(int)  # seed 000's create_vocab, verbatim
        text = open(path, "r", encoding="utf-8-sig").read()
        for sentence in sent_tokenize(text):
            for token in wordpunct_tokenize(sentence):
                vocab[token] += 1
        got = count_words(path, TrainerConfig(pretokenizer="punkt-wordpunct"))
        assert list(got.items()) == list(vocab.items())

    def test_no_words_and_texts(self, tmp_path: Path) -> None:
        path = put(tmp_path, "p.txt", b"!!! ???\n")
        with pytest.raises(BPELensError, match="^p.txt: the pre-tokenizer 'regex' found no words$"):
            count_words(path, TrainerConfig(pretokenizer="regex", pattern=r"\d+"))
        assert count_words_in_texts(["a b", "B\nA"], TrainerConfig(lowercase=True)) == {"a": 2, "b": 2}
        assert count_words_in_texts(["x1 y22"], TrainerConfig(pretokenizer="regex", pattern=r"\d+")) == {
            "1": 1, "22": 1}
        with pytest.raises(BPELensError, match="found no words"):
            count_words_in_texts(["", "  "], TrainerConfig())

    def test_counts_are_a_real_frequency_table(self, real) -> None:
        path = real.path("tinyshakespeare.txt")
        got = count_words(path, TrainerConfig(pretokenizer="whitespace"))
        assert got == dict(Counter(real.text("tinyshakespeare.txt").split()))
