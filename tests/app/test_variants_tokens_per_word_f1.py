"""The Variants tab's "Tokens / word by script" is the Measures chart's (issue 26, last session's user test):
on the eight-language parallel text under a new user's defaults (gpt2), Tamil read 1.15 in the Variants tab
(each GPT-2 piece counted as a word: GPT-2 cuts a Tamil word at its combining marks) and about 8 in the
Measures chart. Now the tab shows the Measures value, and stepping a run does not read its text again
(it is read once, on a worker)."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt

from tests.core.paths import EXAMPLES

FILES = [str(p) for p in sorted((EXAMPLES / "parallel").glob("*.txt"))]


def _shown(table, row):
    """The scripts and values of a row's "Tokens / word by script" cell, as the user reads them."""
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    text = table.item(row, header.index("Tokens / word by script")).text()
    return {name: float(value) for name, value in re.findall(r"(\w+) (\d+\.\d+)", text)}


def test_the_variants_tab_shows_the_measures_tokens_per_word_for_tamil(user_window, qtbot, monkeypatch):
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QLabel, QPushButton, QTableWidget, QTreeWidget

    from bpe_core.analysis import read_eval_files, run_curves

    reads = []
    from bpe_lens_app.session import text_words  # the one reader of a corpus's words, shared by the panes
    real = text_words.corpus_words
    monkeypatch.setattr(text_words, "corpus_words",
                        lambda *a, **kw: (list(a[0]) == FILES and reads.append(a)) or real(*a, **kw))
    window = user_window()
    session = window.session
    with qtbot.waitSignal(session.corpus_loaded, timeout=60000):
        session.load_corpus(FILES)  # its text is read once, for every pane (the status line's tokens/word too)
    session.seek(150)
    qtbot.waitUntil(lambda: session.merge_count == 150 and not session.is_running, timeout=60000)
    window.findChild(QAction, "action_compare_variants").trigger()
    tab = window.variants_feature.tab
    table = tab.findChild(QTableWidget, "variant_table")
    qtbot.waitUntil(lambda: "Tamil" in _shown(table, 0), timeout=30000)  # the text is read on a worker
    shown = _shown(table, 0)
    run = session.workbench.run
    curves = run_curves(run.timeline, read_eval_files(FILES), 50)
    tamil = curves.value_at("tokens_per_word", 150, "script:Tamil")
    assert tamil > 4 and shown["Tamil"] == float(f"{tamil:.2f}")  # not 1.15: the Measures chart's value
    for script, value in shown.items():
        assert value == float(f"{curves.value_at('tokens_per_word', 150, 'script:' + script):.2f}"), script
    assert "Tokens / word" not in tab.findChild(QLabel, "variant_note").text()  # one run: nothing to warn of
    assert len(reads) == 1
    # a PickyBPE run beside it (Add a run with another rule…), stepped in the tab: its figures move on the
    # same words, and the text is not read again
    from bpe_lens_app.features.variants.add_rule import AddRuleDialog

    def picky(dialog) -> int:
        dialog.rule_fields.rule.setCurrentIndex(dialog.rule_fields.rule.findText("PickyBPE"))
        return 1

    monkeypatch.setattr(AddRuleDialog, "exec", picky)
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=60000)
    for _ in range(15):
        qtbot.mouseClick(tab.findChild(QPushButton, "variant_step10"), Qt.LeftButton)
    assert table.item(1, 1).text() == "150"
    assert _shown(table, 1)["Tamil"] > 4  # the PickyBPE run's Tamil: by the same words
    assert len(reads) == 1  # the same text: read once for both runs, not per step


def test_the_column_says_what_it_counts(user_window, qtbot):
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QTableWidget

    window = user_window()
    window.findChild(QAction, "action_compare_variants").trigger()
    table = window.variants_feature.tab.findChild(QTableWidget, "variant_table")
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    tip = table.horizontalHeaderItem(header.index("Tokens / word by script")).toolTip()
    assert "whitespace-separated words" in tip and "Measures" in tip
