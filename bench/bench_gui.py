"""Step-to-pixels latency of the main window with every pane visible (default: the built-in corpus).

For each merge: ``session.step()`` (the trainer merges, the session emits ``steps_applied``, every
pane updates its items), then the event loop runs until Qt has painted every widget the step
dirtied and flushed the window (until two passes in a row repaint nothing: :func:`painted`), then a
round trip to the window system
(``QGuiApplication.sync()``: under X11 the server has drawn the pixels when it returns). Prints
p50/p95/p99 of wall-clock and GUI-thread CPU time (target: p95 <= 16 ms).

    python bench/bench_gui.py [--steps 300] [--corpus PATH] [--preset NAME] [--size 1440x900] [--panes]
                              [--encode-chars N] [--platform offscreen|xvfb|both] [--repeat N]

The real load of issue 9: ``--corpus wiki.valid.raw --encode-chars 3000`` (a corpus name alone is
looked up under the shared data folder; the encode pane gets the corpus's first N characters).

``--platform both`` runs the bench once offscreen and once under xvfb-run (a real X server) and
prints both; ``--repeat N`` runs each N times (fresh processes) and reports the median of each
percentile, since another job on a 2-core machine shifts single runs.

``--panes`` also times each pane alone (the others hidden), to see where the time goes; for a
breakdown per pane and event type see bench/profile_gui.py. The encode pane's new encoding counts when
it is shown within the step (a step or an undo moves it along at once; an encoding on a worker comes
later and is not timed): the bench says in how many steps it was.

A bench may spin the event loop by hand; the app never does.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QEvent, QEventLoop, QObject, QSettings  # noqa: E402
from PySide6.QtGui import QGuiApplication  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

PANES = ("pair_chart", "words", "history_chart", "encode", "merges", "controls")


def percentile(values, q: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


class WindowRepaints(QObject):
    """Counts the window's repaints (its UpdateRequest events: Qt paints every dirty widget of the window in one)."""

    def __init__(self, window) -> None:
        super().__init__()
        self.count = 0
        window.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.UpdateRequest:
            self.count += 1
        return False


def painted(app, window=None, passes: int = 12) -> None:
    """Run the event loop until two passes in a row repaint nothing (what a step dirtied may be painted over
    more than one pass: a chart's scene reports its changes a pass after the widgets', and Qt posts a repaint
    for them then, painted in the pass after that); without a window, one pass."""
    if window is None:
        app.processEvents()
        return
    repaints = getattr(window, "_bench_repaints", None) or WindowRepaints(window)
    window._bench_repaints = repaints
    quiet = 0
    for _ in range(passes):
        before = repaints.count
        app.processEvents()
        quiet = quiet + 1 if repaints.count == before else 0
        if quiet == 2:
            return


#: True while a step is timed (from the press until its pixels): what happens then counts as the step's
IN_STEP = [False]


def timed_steps(app, session, n: int, window=None, pace: float = 0.0) -> tuple:
    """Wall-clock and GUI-thread CPU milliseconds of ``n`` steps (CPU time is what the app itself
    spends; on a machine shared with other jobs the wall clock also counts their time slices).
    ``pace``: seconds between a step's pixels and the next press, the event loop running (a person
    reading the merge before pressing again; 0: back to back, the worst case)."""
    wall, cpu = [], []
    step = window.train_actions["step"] if window is not None else None
    for _ in range(n):
        before = session.merge_count
        t0, c0 = time.perf_counter(), time.thread_time()
        IN_STEP[0] = True
        if step is not None:
            step.trigger()  # what Space does: a merge read ahead shows at once, else when the trainer has it
        else:
            session.step()
        while session.merge_count == before and time.perf_counter() - t0 < 10:
            app.processEvents(QEventLoop.AllEvents, 1)
        painted(app, window)  # deliver the updates, paint them, flush the window
        QGuiApplication.sync()  # the window system has the pixels
        IN_STEP[0] = False
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        end = time.perf_counter() + pace
        while time.perf_counter() < end:
            app.processEvents(QEventLoop.AllEvents, 5)
            time.sleep(0.002)
    return wall, cpu


def report(label: str, times: tuple) -> None:
    for kind, ms in zip(("wall", "cpu"), times):
        print(f"{label:26s} {kind:4s} n={len(ms):4d}  p50 {percentile(ms, .5):6.1f}  p95 {percentile(ms, .95):6.1f}  "
              f"p99 {percentile(ms, .99):6.1f}  max {max(ms):6.1f}  mean {statistics.fmean(ms):6.1f} ms")


LINE = re.compile(r"^(?P<label>.+?)\s+(?P<kind>wall|cpu)\s+n=\s*(?P<n>\d+)\s+p50\s+(?P<p50>[\d.]+)\s+p95\s+(?P<p95>[\d.]+)"
                  r"\s+p99\s+(?P<p99>[\d.]+)")


