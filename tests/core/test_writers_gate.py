"""One gate, one writer (issue 23): every file a CLI command writes is checked before any work (never an
input of the run, also through a symlink or a hard link) and written atomically (a full disk or kill -9
leaves the old file, never a partial one, and no temp file).

The outputs are found by introspecting the argparse parser, so a new option that names an output fails
:func:`test_every_output_option_is_enumerated` until it is added to :data:`SCENARIOS` (and so to every test
below). The app's exports are enumerated the same way in ``tests/app/test_writers_gate_app.py``.
"""
from __future__ import annotations

import argparse
import errno
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest

from bpe_core.cli.commands import build_parser, main
from bpe_core.formats.temps import TEMP_MARK

ROOT = Path(__file__).resolve().parents[2]
TEXT = "the lower newest widest low low lower\nthe tower is tall, the lowest tower\n" * 20


@dataclass(frozen=True)
class Scenario:
    """How to run a command so that the output named by its option goes to OUT, and what it reads."""

    argv: Callable[[Path, str], List[str]]  # (folder, OUT) -> argv
    inputs: Tuple[str, ...]  # names in the folder the command reads
    name: str  # a good output name (its suffix chooses the format)


def _train(d: Path, out: str) -> List[str]:
    return ["train", str(d / "c.txt"), "--preset", "gpt2", "--merges", "5", "-q", "-o", out]


SCENARIOS: Dict[Tuple[str, str], Scenario] = {
    ("train", "output"): Scenario(_train, ("c.txt",), "out.json"),
    ("train", "ties_report"): Scenario(lambda d, out: _train(d, str(d / "t.json"))[:-2] + [
        "--tie-break", "first-seen", "-o", str(d / "t.json"), "--ties-report", out], ("c.txt",), "ties.jsonl"),
    ("count", "output"): Scenario(lambda d, out: ["count", str(d / "c.txt"), "--preset", "gpt2", "--workers", "1",
                                                  "-q", "-o", out], ("c.txt",), "table.tsv"),
    ("animate", "output"): Scenario(lambda d, out: ["animate", str(d / "c.txt"), "--preset", "gpt2", "--merges",
                                                    "0..2", "-q", "-o", out], ("c.txt",), "talk.gif"),
    ("svg", "output"): Scenario(lambda d, out: ["svg", str(d / "v.json"), "--word", "lower", "-o", out],
                                ("v.json",), "strip.svg"),
    ("convert", "output"): Scenario(lambda d, out: ["convert", str(d / "v.json"), out, "--to", "tokenizer.json"],
                                    ("v.json",), "tokenizer.json"),
    ("health", "csv"): Scenario(lambda d, out: ["health", str(d / "c.txt"), "--vocab", str(d / "v.json"), "-q",
                                                "--csv", out], ("c.txt", "v.json"), "tokens.csv"),
    ("tokens", "csv"): Scenario(lambda d, out: ["tokens", str(d / "v.json"), "--corpus", str(d / "c.txt"), "-q",
                                                "--csv", out], ("c.txt", "v.json"), "biography.csv"),
    ("curves", "csv"): Scenario(lambda d, out: ["curves", str(d / "v.json"), "--eval", str(d / "c.txt"), "--every",
                                                "2", "-q", "--csv", out], ("c.txt", "v.json"), "curves.csv"),
    ("curves", "parquet"): Scenario(lambda d, out: ["curves", str(d / "v.json"), "--eval", str(d / "c.txt"),
                                                    "--every", "2", "-q", "--parquet", out], ("c.txt", "v.json"),
                                    "curves.parquet"),
}
#: a second way of reading an input: `train --from VOCAB` (finding 17)
FROM = Scenario(lambda d, out: ["train", str(d / "c.txt"), "--from", str(d / "v.json"), "--merges", "3", "-q",
                                "-o", out], ("c.txt", "v.json"), "more.json")
#: curves trains a run on CORPUS when --preset is given: the corpus is an input too
CURVES_RUN = Scenario(lambda d, out: ["curves", str(d / "c.txt"), "--preset", "gpt2", "--merges", "5", "--eval",
                                      str(d / "c.txt"), "--every", "2", "-q", "--csv", out], ("c.txt",), "run.csv")
