"""A full train, BPE Lens against Hugging Face tokenizers, alternating A B A B in one run (issue 13).

    python bench/bench_vs_tokenizers.py [--rounds 3] [--vocab-size 30000] [--corpus PATH]

Each round runs, in fresh processes, ``python -m bpe_core train CORPUS --preset gpt2 --vocab-size N`` and a
tokenizers ByteLevel BpeTrainer with the same settings in its parallel mode (TOKENIZERS_PARALLELISM=true, its
default), then the same pair again in the other order. For each run it measures

* wall time of the whole process (start to exit: reading, counting, merging, writing);
* CPU time (user + sys) of the process and every process it started (our counting workers included);
* peak memory: the largest sum of PSS (proportional set size: shared pages split between the processes
  that map them) over the process and its descendants, sampled every 10 ms from /proc — a threaded
  program (tokenizers) and one with worker processes (ours) are measured the same way — and the main
  process's own peak RSS (ru_maxrss) for comparison with earlier figures;

and checks that both learned the same merges. Prints each run, then medians and the ratios ours / tokenizers,
with the machine's load average before and after (another job on the machine shifts wall times; CPU and
memory much less). The corpus defaults to bench_train.py's 17.6 MB of real English.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_train import HF_SCRIPT, build_corpus  # noqa: E402


def _children(pid: int) -> list:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def _tree(pid: int) -> list:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(_children(p))
    return out


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(cmd: list, env: dict) -> dict:
    """Wall, CPU (the process and the descendants it waited for) and peak PSS of the tree of ``cmd``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env)
    peak = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            break
        peak = max(peak, sum(_pss_kb(p) for p in _tree(proc.pid)))
        time.sleep(0.01)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{cmd[:4]} failed with exit code {proc.returncode}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "pss_mb": peak / 1024,
            "maxrss_mb": usage.ru_maxrss / 1024}


def ours(corpus: Path, vocab: int, out: Path) -> tuple:
    cmd = [sys.executable, "-m", "bpe_core", "train", str(corpus), "--preset", "gpt2", "--vocab-size", str(vocab),
           "-q", "-o", str(out)]
    got = measure(cmd, dict(os.environ))
    return got, [m[:2] for m in json.loads(out.read_text(encoding="utf-8"))["merges"]]


def theirs(corpus: Path, vocab: int, out: Path) -> tuple:
    env = dict(os.environ, TOKENIZERS_PARALLELISM="true")
    got = measure([sys.executable, "-c", HF_SCRIPT, str(corpus), str(vocab), str(out)], env)
    return got, json.loads(out.read_text(encoding="utf-8"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--vocab-size", type=int, default=30000)
    ap.add_argument("--corpus")
    args = ap.parse_args()
    corpus = Path(args.corpus) if args.corpus else build_corpus()
    tmp = Path(tempfile.mkdtemp())
    load0 = os.getloadavg()[0]
    print(f"corpus {corpus.name} ({corpus.stat().st_size / 1e6:.1f} MB), gpt2, vocab {args.vocab_size}, "
          f"{os.cpu_count()} CPUs, load average {load0:.2f}", flush=True)
    runs = {"ours": [], "tokenizers": []}
    same = True
    for r in range(args.rounds):
        order = (("ours", ours), ("tokenizers", theirs))
        for name, fn in (order if r % 2 == 0 else order[::-1]):
            got, merges = fn(corpus, args.vocab_size, tmp / f"{name}{r}.json")
            runs[name].append((got, merges))
            print(f"  round {r + 1} {name:10s} wall {got['wall']:6.2f} s  cpu {got['cpu']:6.2f} s  "
                  f"peak PSS {got['pss_mb']:6.1f} MB  main ru_maxrss {got['maxrss_mb']:6.1f} MB", flush=True)
        same = same and runs["ours"][-1][1] == runs["tokenizers"][-1][1]
    med = {name: {k: statistics.median(g[k] for g, _ in rs) for k in ("wall", "cpu", "pss_mb", "maxrss_mb")}
           for name, rs in runs.items()}
    a, b = med["ours"], med["tokenizers"]
    print(f"medians over {args.rounds} rounds (load average {load0:.2f} before, {os.getloadavg()[0]:.2f} after):")
    for name in ("ours", "tokenizers"):
        m = med[name]
        print(f"  {name:10s} wall {m['wall']:6.2f} s  cpu {m['cpu']:6.2f} s  peak PSS {m['pss_mb']:6.1f} MB  "
              f"main ru_maxrss {m['maxrss_mb']:6.1f} MB")
    print(f"  ours / tokenizers: wall {a['wall'] / b['wall']:.2f}x, cpu {a['cpu'] / b['cpu']:.2f}x, "
          f"peak PSS {a['pss_mb'] / b['pss_mb']:.2f}x, main ru_maxrss {a['maxrss_mb'] / b['maxrss_mb']:.2f}x")
    print(f"  identical merges in every round: {same} ({len(runs['ours'][0][1]):,} merges)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
