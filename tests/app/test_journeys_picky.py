"""Journey (issue 26): under a new user's defaults, open a small corpus, choose PickyBPE τ 0.6 in the training
settings, step until a removal happens, and see it in the merges table, the words pane and why-this-split;
undo past it: it is gone; step again: it is back (the words pane and why-this-split read the core's word history,
which replays each record's removals: helper P's a9a507b)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox

from bpe_lens_app.features.training.merges_table import MergesModel
from bpe_lens_app.widgets.chip_text import chip_text
from bpe_lens_app.features.training.settings_dialog import SettingsDialog


def _action(window, name) -> QAction:
    return window.findChild(QAction, f"action_{name}")


def _removed_cells(window) -> list:
    model = window.merges.model
    return [model.index(r, MergesModel.REMOVED).data() for r in range(model.rowCount())]


def _struck(window) -> set:
    """The token texts struck through in the merges table (removed at the current merge)."""
    model, out = window.merges.model, set()
    for r in range(model.rowCount()):
        for c in (MergesModel.LEFT, MergesModel.RIGHT, MergesModel.NEW):
            font = model.index(r, c).data(Qt.FontRole)
            if font is not None and font.strikeOut():
                out.add(model.index(r, c).data())
    return out


def _click_word(qtbot, window, word_index: int) -> None:
    pane = window.words
    pane.filter_edit.setText("")
    row = pane.model.row_of(word_index)
    pane.table.scrollTo(pane.model.index(row, 0))
    rect = pane.table.visualRect(pane.model.index(row, 0))
    qtbot.mouseClick(pane.table.viewport(), Qt.LeftButton, pos=rect.center())


def _history_pairs(window) -> list:
    m = window.words.history_model
    return [m.index(r, 1).data() for r in range(m.rowCount())]


def _explained(window) -> list:
    steps = window.explain.pane.steps_list
    return [steps.item(i).text() for i in range(steps.count())]


def _picky_run_to_a_removal(user_window, small_corpus, qtbot, monkeypatch):
    """The window after choosing PickyBPE τ 0.6 in the settings and stepping to the first removal."""
    window = user_window(str(small_corpus))
    session = window.session

    def choose_picky(dialog: SettingsDialog) -> int:
        box = dialog.rule_fields.rule
        box.setCurrentIndex(box.findText("PickyBPE"))
        dialog.rule_fields.ios.setValue(0.6)
        return 1

    monkeypatch.setattr(SettingsDialog, "exec", choose_picky)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    with qtbot.waitSignal(session.corpus_loaded, timeout=20000):
        window.settings_action.trigger()
    assert (session.config.variant, session.config.ios_threshold) == ("picky", 0.6)
    header = window.merges.model.headerData(MergesModel.REMOVED, Qt.Horizontal)
    assert header == "removed" and not window.merges.view.isColumnHidden(MergesModel.REMOVED)
    assert "struck through" in window.merges.title.text()  # the pane says what the marks mean

    step = _action(window, "step")
    for n in range(1, 41):  # step until a removal happens
        step.trigger()
        qtbot.waitUntil(lambda: session.merge_count == n, timeout=10000)
        if any(_removed_cells(window)):
            break
    return window


def test_picky_removals_in_the_merges_table_undone_and_redone(user_window, small_corpus, qtbot, monkeypatch):
    window = _picky_run_to_a_removal(user_window, small_corpus, qtbot, monkeypatch)
    session, step = window.session, _action(window, "step")
    k = session.merge_count
    cells = _removed_cells(window)
    assert cells[k - 1].startswith("✂") and "(IoS " in cells[k - 1] and not any(cells[:k - 1])
    record = session.history[-1]
    gone = {chip_text(session.token(r.token_id))[0] for r in record.removals}
    assert all(t in cells[k - 1] for t in gone)
    assert gone and gone <= _struck(window)  # the removed tokens are struck through where the table names them

    # undo past it: gone
    _action(window, "undo").trigger()
    qtbot.waitUntil(lambda: session.merge_count == k - 1, timeout=10000)
    assert not (gone & _struck(window))
    # redo: back
    step.trigger()
    qtbot.waitUntil(lambda: session.merge_count == k, timeout=10000)
    assert gone <= _struck(window)


def test_picky_removal_in_the_words_pane_and_why_this_split(user_window, small_corpus, qtbot, monkeypatch):
    window = _picky_run_to_a_removal(user_window, small_corpus, qtbot, monkeypatch)
    session, step = window.session, _action(window, "step")
    k, record = session.merge_count, session.history[-1]
    # a word the removal split: its history in the words pane and in why-this-split say so
    split = [i for i in record.changed_words if any("✂" in p for p in _history_of(qtbot, window, i))]
    assert split, "no word shows the removal"
    word = split[0]
    _click_word(qtbot, window, word)
    assert any(p.startswith("✂") or "; ✂" in p for p in _history_pairs(window))
    assert "removal(s) split it" in window.words.history_title.text()
    qtbot.waitUntil(lambda: window.explain.dock.isVisible(), timeout=5000)
    assert any("removed '" in c and "(IoS " in c and "split into" in c for c in _explained(window))

    _action(window, "undo").trigger()  # undo past it: the word's history no longer has it
    qtbot.waitUntil(lambda: session.merge_count == k - 1, timeout=10000)
    _click_word(qtbot, window, word)
    assert not any("✂" in p for p in _history_pairs(window))
    assert not any("removed '" in c for c in _explained(window))
    step.trigger()  # redo: back
    qtbot.waitUntil(lambda: session.merge_count == k, timeout=10000)
    _click_word(qtbot, window, word)
    assert any("✂" in p for p in _history_pairs(window))
    assert any("removed '" in c for c in _explained(window))


def _history_of(qtbot, window, i: int) -> list:
    _click_word(qtbot, window, i)
    return _history_pairs(window)
