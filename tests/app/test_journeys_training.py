"""Journeys (issue 23, findings 2, 3 and 6's per-script curves and "changed 1 words"): training under a new
user's defaults (read-ahead on, the real event loop, keys and clicks), on the default corpus and on real corpora
of a megabyte (wiki.valid.raw) and 17.6 MB (the bench corpus, built by bench/bench_train.py from
the shared data; slow). Every assertion is on what a user sees: the merge counter, the status bar's progress
and Cancel, the changed-words table and its title, the per-script chart's points. Work is counted, never timed:
the merges the trainer runs (its ``step`` calls) against the merges shown."""
from __future__ import annotations

import importlib.util
import re
import threading
from pathlib import Path

import pytest

from tests.core.paths import DATA
from PySide6.QtCore import QPoint, Qt

ROOT = Path(__file__).resolve().parents[2]
WIKI = DATA / "wikitext-2-raw" / "wiki.valid.raw"
DEFAULT = pytest.param((), id="default-corpus")
WIKI_RUN = pytest.param((str(WIKI),), id="wiki.valid.raw",
                        marks=pytest.mark.skipif(not WIKI.is_file(), reason=f"{WIKI} is missing"))
BENCH = pytest.param("bench", id="bench-17.6MB", marks=pytest.mark.slow)
CORPORA = [DEFAULT, WIKI_RUN]


