"""Counting benchmark (issue 13): MB/s of the local engine (1 core, every core), Dask (2 workers)
and tokenizers, on the same bytes, alternating, medians; and the memory of one huge line.

    python bench/bench_count.py [--mb 200] [--rounds 3] [--files 8] [--line-mb 200]

1. Builds >= ``--mb`` MB of real text from ../shared/data (PTB, WikiText-2, Gutenberg, the
   multilingual novels, Sanguo Yanyi; concatenated and repeated) as ``--files`` files under a
   temporary folder, deleted at the end.
2. Each round runs every engine once, in a fresh child process (the order rotates per round), with
   the gpt2 preset: ``local-1`` (count_table, 1 worker), ``local-all`` (every core), ``dask-2`` (a
   LocalCluster of 2 processes: its start is timed apart), ``tokenizers`` (a ByteLevel BpeTrainer
   on the files with vocab_size = 257: its word counting, with a trivial merge phase). The child
   times the counting alone; the parent samples the peak RSS of the child and all its descendants.
3. ``--line-mb``: the local engine's peak RSS on one file of that many MB as lines, and on the
   same bytes with every newline made a space (one huge line).

Prints a Markdown table for docs/benchmarks.md with the machine, the load and the date. Timings
are only comparable side by side on an idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("BPE_LENS_DATA") or HERE.parent.parent / "shared" / "data")
SOURCES = ["bench/ptb/ptb.train.txt", "wikitext-2-raw/wiki.valid.raw", "wikitext-2-raw/wiki.test.raw",
           "tinyshakespeare.txt", "chinese/sanguo_yanyi.txt", "bench/multilingual/ru_anna_karenina.txt",
           "bench/multilingual/de_faust.txt", "bench/gutenberg/war_and_peace.txt", "bench/gutenberg/moby_dick.txt",
           "bench/gutenberg/les_miserables.txt", "bench/gutenberg/ulysses.txt"]
ENGINES = ("local-1", "local-all", "dask-2", "tokenizers")

CHILD = r"""
import json, sys, time
from pathlib import Path
engine, files = sys.argv[1], [Path(p) for p in sys.argv[2:]]
out = {}
if engine == "tokenizers":
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=257, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    t, c = time.perf_counter(), time.process_time()
    tok.train([str(f) for f in files], trainer)
    out["words"] = None
else:
    from bpe_core.corpus.dask_engine import count_dask, dask_client
    from bpe_core.corpus.engines import count_local
    from bpe_core.presets import make_config
    cfg = make_config("gpt2")
    if engine == "dask-2":
        t0 = time.perf_counter()
        with dask_client(2, None) as client:
            out["start_s"] = time.perf_counter() - t0
            t, c = time.perf_counter(), time.process_time()
            counts, _ = count_dask(files, cfg, scheduler=client.cluster.scheduler_address)
    else:
        t, c = time.perf_counter(), time.process_time()
        counts, _ = count_local(files, cfg, workers=1 if engine == "local-1" else None)
    out["words"] = len(counts)
out["seconds"], out["cpu_main"] = time.perf_counter() - t, time.process_time() - c
print(json.dumps(out))
"""


def build_corpus(folder: Path, mb: int, files: int) -> list:
    texts = []
    for rel in SOURCES:
        if (DATA / rel).exists():
            with open(DATA / rel, encoding="utf-8-sig") as f:  # universal newlines: CRLF -> LF
                text = f.read()
            texts.append(text if text.endswith("\n") else text + "\n")
    blob = "".join(texts).encode("utf-8")
    per_file = mb * 1_000_000 // files + 1
    paths = []
    for i in range(files):
        data = (blob * (per_file // len(blob) + 1))[:per_file]
        data = data[: data.rfind(b"\n") + 1]  # whole lines only
        path = folder / f"part{i:02d}.txt"
        path.write_bytes(data)
        paths.append(path)
        blob = blob[len(blob) // 7:] + blob[: len(blob) // 7]  # each file starts elsewhere
    return paths


def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            pass
    return total


def run_child(engine: str, paths: list) -> dict:
    proc = subprocess.Popen([sys.executable, "-c", CHILD, engine, *map(str, paths)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "TOKENIZERS_PARALLELISM": "true"})
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.05)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"{engine} failed:\n{err}")
    result = json.loads(out.strip().splitlines()[-1])
    result["peak_mb"] = peak / 1e6
    return result


def throughput(paths: list, rounds: int) -> dict:
    size = sum(p.stat().st_size for p in paths)
    runs: dict = {e: [] for e in ENGINES}
    for r in range(rounds):
        order = ENGINES[r % len(ENGINES):] + ENGINES[: r % len(ENGINES)]
        for engine in order:
            res = run_child(engine, paths)
            runs[engine].append(res)
            print(f"round {r + 1} {engine:10s} {size / 1e6 / res['seconds']:7.1f} MB/s  "
                  f"{res['seconds']:6.2f} s  peak {res['peak_mb']:6.0f} MB", file=sys.stderr)
    return {e: {"mb_s": statistics.median(size / 1e6 / x["seconds"] for x in rs),
                "seconds": statistics.median(x["seconds"] for x in rs),
                "peak_mb": statistics.median(x["peak_mb"] for x in rs),
                "start_s": statistics.median(x.get("start_s", 0.0) for x in rs)} for e, rs in runs.items()}


def one_line_memory(folder: Path, mb: int) -> dict:
    lines = build_corpus(folder, mb, 1)[0]
    line = folder / "one_line.txt"
    line.write_bytes(lines.read_bytes().replace(b"\n", b" "))
    return {name: run_child("local-all", [p]) for name, p in (("lines", lines), ("one line", line))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--line-mb", type=int, default=200, help="size of the one-line memory test (0: skip)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bpe-lens-bench-count-"))
    try:
        paths = build_corpus(folder, args.mb, args.files)
        size = sum(p.stat().st_size for p in paths)
        load = os.getloadavg()[0]
        res = throughput(paths, args.rounds)
        print(f"\nCounting {size / 1e6:.0f} MB in {len(paths)} files, preset gpt2, median of {args.rounds} "
              f"alternating runs; {platform.machine()}, {os.cpu_count()} cores, load {load:.1f} at the start, "
              f"{time.strftime('%Y-%m-%d')}\n")
        print("| engine | MB/s | seconds | peak RSS (MB, with workers) | note |\n|---|---:|---:|---:|---|")
        notes = {"local-1": "count_table, 1 worker", "local-all": f"{os.cpu_count()} workers",
                 "dask-2": f"LocalCluster 2 processes (start {res['dask-2']['start_s']:.1f} s, not counted)",
                 "tokenizers": "BpeTrainer(vocab_size=257).train(files): counting + trivial merges"}
        for e in ENGINES:
            r = res[e]
            print(f"| {e} | {r['mb_s']:.1f} | {r['seconds']:.2f} | {r['peak_mb']:.0f} | {notes[e]} |")
        if args.line_mb:
            mem = one_line_memory(folder, args.line_mb)
            print(f"\nOne {args.line_mb} MB file, local engine, every core: peak RSS "
                  + ", ".join(f"{k} {v['peak_mb']:.0f} MB ({v['seconds']:.1f} s)" for k, v in mem.items()))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
