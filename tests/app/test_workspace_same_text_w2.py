"""File → Open workspace over the text the window already shows (user test of the built wheel, brief W2).

1. The discard question names the runs beside the window's run ("r2: ..."); after Yes they must be gone, whatever
   the workspace's text: the workspace's runs come back as saved, with their saved ids (the old r2 stayed when the
   text was the same, the workspace's r2 came back as r3 and its r3 as r6).
2. Right after File → Open workspace the window holds what the file holds: quitting asks nothing. After the crash
   offer's restore it still asks (a clean exit deletes the autosave, the only copy)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QTreeWidget

from bpe_lens_app.main_window import MainWindow
from tests.app.test_desktop import REAL_ASK
from tests.app.test_runs_beside_reopen_w import _add, _compared, _picky, _window_with_picky_beside


def _asking(monkeypatch, test) -> None:
    """Run ``test()`` with the real discard question; after it (passed or not) the window closes without one,
    as pytest-qt closes it at the test's end, before the monkeypatch is undone."""
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    try:
        test()
    finally:
        monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)


def _plain(f) -> None:
    f.rule.setCurrentIndex(f.rule.findText("Plain BPE"))


def _saved_with_two_beside(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    """A workspace of the window's run at merge 12, r2 PickyBPE τ=0.6 at merge 20 and r3 plain BPE beside it;
    returns its path and the Variants tab's rows and merges as they were saved."""
    window = _window_with_picky_beside(user_window, small_corpus, qtbot, monkeypatch)
    _add(window, qtbot, monkeypatch, _plain, 3)
    _tab, rows, merges = _compared(window, qtbot, 3)
    assert [r[:3] for r in rows] == ["r1:", "r2:", "r3:"], rows
    path = tmp_path / "three.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    window.close()
    return path, rows, merges


def _answered(window, answer, act):
    """Do ``act()``, answering the discard question ``answer`` if one shows; returns what ``act`` returned and
    the texts the question showed."""
    shown, done = [], []

    def reply() -> None:
        box = window.discard_box
        if box is not None and box.isVisible():
            shown.append(box.text())
            box.button(answer).click()
        if not done:
            QTimer.singleShot(20, reply)

    QTimer.singleShot(0, reply)
    try:
        return act(), shown
    finally:
        done.append(True)


def _settled(window, qtbot, rows: int):
    """The restore over: ``rows`` runs listed, nothing reopening, nothing restoring."""
    feature = window.variants_feature
    qtbot.waitUntil(lambda: feature.tab is not None, timeout=60000)
    tree = feature.tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() >= rows and not feature.busy
                    and not window.workspace.is_busy(), timeout=60000)
    qtbot.wait(300)  # a run reopened late would show now
    qtbot.waitUntil(lambda: not feature.busy and not window.workspace.is_busy(), timeout=60000)
    return _compared(window, qtbot, tree.topLevelItemCount())


def test_opening_a_workspace_on_the_same_text_discards_the_runs_it_named(user_window, small_corpus, qtbot,
                                                                          monkeypatch, tmp_path):
    path, saved_rows, saved_merges = _saved_with_two_beside(user_window, small_corpus, qtbot, monkeypatch, tmp_path)
    window = user_window(str(small_corpus))  # the same text, with a run of its own beside it
    session = window.session
    session.seek(5)
    qtbot.waitUntil(lambda: session.merge_count == 5 and not session.is_running, timeout=30000)
    _add(window, qtbot, monkeypatch, _plain, 2)

    def test() -> None:
        _none, shown = _answered(window, QMessageBox.Yes, lambda: window.workspace.open(str(path)))
        assert len(shown) == 1 and "r2: plain BPE" in shown[0], shown  # the run the question says it discards
        _tab, rows, merges = _settled(window, qtbot, 3)
        assert rows == saved_rows and merges == saved_merges, (rows, merges)  # r2 and r3 as saved, nothing else
        assert [r.id for r in window.variants_feature.runs()] == ["r1", "r2", "r3"]
        assert session.merge_count == 12

    _asking(monkeypatch, test)


def test_quitting_right_after_opening_a_workspace_asks_nothing(user_window, small_corpus, qtbot, monkeypatch,
                                                               tmp_path):
    path, saved_rows, _merges = _saved_with_two_beside(user_window, small_corpus, qtbot, monkeypatch, tmp_path)
    window = user_window(str(small_corpus))
    window.workspace.open(str(path))
    _tab, rows, _merges = _settled(window, qtbot, 3)
    assert rows == saved_rows

    def test() -> None:
        closed, shown = _answered(window, QMessageBox.No, window.close)
        assert closed and shown == [], shown  # nothing to discard: the window holds what the file holds

    _asking(monkeypatch, test)


