"""Two runs of the same rule told apart (brief P, finding 5): two parity-aware runs both read "parity-aware BPE
(gpt2)" in the Variants list, its table and the legends, whatever their mode. Beside its id, each label names
the setting that differs (the parity mode, as PickyBPE's names its τ)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton, QTreeWidget

from bpe_lens_app.features.variants.add_rule import AddRuleDialog
from tests.core.paths import EXAMPLES

FILES = [str(p) for p in sorted((EXAMPLES / "parallel").glob("*.txt"))]


def _rule(text: str) -> str:
    return text.split("\n")[0].split(" · ")[0].partition(": ")[2]


def test_two_parity_runs_read_apart(user_window, qtbot, monkeypatch):
    window = user_window()
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=60000):
        window.session.load_corpus(FILES)  # the parallel example's languages: Languages is prefilled
    window.findChild(QAction, "action_compare_variants").trigger()
    tab = window.variants_feature.tab
    tree = tab.findChild(QTreeWidget, "variant_branches")
    for n, mode in ((2, "base"), (3, "ratio")):
        def run(dialog: AddRuleDialog, mode=mode) -> int:
            f = dialog.rule_fields
            f.rule.setCurrentIndex(f.rule.findText("Parity-aware BPE"))
            f.parity_mode.setCurrentText(mode)
            return 1

        monkeypatch.setattr(AddRuleDialog, "exec", run)
        qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
        qtbot.waitUntil(lambda: tree.topLevelItemCount() == n, timeout=60000)
    listed = [tree.topLevelItem(i).text(0) for i in range(3)]
    rules = [_rule(t) for t in listed]
    assert len(set(rules)) == 3 and "ratio" in rules[2] and "ratio" not in rules[1], listed
    legend = [label.text for _s, label in tab.legend.items]
    assert [_rule(t) for t in legend] == rules and legend[2].startswith("r3: "), legend
    table = [tab.table.item(r, 0).text() for r in range(tab.table.rowCount())]
    assert [_rule(t) for t in table] == rules, table
    # the Measures legend names them the same way
    window.findChild(QAction, "action_measures").trigger()
    pane = window.tabs.currentWidget()
    compute = pane.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: compute.isEnabled() and len(pane.legend.items) == 3, timeout=60000)
    assert [_rule(label.text) for _s, label in pane.legend.items] == rules
