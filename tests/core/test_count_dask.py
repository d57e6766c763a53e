"""Counting on Dask (issue 13) with a real LocalCluster of 2 worker processes over three real files:
the table it gives trains exactly as the files do, and no process outlives the count."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pytest

from bpe_core.corpus.dask_engine import count_dask
from bpe_core.corpus.engines import count_local
from bpe_core.corpus.files import count_words_in_files
from bpe_core.corpus.table import read_table
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer

from .paths import ROOT, need

distributed = pytest.importorskip("distributed")
pytest.importorskip("pyarrow")

THREE = ("wikitext-2-raw/wiki.valid.raw", "tinyshakespeare.txt", "chinese/sanguo_yanyi.txt")


@pytest.fixture(scope="module")
def cluster():
    """One LocalCluster (2 processes) for the module: starting one costs seconds on a loaded machine."""
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR) as c:
        yield c


def merges(counts, cfg, n=250):
    trainer = Trainer(counts, cfg)
    trainer.run(merges=n)
    return trainer.model().merges


@pytest.mark.parametrize("preset", ["gpt2", "hf-course"])
def test_dask_table_trains_exactly_as_the_files(cluster, preset):
    cfg, paths = make_config(preset), [need(rel) for rel in THREE]
    seq = count_words_in_files(paths, cfg)
    # small blocks: many partitions, reduced in a tree, in whatever order the workers finish
    counts, firsts = count_dask(paths, cfg, scheduler=cluster.scheduler_address, chunk=1 << 17)
    assert list(counts.items()) == list(seq.items())
    assert firsts == count_local(paths, cfg, workers=1, chunk=1 << 17)[1]  # same blocks, same keys
    assert merges(counts, cfg) == merges(seq, cfg)


def test_dask_compressed_and_jsonl_inputs(cluster, tmp_path):
    src = need("tinyshakespeare.txt")
    with gzip.open(tmp_path / "s.txt.gz", "wb") as f:
        f.write(src.read_bytes())
    docs = src.read_text(encoding="utf-8").split("\n\n")
    (tmp_path / "d.jsonl").write_text("".join(json.dumps({"text": d}) + "\n" for d in docs), encoding="utf-8")
    cfg = make_config("gpt2")
    paths = [tmp_path / "s.txt.gz", src]
    assert list(count_dask(paths, cfg, scheduler=cluster.scheduler_address, chunk=1 << 16)[0].items()) == \
        list(count_words_in_files(paths, cfg).items())
    got, _ = count_dask([tmp_path / "d.jsonl"], cfg, scheduler=cluster.scheduler_address, text_field="text",
                        chunk=1 << 14)
    assert list(got.items()) == list(count_local([tmp_path / "d.jsonl"], cfg, text_field="text", workers=1)[0].items())


def test_dask_worker_errors_are_one_line(cluster, tmp_path):
    (tmp_path / "d.jsonl").write_text('{"text": "a"}\n{"body": "b"}\n', encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "bpe_core", "count", tmp_path / "d.jsonl", "--field", "text",
                        "--preset", "gpt2", "--engine", "dask", "--scheduler", cluster.scheduler_address,
                        "-o", tmp_path / "c.parquet"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stderr.strip().endswith("d.jsonl: the JSON line at byte 14: no field 'text'")
    assert "Traceback" not in r.stderr


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return []


def test_cli_dask_engine_starts_and_closes_its_own_cluster(tmp_path):
    paths = [need(rel) for rel in THREE]
    out = tmp_path / "c.parquet"
    proc = subprocess.Popen([sys.executable, "-m", "bpe_core", "count", *paths, "--preset", "gpt2", "--engine",
                             "dask", "--workers", "2", "-q", "-o", out], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    seen = set()
    while proc.poll() is None:  # the worker processes while they live
        seen.update(_children(proc.pid))
        try:
            proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            pass
    stderr = proc.stderr.read()
    assert proc.returncode == 0, stderr
    assert list(read_table(out).counts.items()) == list(count_words_in_files(paths, make_config("gpt2")).items())
    alive = [pid for pid in seen if os.path.exists(f"/proc/{pid}") and
             open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"]
    assert not alive, f"processes left behind: {alive}"


# -- issue 25, point 7: Dask's conventions ---------------------------------------------------------------
def run_cli(*args, cwd=None, timeout=120, **kw):
    """The CLI in a child process (from ``cwd``); ``timeout`` only guards against a hang."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "bpe_core", *map(str, args)], text=True, cwd=cwd, env=env,
                          timeout=timeout, **kw)


def error_lines(r):
    return [line for line in r.stderr.splitlines() if line.strip()]


