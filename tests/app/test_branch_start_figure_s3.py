"""One figure per (run, merge) at a SuperBPE branch's start, seen in the window (brief S3, finding 3): a branch
made with "Continue as SuperBPE from here" at merge 60 and left there; the Variants tab's row and curve give
the branch's bytes per token at 60, and the Measures chart's curve of the branch at 60 is the same number (it
was the parent's point). The corpus is one line, so the run's counting (line by line) and the Measures
chart's reading (the file whole) cut the same units (bpe_core/analysis/variant_compare.py's module doc)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton, QTableWidget, QTreeWidget

from tests.core.paths import ROOT

PARALLEL = ROOT / "tests" / "data" / "parallel"


def _action(window, name):
    return window.findChild(QAction, f"action_{name}")


def _points(plot, name_start):
    """(merge -> value) of the chart's curve whose legend name starts with ``name_start``, a continuation's
    dotted inherited stretch (no legend name, drawn just before it) included."""
    stretch = {}
    for item in plot.listDataItems():
        xs, ys = item.getData()
        points = {int(x): float(y) for x, y in zip(xs, ys)}
        if item.name() is None:
            stretch = points
        elif item.name().startswith(name_start):
            return {**stretch, **points}
        else:
            stretch = {}
    raise AssertionError([i.name() for i in plot.listDataItems()])


def test_the_variants_tab_and_the_measures_chart_agree_at_the_branch_start(user_window, qtbot, tmp_path):
    text = " ".join((PARALLEL / "eng.txt").read_text(encoding="utf-8").split())
    corpus = tmp_path / "one_line.txt"
    corpus.write_text(text + "\n", encoding="utf-8")
    window = user_window(str(corpus), "--preset", "char-hf")
    session = window.session
    session.seek(60)
    qtbot.waitUntil(lambda: session.merge_count == 60 and not session.is_running, timeout=60000)
    _action(window, "continue_superbpe").trigger()
    tab = window.tabs.currentWidget()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == 1, timeout=60000)
    _action(window, "compare_variants").trigger()
    table = tab.findChild(QTableWidget, "variant_table")
    assert table.rowCount() == 2 and table.item(1, 0).text().startswith("r2") and table.item(1, 1).text() == "60"
    shown = table.item(1, 2).text()  # the branch's bytes per token at its start
    variants = _points(tab.chart.getPlotItem(), "r2")
    assert f"{variants[60]:.3f}" == shown
    # the branch's own units at 60 are not the run's (char-hf: stage 2 counts other units): the views can differ
    assert f"{_points(tab.chart.getPlotItem(), 'r1')[60]:.3f}" == table.item(0, 2).text() != shown

    _action(window, "measures").trigger()
    pane = window.tabs.currentWidget()
    pane.every.setValue(10)
    compute = pane.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(pane.curves) and compute.isEnabled()
                    and not pane.findChild(QPushButton, "measures_cancel").isVisible(), timeout=120000)
    measures = _points(pane.plot, "r2")
    assert measures[60] == pytest.approx(variants[60], rel=1e-12)
    assert f"{measures[60]:.3f}" == shown
    # before 60 the branch's curve is the run's (the Measures chart's own: char-hf drops the spaces from the run's
    # words, so the Variants tab's bytes per token of the run counts fewer bytes than the text's)
    run = _points(pane.plot, "r1")
    assert all(measures[m] == pytest.approx(run[m], rel=1e-12) for m in measures if m < 60)
