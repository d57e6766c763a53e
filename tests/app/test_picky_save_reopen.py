"""Journey (issue 26's user test, brief W1): a new user chooses PickyBPE τ 0.6 in the training settings, steps to
merge 140 (read-ahead on: the steps are shown from the records), saves the vocabulary (Ctrl+S, native) and opens
it again with Open vocabulary. Before the fix the file held 394 tokens but the 257 ``token_freqs`` of merge 0 and
the app refused it ('"token_freqs" is not one count per token id'); now it opens in an Inspect tab, and the
CLI's encode reads it."""
from __future__ import annotations

import json

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox, QTabWidget

from bpe_core.cli.commands import main as cli
from bpe_lens_app.features.training.settings_dialog import SettingsDialog


def _action(window, name) -> QAction:
    return window.findChild(QAction, f"action_{name}")


def test_a_picky_vocabulary_saved_at_merge_140_opens_again(user_window, qtbot, tmp_path, monkeypatch, capsys):
    window = user_window()
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
    step = _action(window, "step")
    for n in range(1, 141):
        step.trigger()
        qtbot.waitUntil(lambda: session.merge_count == n, timeout=10000)
    assert any(s.removals for s in session.history), "τ 0.6 should remove tokens by merge 140"

    path = tmp_path / "vocabulary.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    _action(window, "save_vocabulary").trigger()
    assert "Saved" in window.statusBar().currentMessage()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["merges"]) == 140 and len(data["token_freqs"]) == len(data["vocab"])

    tabs = window.findChild(QTabWidget) if not isinstance(getattr(window, "tabs", None), QTabWidget) else window.tabs
    before = tabs.count()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    _action(window, "open_vocabulary").trigger()
    qtbot.waitUntil(lambda: tabs.count() == before + 1, timeout=10000)
    assert tabs.tabText(tabs.currentIndex()).startswith("Inspect: ")
    box = getattr(window, "error_box", None)
    assert box is None or not box.isVisible()

    capsys.readouterr()
    assert cli(["encode", "--vocab", str(path), "--text", "the lazy dog", "--ids"]) == 0
    assert capsys.readouterr().out.split()
