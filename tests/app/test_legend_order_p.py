"""Legend order (brief P, finding 2): the charts listed runs in the order they were opened or reopened (the
Measures legend read r1, r4, r2…); they read in id order, r1, r2, …, each run's branches after it, as the
Variants list does, in the Measures chart and in the Variants chart alike."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton, QTreeWidget


def _legend(legend) -> list:
    return [label.text.split(":")[0] for _sample, label in legend.items]


def _runs_opened_out_of_order(user_window, small_corpus, qtbot):
    """The window's run r1, then r4 and r2 beside it (opened in that order, as a workspace's reopen may)."""
    from bpe_core import TrainingRun
    from bpe_lens_app.features.variants import add_run_beside

    window = user_window(str(small_corpus))
    window.findChild(QAction, "action_compare_variants").trigger()
    run = window.session.workbench.run
    for rid in ("r4", "r2"):
        add_run_beside(window, TrainingRun.open(rid, run.corpus, replace(run.config, variant="picky")))
    tree = window.variants_feature.tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 3, timeout=30000)
    return window, tree


def test_the_variants_list_and_chart_read_in_id_order(user_window, small_corpus, qtbot):
    window, tree = _runs_opened_out_of_order(user_window, small_corpus, qtbot)
    tab = window.variants_feature.tab
    assert [tree.topLevelItem(i).text(0).split(":")[0] for i in range(3)] == ["r1", "r2", "r4"]
    assert _legend(tab.legend) == ["r1", "r2", "r4"]


def test_the_measures_legend_reads_in_id_order(user_window, small_corpus, qtbot):
    window, _tree = _runs_opened_out_of_order(user_window, small_corpus, qtbot)
    window.findChild(QAction, "action_measures").trigger()
    pane = window.tabs.currentWidget()
    compute = pane.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: compute.isEnabled() and len(pane.legend.items) == 3, timeout=60000)
    assert _legend(pane.legend) == ["r1", "r2", "r4"]
