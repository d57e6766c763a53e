"""SuperBPE's replay (stage 2's ``inherit``): old code against new, alternated, each timing in a fresh process.

    python bench/bench_replay.py --stage STAGE.pkl --old OLD_CHECKOUT [--rounds 5] [--golden GOLDEN.pkl] [--flat]

``STAGE.pkl`` holds ``(cfg, counts, model, segments, base)`` of the bench corpus (17.6 MB, gpt2 preset,
transition 20,000, vocabulary 30,000): the stage-1 model ``base``, the stage-2 word counts ``counts`` and
the old code's replay ``model, segments`` (the golden output). Each round times
``superbpe.inherit(base, counts, stage2_config(cfg))`` once in a child process for the old tree and once for
this one (A B A B ...), and prints the medians with the machine's load. The new tree's output is checked
against the golden: tokens, merges, merge_counts, specials and every unit's ids.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import gc, pickle, sys, time
sys.path.insert(0, sys.argv[1])
from bpe_core.training import superbpe
cfg, counts, model, segments, base = pickle.load(open(sys.argv[2], "rb"))
del model, segments
gc.collect()
second = superbpe.stage2_config(cfg)
t = time.perf_counter()
if sys.argv[3] == "flat":
    superbpe.inherit_flat(base, counts, second)
    print(time.perf_counter() - t, "-")
    sys.exit()
got, segs = superbpe.inherit(base, counts, second)
wall = time.perf_counter() - t
if sys.argv[3] == "check":
    _, _, model, segments, _ = pickle.load(open(sys.argv[4], "rb"))
    same = (got.tokens == model.tokens and got.merges == model.merges and got.merge_counts == model.merge_counts
            and got.specials == model.specials and segs == segments)
    print(wall, "identical" if same else "DIFFERENT")
else:
    print(wall, "-")
"""


def child(tree: str, stage: str, golden: str | None, mode: str = "check") -> tuple[float, str]:
    """(replay seconds, the output check) of one fresh process running ``tree``'s inherit (``mode`` "flat":
    inherit_flat, no check)."""
    args = [sys.executable, "-c", CHILD, tree, stage] + ([mode, golden] if golden else ["nocheck"])
    out = subprocess.run(args, check=True, capture_output=True, text=True, cwd=tree).stdout.split()
    return float(out[0]), out[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stage", required=True)
    ap.add_argument("--old", required=True, help="a worktree of the old code")
    ap.add_argument("--golden", help="the golden output's pickle (default: --stage)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--flat", action="store_true", help="also time this tree's inherit_flat (the ids in one array)")
    args = ap.parse_args()
    golden = args.golden or args.stage
    old, new, flat, checks = [], [], [], set()
    for r in range(args.rounds):
        print("load", os.getloadavg(), flush=True)
        o, _ = child(args.old, args.stage, None)
        n, check = child(str(ROOT), args.stage, golden)
        old.append(o)
        new.append(n)
        checks.add(check)
        print(f"round {r + 1}: old {o:.3f} s  new {n:.3f} s  ({check})", flush=True)
        if args.flat:
            flat.append(child(str(ROOT), args.stage, golden, "flat")[0])
            print(f"         new inherit_flat {flat[-1]:.3f} s", flush=True)
    print("load", os.getloadavg())
    print(f"median old {statistics.median(old):.3f} s  new {statistics.median(new):.3f} s  "
          f"x{statistics.median(old) / statistics.median(new):.2f}  output: {', '.join(sorted(checks))}"
          + (f"  inherit_flat {statistics.median(flat):.3f} s" if flat else ""))


if __name__ == "__main__":
    main()
