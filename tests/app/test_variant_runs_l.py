"""The Variants tab's runs as the user test of the built wheel saw them: a run's curve changed colour when
another run or branch was added (colours went by place in the list, and a branch at an earlier merge is listed
before a later one), and a PickyBPE run stopping at a number of merges showed its vocabulary with no target
("vocabulary 267", where every other run shows "vocabulary N of T")."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton, QTreeWidget

from tests.app.test_add_rule_run import _choose


def _pens(tab) -> dict:
    """Each run's curve colour, by the run's id (the legend's name starts "r2: ...")."""
    return {item.name().split(":")[0]: item.opts["pen"].color().name()
            for item in tab.chart.getPlotItem().listDataItems() if item.name()}


def _picky(f) -> None:
    f.rule.setCurrentIndex(f.rule.findText("PickyBPE"))
    f.ios.setValue(0.6)


def _continue_at(window, qtbot, merge: int, runs: int) -> None:
    session, feature = window.session, window.variants_feature
    session.seek(merge)
    qtbot.waitUntil(lambda: session.merge_count == merge and not session.is_running, timeout=60000)
    window.findChild(QAction, "action_continue_superbpe").trigger()
    qtbot.waitUntil(lambda: not feature.calls.busy and len(feature.runs()) == runs, timeout=60000)


def test_a_run_keeps_its_colour_when_runs_and_branches_are_added(user_window, qtbot, monkeypatch):
    window = user_window()
    _continue_at(window, qtbot, 90, runs=2)  # r2: SuperBPE from merge 90
    tab = window.variants_feature.tab
    tree = tab.findChild(QTreeWidget, "variant_branches")
    _choose(monkeypatch, _picky)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)  # r3: PickyBPE beside
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=60000)
    before = _pens(tab)
    assert sorted(before) == ["r1", "r2", "r3"]
    _continue_at(window, qtbot, 40, runs=4)  # r4 from merge 40: listed before r2, which starts later
    window.variants_feature.show_tab()
    after = _pens(tab)
    assert [tree.topLevelItem(0).child(i).data(0, Qt.UserRole) for i in range(2)] == ["r4", "r2"]
    assert {rid: after[rid] for rid in before} == before
    assert len(set(after.values())) == 4  # the new branch has a colour of its own


def test_a_picky_run_stopping_at_a_number_of_merges_shows_its_target(user_window, small_corpus, qtbot,
                                                                      monkeypatch):
    from bpe_core.presets import make_config

    window = user_window(str(small_corpus))
    session = window.session
    with qtbot.waitSignal(session.corpus_loaded, timeout=60000):
        session.set_config(make_config("gpt2", num_merges=40))
    window.findChild(QAction, "action_compare_variants").trigger()
    tab = window.variants_feature.tab
    tree = tab.findChild(QTreeWidget, "variant_branches")
    _choose(monkeypatch, _picky)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=60000)
    plain, picky = tree.topLevelItem(0), tree.topLevelItem(1)
    assert plain.text(0) == "r1: plain BPE (gpt2) · at merge 0\nvocabulary 257 of 297"
    # its removals take tokens out as it goes: 40 merges end at 297 tokens or fewer
    assert picky.text(0) == "r2: PickyBPE τ=0.6 (gpt2) · at merge 0\nvocabulary 257 of at most 297"
    assert "40 merges" in picky.toolTip(0) and "removals" in picky.toolTip(0)
    for _ in range(4):
        qtbot.mouseClick(tab.findChild(QPushButton, "variant_step10"), Qt.LeftButton)
    tl = tab.runs[1].timeline
    assert tl.merge_count == 40 and tl.vocab_size <= 297
    assert picky.text(0).endswith(f"vocabulary {tl.vocab_size:,} of at most 297")
