"""Issue 9, the load's stall: a corpus is installed in one pass and each chart draws it in a pass of its own
(``coalesce.PassQueue``), after what the pass before posted (a scene's flush repaints the window at once) and
after the timers that came due. The stall's figure is bench/bench_stall.py's (``load``)."""
from __future__ import annotations

import time
from typing import List

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer

from bpe_lens_app.runtime.coalesce import PassQueue


class Log(QObject):
    """Records posted events (``post``) as they are delivered, and what it is told, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: List[str] = []
        self._posted: List[str] = []  # names of the events posted, delivered first in, first out

    def post(self, name: str) -> None:
        self._posted.append(name)
        QCoreApplication.postEvent(self, QEvent(QEvent.Type.User))

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.User:
            self.seen.append(self._posted.pop(0))
            time.sleep(0.004)  # slow, as a scene's flush (a repaint): a tick comes due
            return True
        return super().event(event)


def logged(log: Log, name: str, fn):
    """``fn``, noting ``name`` in ``log`` when it runs."""
    def run(*args):
        log.seen.append(name)
        return fn(*args)
    return run


@pytest.fixture
def passes(qapp):
    """A PassQueue of the test's own (the application owns it)."""
    return PassQueue(qapp)


def test_each_call_runs_after_what_the_one_before_posted_and_the_timers_due(qtbot, passes):
    log = Log()
    ticks = QTimer(interval=1, timerType=Qt.PreciseTimer)
    ticks.timeout.connect(lambda: log.seen.append("tick") if log.seen[-1:] != ["tick"] else None)
    owners = [QObject() for _ in range(3)]

    def call(k: int) -> None:  # quick; what it posts is slow
        log.seen.append(f"call {k}")
        log.post(f"posted by {k}")

    log.post("posted before")
    for k, owner in enumerate(owners):
        passes.later(owner, lambda k=k: call(k))
    ticks.start()
    qtbot.waitUntil(lambda: passes.idle and "posted by 2" in log.seen, timeout=5000)
    ticks.stop()
    calls = [e for e in log.seen if e != "tick"]
    assert calls == ["posted before", "call 0", "posted by 0", "call 1", "posted by 1", "call 2", "posted by 2"]
    for k in (1, 2):  # the timers that came due during what a call posted had their turn before the next call
        between = log.seen[log.seen.index(f"posted by {k - 1}"): log.seen.index(f"call {k}")]
        assert "tick" in between, log.seen


def test_a_newer_call_replaces_the_owners_and_none_runs_for_a_deleted_owner(qtbot, passes):
    ran: List[str] = []
    keep, gone = QObject(), QObject()
    passes.later(keep, lambda: ran.append("old"))
    passes.later(gone, lambda: ran.append("gone"))
    passes.later(keep, lambda: ran.append("new"))
    assert passes.waiting(keep) and not passes.idle
    import shiboken6

    shiboken6.delete(gone)
    qtbot.waitUntil(lambda: passes.idle, timeout=5000)
    qtbot.wait(20)
    assert ran == ["new"]


def test_forget_drops_a_call_and_flush_runs_what_waits_at_once(qtbot, passes):
    ran: List[str] = []
    a, b, c = QObject(), QObject(), QObject()
    for name, owner in (("a", a), ("b", b), ("c", c)):
        passes.later(owner, lambda name=name: ran.append(name))
    assert passes.forget(b) and ran == []  # b drew meanwhile: its call is dropped
    assert not passes.forget(b)  # nothing waits for b any more
    passes.flush()
    assert ran == ["a", "c"] and passes.idle
    qtbot.wait(20)
    assert ran == ["a", "c"]  # nothing runs twice, b never


def test_a_call_that_raises_stops_no_other(qtbot, passes):
    ran: List[str] = []
    a, b = QObject(), QObject()

    def fail() -> None:
        raise RuntimeError("a pane's draw failed")

    passes.later(a, fail)
    passes.later(b, lambda: ran.append("b"))
    with qtbot.captureExceptions() as raised:
        qtbot.waitUntil(lambda: passes.idle, timeout=5000)
        qtbot.waitUntil(lambda: ran == ["b"], timeout=5000)
    assert [str(e[1]) for e in raised] == ["a pane's draw failed"]


