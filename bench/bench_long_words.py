"""A long word's first merge, 16k to 256k characters: this checkout against another (e.g. 58c857f).

    python bench/bench_long_words.py [--old OLD_CHECKOUT] [--reps 3] [--cap 30]

Two words: ``ab`` repeated to n characters with ``ab`` three times (hf ties; the first merge is (a, b),
n/2 times in one word), and ``a`` repeated n times (the pair (a, a) overlaps itself; three merges).
Each measurement is a fresh process (``--cap`` seconds at most: a capped run prints "> cap s"); the two
checkouts alternate, A B A B. Prints the medians, a least-squares line time = slope * n + b for this
checkout and its R², and the load (``uptime``).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
SIZES = [16_384, 32_768, 65_536, 131_072, 262_144]

CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig
kind, n = sys.argv[2], int(sys.argv[3])
words = {"ab" * (n // 2): 1, "ab": 3} if kind == "ab" else {"a" * n: 1}
t0 = time.perf_counter()
t = Trainer(words, TrainerConfig(tie_break="hf"))
t1 = time.perf_counter()
for _ in range(1 if kind == "ab" else 3):
    t.step()
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def run(tree: Path, kind: str, n: int, cap: float) -> Optional[Tuple[float, float]]:
    """(first count, merges) seconds in a fresh process; None when it ran past ``cap``."""
    try:
        out = subprocess.run([sys.executable, "-c", CHILD, str(tree), kind, str(n)], capture_output=True,
                             text=True, timeout=cap, cwd="/tmp", check=True).stdout.split()
    except subprocess.TimeoutExpired:
        return None
    return float(out[0]), float(out[1])


def fit(xs: List[float], ys: List[float]) -> Tuple[float, float, float]:
    """Least squares y = slope * x + b; returns slope, b, R²."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    b = my - slope * mx
    ss_res = sum((y - (slope * x + b)) ** 2 for x, y in zip(xs, ys))
    ss_tot = sum((y - my) ** 2 for y in ys)
    return slope, b, 1 - ss_res / ss_tot if ss_tot else 1.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True, help="a checkout of the code to compare with (git worktree add)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cap", type=float, default=30.0, help="seconds per run at most")
    args = ap.parse_args()
    trees = {"new": ROOT, "old": Path(args.old)}
    print(f"load before: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    for kind, what in (("ab", "first merge of 'ab' * n/2 (+ 'ab' x3)"), ("aa", "3 merges of 'a' * n")):
        times: Dict[Tuple[str, int], List[Optional[float]]] = {}
        counts: Dict[Tuple[str, int], List[float]] = {}
        for rep in range(args.reps):
            for n in SIZES:
                for name in ("old", "new"):  # alternated, A B A B
                    got = times.setdefault((name, n), [])
                    if None in got:  # capped once: not run again
                        continue
                    r = run(trees[name], kind, n, args.cap)
                    got.append(None if r is None else r[1])
                    if r is not None:
                        counts.setdefault((name, n), []).append(r[0])
        print(f"\n{what}: median seconds over {args.reps} runs (first count in brackets)")
        print(f"{'chars':>8} {'58c857f':>16} {'this checkout':>22}")
        for n in SIZES:
            cells = []
            for name in ("old", "new"):
                got = times[(name, n)]
                if None in got:
                    cells.append(f"> {args.cap:.0f} s")
                else:
                    cells.append(f"{statistics.median(got):.4f} ({statistics.median(counts[(name, n)]):.3f})")
            print(f"{n:>8} {cells[0]:>16} {cells[1]:>22}")
        new = [statistics.median(times[("new", n)]) for n in SIZES]  # type: ignore[type-var]
        slope, b, r2 = fit([float(n) for n in SIZES], new)
        print(f"this checkout, linear fit: {slope * 1e9:.1f} ns per character (+ {b * 1e3:.2f} ms), R² = {r2:.4f}")
    print(f"\nload after: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"({time.perf_counter() - t0:.0f} s)")
