"""Counting on Dask (issue 13) with a real LocalCluster of 2 worker processes over three real files:
the table it gives trains exactly as the files do, and no process outlives the count."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pytest

from bpe_core.corpus.engines import count_dask, count_local
from bpe_core.corpus.files import count_words_in_files
from bpe_core.corpus.table import read_table
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer

from .paths import need

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
