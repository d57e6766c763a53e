"""Where a step's milliseconds go: per pane, split into slots (the step) and painting.

    python bench/profile_gui.py [--steps 200] [--corpus PATH] [--preset NAME] [--size 1440x900] [--cprofile N]

Builds the main window as bench_gui.py does, with every pane visible, and for each merge measures
GUI-thread CPU time of

* ``session.step()`` — the trainer plus every pane's slot (signals are direct calls);
* each event the event loop then delivers (paints, layout requests, timers), charged to the pane
  the receiving widget belongs to (``QApplication.notify`` is wrapped; exclusive times: an event
  delivered inside another is charged to its own receiver only).

Prints the medians and 95th percentiles per pane and event type. ``--cprofile N`` prints the N
functions with the most cumulative time over the whole loop (Python only: Qt's own C++ painting
shows up inside the Python frame that triggered it, e.g. ``processEvents``).
"""
from __future__ import annotations

import argparse
import cProfile
import collections
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QEventLoop  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from bench_gui import PANES, corpus_path, load_corpus, open_window, percentile  # noqa: E402


class TimingApp(QApplication):
    """Charges the CPU time of every delivered event to (pane, event type)."""

    def __init__(self, argv) -> None:
        super().__init__(argv)
        self.panes: dict = {}  # widget -> pane name
        self.costs = collections.defaultdict(float)
        self._stack: list = []
        self.detail = False

    def pane_of(self, obj) -> str:
        w = obj if isinstance(obj, QWidget) else None
        while w is not None:
            name = self.panes.get(w)
            if name:
                return name
            w = w.parentWidget()
        return "other" if isinstance(obj, QWidget) else type(obj).__name__

    def notify(self, receiver, event) -> bool:
        # exclusive time: an event delivered inside another (a paint inside a scene update) is
        # charged to its own pane, and subtracted from the outer one
        stack = self._stack
        stack.append(0.0)
        c0 = time.thread_time()
        try:
            return super().notify(receiver, event)
        finally:
            total = (time.thread_time() - c0) * 1000
            inner = stack.pop()
            if stack:
                stack[-1] += total
            kind = event.type().name
            if self.detail and kind == "Paint":
                r = event.rect()
                kind = f"Paint {type(receiver).__name__} {receiver.objectName()} {r.width()}x{r.height()}"[:60]
            self.costs[(self.pane_of(receiver), kind)] += total - inner


def main(argv=None) -> int:
    from bpe_lens_app.__main__ import DEFAULT_CORPUS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--preset")
    parser.add_argument("--size", default="1440x900")
    parser.add_argument("--cprofile", type=int, default=0, metavar="N")
    parser.add_argument("--detail", action="store_true", help="paints per widget class and region size")
    parser.add_argument("--worst", type=int, default=0, metavar="N", help="break down the N slowest steps")
    parser.add_argument("--start", type=int, default=0, metavar="K", help="first run to merge K (on a worker)")
    parser.add_argument("--encode-chars", type=int, default=0, help="this many corpus characters in the encode pane")
    args = parser.parse_args(argv)
    app = TimingApp([])
    app.detail = args.detail
    session, window = open_window(app, args, "profile_gui.ini")
    for name in PANES:
        app.panes[getattr(window, name)] = name
    args.corpus = corpus_path(args.corpus)
    load_corpus(session, window, args.corpus, args.encode_chars)
    if args.start:
        loop = QEventLoop()
        session.run_finished.connect(loop.quit)
        session.seek(args.start)
        if session.is_running:
            loop.exec()
    for _ in range(10):
        session.step()
        app.processEvents()

    # the step's slots, per pane: wrap each pane's slots connected to steps_applied
    per_step = collections.defaultdict(list)
    steps = []  # (total ms, merge, {key: ms})
    profiler = cProfile.Profile() if args.cprofile else None
    for _ in range(args.steps):
        app.costs.clear()
        if profiler:
            profiler.enable()
        c0 = time.thread_time()
        session.step()
        c1 = time.thread_time()
        app.processEvents()
        c2 = time.thread_time()
        if profiler:
            profiler.disable()
        per_step[("total", "step + events")].append((c2 - c0) * 1000)
        per_step[("session.step", "slots")].append((c1 - c0) * 1000)
        per_step[("processEvents", "all")].append((c2 - c1) * 1000)
        by_pane = collections.defaultdict(float)
        steps.append(((c2 - c0) * 1000, session.merge_count, len(session.history[-1].changed_words),
                      {"step": (c1 - c0) * 1000, **{f"{p}/{k}": ms for (p, k), ms in app.costs.items()}}))
        for (pane, kind), ms in app.costs.items():
            per_step[(pane, kind)].append(ms)
            by_pane[pane] += ms
        for pane, ms in by_pane.items():
            per_step[(pane, "events")].append(ms)
    n = args.steps
    print(f"GUI-thread CPU ms over {n} steps ({app.platformName()}); p50/p95 over all steps (0 when absent)")
    rows = []
    for key, values in per_step.items():
        values = values + [0.0] * (n - len(values))
        rows.append((sum(values) / n, key, percentile(values, .5), percentile(values, .95)))
    for mean, (pane, kind), p50, p95 in sorted(rows, reverse=True):
        if mean >= 0.02:
            print(f"  {pane:14s} {kind:26s} mean {mean:6.2f}  p50 {p50:6.2f}  p95 {p95:6.2f}")
    for total, merge, changed, parts in sorted(steps, key=lambda t: t[0], reverse=True)[: args.worst]:
        top = sorted(parts.items(), key=lambda kv: -kv[1])[:6]
        print(f"  merge {merge:5d} ({changed:5d} words) {total:6.2f} ms: " + ", ".join(f"{k} {v:.2f}" for k, v in top))
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(args.cprofile)
    session.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
