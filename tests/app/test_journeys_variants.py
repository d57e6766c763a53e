"""Journey (issue 26): under a new user's defaults, train to merge k, "Continue as SuperBPE from here", see the
branch appear under the run at merge k, step it and see merges across whitespace, then compare the variants:
one row per run, one curve per run."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

pytest.importorskip("bpe_core.training.superbpe", reason="helper S's SuperBPE stage 2 is not in yet")


def _action(window, name):
    from PySide6.QtGui import QAction

    return window.findChild(QAction, f"action_{name}")


def test_continue_as_superbpe_from_merge_k_then_compare(user_window, qtbot, monkeypatch):
    from PySide6.QtWidgets import QListWidget, QPushButton, QTableWidget, QTreeWidget

    window = user_window()
    session = window.session
    session.seek(120)
    qtbot.waitUntil(lambda: session.merge_count == 120 and not session.is_running, timeout=60000)
    assert _action(window, "continue_superbpe").text() == "Continue as SuperBPE from here"
    _action(window, "continue_superbpe").trigger()
    tab = window.tabs.currentWidget()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == 1, timeout=60000)
    run_item, branch = tree.topLevelItem(0), tree.topLevelItem(0).child(0)
    assert "plain BPE" in run_item.text(0) and "at merge 120" in run_item.text(0)
    assert branch.text(0).startswith("r2: SuperBPE from merge 120 · at merge 120")
    assert tree.currentItem() is branch
    step = tab.findChild(QPushButton, "variant_step10")
    assert step.isEnabled()
    from bpe_lens_app.features.variants import actions

    counted = []
    real = actions.variant_figures
    monkeypatch.setattr(actions, "variant_figures", lambda name, *a, **kw: counted.append(name) or real(name, *a, **kw))
    for _ in range(4):
        qtbot.mouseClick(step, Qt.LeftButton)
    assert "at merge 160" in branch.text(0)
    assert len(counted) == 4 and all(n.startswith("r2") for n in counted)  # the run that did not move: not recounted
    merges = tab.findChild(QListWidget, "variant_merges")
    shown = [merges.item(i).text() for i in range(merges.count())]
    assert len(shown) == 40 and shown[0].lstrip().startswith("160")
    # a superword: a token with a space inside it (a space shows as ␣)
    assert any("␣" in t.split("‘")[1].split("’")[0][1:] for t in shown), shown[:10]
    # the training panes stayed on the run
    assert session.merge_count == 120
    # the variants compared: one row per run, one curve per run
    _action(window, "compare_variants").trigger()
    table = tab.findChild(QTableWidget, "variant_table")
    assert table.rowCount() == 2
    rows = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(2)]
    assert rows[0][1] == "120" and rows[1][1] == "160"
    assert float(rows[1][2]) > float(rows[0][2])  # superwords: more bytes per token
    assert "Latin" in rows[0][3]
    assert not tab.findChild(QTableWidget, "variant_languages").isVisible()  # one file: no languages
    assert len(tab.chart.getPlotItem().listDataItems()) == 2
    # undo on the branch
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_undo"), Qt.LeftButton)
    branch = tree.topLevelItem(0).child(0)  # the tab drew its tree again when asked to compare
    assert "at merge 159" in branch.text(0) and table.item(1, 1).text() == "159"


def test_a_branch_is_saved_in_the_workspace_and_comes_back(user_window, qtbot, tmp_path):
    from PySide6.QtWidgets import QListWidget, QPushButton, QTreeWidget

    window = user_window()
    session = window.session
    session.seek(80)
    qtbot.waitUntil(lambda: session.merge_count == 80 and not session.is_running, timeout=60000)
    _action(window, "continue_superbpe").trigger()
    tab = window.tabs.currentWidget()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == 1, timeout=60000)
    for _ in range(2):
        qtbot.mouseClick(tab.findChild(QPushButton, "variant_step10"), Qt.LeftButton)
    merges = tab.findChild(QListWidget, "variant_merges")
    before = [merges.item(i).text() for i in range(merges.count())]
    path = tmp_path / "variants.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)

    again = user_window(str(path))
    qtbot.waitUntil(lambda: getattr(again.variants_feature, "tab", None) is not None, timeout=60000)
    tab2 = again.variants_feature.tab
    tree2 = tab2.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree2.topLevelItemCount() == 1 and tree2.topLevelItem(0).childCount() == 1,
                    timeout=60000)
    branch = tree2.topLevelItem(0).child(0)
    assert branch.text(0) == "r2: SuperBPE from merge 80 · at merge 100\nvocabulary 357 of 30,000"
    tree2.setCurrentItem(branch)
    merges2 = tab2.findChild(QListWidget, "variant_merges")
    assert [merges2.item(i).text() for i in range(merges2.count())] == before
    assert again.session.merge_count == 80


def test_a_parallel_corpus_shows_tokens_per_language_and_their_gini(user_window, qtbot):
    from PySide6.QtWidgets import QTableWidget, QTreeWidget

    from tests.core.paths import ROOT

    files = [str(ROOT / "tests" / "data" / "parallel" / f"{lang}.txt") for lang in ("eng", "rus", "hin", "kor")]
    window = user_window()
    session = window.session
    with qtbot.waitSignal(session.corpus_loaded, timeout=60000):
        session.load_corpus(files)
    session.seek(100)
    qtbot.waitUntil(lambda: session.merge_count == 100 and not session.is_running, timeout=60000)
    _action(window, "compare_variants").trigger()
    tab = window.variants_feature.tab
    assert window.tabs.currentWidget() is tab
    tree = tab.findChild(QTreeWidget, "variant_branches")
    assert _action(window, "continue_superbpe") in tree.actions()  # the run's context menu offers it
    table = tab.findChild(QTableWidget, "variant_languages")
    assert table.isVisible()
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Tokens per language", "eng", "rus", "hin", "kor", "Gini"]
    assert table.rowCount() == 1 and all(int(table.item(0, c).text().replace(",", "")) > 0 for c in range(1, 5))
    assert 0 < float(table.item(0, 5).text()) < 1


def test_a_branch_runs_to_its_end_on_a_worker(user_window, qtbot):
    import re

    from PySide6.QtWidgets import QProgressBar, QPushButton, QTreeWidget

    window = user_window()
    session = window.session
    session.seek(100)
    qtbot.waitUntil(lambda: session.merge_count == 100 and not session.is_running, timeout=60000)
    _action(window, "continue_superbpe").trigger()
    tab = window.variants_feature.tab
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == 1, timeout=60000)
    run_button = tab.findChild(QPushButton, "variant_run")
    qtbot.waitUntil(run_button.isEnabled, timeout=10000)
    qtbot.mouseClick(run_button, Qt.LeftButton)
    progress = tab.findChild(QProgressBar, "variant_progress")
    qtbot.waitUntil(lambda: not progress.isVisible() and run_button.isEnabled(), timeout=120000)
    branch = tree.topLevelItem(0).child(0)
    reached = int(re.search(r"at merge ([\d,]+)$", branch.text(0), re.M).group(1).replace(",", ""))
    child = window.variants_feature.runs()[1]
    assert reached == 100 + child.timeline.merge_count and child.timeline.stop_reason is not None
    assert reached > 100 and session.merge_count == 100  # the run itself did not move


def test_a_branch_made_while_another_corpus_loads_is_not_attached_to_it(user_window, qtbot, small_corpus):
    from PySide6.QtWidgets import QTreeWidget

    window = user_window()
    session = window.session
    session.seek(50)
    qtbot.waitUntil(lambda: session.merge_count == 50 and not session.is_running, timeout=60000)
    feature = window.variants_feature
    _action(window, "continue_superbpe").trigger()
    with qtbot.waitSignal(session.corpus_loaded, timeout=60000):
        session.load_corpus(str(small_corpus))
    qtbot.waitUntil(lambda: not feature.busy, timeout=60000)
    tree = feature.tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1, timeout=10000)
    assert tree.topLevelItem(0).childCount() == 0 and "at merge 0" in tree.topLevelItem(0).text(0)
    assert [r.id for r in session.workbench.bench.runs] == ["r1"]
