"""Before/after: two installs of BPE Lens side by side, alternating A B A B, medians and ratios.

    python bench/bench_ab.py --a OLD_CHECKOUT/.venv/bin/python --b .venv/bin/python [--rounds 3]
                             [--vocab-size 30000] [--merges 5000] [--gui-steps 300]

Each interpreter runs the code it has installed (an editable install of its checkout), so a
checkout of an older commit with its own venv is the "before". For each round, A then B:

1. whole process: ``python -m bpe_core train BENCH_CORPUS --preset gpt2 --vocab-size N`` — wall
   time, CPU time (user + sys) and peak RSS of the child (the 17.6 MB corpus bench_train.py builds);
2. per-merge latency of ``Trainer.step()`` over the first ``--merges`` merges (p50/p95/p99/max);
3. with ``--gui-steps``: each side's own ``bench/bench_gui.py`` (step-to-pixels, offscreen, default
   corpus), its p50/p95 wall.

Prints the machine's load average before and after: absolute times drift by +-30 % from run to run
on a shared 2-core machine, so only the alternating medians and their ratio mean anything.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_train import build_corpus, child_usage  # noqa: E402  (the same corpus and child timing)

#: children run here, not in a checkout: Python puts the working directory first on sys.path,
#: and the "before" interpreter must import its own install, not this checkout's bpe_core
NEUTRAL = tempfile.gettempdir()

LATENCY = r"""
import json, statistics, sys, time
try:
    from bpe_core.training.trainer import Trainer
except ImportError:  # before the stage folders
    from bpe_core.trainer import Trainer
from bpe_core.presets import make_config
corpus, vocab, merges = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t = Trainer.from_corpus(corpus, make_config("gpt2", vocab_size=vocab))
times = []
for _ in range(merges):
    s0 = time.perf_counter()
    if t.step() is None:
        break
    times.append((time.perf_counter() - s0) * 1000)
q = statistics.quantiles(times, n=100)
print(json.dumps(dict(p50=statistics.median(times), p95=q[94], p99=q[98], max=max(times), n=len(times))))
"""


def train_once(python: str, corpus: Path, vocab: int) -> dict:
    out = Path(tempfile.mkdtemp()) / "v.json"
    use = child_usage([python, "-m", "bpe_core", "train", str(corpus), "--preset", "gpt2",
                       "--vocab-size", str(vocab), "-q", "-o", str(out)], cwd=NEUTRAL)
    merges = json.loads(out.read_text(encoding="utf-8"))["merges"]
    digest = hashlib.sha1(json.dumps([m[:2] for m in merges]).encode()).hexdigest()
    return dict(use, merges=len(merges), digest=digest)


def latency_once(python: str, corpus: Path, vocab: int, merges: int) -> dict:
    done = subprocess.run([python, "-c", LATENCY, str(corpus), str(vocab), str(merges)],
                          capture_output=True, text=True, check=True, cwd=NEUTRAL)
    return json.loads(done.stdout.strip().splitlines()[-1])


def gui_once(python: str, steps: int) -> dict:
    root = Path(subprocess.run([python, "-c", "import bpe_core, os; print(os.path.dirname(os.path.dirname("
                                "bpe_core.__file__)))"], capture_output=True, text=True, check=True, cwd=NEUTRAL).stdout.strip())
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([python, str(root / "bench" / "bench_gui.py"), "--steps", str(steps)],
                          capture_output=True, text=True, env=env, cwd=root, check=True)
    wall = re.search(r"\bwall\s+n=\s*\d+\s+p50\s+([\d.]+)\s+p95\s+([\d.]+)", done.stdout)
    if wall is None:
        raise SystemExit(f"bench_gui printed no p50/p95:\n{done.stdout[-1500:]}")
    return dict(p50=float(wall.group(1)), p95=float(wall.group(2)))


def median_of(rows: list, key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="python of the 'before' install")
    ap.add_argument("--b", required=True, help="python of the 'after' install")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--vocab-size", type=int, default=30000)
    ap.add_argument("--merges", type=int, default=5000)
    ap.add_argument("--gui-steps", type=int, default=0, help="also run each side's bench_gui.py (0: no)")
    args = ap.parse_args()
    corpus = build_corpus()
    print(f"corpus {corpus.name} ({corpus.stat().st_size / 1e6:.1f} MB), {os.cpu_count()} cores, "
          f"load average before {os.getloadavg()[0]:.2f}")
    rows: dict = {"a": {"train": [], "lat": [], "gui": []}, "b": {"train": [], "lat": [], "gui": []}}
    for r in range(args.rounds):
        for side in ("a", "b"):
            py = os.path.abspath(getattr(args, side))  # children run elsewhere
            rows[side]["train"].append(train_once(py, corpus, args.vocab_size))
            rows[side]["lat"].append(latency_once(py, corpus, args.vocab_size, args.merges))
            if args.gui_steps:
                rows[side]["gui"].append(gui_once(py, args.gui_steps))
            t, lat = rows[side]["train"][-1], rows[side]["lat"][-1]
            print(f"round {r + 1} {side.upper()}: train {t['wall']:.2f} s {t['cpu']:.2f} s CPU {t['rss']:.0f} MB "
                  f"({t['merges']} merges); "
                  f"step p50 {lat['p50']:.3f} p95 {lat['p95']:.3f} p99 {lat['p99']:.3f} max {lat['max']:.1f} ms"
                  + (f"; gui p50 {rows[side]['gui'][-1]['p50']:.1f} p95 {rows[side]['gui'][-1]['p95']:.1f} ms"
                     if args.gui_steps else ""), flush=True)
    same = {r["digest"] for side in "ab" for r in rows[side]["train"]}
    print(f"identical merges in every run, A and B: {len(same) == 1}")
    print(f"load average after {os.getloadavg()[0]:.2f}; medians over {args.rounds} rounds (B/A):")
    parts = (("train", ("wall", "cpu", "rss")), ("lat", ("p50", "p95", "p99", "max")), ("gui", ("p50", "p95")))
    for part, keys in parts:
        if not rows["a"][part]:
            continue
        for key in keys:
            a, b = median_of(rows["a"][part], key), median_of(rows["b"][part], key)
            print(f"  {part:5s} {key:4s}  A {a:9.3f}   B {b:9.3f}   B/A {b / a:5.2f}")


if __name__ == "__main__":
    t0 = time.time()
    main()
    print(f"({time.time() - t0:.0f} s)")
