"""Issue 27 user test, the Token biography tab: the progress bar has room for its text, an empty filter says so
and cannot be exported, the merge tree of a token filtered out goes, an export says "Saved …"."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from bpe_core import write_vocabulary
from bpe_core.model import BPEModel

from tests.app.test_biography import CORPUS, column, compute, open_biography

TOKENS = ["a", "b", "c", "d", "e", "f", "ab", "bc", "abd", "abc", "ef", " "]
MERGES = [("a", "b"), ("b", "c"), ("ab", "d"), ("a", "bc"), ("e", "f")]  # every token reachable


@pytest.fixture
def files(tmp_path):
    corpus = tmp_path / "reference.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    ix = {t: i for i, t in enumerate(TOKENS)}
    model = BPEModel(unit="chars", tokens=TOKENS, merges=[(ix[a], ix[b]) for a, b in MERGES], name="small")
    write_vocabulary(model, str(tmp_path / "small.json"), "native")
    return corpus, str(tmp_path / "small.json")


def test_the_progress_bar_has_room_for_its_text(qtbot, user_window, files) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    pane.progress.setVisible(True)
    pane.progress.setRange(0, 1000)
    pane.progress.setValue(500)
    pane.progress.setFormat("replaying the merges %p%")
    qtbot.wait(50)
    need = pane.progress.fontMetrics().horizontalAdvance("replaying the merges 100%")
    assert pane.progress.width() >= need + 20, (pane.progress.width(), need)


def test_an_empty_filter_says_so_and_exports_nothing(qtbot, user_window, files) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    box = pane.preset_box
    assert box.itemText(box.findData("unreachable")) == "unreachable (0)"
    box.setCurrentIndex(box.findData("unreachable"))
    assert pane.table_model.rowCount() == 0
    assert pane.count_label.text() == "No token is unreachable on this corpus"
    assert not pane.export_button.isEnabled()
    box.setCurrentIndex(box.findData("all"))
    assert pane.export_button.isEnabled() and pane.count_label.text() == "12 of 12 tokens shown"
    qtbot.keyClicks(pane.search, "zzz")
    assert pane.count_label.text() == "No token matches the filter" and not pane.export_button.isEnabled()


def test_the_tree_of_a_token_filtered_out_is_cleared(qtbot, user_window, files) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    row = column(pane, pane.table_model.COL_TOKEN).index("abd")
    rect = pane.table.visualRect(pane.table_model.index(row, 1))
    qtbot.mouseClick(pane.table.viewport(), Qt.LeftButton, pos=rect.center())
    assert pane.tree.root() is not None and pane.tree.root().display == "abd"
    pane.preset_box.setCurrentIndex(pane.preset_box.findData("never emitted"))
    assert "abd" not in column(pane, pane.table_model.COL_TOKEN)
    assert pane.tree.root() is None


def test_a_successful_export_says_saved(qtbot, user_window, files, tmp_path, monkeypatch) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    out = tmp_path / "bio.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "CSV (*.csv)"))
    qtbot.mouseClick(pane.export_button, Qt.LeftButton)
    assert out.exists()
    assert window.statusBar().currentMessage() == f"Saved {out}"
