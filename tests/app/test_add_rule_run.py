"""Journey (issue 26 user test, W4): the Variants tab's "Add a run with another rule…" opens PickyBPE (or
parity-aware BPE on a languages folder) beside the window's plain run: listed, stepped and compared in the tab,
while the window's run stays as it was."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton, QTableWidget, QTreeWidget

from bpe_lens_app.features.variants.add_rule import AddRuleDialog

PARALLEL = Path(__file__).resolve().parent.parent / "data" / "parallel"


def _action(window, name) -> QAction:
    return window.findChild(QAction, f"action_{name}")


def _choose(monkeypatch, fill) -> None:
    def run(dialog: AddRuleDialog) -> int:
        fill(dialog.rule_fields)
        return 1

    monkeypatch.setattr(AddRuleDialog, "exec", run)


def test_picky_beside_plain_in_the_variants_tab(user_window, small_corpus, qtbot, monkeypatch):
    window = user_window(str(small_corpus))
    session = window.session
    session.seek(12)
    qtbot.waitUntil(lambda: session.merge_count == 12 and not session.is_running, timeout=30000)
    _action(window, "compare_variants").trigger()
    tab = window.tabs.currentWidget()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    assert "Add a run with another rule…" in [a.text() for a in tree.actions()]  # the runs' context menu

    def picky(f) -> None:
        f.rule.setCurrentIndex(f.rule.findText("PickyBPE"))
        f.ios.setValue(0.6)

    _choose(monkeypatch, picky)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=30000)
    plain, other = tree.topLevelItem(0), tree.topLevelItem(1)
    assert "plain BPE" in plain.text(0) and "at merge 12" in plain.text(0)
    assert "PickyBPE τ=0.6" in other.text(0) and "at merge 0" in other.text(0)
    assert tree.currentItem() is other
    step10 = tab.findChild(QPushButton, "variant_step10")
    assert step10.isEnabled()
    qtbot.mouseClick(step10, Qt.LeftButton)
    assert "at merge 10" in tree.topLevelItem(1).text(0)
    table = tab.findChild(QTableWidget, "variant_table")
    assert [table.item(r, 1).text() for r in range(table.rowCount())] == ["12", "10"]
    assert len(tab.chart.getPlotItem().listDataItems()) == 2
    # the window's run did not change
    assert session.config.variant == "bpe" and session.merge_count == 12
    tree.setCurrentItem(tree.topLevelItem(0))
    assert not step10.isEnabled()  # the window's run is stepped by its own controls


def test_parity_beside_plain_on_a_languages_folder(user_window, small_corpus, qtbot, monkeypatch):
    window = user_window(str(small_corpus))
    _action(window, "compare_variants").trigger()
    tab = window.tabs.currentWidget()
    tree = tab.findChild(QTreeWidget, "variant_branches")

    def parity(f) -> None:
        f.rule.setCurrentIndex(f.rule.findText("Parity-aware BPE"))
        f.languages.setText(str(PARALLEL))
        f.parity_mode.setCurrentText("ratio")

    _choose(monkeypatch, parity)
    _action(window, "add_rule_run").trigger()
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=60000)
    assert "parity-aware BPE" in tree.topLevelItem(1).text(0)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_step10"), Qt.LeftButton)
    languages = tab.findChild(QTableWidget, "variant_languages")
    assert languages.isVisible() and languages.columnCount() > 3
    assert window.session.config.variant == "bpe"


def test_superbpe_is_not_a_run_of_its_own_and_the_dialog_stays(qtbot):
    from bpe_core.presets import make_config

    dialog = AddRuleDialog(make_config("char-whitespace"))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.rule_fields.variant() == "picky"  # another rule than the run's, to start with
    dialog.rule_fields.rule.setCurrentIndex(dialog.rule_fields.rule.findText("SuperBPE"))
    dialog.accept()
    assert dialog.isVisible() and "Continue as SuperBPE from here" in dialog.problem_label.text()


def test_plain_beside_a_parity_run_is_compared_per_language(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from bpe_lens_app.features.training.settings_dialog import SettingsDialog

    langs = tmp_path / "langs"
    langs.mkdir()
    for name in ("eng", "rus", "ell"):
        (langs / f"{name}.txt").write_text((PARALLEL / f"{name}.txt").read_text(encoding="utf-8")[:3000],
                                           encoding="utf-8")
    window = user_window(str(small_corpus))

    def settings(dialog: SettingsDialog) -> int:
        f = dialog.rule_fields
        f.rule.setCurrentIndex(f.rule.findText("Parity-aware BPE"))
        f.languages.setText(str(langs))
        f.parity_mode.setCurrentText("ratio")
        return 1

    monkeypatch.setattr(SettingsDialog, "exec", settings)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=30000):
        window.settings_action.trigger()
    assert window.session.config.variant == "parity"
    _action(window, "compare_variants").trigger()
    tab = window.tabs.currentWidget()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    _choose(monkeypatch, lambda f: f.rule.setCurrentIndex(f.rule.findText("Plain BPE")))
    _action(window, "add_rule_run").trigger()
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=60000)
    assert "plain BPE" in tree.topLevelItem(1).text(0)
    languages = tab.findChild(QTableWidget, "variant_languages")
    header = [languages.horizontalHeaderItem(c).text() for c in range(languages.columnCount())]
    assert header == ["Tokens per language", "ell", "eng", "rus", "Gini"]
    rows = [[languages.item(r, c).text() for c in range(languages.columnCount())] for r in range(2)]
    assert all(cell != "—" for row in rows for cell in row[1:]), rows  # both runs, every language


def test_a_saved_run_of_another_rule_comes_back(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    """The workspace saves a run added beside the window's; reopened, it is made again and listed beside the
    window's run (it used to be said "not reopened": issue 26's user test asked for it back; the journeys are
    tests/app/test_runs_beside_reopen_w.py)."""
    window = user_window(str(small_corpus))
    _action(window, "compare_variants").trigger()
    tree = window.tabs.currentWidget().findChild(QTreeWidget, "variant_branches")
    _choose(monkeypatch, lambda f: f.rule.setCurrentIndex(f.rule.findText("PickyBPE")))
    _action(window, "add_rule_run").trigger()
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=60000)
    path = tmp_path / "beside.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    again = user_window(str(path))
    _action(again, "compare_variants").trigger()
    tree = again.variants_feature.tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=30000)
    assert "r2" in tree.topLevelItem(1).text(0) and "PickyBPE" in tree.topLevelItem(1).text(0)


def test_a_run_beside_goes_when_another_text_is_opened(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    """A run added beside the window's trains the window's text: opening another text closes it (it would be
    compared with a run on other text), while a new rule on the same text keeps it."""
    window = user_window(str(small_corpus))
    _action(window, "compare_variants").trigger()
    tab = window.tabs.currentWidget()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    _choose(monkeypatch, lambda f: f.rule.setCurrentIndex(f.rule.findText("PickyBPE")))
    _action(window, "add_rule_run").trigger()
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=60000)
    other = tmp_path / "other.txt"
    other.write_text("hello world again and again\n" * 50, encoding="utf-8")
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=30000):
        window.session.load_corpus(str(other))
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1, timeout=10000)
    assert "plain BPE" in tree.topLevelItem(0).text(0)
    table = tab.findChild(QTableWidget, "variant_table")
    assert table.rowCount() == 1
