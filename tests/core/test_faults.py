"""Fault injection for every writer: a full disk at any write, kill -9 at random moments of a save.

Each test asserts the exact message and that the old files are intact (byte for byte), and that no
temp file is left behind (after the failed save itself, or after the next save for a SIGKILL).
"""
from __future__ import annotations

import errno
import json
import os
import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Dict

import pytest

from bpe_core.formats.temps import TEMP_MARK, remove_stale_temps, remove_stale_temps_in
from bpe_core.formats.detect import open_vocabulary, write_vocabulary
from bpe_core.formats.writers import vocab_merges_paths
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError

WORDS = {"hello": 5, "world": 3, "low": 4, "lower": 2, "newest": 6, "widest": 3}
#: format -> (name of the output, preset that can be saved in it)
OUTPUTS = {"native": ("v.json", "gpt2"), "tokenizer.json": ("tokenizer.json", "gpt2"),
           "vocab-merges": ("out", "gpt2"), "tiktoken": ("v.tiktoken", "gpt2"),
           "seed000": ("seed", "nltk-wordpunct")}


def trained(preset: str, merges: int):
    t = Trainer(WORDS, make_config(preset, num_merges=merges))
    t.run()
    return t.model()


def snapshot(folder: Path) -> Dict[str, bytes]:
    """Every file under ``folder`` (relative name -> bytes): the state a failed save must keep."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class FullDisk:
    """A file system that fills up: the ``n``-th write into a file opened by the save raises ENOSPC."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fail_at: int) -> None:
        self.writes = 0
        self.fail_at = fail_at
        real_fdopen = os.fdopen
        disk = self

        class File:
            def __init__(self, f) -> None:
                self._f = f

            def write(self, data: bytes) -> int:
                disk.writes += 1
                if disk.writes == disk.fail_at:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                return self._f.write(data)

            def __getattr__(self, name):
                return getattr(self._f, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc) -> None:
                self._f.close()

        monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: File(real_fdopen(fd, *a, **k)))


def files_written(fmt: str) -> int:
    return {"vocab-merges": 2, "seed000": 3}.get(fmt, 1)


@pytest.mark.parametrize("fmt", list(OUTPUTS))
def test_full_disk_keeps_the_old_files_for_every_writer(tmp_path: Path, monkeypatch, fmt: str) -> None:
    name, preset = OUTPUTS[fmt]
    out = tmp_path / name
    write_vocabulary(trained(preset, 2), out, fmt)
    before = snapshot(tmp_path)
    new = trained(preset, 6)
    for fail_at in range(1, files_written(fmt) + 1):  # the disk fills at the 1st, 2nd, ... file
        with monkeypatch.context() as patched, pytest.raises(BPELensError) as err:
            FullDisk(patched, fail_at)
            write_vocabulary(new, out, fmt)
        failed = _nth_file(out, fmt, fail_at)
        assert str(err.value) == f"{failed}: write failed (No space left on device)"
        assert snapshot(tmp_path) == before  # old files intact, no temp file left
    write_vocabulary(new, out, fmt)  # the disk has room again: the new files, complete
    assert snapshot(tmp_path) != before and not [p for p in tmp_path.rglob("*") if TEMP_MARK in p.name]


def _nth_file(out: Path, fmt: str, n: int) -> Path:
    if fmt == "vocab-merges":
        return vocab_merges_paths(out)[n - 1]
    if fmt == "seed000":
        return out / ("freqs.json", "vocab_to_idx.json", "idx_to_vocab.json")[n - 1]
    return out


def test_failed_rename_of_the_second_file_keeps_the_old_pair(tmp_path: Path, monkeypatch) -> None:
    write_vocabulary(trained("gpt2", 2), tmp_path, "vocab-merges")
    before = snapshot(tmp_path)
    calls = []

    def replace(src, dst):
        calls.append(dst)
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(BPELensError, match=r"vocab\.json: write failed \(Input/output error\)"):
        write_vocabulary(trained("gpt2", 6), tmp_path, "vocab-merges")
    assert snapshot(tmp_path) == before and len(calls) == 1


