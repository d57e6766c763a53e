"""The longest GUI-thread stall per scenario, with every pane visible (budget: 50 ms).

A 2 ms QTimer ticks on the GUI thread; the longest gap between ticks is how long the window could
not answer (paint, input). Scenarios, in order, on one window:

* ``load``: count the corpus's words (a worker) until the panes show it;
* ``run``: Run to target (``--merges`` caps it), with ``--encode-chars`` characters in the encode pane;
* ``seek-back`` / ``seek-forward``: the timeline to merge 100 and back to the end — the merge shows
  at once (``shown in``: slider moved to window painted) and the trainer catches up on a worker
  (the stall is measured until it has);
* ``typing``: 40 characters typed into the encode pane (one every 30 ms) on top of the text;
* ``hold-space``: Space held for 2 s (auto-repeat every 33 ms, as X11 sends it): steps done, presses
  dropped, and how many merges arrive after the key is let go (must be 0 or 1).

    python bench/bench_stall.py [--corpus PATH] [--preset NAME] [--merges 3000] [--encode-chars 3000]
                                [--size 1440x900] [--scenarios load,run,...]

The machine's load shifts every figure; the script prints it (figures for docs/benchmarks.md come
from an idle machine). A bench may spin the event loop by hand; the app never does.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import QEvent, QEventLoop, Qt, QTimer  # noqa: E402
from PySide6.QtGui import QKeyEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bench.bench_gui import open_window  # noqa: E402

#: the real load of issue 9: ../shared/data beside the checkout (or BPE_LENS_DATA)
WIKI = str(Path(os.environ.get("BPE_LENS_DATA") or ROOT.parent / "shared" / "data") / "wikitext-2-raw" / "wiki.valid.raw")
SCENARIOS = ("load", "run", "seek-back", "seek-forward", "typing", "hold-space")


class Gaps:
    """The longest gap between ticks of a 2 ms timer (on the GUI thread) since :meth:`start`, and the
    GUI thread's CPU time within the worst gap (much less than the gap: the thread waited, for the GIL
    or, on a loaded machine, for a core)."""

    def __init__(self) -> None:
        self.timer = QTimer(interval=2, timerType=Qt.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.last = self.longest = self.last_cpu = self.cpu_in_longest = 0.0
        self.ticks = 0

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if now - self.last > self.longest:
            self.longest, self.cpu_in_longest = now - self.last, cpu - self.last_cpu
        self.last, self.last_cpu = now, cpu
        self.ticks += 1

    def start(self) -> None:
        self.last, self.longest, self.ticks = time.perf_counter(), 0.0, 0
        self.last_cpu, self.cpu_in_longest = time.thread_time(), 0.0
        self.timer.start()

    def stop(self) -> float:
        self._tick()
        self.timer.stop()
        return self.longest * 1000

    def cpu(self) -> str:
        return f" (GUI CPU in it {self.cpu_in_longest * 1000:5.1f} ms)"


def spin_until(app, done, timeout: float = 600.0, settle: float = 0.1) -> float:
    """Run the event loop until ``done()`` holds (then ``settle`` s more); seconds taken."""
    t0 = time.perf_counter()
    while not done() and time.perf_counter() - t0 < timeout:
        app.processEvents(QEventLoop.AllEvents, 5)
        time.sleep(0.001)
    t1 = time.perf_counter()
    while time.perf_counter() - t1 < settle:
        app.processEvents(QEventLoop.AllEvents, 5)
        time.sleep(0.001)
    return t1 - t0


def scenario(name: str, app, gaps: Gaps, action, done, extra: str = "") -> None:
    gaps.start()
    t0 = time.perf_counter()
    action()
    spin_until(app, done)
    took = time.perf_counter() - t0
    longest = gaps.stop()
    extra = extra() if callable(extra) else extra
    print(f"{name:13s} longest stall {longest:7.1f} ms{gaps.cpu()}  ({took:6.2f} s, {gaps.ticks} ticks){extra}"
          f"{GC.take()}", flush=True)
    if isinstance(app, WhyApp):
        app.report(name)


def hold_key(app, window, key=Qt.Key_Space, text=" ", seconds: float = 2.0, every: float = 0.033) -> dict:
    """Emulate a held key: an auto-repeat ShortcutOverride to the focus widget and the shortcut's action,
    every ``every`` s (events a busy GUI thread receives late are delivered together, as X11's are)."""
    session, action = window.session, window.train_actions["step"]
    target = QApplication.focusWidget() or window
    presses = []
    start = session.merge_count

    def press() -> None:
        ev = QKeyEvent(QEvent.ShortcutOverride, key, Qt.NoModifier, text, True)
        QApplication.sendEvent(target, ev)
        action.trigger()
        presses.append(session.merge_count)

    timer = QTimer(interval=int(every * 1000))
    timer.timeout.connect(press)
    timer.start()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        app.processEvents(QEventLoop.AllEvents, 5)
        time.sleep(0.001)
    timer.stop()
    at_release = session.merge_count
    spin_until(app, lambda: False, timeout=0.3)
    return {"presses": len(presses), "steps": session.merge_count - start,
            "after release": session.merge_count - at_release, "dropped": window.train_actions.latest.dropped}


class GcPauses:
    """The cyclic garbage collector's passes (generation 2, the full ones) and the longest of them."""

    def __init__(self) -> None:
        import gc

        self.t0, self.full, self.longest = 0.0, 0, 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self.t0 = time.perf_counter()
        else:
            self.full += 1
            self.longest = max(self.longest, time.perf_counter() - self.t0)

    def take(self) -> str:
        out = f"  full GC passes {self.full} (longest {self.longest * 1000:.1f} ms)"
        self.full, self.longest = 0, 0.0
        return out


GC = GcPauses()


class WhyApp(QApplication):
    """``--why MS``: profiles every top-level event and prints where each one over MS went (cProfile,
    the functions with the most cumulative time): what a stall is made of."""

    def __init__(self, argv, threshold_ms: float) -> None:
        super().__init__(argv)
        self.threshold, self.depth, self.slow = threshold_ms / 1000, 0, []

    def notify(self, receiver, event):  # noqa: D401 - Qt override
        if self.depth:
            return super().notify(receiver, event)
        import cProfile

        self.depth += 1
        profiler = cProfile.Profile()
        t0 = time.perf_counter()
        try:
            return profiler.runcall(super().notify, receiver, event)
        finally:
            took = time.perf_counter() - t0
            self.depth -= 1
            if took > self.threshold:
                self.slow.append((took * 1000, type(receiver).__name__, str(event.type()), profiler))

    def report(self, name: str) -> None:
        import io
        import pstats

        for ms, receiver, kind, profiler in sorted(self.slow, key=lambda t: -t[0])[:3]:
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(14)
            lines = [ln for ln in out.getvalue().splitlines() if "/" in ln or "{" in ln][:14]
            print(f"  [{name}] {ms:.1f} ms (profiled) in {receiver} {kind}")
            for ln in lines:
                print("     " + ln.strip()[:150])
        self.slow.clear()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--why", type=float, default=0, metavar="MS",
                        help="profile each event and print where those over MS went")
    parser.add_argument("--corpus", default=WIKI)
    parser.add_argument("--preset")
    parser.add_argument("--merges", type=int, default=3000, help="Run to target stops here")
    parser.add_argument("--encode-chars", type=int, default=3000)
    parser.add_argument("--size", default="1440x900")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    args = parser.parse_args(argv)
    wanted = args.scenarios.split(",")
    app = QApplication.instance() or (WhyApp([], args.why) if args.why else QApplication([]))
    session, window = open_window(app, args, "bench_stall.ini")
    from bpe_lens_app.session.session import default_config
    from dataclasses import replace
    session.set_config(replace(default_config(args.preset), num_merges=args.merges, vocab_size=None))
    spin_until(app, lambda: False, timeout=0.5)
    gaps = Gaps()
    text = Path(args.corpus).read_text(encoding="utf-8", errors="replace")
    sample = " ".join(text[:200_000].split())[: args.encode_chars]
    print(f"{Path(args.corpus).name}, preset {session.config.preset}, {args.merges:,} merges, "
          f"{len(sample):,} chars in the encode pane, platform {app.platformName()}, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    loaded = []
    session.corpus_loaded.connect(lambda *_: loaded.append(1))
    scenario("load" if "load" in wanted else "(load)", app, gaps, lambda: session.load_corpus(args.corpus),
             lambda: bool(loaded), lambda: f"  {len(session.words):,} words")
    window.encode.set_text(sample)
    spin_until(app, lambda: False, timeout=0.3)
    if "run" in wanted:
        ended = []
        session.run_finished.connect(lambda end: ended.append(end))
        scenario("run", app, gaps, session.run_to_target, lambda: bool(ended),
                 lambda: f"  to merge {session.merge_count:,}")
    else:
        session.step(args.merges)
        spin_until(app, lambda: not session.is_running)
    end = session.merge_count
    caught = lambda: not session.is_catching_up and not session.is_running  # noqa: E731
    shown: list = []

    def seek_shown(k: int) -> None:
        """Move the slider to ``k``; how long until the window has painted merge k (the trainer follows later)."""
        t0 = time.perf_counter()
        window.controls.timeline.setValue(k)
        while session.merge_count != k and time.perf_counter() - t0 < 10:
            app.processEvents(QEventLoop.AllEvents, 1)
        app.processEvents()  # the repaint
        QApplication.sync()
        shown.append((time.perf_counter() - t0) * 1000)

    if "seek-back" in wanted:
        scenario("seek-back", app, gaps, lambda: seek_shown(100), caught,
                 lambda: f"  {end:,} -> 100, shown in {shown[-1]:.1f} ms")
    if "seek-forward" in wanted:
        scenario("seek-forward", app, gaps, lambda: seek_shown(end), caught,
                 lambda: f"  -> {end:,}, shown in {shown[-1]:.1f} ms")
    if "typing" in wanted:
        editor = window.encode.editor
        editor.setFocus()
        typed = []

        def type_one() -> None:
            ev = QKeyEvent(QEvent.KeyPress, Qt.Key_A, Qt.NoModifier, "a")
            QApplication.sendEvent(editor, ev)
            typed.append(1)

        timer = QTimer(interval=30)
        timer.timeout.connect(lambda: type_one() if len(typed) < 40 else timer.stop())
        scenario("typing", app, gaps, timer.start, lambda: len(typed) >= 40, "  40 keys, 30 ms apart")
        window.setFocus()
    if "hold-space" in wanted:
        session.seek(0)
        spin_until(app, caught)
        window.activateWindow()
        window.setFocus()
        gaps.start()
        got = hold_key(app, window)
        print(f"{'hold-space':13s} longest stall {gaps.stop():7.1f} ms{gaps.cpu()}  presses {got['presses']}, "
              f"steps {got['steps']}, "
              f"dropped {got['dropped']}, after release {got['after release']}{GC.take()}", flush=True)
        if isinstance(app, WhyApp):
            app.report("hold-space")
    session.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