@pytest.fixture(scope="session")
def bench_corpus():
    """The 17.6 MB bench corpus (bench/bench_train.py's build_corpus: concatenated real text, under bench/out)."""
    spec = importlib.util.spec_from_file_location("bench_train", ROOT / "bench" / "bench_train.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    missing = [rel for rel in bench.SOURCES if not (bench.DATA / rel).is_file()]
    if missing and not (bench.OUT / "bench_corpus.txt").is_file():
        pytest.skip(f"the bench corpus's sources are missing: {missing[0]}")
    return str(bench.build_corpus())


@pytest.fixture
def argv_of(request):
    def argv(param):
        return (request.getfixturevalue("bench_corpus"),) if param == "bench" else param
    return argv


class MergeCounter:
    """Counts the merges the session's trainer runs (its ``step`` calls, on any thread)."""

    def __init__(self, trainer) -> None:
        self.count = 0
        self._lock = threading.Lock()
        step = trainer.step

        def counted(*args, **kw):
            out = step(*args, **kw)
            if out is not None:
                with self._lock:
                    self.count += 1
            return out

        trainer.step = counted


def counter_numbers(window):
    """(merge, end) as the merge counter shows them: "merge 1,234 / 5,678    vocab ..."."""
    m = re.match(r"merge ([\d,]+) / ([\d,]+)", window.controls.merge_label.text())
    return tuple(int(g.replace(",", "")) for g in m.groups())


def settled(session) -> bool:
    """No run, no catch-up, no read-ahead: the trainer rests at the position."""
    return not session.is_running and not session.core.is_moving and not session.is_catching_up


STOPPED = ("No pair occurs", "The vocabulary reached its target size")  # the stop rules' words (stop_text.py)


def run_to_the_end(qtbot, window) -> int:
    """End (Run to target) and wait for the stop rule's words in the status bar; returns the last merge."""
    qtbot.keyClick(window, Qt.Key_End)
    try:
        qtbot.waitUntil(lambda: not window.train_actions["cancel"].isEnabled()
                        and window.statusBar().currentMessage().startswith(STOPPED), timeout=300000)
    except Exception:  # noqa: BLE001 - say what the user sees instead
        raise AssertionError(f"{window.controls.merge_label.text()!r}, {window.statusBar().currentMessage()!r}, "
                             f"Cancel enabled: {window.train_actions['cancel'].isEnabled()}") from None
    merge, end = counter_numbers(window)
    assert merge == end > 0
    return merge


def open_every_dock(window) -> None:
    """View menu: every dock's action (checkable) switched on."""
    for action in window.menus["view"].actions():
        if action.isCheckable() and not action.isChecked():
            action.trigger()


def changed_title_says(window, k: int) -> bool:
    title = window.words.changed_title.text()
    return (title.startswith(f"Merge {k} (") and " changed " in title) if k else title.startswith("Words the last")


@pytest.mark.parametrize("argv", CORPORA)
def test_step_undo_scrub_with_every_pane_open(qtbot, user_window, argv):
    """Space, Undo, Step ×N, a slider drag, Home, with every View-menu dock open: the counter, the words the
    last merge changed and the merges table follow each command; no error is raised."""
    window = user_window(*argv)
    session = window.session
    errors = []
    session.error_raised.connect(errors.append)
    open_every_dock(window)
    merges = window.merges.view.model()

    def shows(k: int) -> bool:
        return counter_numbers(window)[0] == k and changed_title_says(window, k)

    for k in (1, 2, 3):
        qtbot.keyClick(window, Qt.Key_Space)
        qtbot.waitUntil(lambda: shows(k), timeout=20000)
        assert window.words.changed_model.rowCount() > 0
    qtbot.keyClick(window, Qt.Key_Backspace)
    qtbot.waitUntil(lambda: shows(2), timeout=20000)
    qtbot.keyClick(window, Qt.Key_Right, Qt.ShiftModifier)  # Step ×N (N = 10)
    qtbot.waitUntil(lambda: shows(12), timeout=60000)
    assert merges.rowCount() >= 12
    window.controls.timeline.setValue(5)  # a drag of the slider
    qtbot.waitUntil(lambda: shows(5), timeout=20000)
    qtbot.keyClick(window, Qt.Key_Space)
    qtbot.waitUntil(lambda: shows(6) and window.words.changed_model.rowCount() > 0, timeout=20000)
    qtbot.keyClick(window, Qt.Key_Home)
    qtbot.waitUntil(lambda: shows(0), timeout=20000)
    qtbot.waitUntil(lambda: settled(session), timeout=60000)
    assert counter_numbers(window)[0] == 0 and not errors


def curves_chart(window):
    from PySide6.QtWidgets import QDockWidget

    return window.findChild(QDockWidget, "dock_script_curves").widget()


@pytest.mark.parametrize("argv", CORPORA)
def test_step_n_with_the_script_curves_open_draws_the_merges_between(qtbot, user_window, argv):
    """Finding 6: Step ×500 with View → Tokens per word by script open: each curve has its exact value at every
    merge between 0 and 500 (as stepping one by one gives), not one straight line from 0 to 500."""
    from bpe_core.analysis.group_curves import GroupCurves
    from bpe_core.analysis.variant_compare import run_word_groups
    from bpe_core.training.trainer import Trainer

    window = user_window(*argv)
    session = window.session
    next(a for a in window.menus["view"].actions() if a.text() == "Tokens per word by script").trigger()
    chart = curves_chart(window)
    qtbot.waitUntil(lambda: chart.tracker is not None and chart.tracker.per_word, timeout=30000)  # words read
    window.controls.n_box.setValue(500)
    qtbot.keyClick(window, Qt.Key_Right, Qt.ShiftModifier)  # Step ×N
    qtbot.waitUntil(lambda: counter_numbers(window)[0] == 500 and not session.is_running, timeout=120000)
    qtbot.waitUntil(lambda: chart.tracker.points[-1][0] == 500, timeout=10000)

    # the reference: the same training stepped one merge at a time, a point per merge
    trainer = Trainer(dict(zip(session.words, session.freqs)), session.config)
    groups = run_word_groups(session.workbench.run.timeline, session.corpus.paths)  # the Measures definition
    ref = GroupCurves(groups.scripts, freqs=session.freqs, main=groups.groups, words=groups.words,
                      lengths=[len(trainer.segmentation(i)) for i in range(len(session.words))])
    for _ in range(500):
        step = trainer.step(detail=False)
        ref.update({i: len(trainer.segmentation(i)) for i in step.changed_words}, merge=step.rank)
    assert chart.tracker.groups == ref.groups
    for group, curve in chart.curves.items():
        xs, ys = curve.getData()
        assert list(xs) == list(range(501))  # every merge: 501 points fit the chart unthinned
        want = [values[ref.groups.index(group)] for _, values in ref.points]
        assert list(ys) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("argv", CORPORA + [BENCH])
def test_reset_then_run_to_target_replays_the_known_merges(qtbot, user_window, argv_of, argv):
    """Finding 2: after Reset, Run to target shows progress and Cancel at once and reaches the target from the
    records: the trainer merges nothing until the target is shown (it follows later, in the background)."""
    window = user_window(*argv_of(argv))
    session = window.session
    cancel, progress = window.train_actions["cancel"], window.status.progress
    end = run_to_the_end(qtbot, window)
    stopped = window.statusBar().currentMessage().split(" — ")[0]  # why the first run ended

    qtbot.keyClick(window, Qt.Key_Home)  # Reset
    assert counter_numbers(window)[0] == 0
    qtbot.wait(300)  # the trainer starts back to merge 0 in the background
    counted = MergeCounter(session.core.trainer)
    shown = []
    session.steps_applied.connect(lambda steps: shown.append((steps[-1].rank, counted.count)))

    qtbot.keyClick(window, Qt.Key_End)  # Run to target
    assert cancel.isEnabled() and progress.isVisible()  # at once: the run is on
    qtbot.waitUntil(lambda: counter_numbers(window)[0] == end, timeout=300000)
    assert shown[-1] == (end, 0)  # the target from the records: nothing trained again
    assert len(shown) > 1  # in frames, with progress between them
    qtbot.waitUntil(lambda: not cancel.isEnabled(), timeout=10000)
    assert window.statusBar().currentMessage().startswith(f"{stopped} — {end:,} merges")
    assert counter_numbers(window) == (end, end)

    # pressing it again at the end says so at once (not a silent wait for the trainer)
    window.statusBar().clearMessage()
    qtbot.keyClick(window, Qt.Key_End)
    assert window.statusBar().currentMessage().startswith(stopped)
    qtbot.waitUntil(lambda: settled(session), timeout=300000)  # the trainer caught up, in the background
    assert counter_numbers(window) == (end, end) and session.core.trainer.merge_count == end


@pytest.mark.parametrize("argv", CORPORA)
def test_cancel_stops_a_replay_and_undo_takes_over(qtbot, user_window, argv_of, argv):
    """Cancel during a replay from the records stops it where it is; the merges so far stay."""
    window = user_window(*argv_of(argv))
    session = window.session
    end = run_to_the_end(qtbot, window)
    qtbot.keyClick(window, Qt.Key_Home)
    qtbot.keyClick(window, Qt.Key_End)
    qtbot.keyClick(window, Qt.Key_Escape)  # Cancel, before the next frame
    assert not window.train_actions["cancel"].isEnabled()
    merge = counter_numbers(window)[0]
    assert merge < end
    assert window.statusBar().currentMessage().startswith(f"Cancelled at merge {merge:,}")
    qtbot.wait(200)
    assert counter_numbers(window)[0] == merge  # no frame after Cancel


@pytest.mark.parametrize("argv", CORPORA + [BENCH])
def test_slider_page_jump_then_space_shows_the_changed_words(qtbot, user_window, argv_of, argv):
    """Finding 3: at the end, a click on the slider's track (a jump to where it was clicked, as a media
    player's timeline), then Space: the changed-words table lists the merge's words (its title counts
    them, "1 word" in the singular)."""
    window = user_window(*argv_of(argv))
    words = window.words
    end = run_to_the_end(qtbot, window)
    slider = window.controls.timeline
    for share in (0.6, 0.1):
        before = counter_numbers(window)[0]
        qtbot.mouseClick(slider, Qt.LeftButton, pos=QPoint(int(slider.width() * share), slider.height() // 2))
        qtbot.waitUntil(lambda: counter_numbers(window)[0] < before, timeout=10000)
        k = counter_numbers(window)[0]
        assert abs(k - share * end) <= 0.05 * end, (k, share, end)  # where the click was, not a page away
        qtbot.keyClick(window, Qt.Key_Space)
        qtbot.waitUntil(lambda: counter_numbers(window)[0] == k + 1, timeout=60000)
        step = session_step(window, k + 1)
        title = words.changed_title.text()
        n = len(step.changed_words)
        assert title.endswith(f"changed {n:,} word" + ("" if n == 1 else "s")), title
        assert words.changed_model.rowCount() == min(n, 16)  # at once, before the trainer comes here
    qtbot.waitUntil(lambda: settled(window.session), timeout=300000)
    assert words.changed_model.rowCount() > 0


def session_step(window, rank: int):
    return window.session.history[rank - 1]


def test_changed_one_word_in_the_singular(qtbot, user_window):
    """Finding 6: a merge that changed one word says "changed 1 word"."""
    window = user_window()
    session = window.session
    run_to_the_end(qtbot, window)
    rank = next(s.rank for s in session.history if len(s.changed_words) == 1)
    window.controls.timeline.setValue(rank)  # a drag of the slider
    qtbot.waitUntil(lambda: counter_numbers(window)[0] == rank, timeout=10000)
    assert window.words.changed_title.text().endswith("changed 1 word")
