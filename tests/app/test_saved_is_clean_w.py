"""Saving a workspace makes the window's state clean: quitting (or opening another text) right after File → Save
workspace asks nothing, since the file holds every run (the window's, its branches, the runs beside it); the next
change makes it ask again (user test of issue 26: the quit question said "discards …" right after a save)."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox, QPushButton, QTreeWidget

from bpe_lens_app.features.variants.add_rule import AddRuleDialog
from bpe_lens_app.main_window import MainWindow
from tests.app.test_desktop import REAL_ASK


def _asked(window, act):
    """Do ``act()``; any discard question it asks is read and answered No. The texts asked and what ``act``
    returned."""
    shown = []

    def answer() -> None:
        if window.discard_box is None:
            if not done:
                QTimer.singleShot(10, answer)
            return
        shown.append(window.discard_box.text())
        window.discard_box.button(QMessageBox.No).click()

    done = []
    QTimer.singleShot(0, answer)
    result = act()
    done.append(True)
    return shown, result


def _saved(window, qtbot, path) -> None:
    window.workspace.save_to(str(path))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == f"Saved {path}", timeout=10000)


def _trained_with_a_run_beside(user_window, small_corpus, qtbot, monkeypatch):
    window = user_window(str(small_corpus))
    session = window.session
    session.seek(12)
    qtbot.waitUntil(lambda: session.merge_count == 12 and not session.is_running, timeout=30000)

    def picky(dialog: AddRuleDialog) -> int:
        dialog.rule_fields.rule.setCurrentIndex(dialog.rule_fields.rule.findText("PickyBPE"))
        return 1

    monkeypatch.setattr(AddRuleDialog, "exec", picky)
    tab = window.variants_feature.show_tab()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=30000)
    step10 = tab.findChild(QPushButton, "variant_step10")
    qtbot.waitUntil(step10.isEnabled, timeout=10000)
    qtbot.mouseClick(step10, Qt.LeftButton)
    return window


def test_quitting_right_after_a_save_asks_nothing(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    window = _trained_with_a_run_beside(user_window, small_corpus, qtbot, monkeypatch)
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    shown, closed = _asked(window, window.close)  # not saved: it asks
    assert shown and "discards the 12 merges" in shown[0] and not closed
    _saved(window, qtbot, tmp_path / "all.bpelens")
    shown, closed = _asked(window, window.close)
    monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)
    assert shown == [] and closed, shown


def test_a_change_after_the_save_asks_again(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    window = _trained_with_a_run_beside(user_window, small_corpus, qtbot, monkeypatch)
    _saved(window, qtbot, tmp_path / "all.bpelens")
    session = window.session
    session.step(1)
    qtbot.waitUntil(lambda: session.merge_count == 13, timeout=10000)
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    shown, closed = _asked(window, window.close)
    monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)
    assert shown and "discards the 13 merges" in shown[0] and not closed, shown
    # the question no longer says a workspace leaves the runs beside out: it keeps them now
    assert "not the runs beside it" not in shown[0] and "File → Save workspace keeps" in shown[0]


def test_the_run_beside_stepped_after_the_save_asks_again(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    window = _trained_with_a_run_beside(user_window, small_corpus, qtbot, monkeypatch)
    _saved(window, qtbot, tmp_path / "all.bpelens")
    tab = window.variants_feature.tab
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_step10"), Qt.LeftButton)
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    shown, closed = _asked(window, window.close)
    monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)
    assert shown and "r2: PickyBPE" in shown[0] and ", 20 merges" in shown[0] and not closed, shown
