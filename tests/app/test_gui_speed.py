"""Issue 9, speed: the GUI thread never stalls long, seeks show merge k at once, held keys never queue,
and scrubbing never trains. The budgets here are generous (a shared CI machine); bench/bench_stall.py
gives the real figures."""
from __future__ import annotations

import time
from dataclasses import replace

import pytest
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from bpe_core.training.trainer import Trainer
from bpe_lens_app.session.run_kinds import KEY_STEP

from tests.core.paths import need

#: the longest GUI-thread gap tolerated in a test (the requirement is 50 ms, measured by the bench)
STALL_BUDGET_MS = 250


class Gaps:
    """The longest gap between ticks of a 2 ms timer on the GUI thread."""

    def __init__(self) -> None:
        self.timer = QTimer(interval=2, timerType=Qt.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.last, self.longest = time.perf_counter(), 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest, self.last = max(self.longest, now - self.last), now

    def __enter__(self) -> "Gaps":
        self.last, self.longest = time.perf_counter(), 0.0
        self.timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self._tick()
        self.timer.stop()

    @property
    def ms(self) -> float:
        return self.longest * 1000


@pytest.fixture
def wiki_window(qtbot, window, tmp_path):
    """The main window on the first 120 KB of wiki.valid.raw (a small real corpus), 3,000 characters
    of it in the encode pane, at most 400 merges."""
    text = need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8")[:120_000]
    path = tmp_path / "wiki-small.txt"
    path.write_text(text, encoding="utf-8")
    s = window.session
    s.set_config(replace(s.config, num_merges=400, vocab_size=None))
    with qtbot.waitSignal(s.corpus_loaded, timeout=30000):
        s.load_corpus(path)
    window.encode.set_text(" ".join(text.split())[:3000])
    window.encode.encode_now()
    return window


def _settled(s) -> bool:
    return not s.is_running and not s.is_catching_up


def test_no_stall_over_budget_during_run_and_seek(qtbot, wiki_window):
    w = wiki_window
    s = w.session
    with Gaps() as run:
        with qtbot.waitSignal(s.run_finished, timeout=60000):
            s.run_to_target()
        qtbot.wait(100)
    assert s.merge_count == 400
    with Gaps() as back:
        w.controls.timeline.setValue(5)
        assert s.merge_count == 5  # shown at once; the trainer follows on a worker
        qtbot.waitUntil(lambda: _settled(s), timeout=60000)
    with Gaps() as forward:
        w.controls.timeline.setValue(400)
        assert s.merge_count == 400
        qtbot.waitUntil(lambda: _settled(s), timeout=60000)
        qtbot.wait(100)  # the encode pane's worker and repaint
    assert s.core.trainer.merge_count == 400
    print(f"longest stalls: run {run.ms:.0f} ms, back {back.ms:.0f} ms, forward {forward.ms:.0f} ms")
    assert max(run.ms, back.ms, forward.ms) < STALL_BUDGET_MS, (run.ms, back.ms, forward.ms)


def test_a_seek_shows_the_state_of_merge_k_at_once(qtbot, loaded_window):
    from bpe_lens_app.panes.encode_pane import make_encoder

    w = loaded_window
    s = w.session
    text = "the lowest newest widest"
    w.encode.set_text(text)
    with qtbot.waitSignal(s.run_finished, timeout=20000):
        s.seek(60)
    fresh = Trainer(dict(zip(s.words, s.freqs)), s.config)
    fresh.run(merges=7)
    w.controls.timeline.setValue(7)  # back 53 merges: no waiting for the trainer
    assert s.merge_count == 7 and s.is_catching_up
    assert [s.segmentation(i) for i in range(len(s.words))] == [fresh.segmentation(i) for i in range(len(s.words))]
    assert s.stats == fresh.stats and s.top_pairs[0].count == fresh.top_pairs(1)[0].count
    qtbot.waitUntil(lambda: w.encode.encoding() is not None
                    and w.encode.encoding().ids == make_encoder(s.model()).encode(text).ids, timeout=5000)
    qtbot.waitUntil(lambda: _settled(s), timeout=20000)
    assert s.core.trainer.merge_count >= 7  # at merge 7, or reading ahead of it
    assert list(s.top_pairs) == fresh.top_pairs(len(s.top_pairs))
    assert w.pair_chart.bar_lengths()[0] == float(s.top_pairs[0].count)


def test_steps_while_the_trainer_catches_up_land_where_asked(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    with qtbot.waitSignal(s.run_finished, timeout=20000):
        s.seek(80)
    s.seek(10)
    s.step()  # the trainer is still on its way: the step is a jump too
    s.undo(2)
    assert s.merge_count == 9
    qtbot.waitUntil(lambda: _settled(s), timeout=20000)
    assert s.core.trainer.merge_count >= 9  # at the position, or reading ahead of it
    _assert_shows_merge(s, 9)
    s.step(3)  # a plain step, or merges read ahead shown from the records
    assert s.merge_count == 12
    _assert_shows_merge(s, 12)


def _assert_shows_merge(s, k: int) -> None:
    """What the session shows is a fresh trainer's state after k merges: segmentations, stats, next pairs."""
    fresh = Trainer(dict(zip(s.words, s.freqs)), s.config)
    fresh.run(merges=k)
    assert [s.segmentation(i) for i in range(len(s.words))] == [fresh.segmentation(i) for i in range(len(s.words))]
    assert s.stats == fresh.stats and list(s.top_pairs) == fresh.top_pairs(len(s.top_pairs))


def test_scrubbing_never_starts_a_run(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    s.step(12)
    slider = w.controls.timeline
    assert slider.maximum() == 12  # the merges trained so far
    started = []
    s.run_started.connect(started.append)
    slider.setValue(slider.maximum() + 50)
    qtbot.wait(50)
    assert started == [] and s.merge_count == 12 and len(s.timeline) == 12
    slider.setValue(3)
    qtbot.waitUntil(lambda: _settled(s), timeout=20000)
    assert started == [] and s.merge_count == 3 and len(s.timeline) == 12


def _auto_repeat(window, key=Qt.Key_Space, text=" ") -> None:
    """What Qt does for an auto-repeated shortcut key: ShortcutOverride (autorepeat) to the focus
    widget, then the action fires."""
    target = QApplication.focusWidget() or window
    QApplication.sendEvent(target, QKeyEvent(QEvent.ShortcutOverride, key, Qt.NoModifier, text, True))
    window.train_actions["step"].trigger()


def test_held_keys_never_queue(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    w.activateWindow()
    for _ in range(6):  # six repeats arrive while the GUI thread is busy: one pass delivers them all
        _auto_repeat(w)
    # the first goes to the trainer at once, the rest wait for the next pass, where only the newest is asked
    # for (after the first merge: a held key's request replaces what waits, it never adds to it)
    qtbot.waitUntil(lambda: s.merge_count == 2 and not s._runs.is_a(KEY_STEP), timeout=10000)
    qtbot.wait(100)
    assert s.merge_count == 2  # and nothing more arrives
    assert w.train_actions.latest.dropped == 4
    assert w.controls.merge_label.text().startswith("merge 2 /")  # the count shown is the truth


def test_deliberate_presses_are_never_dropped(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    for _ in range(3):
        w.train_actions["step"].trigger()  # no auto-repeat: each press is a step (merged on a worker)
    qtbot.waitUntil(lambda: s.merge_count == 3, timeout=10000)
    qtbot.wait(100)
    assert s.merge_count == 3


def test_steps_show_merges_read_ahead_at_once_and_exact(qtbot, loaded_window):
    """After a step the trainer reads ahead on a worker; the next steps show those merges from the records
    at once (no merge on the GUI thread), exactly as a fresh run, and the slider does not grow by them.
    (Read-ahead is on by default, see run_kinds.READ_AHEAD.)"""
    w = loaded_window
    s = w.session
    s.read_ahead = 64
    s.step()
    qtbot.waitUntil(lambda: len(s.core.steps) > s.merge_count + 5, timeout=20000)  # read and published
    assert len(s.timeline) == s.merge_count == 1 and w.controls.timeline.maximum() == 1
    for k in (2, 3, 4):
        s.request_step()  # what the Step action asks for
        assert s.merge_count == k  # at once: it was read ahead
        _assert_shows_merge(s, k)
    assert w.controls.timeline.maximum() == 4 and len(s.timeline) == 4


def test_read_ahead_is_on_by_default(qtbot, loaded_window):
    """On since background workers wait while a frame is painted (run_kinds.READ_AHEAD says why)."""
    s = loaded_window.session
    assert s.read_ahead == 64
    s.step()
    qtbot.waitUntil(lambda: s.core.trainer.merge_count > s.merge_count == 1, timeout=20000)  # the trainer reads on
    assert len(s.timeline) == 1 and loaded_window.controls.timeline.maximum() == 1  # unshown, not on the slider


def test_a_step_asked_before_the_trainer_read_it_lands_when_it_has(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    s.read_ahead = 0
    s.step()
    s.read_ahead = 4
    s._runs.catch_up()  # reading ahead from merge 1
    target = s.merge_count + 6  # beyond what it reads at first: the requests wait for the worker's frames
    while s.merge_count < target:
        start = s.merge_count
        s.request_step()
        qtbot.waitUntil(lambda: s.merge_count == start + 1, timeout=20000)
    qtbot.wait(50)
    assert s.merge_count == target  # every request one merge, none lost or doubled
    _assert_shows_merge(s, target)
