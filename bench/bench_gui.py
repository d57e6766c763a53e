"""Step-to-pixels latency of the main window with every pane visible, on the built-in corpus.

For each merge: ``session.step()`` (the trainer merges, the session emits ``steps_applied``, every
pane updates its items) and then the event loop runs until Qt has painted every widget the step
dirtied into the window's backing store. Prints p50/p95/p99 (target: p95 <= 16 ms).

    python bench/bench_gui.py [--steps 300] [--corpus PATH] [--preset NAME] [--size 1440x900] [--panes]

``--panes`` also times each pane alone (the others hidden), to see where the time goes. The encode
pane re-encodes 40 ms after the last change by design (debounce), so its new chips land after the
measured frame; its own bench lives with it (bench/bench_encode_pane.py).

A bench may spin the event loop by hand; the app never does.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QEventLoop, QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

PANES = ("pair_chart", "words", "history_chart", "encode", "merges", "controls")


def percentile(values, q: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def timed_steps(app, session, n: int) -> tuple:
    """Wall-clock and GUI-thread CPU milliseconds of ``n`` steps (CPU time is what the app itself
    spends; on a machine shared with other jobs the wall clock also counts their time slices)."""
    wall, cpu = [], []
    for _ in range(n):
        t0, c0 = time.perf_counter(), time.thread_time()
        session.step()
        app.processEvents()  # deliver the updates and paint them
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    return wall, cpu


def report(label: str, times: tuple) -> None:
    for kind, ms in zip(("wall", "cpu"), times):
        print(f"{label:26s} {kind:4s} n={len(ms):4d}  p50 {percentile(ms, .5):6.1f}  p95 {percentile(ms, .95):6.1f}  "
              f"p99 {percentile(ms, .99):6.1f}  max {max(ms):6.1f}  mean {statistics.fmean(ms):6.1f} ms")


def main(argv=None) -> int:
    from app.__main__ import DEFAULT_CORPUS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--preset")
    parser.add_argument("--size", default="1440x900")
    parser.add_argument("--panes", action="store_true", help="also time each pane alone")
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication([])
    from app.main_window import MainWindow
    from app.session import Session, default_config
    from app.theme import apply_app_theme, configure_pyqtgraph

    configure_pyqtgraph()
    apply_app_theme(app)
    session = Session(config=default_config(args.preset))
    settings = QSettings(str(ROOT / "bench" / "out" / "bench_gui.ini"), QSettings.Format.IniFormat)
    settings.clear()
    window = MainWindow(session, settings)
    w, h = (int(v) for v in args.size.split("x"))
    window.resize(w, h)
    window.show()
    loop = QEventLoop()
    session.corpus_loaded.connect(loop.quit)
    session.error_raised.connect(lambda m: (print(m, file=sys.stderr), loop.quit()))
    session.load_corpus(args.corpus)
    loop.exec()
    window.encode.set_text("Natural language processing is interesting.")
    print(f"{Path(args.corpus).name}: {len(session.words):,} words, preset {session.config.preset}, "
          f"window {w}x{h}, platform {app.platformName()}, load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs")
    timed_steps(app, session, 10)  # warm caches
    report("every pane visible", timed_steps(app, session, args.steps))
    if args.panes:
        for name in PANES:
            for other in PANES:
                getattr(window, other).setVisible(other == name)
            app.processEvents()
            report(f"only {name}", timed_steps(app, session, max(50, args.steps // 4)))
        for other in PANES:
            getattr(window, other).setVisible(False)
        app.processEvents()
        report("no pane (core + session)", timed_steps(app, session, max(50, args.steps // 4)))
    session.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
