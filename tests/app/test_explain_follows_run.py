"""Issue 26 user test (W4): Why this split follows the run: an undo tells a training word's history up to the merge
shown; a new run (another rule) clears the old run's story."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from bpe_lens_app.features.training import WORD_INDEX_ROLE
from bpe_lens_app.features.training.settings_dialog import SettingsDialog


def _settings(window, qtbot, monkeypatch, choose) -> None:
    def fill(dialog: SettingsDialog) -> int:
        choose(dialog.rule_fields)
        return 1

    monkeypatch.setattr(SettingsDialog, "exec", fill)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=30000):
        window.settings_action.trigger()


def _picky(f) -> None:
    f.rule.setCurrentIndex(f.rule.findText("PickyBPE"))


def _show_history_of_a_late_word(window, qtbot, k: int) -> int:
    """Click a word of the words table whose history holds a merge past ``k``; its index."""
    table = window.words.table
    for row in range(table.model().rowCount()):
        index = table.model().index(row, 0)
        i = index.data(WORD_INDEX_ROLE)
        if any(step is not None and step.rank > k for step, _ in window.session.word_history(i)):
            table.clicked.emit(index)
            return i
    raise AssertionError("no word changed past merge k")


def test_why_this_split_follows_an_undo_and_clears_on_a_new_run(user_window, small_corpus, qtbot, monkeypatch):
    window = user_window(str(small_corpus))
    session = window.session
    session.seek(30)
    qtbot.waitUntil(lambda: session.merge_count == 30 and not session.is_running, timeout=30000)
    _show_history_of_a_late_word(window, qtbot, 20)
    pane = window.explain.pane
    assert any(int(c.split()[1]) > 20 for c in (f.caption for f in pane.frames()[1:]))
    session.seek(20)
    qtbot.waitUntil(lambda: session.merge_count == 20 and not session.is_running, timeout=30000)
    captions = [f.caption for f in pane.frames()[1:]]
    assert all(int(c.split()[1]) <= 20 for c in captions), captions
    assert "of the 20 merges so far" in pane.footer_label.text()
    _settings(window, qtbot, monkeypatch, _picky)
    assert pane.frames() == () and pane.shown_texts() == []
    assert pane.title_label.text().startswith("Click a token")
