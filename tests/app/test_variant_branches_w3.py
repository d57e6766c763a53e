"""Journey (issue 26 user test, W3): two SuperBPE branches, the run undone below where they start. The
chart draws each branch's shared stretch from the run's known merges (a point at every merge, the run's
values), and a workspace saved in that state reopens both branches at their merges, nothing lost."""
from __future__ import annotations

import pytest

pytest.importorskip("bpe_core.training.superbpe", reason="helper S's SuperBPE stage 2 is not in yet")


def _action(window, name):
    from PySide6.QtGui import QAction

    return window.findChild(QAction, f"action_{name}")


def _curves(tab):
    return {item.name(): dict(zip(*map(list, item.getData()))) for item in tab.chart.getPlotItem().listDataItems()}


def test_branches_past_the_undone_run_are_drawn_exactly_and_reopen(user_window, qtbot, tmp_path):
    from PySide6.QtWidgets import QTreeWidget

    window = user_window()
    session = window.session
    said = []
    session.error_raised.connect(said.append)
    tree = None
    for n, k in enumerate((60, 90), 1):
        session.seek(k)
        qtbot.waitUntil(lambda: session.merge_count == k and not session.is_running, timeout=60000)
        _action(window, "continue_superbpe").trigger()
        tab = window.variants_feature.tab
        tree = tab.findChild(QTreeWidget, "variant_branches")
        qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == n,
                        timeout=60000)
    at90 = _curves(tab)
    from PySide6.QtWidgets import QLabel

    note = tab.findChild(QLabel, "variant_note").text()  # tokens per word of a branch and its run: what differs
    assert "same words for every run" in note and "bytes per token compares them" in note
    parent90 = next(v for name, v in at90.items() if "plain BPE" in name)
    session.seek(30)
    qtbot.waitUntil(lambda: session.merge_count == 30 and not session.is_running, timeout=60000)
    window.variants_feature.show_tab()
    curves = _curves(tab)
    parent = next(v for name, v in curves.items() if "plain BPE" in name)
    assert sorted(parent) == list(range(31))  # the run's own line ends where it stands
    r3 = next(v for name, v in curves.items() if "from merge 90" in name)
    assert sorted(r3) == list(range(91))  # a point at every merge of the shared stretch, not a line from 30
    assert all(r3[x] == pytest.approx(parent90[x], abs=1e-12) for x in range(90))

    path = tmp_path / "branches.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    again = user_window(str(path))
    said2 = []
    again.session.error_raised.connect(said2.append)
    qtbot.waitUntil(lambda: getattr(again.variants_feature, "tab", None) is not None, timeout=60000)
    tree2 = again.variants_feature.tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree2.topLevelItemCount() == 1 and tree2.topLevelItem(0).childCount() == 2
                    and not again.variants_feature.busy, timeout=60000)
    labels = [tree2.topLevelItem(0).child(i).text(0) for i in range(2)]
    assert labels == ["r2: SuperBPE from merge 60 · at merge 60\nvocabulary 317 of 30,000",
                      "r3: SuperBPE from merge 90 · at merge 90\nvocabulary 347 of 30,000"]
    assert again.session.merge_count == 30
    assert "at merge 30" in tree2.topLevelItem(0).text(0)
    assert not [t for t in said2 if "not reopened" in t], said2
