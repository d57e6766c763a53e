"""What the window says (the user test of the built wheel, session 7): the status bar's "100 % — done at merge
N" goes once the run is moved off its end; the Variants tab says why Step, Step ×10, Undo and Run to end are off
for the window's own run (it is stepped from the Training tab); cancelling "Continue as SuperBPE from here" says
so in the status bar, as other cancels do."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QTreeWidget

pytest.importorskip("bpe_core.training.superbpe")


def _action(window, name):
    return window.findChild(QAction, f"action_{name}")


def _status_bar_progress(window):
    return next(b for b in window.statusBar().findChildren(QProgressBar))


def test_the_done_bar_goes_once_the_run_moves_back(user_window, qtbot):
    window = user_window()
    session = window.session
    qtbot.keyClick(window, Qt.Key_End)  # run to the end
    bar = _status_bar_progress(window)
    qtbot.waitUntil(lambda: not session.is_running and bar.isVisible() and bar.text().startswith("100 % — done"),
                    timeout=120000)
    end = session.merge_count
    assert bar.text() == f"100 % — done at merge {end:,}"
    window.controls.timeline.setValue(100)  # a drag of the slider back to merge 100
    qtbot.waitUntil(lambda: session.merge_count == 100 and not session.is_running, timeout=60000)
    qtbot.wait(100)
    assert not bar.isVisible(), bar.text()  # the run is at merge 100, not done at its end
    assert "done" not in window.statusBar().currentMessage() and str(end) not in window.statusBar().currentMessage()


def _branch(window, qtbot, k: int = 60):
    session = window.session
    session.seek(k)
    qtbot.waitUntil(lambda: session.merge_count == k and not session.is_running, timeout=60000)
    _action(window, "continue_superbpe").trigger()
    tab = window.tabs.currentWidget()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == 1, timeout=60000)
    return tab, tree


def test_the_window_s_own_run_says_where_it_is_stepped(user_window, qtbot):
    window = user_window()
    tab, tree = _branch(window, qtbot)
    buttons = [tab.findChild(QPushButton, f"variant_{n}") for n in ("step", "step10", "undo", "run")]
    assert all(b.isEnabled() for b in buttons)  # the branch is selected: the tab steps it
    tree.setCurrentItem(tree.topLevelItem(0))  # r1, the window's run
    assert not any(b.isEnabled() for b in buttons)
    for b in buttons:
        assert "Training tab" in b.toolTip(), (b.text(), b.toolTip())
    hint = tab.findChild(QLabel, "variant_own_run")
    assert hint.isVisible() and "r1" in hint.text() and "Training tab" in hint.text()
    tree.setCurrentItem(tree.topLevelItem(0).child(0))  # the branch again
    assert all(b.isEnabled() for b in buttons) and not hint.isVisible()
    assert not any("Training tab" in b.toolTip() for b in buttons)


def test_cancelling_continue_as_superbpe_says_so(user_window, qtbot, monkeypatch):
    import time

    from bpe_core.types import Cancelled
    from bpe_lens_app.features.variants import actions

    def long_count(*_a, progress=None, cancel=None, **_k):  # a count on a big corpus: it runs until cancelled
        while not cancel():
            time.sleep(0.01)
        raise Cancelled()

    monkeypatch.setattr(actions, "continuation_timeline", long_count)
    window = user_window()
    session = window.session
    session.seek(60)
    qtbot.waitUntil(lambda: session.merge_count == 60 and not session.is_running, timeout=60000)
    _action(window, "continue_superbpe").trigger()
    tab = window.tabs.currentWidget()
    cancel = tab.findChild(QPushButton, "variant_cancel")
    assert cancel.isVisible()
    qtbot.mouseClick(cancel, Qt.LeftButton)
    qtbot.waitUntil(lambda: not cancel.isVisible(), timeout=10000)
    said = window.statusBar().currentMessage()
    assert "cancelled" in said.lower() and "60" in said, said
    tree = tab.findChild(QTreeWidget, "variant_branches")
    assert tree.topLevelItem(0).childCount() == 0  # no branch made