ALL = {**{f"{c} {o}": s for (c, o), s in SCENARIOS.items()}, "train --from": FROM, "curves CORPUS": CURVES_RUN}


def output_options() -> set:
    """(command, dest) of every option that names a file the command writes."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {(name, a.dest) for name, p in sub.choices.items() for a in p._actions
            if a.dest == "output" or re.search(r"\bwrit|\bsave", a.help or "", re.I)
            or a.metavar in ("FILE", "OUT")}


def test_every_output_option_is_enumerated() -> None:
    assert output_options() == set(SCENARIOS)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "c.txt").write_text(TEXT, encoding="utf-8")
    assert main(_train(tmp_path, str(tmp_path / "v.json"))) == 0
    return tmp_path


def run(capsys, argv: List[str]) -> Tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def leftovers(d: Path) -> List[str]:
    return sorted(p.name for p in d.iterdir() if TEMP_MARK in p.name)


# -- the gate: an input is never an output, whatever the link -------------------------------------
@pytest.mark.parametrize("link", ["same path", "symlink", "hard link"])
@pytest.mark.parametrize("key", list(ALL))
def test_an_input_is_never_an_output(capsys, folder: Path, key: str, link: str) -> None:
    s = ALL[key]
    for name in s.inputs:
        source = folder / name
        before = source.read_bytes()
        out = source
        if link != "same path":  # a link named like a good output, so only the gate can refuse it
            out = folder / f"link-to-{name}-{s.name}"
            out.unlink(missing_ok=True)
            out.symlink_to(source) if link == "symlink" else os.link(source, out)
        code, err = run(capsys, s.argv(folder, str(out)))
        assert code == 2 and err.count("\n") == 1, err
        if link != "same path" or key in ("train output", "train ties_report", "count output", "health csv",
                                           "train --from"):
            assert err == (f"bpe-lens-cli {key.split()[0]}: error: {out}: is an input of this command; an output "
                           "never replaces an input\n")
        assert source.read_bytes() == before and not leftovers(folder)


def test_the_ties_report_is_not_the_vocabulary(capsys, folder: Path) -> None:
    """Finding 22: --ties-report equal to -o is named as such, not "an input"."""
    out = str(folder / "t.json")
    code, err = run(capsys, SCENARIOS["train", "ties_report"].argv(folder, out))
    assert code == 2 and err == (f"bpe-lens-cli train: error: {out}: is the same file as -o; give each output a path "
                                 "of its own\n")


@pytest.mark.parametrize("out", ["/dev/stdout", "/dev/stderr"])
def test_standard_output_is_explained(capsys, folder: Path, out: str) -> None:
    """Finding 22: -o /dev/stdout is said to be standard output, not "under /proc", and that '-' is its name."""
    code, err = run(capsys, _train(folder, out))
    assert code == 2 and err == (f"bpe-lens-cli train: error: {out}: is standard output or a terminal, not a file; "
                                 "BPE Lens writes a file through a temp file renamed into place (nothing "
                                 "half-written): give a file path, or '-' for standard output\n")


def test_dash_is_standard_output(capsys, folder: Path) -> None:
    """Issue 25: `-o -` writes the output to standard output (it was refused as a terminal here, as /dev/stdout
    is; tools users know write stdout for '-'): stdout is no file, so the gate has no file to check, and the
    vocabulary is printed whole once made (tests/core/test_cli_conventions.py runs it for every output)."""
    assert main(_train(folder, str(folder / "file.json"))) == 0
    capsys.readouterr()
    code = main(_train(folder, "-"))
    out, err = capsys.readouterr()
    assert (code, err) == (0, "") and out == (folder / "file.json").read_text(encoding="utf-8")
    assert not (folder / "-").exists() and not Path("-").exists()


# -- the writer: a full disk mid-write keeps the old file and names the file ---------------------------
class DiskFills:
    """Files opened through ``os.fdopen`` (the atomic writer's temp files) take ``room`` bytes, then ENOSPC
    (the part that fits is written first: a full disk mid-write); ``room=None``: count the bytes only."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, room=None) -> None:
        self.room, self.written = room, 0
        self.files: List[int] = []  # the total written when each file was opened
        real = os.fdopen
        disk = self

        class File:
            def __init__(self, f) -> None:
                self._f = f

            def write(self, data) -> int:
                if disk.room is not None and disk.written + len(data) > disk.room:
                    self._f.write(data[: disk.room - disk.written])
                    self._f.flush()
                    disk.written = disk.room
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                disk.written += len(data)
                return self._f.write(data)

            def __getattr__(self, name):
                return getattr(self._f, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc) -> None:
                self._f.close()

            def __iter__(self):
                return iter(self._f)

        def fdopen(fd, *a, **k):
            self.files.append(self.written)
            return File(real(fd, *a, **k))

        monkeypatch.setattr(os, "fdopen", fdopen)

    def first_file(self) -> int:
        """Bytes written into the first file opened (the output under test: the ties report is written
        while training, before the vocabulary)."""
        return (self.files[1:] or [self.written])[0]


@pytest.mark.parametrize("key", list(SCENARIOS), ids=" ".join)
def test_a_full_disk_mid_write_keeps_the_old_file(capsys, folder: Path, monkeypatch, key) -> None:
    s = SCENARIOS[key]
    out = folder / s.name
    with monkeypatch.context() as m:  # how much the output writes
        disk = DiskFills(m)
        assert run(capsys, s.argv(folder, str(out)))[0] == 0
    size = disk.first_file()
    assert size > 1
    out.write_bytes(b"old")
    snapshot = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    with monkeypatch.context() as m:
        DiskFills(m, room=size // 2)
        code, err = run(capsys, s.argv(folder, str(out)))
    assert code == 2 and err == f"bpe-lens-cli {key[0]}: error: {out}: write failed (No space left on device)\n"
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == snapshot  # no temp, old intact


@pytest.mark.parametrize("key", list(SCENARIOS), ids=" ".join)
def test_a_failed_fsync_keeps_the_old_file(capsys, folder: Path, monkeypatch, key) -> None:
    s = SCENARIOS[key]
    out = folder / s.name
    out.write_bytes(b"old")

    def full(*a):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as m:
        m.setattr(os, "fsync", full)
        code, err = run(capsys, s.argv(folder, str(out)))
    assert code == 2 and err == f"bpe-lens-cli {key[0]}: error: {out}: write failed (No space left on device)\n"
    assert out.read_bytes() == b"old" and not leftovers(folder)


# -- kill -9 in the middle of the write: the old file or the new one, never a part --------------------
KILLED = textwrap.dedent("""
    import os, sys, time
    marker, argv = sys.argv[1], sys.argv[2:]
    real = os.fdopen
    class File:
        def __init__(self, f):
            self._f, self.n = f, 0
        def write(self, data):
            n = self._f.write(data[: max(1, len(data) // 2)])
            self._f.flush()
            open(marker, "w").close()  # half of it is on disk: now kill me
            time.sleep(60)
        def __getattr__(self, name):
            return getattr(self._f, name)
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self._f.close()
    os.fdopen = lambda fd, *a, **k: File(real(fd, *a, **k))
    from bpe_core.cli.commands import main
    sys.exit(main(argv))
""")


@pytest.mark.parametrize("key", list(SCENARIOS), ids=" ".join)
def test_kill_9_mid_write_leaves_the_old_file(folder: Path, capsys, key) -> None:
    s = SCENARIOS[key]
    out, marker = folder / s.name, folder / "marker"
    out.write_bytes(b"old")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", KILLED, str(marker), *s.argv(folder, str(out))], env=env,
                            stderr=subprocess.PIPE)
    try:
        for _ in range(1200):
            if marker.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert marker.exists(), proc.stderr.read().decode() if proc.poll() is not None else "no write in 60 s"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
    marker.unlink()
    assert out.read_bytes() == b"old"  # not a part of the new file
    assert run(capsys, s.argv(folder, str(out)))[0] == 0  # the next save: complete, and the dead temp gone
    assert out.read_bytes() != b"old" and not leftovers(folder)