@pytest.mark.parametrize("address", ["tcp:/x", "foo:bar:baz", "tcp://host:notaport", "tcp://host", "tcp://h:70000"])
def test_a_malformed_scheduler_address_is_one_line_before_connecting(tmp_path, address):
    src = need("tinyshakespeare.txt")
    r = run_cli("count", src, "--preset", "gpt2", "--engine", "dask", "--scheduler", address, "-o",
                tmp_path / "c.tsv")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert error_lines(r) == [f"bpe-lens-cli count: error: --scheduler {address!r} is not a scheduler address: "
                              "expected tcp://HOST:PORT (for example tcp://10.0.0.5:8786)"]


def test_well_formed_scheduler_addresses_pass_the_check():
    from bpe_core.corpus.dask_engine import check_scheduler_address
    for address in ("tcp://127.0.0.1:8786", "127.0.0.1:8786", "tls://node-3.cluster.local:8786", "tcp://[::1]:8786",
                    "ws://localhost:1"):
        check_scheduler_address(address)


@pytest.fixture
def silent_port():
    """A port on 127.0.0.1 whose socket accepts connections (the kernel completes them) and never answers."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield s.getsockname()[1]


def _free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("kind", ["refused", "silent"])
def test_an_unreachable_scheduler_gives_up_within_5_s(tmp_path, silent_port, kind):
    """distributed's own handshake waits forever on a socket that never answers (and its default
    connect timeout is 30 s): the command gives up after 5 s and names the address."""
    import time
    address = f"tcp://127.0.0.1:{silent_port if kind == 'silent' else _free_port()}"
    src = need("tinyshakespeare.txt")
    start = time.monotonic()
    r = run_cli("count", src, "--preset", "gpt2", "--engine", "dask", "--scheduler", address, "-o",
                tmp_path / "c.tsv", timeout=90)
    elapsed = time.monotonic() - start  # a hang guard, not a timing: the process itself needs a few seconds
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    [line] = error_lines(r)
    assert line.startswith(f"bpe-lens-cli count: error: cannot reach the Dask scheduler at {address} within 5 s")
    assert elapsed < 15, elapsed


def test_relative_paths_reach_the_workers(cluster, tmp_path):
    """The cluster's workers run in the test's folder, the command in another: the relative path
    means the command's file."""
    src = need("tinyshakespeare.txt")
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "s.txt").write_bytes(src.read_bytes())
    assert not (ROOT / "corpus" / "s.txt").exists()
    r = run_cli("count", "corpus/s.txt", "--preset", "gpt2", "--engine", "dask", "--scheduler",
                cluster.scheduler_address, "-o", "c.parquet", cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    assert list(read_table(tmp_path / "c.parquet").counts.items()) == \
        list(count_words_in_files([src], make_config("gpt2")).items())


@pytest.mark.parametrize("name", ["s.txt", "s.txt.gz"])
def test_a_file_a_worker_cannot_read_is_named_with_the_worker(cluster, tmp_path, name):
    """/proc/self/cwd/... is one absolute path that each process resolves in its own folder: the
    command (run in tmp_path) reads it, the workers (run elsewhere) do not."""
    src = need("tinyshakespeare.txt")
    data = src.read_bytes()
    (tmp_path / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    path = f"/proc/self/cwd/{name}"
    r = run_cli("count", path, "--preset", "gpt2", "--engine", "dask", "--scheduler", cluster.scheduler_address,
                "-o", "c.parquet", cwd=tmp_path, timeout=300)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    [line] = error_lines(r)
    workers = list(cluster.scheduler_info["workers"])
    assert any(line == f"bpe-lens-cli count: error: {path}: the Dask worker {w} cannot read it (No such file or "
                       "directory); the workers need the files at the same paths" for w in workers), line


def test_the_wordpunct_preset_counts_on_a_worker(cluster, monkeypatch):
    """Punkt splits sentences over the whole text: one worker counts it (never this process), and the
    table is the local engine's."""
    from bpe_core.corpus import dask_engine, engines, files
    cfg, paths = make_config("nltk-wordpunct"), [need("tinyshakespeare.txt"), need(THREE[0])]
    local = count_local(paths, cfg)

    def not_here(*args, **kwargs):
        raise AssertionError("counted in the client")
    monkeypatch.setattr(files, "count_words_in_files", not_here)
    monkeypatch.setattr(engines, "whole_text_counts", not_here)
    monkeypatch.setattr(dask_engine, "whole_text_counts", not_here)
    got = count_dask(paths, cfg, scheduler=cluster.scheduler_address)
    assert list(got[0].items()) == list(local[0].items()) and got[1] == local[1]


def test_the_summary_says_where_it_counted(cluster, tmp_path):
    src = need("tinyshakespeare.txt")
    r = run_cli("count", src, "--preset", "nltk-wordpunct", "--engine", "dask", "--scheduler",
                cluster.scheduler_address, "-o", tmp_path / "c.tsv", timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[-1].endswith(
        "preset nltk-wordpunct, engine dask (on one worker: Punkt splits sentences over the whole text)")
    r = run_cli("count", src, "--preset", "gpt2", "--engine", "dask", "--scheduler", cluster.scheduler_address,
                "-o", tmp_path / "c.tsv", timeout=300)
    assert r.returncode == 0 and r.stderr.splitlines()[-1].endswith("preset gpt2, engine dask"), r.stderr


def test_progress_in_a_log_is_one_line_per_phase(cluster, tmp_path):
    """stderr to a file (not a terminal): the local engine's one line for the counting phase, then the summary."""
    src = need("tinyshakespeare.txt")
    r = run_cli("count", src, "--preset", "gpt2", "--engine", "dask", "--scheduler", cluster.scheduler_address,
                "-o", tmp_path / "c.tsv", timeout=300)
    assert r.returncode == 0, r.stderr
    mb = src.stat().st_size / 1e6
    lines = r.stderr.splitlines()
    assert len(lines) == 2 and lines[0] == f"counting: 100.0% {mb:.1f}/{mb:.1f} MB", lines
    assert lines[1].startswith(f"{tmp_path / 'c.tsv'}: 15,057 words"), lines


def test_progress_on_a_terminal_is_a_bar_on_stderr(cluster, tmp_path):
    import pty
    import threading
    src = need("tinyshakespeare.txt")
    leader, follower = pty.openpty()
    seen = bytearray()

    def drain():
        try:
            while True:
                chunk = os.read(leader, 65536)
                if not chunk:
                    break
                seen.extend(chunk)
        except OSError:  # EIO once the follower side is closed
            pass
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        r = run_cli("count", src, "--preset", "gpt2", "--engine", "dask", "--scheduler", cluster.scheduler_address,
                    "-o", tmp_path / "c.tsv", timeout=300, stderr=follower)
    finally:
        os.close(follower)
        reader.join(10)
        os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert r.returncode == 0, text
    assert "counting: 100%|" in text and "\r" in text, text  # tqdm's bar, redrawn in place
    assert r.stdout == ""


def test_a_scheduler_without_workers_is_said_not_waited_on_in_silence(tmp_path):
    """Dask waits for workers (an adaptive cluster starts them when work comes): the command waits
    too, but says why after 5 s instead of showing nothing."""
    import logging
    import threading
    import time
    src = need("tinyshakespeare.txt")
    with distributed.LocalCluster(n_workers=0, dashboard_address=":0", silence_logs=logging.ERROR) as empty:
        proc = subprocess.Popen([sys.executable, "-m", "bpe_core", "count", src, "--preset", "gpt2", "--engine",
                                 "dask", "--scheduler", empty.scheduler_address, "-o", tmp_path / "c.tsv"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                env=dict(os.environ, PYTHONPATH=str(ROOT)))
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True)
        reader.start()
        deadline = time.monotonic() + 60  # a hang guard only
        try:
            while not any("has no workers" in line for line in lines) and time.monotonic() < deadline:
                if proc.poll() is not None:
                    break
                time.sleep(0.2)
        finally:
            proc.kill()
            proc.wait()
            reader.join(10)
    assert lines and lines[0] == (f"warning: the Dask scheduler at {empty.scheduler_address} has no workers yet; "
                                  f"waiting for one (start one with: dask worker {empty.scheduler_address})\n"), lines


def test_a_scheduler_lost_while_counting_is_one_line(tmp_path):
    """The cluster goes away while its worker counts (Punkt on 20 MB: seconds of work)."""
    import logging
    import time
    big = tmp_path / "big.txt"
    with big.open("wb") as f:
        for path in sorted((need("bench/gutenberg/frankenstein.txt").parent).glob("*.txt")):
            f.write(path.read_bytes())
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=":0",
                                       silence_logs=logging.ERROR)
    address = cluster.scheduler_address
    proc = subprocess.Popen([sys.executable, "-m", "bpe_core", "count", big, "--preset", "nltk-wordpunct", "--engine",
                             "dask", "--scheduler", address, "-o", tmp_path / "c.tsv"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        with distributed.Client(address, timeout=30) as watcher:
            deadline = time.monotonic() + 120  # a hang guard only
            while not any(watcher.processing().values()) and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.1)
        cluster.close()
        _, err = proc.communicate(timeout=120)
    finally:
        cluster.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 2 and "Traceback" not in err, err
    assert err.splitlines()[-1] == (f"bpe-lens-cli count: error: lost the connection to the Dask scheduler at "
                                    f"{address} while counting"), err
