"""Curves benchmark (issue 27): the whole curve over vocabulary size against the training run alone.

    python bench/bench_curves.py [--merges 30000] [--every 100] [--repeats 2] [--eval wiki|parallel|both]

On the 17.6 MB bench corpus (bench/bench_train.py builds it), gpt2 preset, to ``--merges`` merges:

* A: the training run alone (a Timeline from the corpus, stepped to the last merge), in a fresh process;
* B: the same training run, then ``run_curves`` every ``--every`` merges on the evaluation text
  (wiki.valid.raw, or tests/data/parallel's 15 languages), in a fresh process.

A and B alternate (A B A B ...); each prints its wall time from the start of counting, and B also the
curve's own time and its work (pieces visited, symbols scanned). Reported: medians, B / A, the load
(``uptime``) before and after. No figure here is asserted: the ratio the issue asks (<= 1.5) is read off.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, sys, time
from bpe_core.presets import make_config
from bpe_core.training.timeline import Timeline
corpus, merges, every, mode, evalspec = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
t0 = time.perf_counter()
cfg = make_config("gpt2", vocab_size=None, num_merges=merges)
tl = Timeline.from_corpus(corpus, cfg)
tl.step(merges)
t1 = time.perf_counter()
out = {"train": t1 - t0, "merges": tl.merge_count}
if mode == "B":
    from bpe_core.analysis.curve_engine import engine_curves, run_model
    from bpe_core.analysis.curves import read_eval_files
    texts = read_eval_files(evalspec.split(","))
    model, offset = run_model(tl)
    work = {}
    c = engine_curves(model, texts, every, offset=offset, work=work)
    out.update(curve=time.perf_counter() - t1, rows=len(c.rows), work=work,
               final_bpt=c.series("bytes_per_token")[-1])
out["total"] = time.perf_counter() - t0
print(json.dumps(out))
"""


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def child(corpus: Path, merges: int, every: int, mode: str, evalspec: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(corpus), str(merges), str(every), mode, evalspec],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    from bench_train import DATA, build_corpus

    ap = argparse.ArgumentParser()
    ap.add_argument("--merges", type=int, default=30000)
    ap.add_argument("--every", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--eval", choices=("wiki", "parallel", "both"), default="wiki")
    args = ap.parse_args()
    corpus = build_corpus()
    evals = {"wiki": str(DATA / "wikitext-2-raw" / "wiki.valid.raw"),
             "parallel": str(ROOT / "tests" / "data" / "parallel")}
    chosen = list(evals) if args.eval == "both" else [args.eval]
    print(f"corpus {corpus} ({corpus.stat().st_size / 1e6:.1f} MB), gpt2, {args.merges} merges, every {args.every}")
    print("load before:", uptime())
    for name in chosen:
        a_runs, b_runs = [], []
        for _ in range(args.repeats):
            a_runs.append(child(corpus, args.merges, args.every, "A", evals[name]))
            print("  A", json.dumps(a_runs[-1]), flush=True)
            b_runs.append(child(corpus, args.merges, args.every, "B", evals[name]))
            print("  B", json.dumps(b_runs[-1]), flush=True)
        a = statistics.median(r["total"] for r in a_runs)
        b = statistics.median(r["total"] for r in b_runs)
        curve = statistics.median(r["curve"] for r in b_runs)
        paired = statistics.median(r["total"] / r["train"] for r in b_runs)
        print(f"eval {name}: A (training alone) median {a:.1f} s; B (training + whole curve) median {b:.1f} s; "
              f"curve alone median {curve:.1f} s; B / A = {b / a:.2f}; within each B run (training + curve) / "
              f"training, median {paired:.2f}")
        print("load:", uptime(), flush=True)


if __name__ == "__main__":
    t = time.time()
    main()
    print(f"bench time {time.time() - t:.0f} s")
