"""The trainer's per-merge latency and seeks from the records on the 17.6 MB bench corpus (issue 9's numbers).

    python bench/bench_steps.py [--merges 5000] [--back-to 100] [--rounds 2]

In process, gpt2, vocab 30,000, the corpus ``bench_train.py`` builds. For each round: ``Trainer.step()`` over
the first ``--merges`` merges (p50 / p95 / p99 / max, each merge with its details, as a step from the app
asks); then a ``Timeline`` trained that far jumps back to ``--back-to``, its trainer follows, and it jumps
forward again (``Timeline.jump`` plus 60 words' segmentations read, what the words pane shows), where the
model is built from the records (the trainer is still back there). Nothing here has a competitor (no other tool seeks a training), so rounds repeat the same code;
the load average is printed with each round.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_train import build_corpus  # noqa: E402

from bpe_core.corpus.counting import count_words  # noqa: E402
from bpe_core.presets import make_config  # noqa: E402
from bpe_core.training.timeline import Timeline  # noqa: E402
from bpe_core.training.trainer import Trainer  # noqa: E402


def step_latency(counts, config, merges: int) -> list:
    trainer = Trainer(counts, config)
    times = []
    for _ in range(merges):
        t0 = time.perf_counter()
        if trainer.step() is None:
            break
        times.append((time.perf_counter() - t0) * 1000)
    return times


def seeks(counts, config, merges: int, back_to: int) -> dict:
    tl = Timeline(Trainer(counts, config))
    tl.seek(merges)
    words = range(min(60, len(tl.words)))

    def jump(k: int) -> float:
        t0 = time.perf_counter()
        tl.jump(k)
        for i in words:
            tl.segmentation(i)
        return (time.perf_counter() - t0) * 1000

    out = {"back": jump(back_to)}
    tl.apply(tl.walk(tl.catch_up()))  # the trainer follows back (as the app's catch-up does)
    out["forward"] = jump(merges)  # the trainer stays behind: the model comes from the records
    t0 = time.perf_counter()
    tl.model()
    out["model"] = (time.perf_counter() - t0) * 1000
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--merges", type=int, default=5000)
    ap.add_argument("--back-to", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args(argv)
    corpus = build_corpus()
    config = make_config("gpt2", vocab_size=30000)
    counts = count_words(str(corpus), config)
    print(f"{corpus.name} ({corpus.stat().st_size / 1e6:.1f} MB), gpt2, {len(counts):,} words, "
          f"{os.cpu_count()} CPUs", flush=True)
    for r in range(1, args.rounds + 1):
        load = os.getloadavg()[0]
        times = step_latency(counts, config, args.merges)
        s = seeks(counts, config, args.merges, args.back_to)
        q = statistics.quantiles(times, n=100)  # as bench_ab.py's latency script
        print(f"round {r} (load {load:.2f}): Trainer.step over {len(times):,} merges p50 "
              f"{statistics.median(times):.2f} p95 {q[94]:.2f} p99 {q[98]:.2f} "
              f"max {max(times):.1f} ms; jump {args.merges:,} -> {args.back_to} {s['back']:.1f} ms, back "
              f"{s['forward']:.1f} ms; model from the records {s['model']:.1f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