def run_platforms(args, argv) -> int:
    """Run this bench in fresh processes per platform (and repeat); print medians per percentile."""
    own, skip = [], False
    for a in argv:  # this bench's arguments without --platform / --repeat and their values
        if skip:
            skip = False
        elif a in ("--platform", "--repeat"):
            skip = True
        elif not a.startswith(("--platform=", "--repeat=")):
            own.append(a)
    platforms = ["offscreen", "xvfb"] if args.platform == "both" else [args.platform]
    commands = {}
    for platform in platforms:
        env = dict(os.environ, PYQTGRAPH_QT_LIB="PySide6")
        if platform == "offscreen":
            env.pop("DISPLAY", None)
            env["QT_QPA_PLATFORM"] = "offscreen"
            commands[platform] = ([sys.executable, __file__, *own], env)
        elif shutil.which("xvfb-run") is None:
            print("xvfb-run not found: skipping the X11 run", file=sys.stderr)
        else:
            env.pop("QT_QPA_PLATFORM", None)
            commands[platform] = (["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable, __file__, *own],
                                  env)
    rows: dict = {}
    for i in range(args.repeat):  # platforms take turns: a machine whose speed drifts treats both alike
        for platform, (cmd, env) in commands.items():
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                m = LINE.match(line)
                if m:
                    rows.setdefault((platform, m["label"], m["kind"]), []).append(
                        (float(m["p50"]), float(m["p95"]), float(m["p99"])))
                elif i == 0 and not line.startswith(" "):
                    print(line)
    for platform in commands:
        print(f"== {platform}: median of {args.repeat} run(s)")
        for (plat, label, kind), runs in rows.items():
            if plat != platform:
                continue
            p50, p95, p99 = (statistics.median(r[j] for r in runs) for j in range(3))
            spread = f"  (p95 {min(r[1] for r in runs):.1f}..{max(r[1] for r in runs):.1f})" if len(runs) > 1 else ""
            print(f"{label:26s} {kind:4s} p50 {p50:6.1f}  p95 {p95:6.1f}  p99 {p99:6.1f} ms{spread}")
    return 0


def open_window(app, args, ini_name: str):
    """(session, main window) sized ``args.size`` with fresh settings, shown; the preset from args."""
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session, default_config
    from bpe_lens_app.widgets.theme import apply_app_theme, configure_pyqtgraph

    configure_pyqtgraph()
    apply_app_theme(app)
    session = Session(config=default_config(args.preset))
    settings = QSettings(str(ROOT / "bench" / "out" / ini_name), QSettings.Format.IniFormat)
    settings.clear()
    window = MainWindow(session, settings)
    w, h = (int(v) for v in args.size.split("x"))
    window.resize(w, h)
    window.show()
    return session, window


def corpus_path(name: str) -> str:
    """``name`` as given, or found under the shared data folder (``wiki.valid.raw``)."""
    if os.path.exists(name):
        return name
    data = ROOT.parent / "shared" / "data"
    found = sorted(data.rglob(name)) if data.is_dir() else []
    return str(found[0]) if found else name


def sample_text(path: str, chars: int) -> str:
    """The first ``chars`` characters of ``path``'s text, whitespace runs made single spaces."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")[: chars * 4]
    return " ".join(text.split())[:chars]


def load_corpus(session, window, path: str, encode_chars: int = 0) -> None:
    """Load ``path`` and wait for it (an error is printed); the encode pane gets a sentence, or the
    corpus's first ``encode_chars`` characters."""
    loop = QEventLoop()
    session.corpus_loaded.connect(loop.quit)
    session.error_raised.connect(lambda m: (print(m, file=sys.stderr), loop.quit()))
    session.load_corpus(path)
    loop.exec()
    window.encode.set_text(sample_text(path, encode_chars) if encode_chars
                           else "Natural language processing is interesting.")


def main(argv=None) -> int:
    from bpe_lens_app.__main__ import DEFAULT_CORPUS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--preset")
    parser.add_argument("--size", default="1440x900")
    parser.add_argument("--panes", action="store_true", help="also time each pane alone")
    parser.add_argument("--encode-chars", type=int, default=0, help="this many corpus characters in the encode pane")
    parser.add_argument("--platform", choices=("offscreen", "xvfb", "both"),
                        help="run in fresh processes on these platforms (default: this process's)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per platform (with --platform)")
    parser.add_argument("--pace", type=float, default=0.0, metavar="S",
                        help="seconds between a step's pixels and the next press (default 0: back to back)")
    args = parser.parse_args(argv)
    if args.platform:
        return run_platforms(args, sys.argv[1:] if argv is None else list(argv))
    app = QApplication.instance() or QApplication([])
    session, window = open_window(app, args, "bench_gui.ini")
    args.corpus = corpus_path(args.corpus)
    load_corpus(session, window, args.corpus, args.encode_chars)
    w, h = (int(v) for v in args.size.split("x"))
    print(f"{Path(args.corpus).name}: {len(session.words):,} words, preset {session.config.preset}, "
          f"window {w}x{h}, {len(window.encode.text()):,} chars in the encode pane, platform {app.platformName()}, "
          f"read-ahead {session.read_ahead}, pace {args.pace:g} s, load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs")
    timed_steps(app, session, 10, window)  # warm caches
    encoded = []  # merges whose encoding the pane showed within the step's time (not later, from a worker)
    window.encode.encoding_changed.connect(lambda _: IN_STEP[0] and encoded.append(session.merge_count))
    report("every pane visible", timed_steps(app, session, args.steps, window, args.pace))
    print(f"encode pane showed the new encoding within the step: {len(set(encoded))} of {args.steps} steps")
    if args.panes:
        for name in PANES:
            for other in PANES:
                getattr(window, other).setVisible(other == name)
            app.processEvents()
            report(f"only {name}", timed_steps(app, session, max(50, args.steps // 4), window))
        for other in PANES:
            getattr(window, other).setVisible(False)
        app.processEvents()
        report("no pane (core + session)", timed_steps(app, session, max(50, args.steps // 4), window))
    session.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
