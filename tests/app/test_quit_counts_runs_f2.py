"""Quitting asks before trained merges are lost, and counts every run the Workbench holds: the window's run,
its SuperBPE branches and the runs beside it in the Variants tab (issue 26; before, only the window's run's
merges were named, and a user quitting lost the others without a word)."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QPushButton, QTreeWidget

from bpe_lens_app.features.variants.add_rule import AddRuleDialog
from bpe_lens_app.main_window import MainWindow
from tests.app.test_desktop import REAL_ASK


def _action(window, name) -> QAction:
    return window.findChild(QAction, f"action_{name}")


def _answer_then(window, button, act):
    """Do ``act()``, read the discard question it asks and answer ``button``; the texts shown and what
    ``act`` returned."""
    shown = []

    def answer() -> None:
        if window.discard_box is None:
            QTimer.singleShot(10, answer)
            return
        shown.append(window.discard_box.text())
        window.discard_box.button(button).click()

    QTimer.singleShot(0, answer)
    return shown, act()


def _quit_and_read(window, button) -> list:
    """Close the window, read the question and answer ``button``; the texts shown."""
    return _answer_then(window, button, window.close)


def test_the_quit_question_counts_the_branches_and_the_runs_beside(user_window, small_corpus, qtbot,
                                                                   monkeypatch):
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    window = user_window(str(small_corpus))
    session = window.session
    session.seek(12)
    qtbot.waitUntil(lambda: session.merge_count == 12 and not session.is_running, timeout=30000)
    # a SuperBPE branch at merge 12, stepped 10 merges of its own
    _action(window, "continue_superbpe").trigger()
    tab = window.variants_feature.tab
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == 1, timeout=30000)
    step10 = tab.findChild(QPushButton, "variant_step10")
    qtbot.waitUntil(step10.isEnabled, timeout=10000)
    qtbot.mouseClick(step10, Qt.LeftButton)

    # a PickyBPE run beside it, stepped 20 merges
    def picky(dialog: AddRuleDialog) -> int:
        dialog.rule_fields.rule.setCurrentIndex(dialog.rule_fields.rule.findText("PickyBPE"))
        dialog.rule_fields.ios.setValue(0.6)
        return 1

    monkeypatch.setattr(AddRuleDialog, "exec", picky)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=30000)
    assert tree.currentItem() is tree.topLevelItem(1)
    qtbot.waitUntil(step10.isEnabled, timeout=10000)
    for _ in range(2):
        qtbot.mouseClick(step10, Qt.LeftButton)

    shown, closed = _quit_and_read(window, QMessageBox.No)
    monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)  # a failure below: no box left
    assert not closed and window.isVisible()
    text = shown[0]
    assert text.startswith("Quitting discards the 12 merges trained so far"), text
    assert "r2: SuperBPE from merge 12, 10 merges of its own" in text, text
    assert "r3: PickyBPE τ=0.6 (gpt2), 20 merges (" in text, text
    assert "Continue?" in text


def test_runs_beside_a_run_with_no_merges_still_make_quitting_ask(user_window, small_corpus, qtbot, monkeypatch):
    window = user_window(str(small_corpus))
    tab = window.variants_feature.show_tab()
    tree = tab.findChild(QTreeWidget, "variant_branches")

    def picky(dialog: AddRuleDialog) -> int:
        dialog.rule_fields.rule.setCurrentIndex(dialog.rule_fields.rule.findText("PickyBPE"))
        return 1

    monkeypatch.setattr(AddRuleDialog, "exec", picky)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=30000)
    step10 = tab.findChild(QPushButton, "variant_step10")
    qtbot.waitUntil(step10.isEnabled, timeout=10000)
    qtbot.mouseClick(step10, Qt.LeftButton)
    assert window.session.merge_count == 0
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    shown, closed = _quit_and_read(window, QMessageBox.No)
    monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)
    assert not closed and shown and "r2: PickyBPE" in shown[0] and ", 10 merges" in shown[0], shown


def test_opening_another_corpus_names_the_branches_it_closes(user_window, small_corpus, qtbot, monkeypatch,
                                                            tmp_path):
    window = user_window(str(small_corpus))
    session = window.session
    session.seek(8)
    qtbot.waitUntil(lambda: session.merge_count == 8 and not session.is_running, timeout=30000)
    _action(window, "continue_superbpe").trigger()
    tree = window.variants_feature.tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == 1, timeout=30000)
    other = tmp_path / "other.txt"
    other.write_text("another corpus with other words\n", encoding="utf-8")
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    shown, _ = _answer_then(window, QMessageBox.No, lambda: window.load_corpus(str(other)))
    monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)
    assert shown and shown[0].startswith("Opening other.txt discards the 8 merges trained so far and the runs "
                                         "that go with it: r2: SuperBPE from merge 8, 0 merges of its own"), shown
    assert session.corpus.path == str(small_corpus) and tree.topLevelItem(0).childCount() == 1  # kept: No
