"""The "Add a run with another rule…" dialog (brief P, findings 3 and 4): its hint "(parity-aware BPE: on its
languages)" showed on a single English corpus, where parity-aware BPE cannot run; and choosing parity-aware
BPE left Languages empty even when the window's corpus is a folder of one file per language (the parallel
example's files). The hint names the languages only where they are, says what parity needs where they are not,
and Languages is prefilled with the corpus's folder."""
from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QPushButton

from bpe_lens_app.features.variants.add_rule import AddRuleDialog
from tests.core.paths import EXAMPLES

FILES = [str(p) for p in sorted((EXAMPLES / "parallel").glob("*.txt"))]


def _seen(window, qtbot, monkeypatch, rule: str) -> dict:
    """Open the dialog from the Variants tab, pick ``rule``, and say what it shows (then Cancel)."""
    seen = {}

    def run(dialog: AddRuleDialog) -> int:
        dialog.show()
        f = dialog.rule_fields
        seen["before"] = " ".join(lab.text() for lab in dialog.findChildren(QLabel) if lab.isVisible())
        f.rule.setCurrentIndex(f.rule.findText(rule))
        seen["after"] = " ".join(lab.text() for lab in dialog.findChildren(QLabel) if lab.isVisible())
        seen["languages"] = f.languages.text() if f.languages.isVisible() else None
        dialog.hide()
        return 0

    monkeypatch.setattr(AddRuleDialog, "exec", run)
    window.findChild(QAction, "action_compare_variants").trigger()
    qtbot.mouseClick(window.tabs.currentWidget().findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    return seen


def test_on_one_english_file_parity_is_not_promised(user_window, small_corpus, qtbot, monkeypatch):
    window = user_window(str(small_corpus))
    seen = _seen(window, qtbot, monkeypatch, "Parity-aware BPE")
    assert "on its languages" not in seen["before"], seen
    assert "parity" not in seen["before"].lower(), seen  # PickyBPE is picked: no word of parity
    assert "needs a folder of one text file per language" in seen["after"], seen
    assert seen["languages"] == ""  # nothing to prefill


def test_on_the_parallel_example_languages_are_prefilled(user_window, qtbot, monkeypatch):
    window = user_window()
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=60000):
        window.session.load_corpus(FILES)  # as File → Examples → "How fair is this tokenizer?" opens it
    seen = _seen(window, qtbot, monkeypatch, "Parity-aware BPE")
    folder = os.path.dirname(FILES[0])
    assert seen["languages"] == folder, seen
    assert "on its languages" in seen["before"] and "parallel" in seen["before"], seen
    assert "needs a folder" not in seen["after"], seen
