"""Memory while scrubbing: RSS after 1, 10 and 100 seek round trips, this checkout against another (58c857f).

    python bench/bench_seek_memory.py [--old OLD_CHECKOUT] [--reps 2] [--far 100] [--kb 300] [--cap 600]

A round trip is ``Timeline.seek(far)`` then ``Timeline.seek(0)`` on the first ``--kb`` kB of
wiki.valid.raw (gpt2 preset), as a user scrubbing the slider does. Each run is a fresh process (at
most ``--cap`` seconds); the two checkouts alternate, A B A B. Prints per checkout the median RSS
(VmRSS), the pair heap's entries and the live pairs after 1, 10 and 100 round trips, the seconds
taken, and the load (``uptime``).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "wikitext-2-raw" / "wiki.valid.raw"
MARKS = (1, 10, 100)

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from bpe_core.presets import make_config
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer
path, kb, far = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
text = open(path, encoding="utf-8").read()[: kb * 1000]

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

tl = Timeline(Trainer.from_texts([text], make_config("gpt2")))
idx = tl.trainer._idx
out = {"start": rss_mb()}
t0 = time.perf_counter()
for trip in range(1, 101):
    tl.seek(far)
    tl.seek(0)
    if trip in (1, 10, 100):
        out[trip] = [rss_mb(), len(idx.heap), sum(1 for c in idx.counts.values() if c), time.perf_counter() - t0]
print(json.dumps(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True, help="a checkout of the code to compare with (git worktree add)")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--far", type=int, default=100, help="merges per seek")
    ap.add_argument("--kb", type=int, default=300, help="kB of wiki.valid.raw")
    ap.add_argument("--cap", type=float, default=600.0, help="seconds per run at most")
    args = ap.parse_args()
    trees = {"58c857f": Path(args.old), "this checkout": ROOT}
    print(f"load before: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(f"corpus: first {args.kb} kB of {DATA.name}, gpt2 preset; a round trip: Timeline.seek({args.far}), seek(0)")
    runs: Dict[str, List[dict]] = {name: [] for name in trees}
    for _ in range(args.reps):
        for name, tree in trees.items():  # alternated, A B A B
            try:
                out = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(DATA), str(args.kb), str(args.far)],
                                     capture_output=True, text=True, timeout=args.cap, cwd="/tmp", check=True)
                runs[name].append(json.loads(out.stdout))
            except subprocess.TimeoutExpired:
                print(f"{name}: a run took more than {args.cap:.0f} s")
    for name, got in runs.items():
        if not got:
            continue
        start = statistics.median(r["start"] for r in got)
        print(f"\n{name} ({len(got)} runs, medians): RSS at merge 0 before scrubbing {start:.0f} MB")
        print(f"{'round trips':>12} {'RSS MB':>8} {'heap entries':>13} {'live pairs':>11} {'seconds':>8}")
        for mark in MARKS:
            rows = [r[str(mark)] for r in got]
            rss, heap, live, secs = (statistics.median(col) for col in zip(*rows))
            print(f"{mark:>12} {rss:>8.0f} {heap:>13,.0f} {live:>11,.0f} {secs:>8.1f}")
    print(f"\nload after: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    main()
