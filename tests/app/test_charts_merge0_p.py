"""Charts before any merge (brief P, finding 1): the Variants chart and the Training tab's tokens per word by
script chart showed an x axis of −400…400 labelled "merge (x0.001)" and no point (one point draws no line).
At merge 0 the x range starts at 0, the tick labels are plain and the single point is drawn."""
from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget


def _at_zero_and_visible(qtbot, plot, items) -> None:
    qtbot.wait(200)  # the view box's auto range is applied when it is drawn
    (x0, x1), (y0, y1) = plot.getViewBox().viewRange()
    assert -0.5 < x0 <= 0 and x1 >= 9, (x0, x1)  # starts at 0 (a mark's width before it), spans 10 merges
    label = plot.getAxis("bottom").labelString()
    assert "(x" not in label and "merge" in label, label  # plain ticks: no "(x0.001)"
    for item in items:
        xs, ys = item.getData()
        assert xs is not None and len(xs) == 1
        assert item.opts["symbol"] is not None  # the single point is drawn as a mark
        pts = item.scatter.points()
        assert len(pts) == 1 and pts[0].isVisible()
        assert x0 <= xs[0] <= x1 and y0 <= ys[0] <= y1


def test_the_variants_chart_at_merge_0(user_window, small_corpus, qtbot):
    window = user_window(str(small_corpus))
    assert window.session.merge_count == 0
    window.findChild(QAction, "action_compare_variants").trigger()
    tab = window.tabs.currentWidget()
    plot = tab.chart.getPlotItem()
    _at_zero_and_visible(qtbot, plot, list(tab.curves.values()))
    # a step later: the range follows the data again (no mark needed on a line)
    window.session.seek(5)
    qtbot.waitUntil(lambda: window.session.merge_count == 5 and not window.session.is_running, timeout=30000)
    tab.refresh()
    qtbot.wait(200)
    (x0, x1), _ = plot.getViewBox().viewRange()
    assert x0 < 1 and 4 <= x1 <= 10, (x0, x1)
    assert all(c.opts["symbol"] is None for c in tab.curves.values())


def test_the_script_chart_at_merge_0(user_window, qtbot):
    from tests.app.test_script_curves_words_f3 import FILES

    window = user_window()
    session = window.session
    window.findChild(QAction, "action_script_curves").trigger()
    chart = window.findChild(QDockWidget, "dock_script_curves").widget()
    with qtbot.waitSignal(session.corpus_loaded, timeout=60000):
        session.load_corpus([f for f in FILES if f.endswith(("eng.txt", "rus.txt"))])
    qtbot.waitUntil(lambda: chart.tracker is not None and chart.tracker.per_word, timeout=30000)
    assert session.merge_count == 0
    chart.redraw()
    _at_zero_and_visible(qtbot, chart.plot_widget.getPlotItem(), list(chart.curves.values()))


def test_the_measures_chart_at_merge_0(user_window, small_corpus, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QPushButton

    window = user_window(str(small_corpus))
    window.session.seek(0)
    qtbot.waitUntil(lambda: not window.session.is_running, timeout=30000)
    window.findChild(QAction, "action_measures").trigger()
    pane = window.tabs.currentWidget()
    pane.every.setValue(1_000_000)  # one point per curve: merge 0 (and the last reached, if any)
    compute = pane.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: compute.isEnabled() and bool(pane.lines), timeout=60000)
    if any(len(line.merges) > 1 for line in pane.lines):  # read-ahead reached merges: not the case at merge 0
        return
    items = [i for i in pane.plot.listDataItems() if i.name()]
    _at_zero_and_visible(qtbot, pane.plot, items)
