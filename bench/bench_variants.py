"""Variant benchmark: SuperBPE (stage 1 to t, stage 2 to the vocab size) against plain BPE, same corpus.

    python bench/bench_variants.py [--rounds 3] [--vocab-size 30000] [--transition 20000] [--before DIR]

The 17.6 MB corpus of bench/bench_train.py (built there if missing), the gpt2 preset. Each run is a fresh
process (``--one plain|superbpe``) that times the whole training, counting included, with its stages
(wall, and CPU of the process and its counting workers, steadier on a shared machine);
plain and SuperBPE alternate (A B A B ...), and the medians are printed with the load average before each
run. ``--before DIR``: a checkout of an older commit (``git worktree add DIR <commit>``) whose SuperBPE runs
too, in the same alternation (before, plain, SuperBPE), through that checkout's own copy of this script.
The reference (the authors' tokenizers fork, built offline: tests/data/README.md) runs on the same work in
bench/bench_superbpe_fork.py.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


def one(kind: str, vocab: int, t: int) -> dict:
    """Train once in this process; the wall time of each stage and of the whole."""
    from bench.bench_train import build_corpus
    from bpe_core.corpus.files import count_words_in_files
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer
    path = build_corpus()
    stages = {}
    cpu0 = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))
    start = last = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal last
        now = time.perf_counter()
        stages[name] = round(now - last, 3)
        last = now

    if kind == "plain":
        cfg = make_config("gpt2", vocab_size=vocab)
        trainer = Trainer(count_words_in_files([path], cfg), cfg, lazy_index=True)  # as `train` does
        lap("count")
        trainer.run()
        lap("merges")
    else:
        from bpe_core.training import superbpe
        cfg = make_config("gpt2", variant="superbpe", transition=t, vocab_size=vocab)
        first = superbpe.stage1_config(cfg)
        stage1 = Trainer(count_words_in_files([path], first), first, lazy_index=True)
        lap("stage 1 count")
        stage1.run()
        base = stage1.model()
        del stage1
        lap("stage 1 merges")
        second = superbpe.stage2_config(cfg)
        counts = count_words_in_files([path], second)
        lap("stage 2 count")
        model, segments = superbpe.inherit(base, counts, second)
        lap("stage 2 replay")
        trainer = superbpe.stage2_trainer(counts, cfg, model, segments, lazy_index=True)
        lap("stage 2 trainer setup")
        trainer.run()
        lap("stage 2 merges")
    total = time.perf_counter() - start
    cpu = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
              for f in ("ru_utime", "ru_stime"))  # the counting workers included
    return {"kind": kind, "wall": round(total, 3), "cpu": round(cpu - cpu0, 3), "stages": stages, "vocab": trainer.vocab_size,
            "merges": len(trainer.model().merges), "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--vocab-size", type=int, default=30000)
    ap.add_argument("--transition", type=int, default=20000)
    ap.add_argument("--before", help="a checkout of an older commit: its SuperBPE is timed too")
    ap.add_argument("--one", choices=("plain", "superbpe"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.vocab_size, args.transition)))
        return
    kinds = (("before", "plain", "superbpe") if args.before else ("plain", "superbpe"))
    runs: dict = {k: [] for k in kinds}
    for r in range(args.rounds):
        for kind in kinds:
            before = load()
            script = str(Path(args.before) / "bench" / "bench_variants.py") if kind == "before" else __file__
            done = subprocess.run([sys.executable, script, "--one", "superbpe" if kind == "before" else kind,
                                   "--vocab-size", str(args.vocab_size), "--transition", str(args.transition)],
                                  capture_output=True, text=True, check=True)
            res = json.loads(done.stdout.strip().splitlines()[-1])
            res["load_before"] = before
            runs[kind].append(res)
            print(f"round {r + 1} {kind:8s} wall {res['wall']:7.2f} s  CPU {res['cpu']:7.2f} s  load {before}  "
                  f"{res['stages']}  "
                  f"vocab {res['vocab']} merges {res['merges']} peak RSS {res['peak_rss_mb']} MB", flush=True)
    for what in ("wall", "cpu"):
        med = {k: statistics.median(x[what] for x in v) for k, v in runs.items()}
        print(f"medians of {what}: " + ", ".join(f"{k} {v:.2f} s" for k, v in med.items()) +
              "; ratios to plain: " + ", ".join(f"{k} {v / med['plain']:.2f}x" for k, v in med.items() if k != "plain"))
        print("  stage medians " + "; ".join(
            k + " " + str({s: statistics.median(x["stages"][s] for x in v) for s in v[0]["stages"]})
            for k, v in runs.items()) if what == "wall" else "", end="\n" if what == "wall" else "")
    two = {k: statistics.median(sum(t for s, t in x["stages"].items() if s.startswith("stage 2")) for x in v)
           for k, v in runs.items() if k != "plain"}
    plain = statistics.median(x["wall"] for x in runs["plain"])
    print("stage 2 alone (count, replay, setup, merges), median wall: " + ", ".join(
        f"{k} {v:.2f} s = {v / plain:.2f}x plain" for k, v in two.items()))
    print(f"load now {load()}")


if __name__ == "__main__":
    main()
