"""Autosave's capture cost at a long history (issue 24, helper D3): the Workbench's saved form of a run of
N merges, three merges after the last save, against converting the whole history each time (what the capture
did between e3691f1 and 965a138). The run's steps are synthetic merge records (distinct byte tokens), so the
figure is the conversion's and the save's own cost, not training's. Alternated A B A B, medians, load printed.

    .venv/bin/python bench/bench_autosave_capture.py [N]
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from types import SimpleNamespace

from bpe_core.formats import saved_merges
from bpe_core.workbench import TrainingRun
from bpe_core.workbench.records import RunCorpus


def main(n: int = 30_000, rounds: int = 21) -> None:
    steps = [SimpleNamespace(left_token=f"t{i}".encode(), right_token=f"u{i % 977}".encode(), count=n - i)
             for i in range(n + 3 * rounds * 2)]
    timeline = SimpleNamespace(history=steps[:n], config=None)
    run = TrainingRun("r1", RunCorpus((__file__,)), timeline)  # type: ignore[arg-type]
    run.branches = SimpleNamespace(all=lambda: [SimpleNamespace(picks={})])
    run.saved()
    whole, new = [], []
    pos = n
    for _ in range(rounds):
        pos += 3
        timeline.history = steps[:pos]
        t = time.perf_counter(); saved_merges(timeline.history); whole.append(time.perf_counter() - t)
        pos += 3
        timeline.history = steps[:pos]
        t = time.perf_counter(); run.saved(); new.append(time.perf_counter() - t)
    print(f"uptime: {os.getloadavg()}")
    print(f"{n:,} merges: whole history converted {statistics.median(whole) * 1e3:.2f} ms, "
          f"TrainingRun.saved() {statistics.median(new) * 1e3:.2f} ms (medians of {rounds})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30_000)