def test_quitting_after_the_crash_offers_restore_still_asks(user_window, small_corpus, qtbot, monkeypatch):
    from bpe_core.formats.workspace import write_workspace
    from bpe_lens_app.features.workspace.autosave import autosave_path, data_dir
    from tests.app.test_workspace import _dead_pid

    window = _window_with_picky_beside(user_window, small_corpus, qtbot, monkeypatch)
    write_workspace(window.workspace.capture(), str(autosave_path(data_dir(), _dead_pid())))

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.objectName() != "restore_box":
            QTimer.singleShot(20, answer)
            return
        box.button(QMessageBox.Yes).click()

    QTimer.singleShot(0, answer)
    again = user_window(wait=False)
    qtbot.waitUntil(lambda: again.session.corpus is not None and not again.workspace.is_busy(), timeout=60000)
    _settled(again, qtbot, 2)

    def test() -> None:
        closed, shown = _answered(again, QMessageBox.No, again.close)
        assert not closed and again.isVisible()  # the autosave is the only copy: the question keeps it
        assert len(shown) == 1 and "Quitting discards" in shown[0], shown

    _asking(monkeypatch, test)


def _example_with_parity_beside(user_window, qtbot):
    """A new user's window after File → Examples → "How fair is this tokenizer?": its run and the parity-aware
    run trained beside it (r2)."""
    window = user_window()
    s = window.session
    entry = next(a for a in window.examples_menu.actions() if a.text() == "How fair is this tokenizer?")
    entry.trigger()
    qtbot.waitUntil(lambda: len(s.workbench.bench.runs) == 2 and s.merge_count == 2000 and not s.is_running,
                    timeout=300000)
    return window


@pytest.mark.slow  # two example runs trained to 2,000 merges, each with a parity-aware run beside (about 70 s)
def test_the_users_journey_the_example_then_its_workspace(user_window, qtbot, monkeypatch, tmp_path):
    """The user test as it was done: the example's workspace (its run, the parity-aware run beside it and a
    PickyBPE run beside it) opened over the same example: 3 runs, r2 and r3 as saved (there were 6)."""
    saved = _example_with_parity_beside(user_window, qtbot)
    _add(saved, qtbot, monkeypatch, _picky, 3)
    _tab, saved_rows, saved_merges = _compared(saved, qtbot, 3)
    path = tmp_path / "fair.bpelens"
    saved.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    saved.close()
    window = _example_with_parity_beside(user_window, qtbot)

    def test() -> None:
        _none, shown = _answered(window, QMessageBox.Yes, lambda: window.workspace.open(str(path)))
        assert len(shown) == 1 and "r2: parity-aware BPE (gpt2)" in shown[0], shown
        _tab, rows, merges = _settled(window, qtbot, 3)
        assert rows == saved_rows and merges == saved_merges, (rows, merges)
        assert [r.id for r in window.variants_feature.runs()] == ["r1", "r2", "r3"]
        assert "PickyBPE" in rows[2] and "parity-aware" in rows[1]
        closed, asked = _answered(window, QMessageBox.No, window.close)
        assert closed and asked == [], asked  # the window holds the file: quitting asks nothing

    _asking(monkeypatch, test)


def test_a_workspace_with_a_branch_past_the_runs_merge_opens_clean_too(user_window, small_corpus, qtbot,
                                                                       monkeypatch, tmp_path):
    """A guard: the run's SuperBPE branch from merge 12 (the run then undone to 8: the restore trains there and
    back) and a run beside come back as saved, and quitting then asks nothing."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QPushButton

    window = user_window(str(small_corpus))
    s = window.session
    s.seek(12)
    qtbot.waitUntil(lambda: s.merge_count == 12 and not s.is_running, timeout=30000)
    window.findChild(QAction, "action_continue_superbpe").trigger()
    qtbot.waitUntil(lambda: len(s.workbench.bench.runs) == 2 and not window.variants_feature.busy, timeout=30000)
    step10 = window.variants_feature.tab.findChild(QPushButton, "variant_step10")
    qtbot.waitUntil(step10.isEnabled, timeout=10000)
    qtbot.mouseClick(step10, Qt.LeftButton)
    s.seek(8)
    qtbot.waitUntil(lambda: s.merge_count == 8 and not s.is_running, timeout=30000)
    _add(window, qtbot, monkeypatch, _plain, 2)  # the tree's top level: the run (its branch under it), r3
    _tab, saved_rows, saved_merges = _compared(window, qtbot, 2)
    path = tmp_path / "branch.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    window.close()
    again = user_window(str(path))
    _tab, rows, merges = _settled(again, qtbot, 2)
    assert rows == saved_rows and merges == saved_merges == ["8", "22", "0"], (rows, merges)
    assert [r.id for r in again.variants_feature.runs()] == ["r1", "r2", "r3"]

    def test() -> None:
        closed, shown = _answered(again, QMessageBox.No, again.close)
        assert closed and shown == [], shown

    _asking(monkeypatch, test)