def test_symlink_is_written_through(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "v.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_vocabulary(trained("gpt2", 3), link, "native")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert open_vocabulary(target).merges == open_vocabulary(link).merges and len(open_vocabulary(link).merges) == 3


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temp_files_are_removed_by_the_next_save(tmp_path: Path) -> None:
    out = tmp_path / "v.json"
    dead = tmp_path / f".v.json{TEMP_MARK}{_dead_pid()}-abcd1234"
    alive = tmp_path / f".v.json{TEMP_MARK}{os.getppid()}-abcd1234"  # a live writer's: left alone
    legacy = tmp_path / ".v.json.abcd_123.tmp"
    other = tmp_path / f".w.json{TEMP_MARK}{_dead_pid()}-abcd1234"
    for p in (dead, alive, legacy, other):
        p.write_text("half", encoding="utf-8")
    os.utime(legacy, (time.time() - 3600, time.time() - 3600))
    write_vocabulary(trained("gpt2", 2), out, "native")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["v.json", alive.name, other.name])
    assert remove_stale_temps(out) == [] and remove_stale_temps_in(tmp_path) == [other.name]


SAVER = textwrap.dedent("""
    import sys
    from bpe_core.formats.detect import write_vocabulary
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer
    words = {"hello": 5, "world": 3, "low": 4, "lower": 2, "newest": 6, "widest": 3}
    models = []
    for n in (2, 6):
        t = Trainer(words, make_config("gpt2", num_merges=n))
        t.run()
        models.append(t.model())
    print("ready", flush=True)
    i = 0
    while True:
        write_vocabulary(models[i % 2], sys.argv[1], "vocab-merges")
        i += 1
""")


@pytest.mark.slow
def test_kill_9_during_saves_leaves_old_or_new_pair_never_a_mix(tmp_path: Path) -> None:
    pairs = []
    for n in (2, 6):  # the two complete pairs the saver alternates between
        folder = tmp_path / f"ref{n}"
        write_vocabulary(trained("gpt2", n), folder, "vocab-merges")
        pairs.append(snapshot(folder))
    out = tmp_path / "out"
    write_vocabulary(trained("gpt2", 2), out, "vocab-merges")
    rng = random.Random(14)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    for _ in range(20):
        proc = subprocess.Popen([sys.executable, "-c", SAVER, str(out)], stdout=subprocess.PIPE, env=env)
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0, 0.05))
        proc.kill()
        proc.wait()
        proc.stdout.close()
        model = open_vocabulary(out)  # a read finishes a save killed between its two renames
        state = {k: v for k, v in snapshot(out).items() if TEMP_MARK not in k}
        assert state in pairs and len(model.merges) in (2, 6)  # the old pair or the new one, complete
    write_vocabulary(trained("gpt2", 6), out, "vocab-merges")  # the next save removes the leftovers
    assert snapshot(out) == pairs[1]


def test_a_journal_left_by_a_kill_between_renames_is_finished(tmp_path: Path) -> None:
    write_vocabulary(trained("gpt2", 2), tmp_path / "old", "vocab-merges")
    write_vocabulary(trained("gpt2", 6), tmp_path / "new", "vocab-merges")
    out, dead = tmp_path / "old", _dead_pid()
    renames = []
    for name in ("vocab.json", "merges.txt"):  # what a save killed just before its renames leaves
        tmp = out / f".{name}{TEMP_MARK}{dead}-abcd1234"
        tmp.write_bytes((tmp_path / "new" / name).read_bytes())
        renames.append([str(tmp), str(out / name)])
    os.replace(renames[0][0], renames[0][1])  # ... and one rename made
    (out / f".vocab.json{TEMP_MARK}{dead}-abcd1234.pair").write_text(json.dumps(renames), encoding="utf-8")
    assert len(open_vocabulary(out).merges) == 6
    assert snapshot(out) == snapshot(tmp_path / "new")