def test_a_load_draws_each_chart_in_a_pass_of_its_own(qtbot, window, small_corpus, drawn, monkeypatch):
    """Installed in one pass (every pane but the charts); the pair chart then draws it in a pass of its own,
    its scene flushes (a repaint), the timers that came due meanwhile get their turn (input would), and only
    then the history chart draws."""
    w, s = window, window.session
    log = Log()
    ticks = QTimer(interval=1, timerType=Qt.PreciseTimer)
    ticks.timeout.connect(lambda: log.seen.append("tick") if log.seen[-1:] != ["tick"] else None)

    monkeypatch.setattr(w.pair_chart, "refresh", logged(log, "pair chart draws", w.pair_chart.refresh))
    monkeypatch.setattr(w.history_chart, "_draw", logged(log, "history chart draws", w.history_chart._draw))

    class Flushes(QObject):
        def eventFilter(self, watched, event) -> bool:
            if event.type() == QEvent.Type.MetaCall and watched is w.pair_chart.plot_widget.scene():
                log.seen.append("pair scene flushes")
                time.sleep(0.004)  # a tick comes due (the flush repaints the window)
            return False

    flushes = Flushes()
    w.pair_chart.plot_widget.scene().installEventFilter(flushes)
    s.corpus_loaded.connect(lambda *_: log.seen.append("installed"))
    ticks.start()
    with qtbot.waitSignal(s.corpus_loaded, timeout=10000):
        s.load_corpus(small_corpus)
    drawn()
    ticks.stop()
    seen = [e for e in log.seen if e != "tick"]
    assert seen.index("installed") < seen.index("pair chart draws") < seen.index("pair scene flushes") \
        < seen.index("history chart draws"), log.seen
    between = log.seen[log.seen.index("pair scene flushes"): log.seen.index("history chart draws")]
    assert "tick" in between, log.seen
    assert w.pair_chart.labels()[0] and w.history_chart.values()["vocab"][0] == s.stats.vocab_size


def test_a_step_before_a_charts_pass_draws_the_new_corpus_first(qtbot, window, small_corpus, drawn):
    """Steps taken in the load's own pass (a script, a test) find each chart drawing the new corpus first."""
    s = window.session
    with qtbot.waitSignal(s.corpus_loaded, timeout=10000):
        s.load_corpus(small_corpus)
    s.step(3)  # no pass of the loop in between
    values = window.history_chart.values()
    assert list(values["vocab"]) == [s.stats.vocab_size - 3 + k for k in range(4)]
    assert window.pair_chart.labels()[0]
    drawn()
    assert list(window.history_chart.values()["vocab"]) == list(values["vocab"])


def test_a_bulk_frames_history_chart_draws_after_the_windows_repaint(qtbot, loaded_window, drawn, monkeypatch):
    """A frame of a run (more than SYNC_STEPS merges) is published and the window repainted; the history chart's
    curves and axes are drawn in a pass after that (its own repaint then comes at once, as its scene flushes).
    (Its zero timer, before coalesce.PassQueue, met this here too; where timers came due during a long publish, as
    under bench_stall's 2 ms ticker, it ran first and the window's and the chart's repaints made one stall.)"""
    from bpe_lens_app.session.session import SYNC_STEPS

    w, s = loaded_window, loaded_window.session
    log = Log()
    monkeypatch.setattr(w.history_chart, "_draw", logged(log, "history chart draws", w.history_chart._draw))

    class Repaints(QObject):
        def eventFilter(self, watched, event) -> bool:
            if event.type() == QEvent.Type.UpdateRequest:
                log.seen.append("window repaints")
            return False

    repaints = Repaints()
    w.installEventFilter(repaints)
    s.steps_applied.connect(lambda steps: log.seen.append("bulk frame" if len(steps) > SYNC_STEPS else "frame"))
    with qtbot.waitSignal(s.run_finished, timeout=30000):
        s.seek(120)
    drawn()
    qtbot.wait(50)
    frames = [i for i, e in enumerate(log.seen) if e == "bulk frame"]
    assert frames, log.seen
    for i in frames:
        after = log.seen[i + 1:]
        assert "history chart draws" in after, log.seen
        assert "window repaints" in after[: after.index("history chart draws")], log.seen


def test_background_work_waits_until_a_steps_repaint_is_done(qtbot, loaded_window):
    """A step shown on the GUI thread keeps background workers (read-ahead, catch-up) off the GIL until the window
    has repainted it (worker.GUI_FIRST, lifted in a coalesce.PassQueue turn after what the panes posted). (The zero
    timer before it met this here too; under bench_stall's 2 ms ticker it could lift before the repaint.)"""
    from bpe_lens_app.runtime.worker import GUI_FIRST

    w, s = loaded_window, loaded_window.session
    seen: List[str] = []

    class Repaints(QObject):
        def eventFilter(self, watched, event) -> bool:
            if event.type() == QEvent.Type.UpdateRequest:
                seen.append("repaint, workers wait" if GUI_FIRST.until > time.monotonic() else "repaint")
            return False

    repaints = Repaints()
    w.installEventFilter(repaints)
    for _ in range(5):
        seen.clear()
        s.step()  # merged (or read ahead) and published on the GUI thread
        assert GUI_FIRST.until > time.monotonic()
        qtbot.waitUntil(lambda: GUI_FIRST.until == 0.0, timeout=2000)
        assert seen and seen[0] == "repaint, workers wait", seen
