"""Run to target in the real window (offscreen), the first run and again after Reset, old code against new.

    python bench/bench_run_to_target.py --old OLD_CHECKOUT [--rounds 3] [--corpus PATH]

Each round runs a child process per side, alternating old then new: it opens the window as ``bpe-lens CORPUS``
does for a new user (fresh profile, the defaults: gpt2, read-ahead on), waits for the corpus, then presses End
(Run to target) and, at the end, Home (Reset), waits 0.3 s and presses End again. For each run it reports:

* ``visible``: seconds from the key until the run shows (Cancel enabled) or, without that, the target shows;
* ``target``: seconds until the merge counter shows the run's last merge and the run has ended (Cancel off).

The old side imports OLD_CHECKOUT's ``bpe_core`` and ``app`` (as ``bpe_lens_app``) through a folder of links
put first on PYTHONPATH; the new side, this checkout's. The corpus is bench_train.py's 17.6 MB one. Prints the
load average before and after (a shared 2-core machine: only alternated medians mean anything).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def child(corpus: str) -> None:
    """One side's measurement, printed as one JSON line (runs in its own process)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["BPE_LENS_APP_DATA"] = tempfile.mkdtemp()
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    try:
        from bpe_lens_app.__main__ import open_window, parse_args
    except ImportError:  # before open_window (f2b42f2): what main() did, step by step
        open_window, parse_args = _open_window, lambda argv: argv
    window, session = open_window(parse_args([corpus, "--no-restore"]))
    app = QApplication.instance()
    cancel = window.train_actions["cancel"]

    def wait(cond, timeout=600.0) -> float:
        t0 = time.perf_counter()
        while not cond():
            app.processEvents()
            time.sleep(0.001)
            if time.perf_counter() - t0 > timeout:
                raise SystemExit("timed out")
        return time.perf_counter() - t0

    def merge() -> int:
        m = re.match(r"merge ([\d,]+)", window.controls.merge_label.text())
        return int(m.group(1).replace(",", ""))

    def run(end=None) -> dict:
        t0 = time.perf_counter()
        QTest.keyClick(window, Qt.Key_End)
        visible = wait(lambda: cancel.isEnabled() or end is not None and merge() == end)
        wait(lambda: not cancel.isEnabled() and (end is None or merge() == end))
        return dict(visible=visible, target=time.perf_counter() - t0, merge=merge())

    out = dict(load=wait(lambda: session.corpus is not None and not session.is_loading))
    first = out["first"] = run()
    QTest.keyClick(window, Qt.Key_Home)
    t0 = time.perf_counter()
    wait(lambda: time.perf_counter() - t0 > 0.3)
    out["after_reset"] = run(first["merge"])
    print(json.dumps(out))
    session.shutdown()


def _open_window(argv):
    """The window and session of ``bpe-lens CORPUS`` for code older than ``__main__.open_window``."""
    from bpe_lens_app.__main__ import make_app
    from bpe_lens_app.main_window import MainWindow
    from bpe_lens_app.session.session import Session, default_config
    from bpe_lens_app.widgets.theme import apply_app_theme, configure_pyqtgraph

    app = make_app()
    configure_pyqtgraph()
    apply_app_theme(app)
    session = Session(config=default_config())
    window = MainWindow(session)
    window.resize(1440, 900)
    window.show()
    session.load_corpus(argv[0])
    return window, session


def links(checkout: Path) -> str:
    """A folder whose bpe_core and bpe_lens_app are ``checkout``'s (put first on PYTHONPATH)."""
    folder = Path(tempfile.mkdtemp(prefix="rtt-"))
    (folder / "bpe_core").symlink_to(checkout / "bpe_core")
    (folder / "bpe_lens_app").symlink_to(checkout / "app")
    return str(folder)


def measure(checkout: Path, corpus: str) -> dict:
    env = dict(os.environ, PYTHONPATH=links(checkout), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", corpus], env=env,
                          cwd=tempfile.gettempdir(), capture_output=True, text=True, timeout=1800)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        raise SystemExit(f"{checkout}: no result\n{proc.stderr[-2000:]}")
    return json.loads(lines[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=False, help="a checkout of the old commit (e.g. 58c857f)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--corpus", help="default: bench_train.py's 17.6 MB corpus")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return
    sys.path.insert(0, str(HERE))
    from bench_train import build_corpus

    corpus = args.corpus or str(build_corpus())
    print(f"corpus: {corpus} ({os.path.getsize(corpus) / 1e6:.1f} MB); load: {os.getloadavg()}")
    sides = ([("old", args.old.resolve())] if args.old else []) + [("new", ROOT)]
    got = {name: [] for name, _ in sides}
    for r in range(args.rounds):
        for name, checkout in sides:
            res = measure(checkout, corpus)
            got[name].append(res)
            print(f"round {r + 1} {name}: load {res['load']:.2f} s; first run: visible {res['first']['visible']:.3f} s, "
                  f"target {res['first']['target']:.2f} s at merge {res['first']['merge']:,}; after Reset: visible "
                  f"{res['after_reset']['visible']:.3f} s, target {res['after_reset']['target']:.2f} s", flush=True)
    print(f"load after: {os.getloadavg()}")
    for name, runs in got.items():
        med = {f"{run}.{key}": statistics.median(r[run][key] for r in runs)
               for run in ("first", "after_reset") for key in ("visible", "target")}
        print(name, "medians:", ", ".join(f"{k} {v:.3f} s" for k, v in med.items()))


if __name__ == "__main__":
    main()
