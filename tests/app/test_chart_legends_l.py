"""A chart's legend never covers what the chart shows (the user test of the built wheel at 1280x720 and
1920x1080): in the Variants tab the legend sat on the curves where the branches part, in the tokens per word by
script chart on the curves at the top right, and in the Measures chart on the label of the window's merge.
Every chart with a legend now lays it out under its plot, outside the area the curves are drawn in, in as many
columns as the chart's width holds; these tests look where it is drawn, as a user sees it."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QAction


def _clear_of_the_plot(plot, legend) -> QRectF:
    """The legend is shown with its entries, wholly inside the chart (not cut), and on no part of the view box
    (where the curves, the grid and the labels on them are drawn) nor on the axes' tick labels."""
    assert legend.isVisible() and legend.items, "the chart shows a legend"
    rect = legend.sceneBoundingRect()
    assert rect.width() > 0 and rect.height() > 0
    assert plot.sceneBoundingRect().adjusted(-1, -1, 1, 1).contains(rect), (rect, plot.sceneBoundingRect())
    for part in (plot.getViewBox(), plot.getAxis("bottom"), plot.getAxis("left")):
        assert not rect.intersects(part.sceneBoundingRect()), (part, rect, part.sceneBoundingRect())
    for sample, label in legend.items:  # each entry inside the legend's box: none hangs out of the chart
        assert rect.adjusted(-1, -1, 1, 1).contains(label.sceneBoundingRect()), label.text
    return rect


def test_the_variants_chart_keeps_its_legend_off_the_branches(user_window, qtbot):
    """A run and two SuperBPE branches parting at the right of the chart, at the first size of the window."""
    from PySide6.QtWidgets import QPushButton

    window = user_window()
    window.resize(1280, 720)
    session = window.session
    feature = window.variants_feature
    for t in (40, 70):
        session.seek(t)
        qtbot.waitUntil(lambda: session.merge_count == t and not session.is_running, timeout=60000)
        window.findChild(QAction, "action_continue_superbpe").trigger()
        qtbot.waitUntil(lambda: not feature.calls.busy and len(feature.runs()) == 1 + (t > 40) + 1, timeout=60000)
    tab = feature.tab
    for run in feature.runs()[1:]:
        tab.set_runs(feature.runs(), select=run.id)
        for _ in range(6):
            qtbot.mouseClick(tab.findChild(QPushButton, "variant_step10"), Qt.LeftButton)
    session.seek(130)
    qtbot.waitUntil(lambda: session.merge_count == 130 and not session.is_running, timeout=60000)
    window.findChild(QAction, "action_compare_variants").trigger()
    qtbot.wait(100)
    plot = tab.chart.getPlotItem()
    assert len(tab.legend.items) == 3
    _clear_of_the_plot(plot, tab.legend)


def test_the_script_chart_keeps_its_legend_off_its_curves(user_window, qtbot):
    from tests.app.test_script_curves_words_f3 import FILES, open_chart

    window, chart = open_chart(user_window, qtbot, FILES, merge=150)
    window.resize(1280, 720)
    qtbot.wait(100)
    assert len(chart.legend.items) >= 7
    _clear_of_the_plot(chart.plot_widget.getPlotItem(), chart.legend)


def test_the_measures_chart_keeps_its_legend_off_the_merge_label(qtbot):
    from tests.app.test_measures_layout import _curves

    from bpe_lens_app.features.measures.pane import MeasuresPane

    pane = MeasuresPane()
    qtbot.addWidget(pane)
    pane.resize(1000, 560)
    pane.show()
    qtbot.waitExposed(pane)
    pane.show_curves([_curves(f"r{i}: SuperBPE from merge {500 * i:,}", 1 + i / 4) for i in range(1, 5)])
    for merge in (1900, 100):  # the label on the line's left near the right edge, on its right near the left
        pane.set_merge(merge)
        qtbot.wait(50)
        rect = _clear_of_the_plot(pane.plot, pane.legend)
        label = pane.here.label.sceneBoundingRect()
        assert label.width() > 0 and not rect.intersects(label), (merge, rect, label)


def test_a_narrow_chart_puts_its_entries_in_fewer_columns(qtbot):
    """The legend's entries flow into the columns the chart's width holds: all on one row when wide, stacked
    when narrow, never wider than the chart."""
    from tests.app.test_measures_layout import _curves

    from bpe_lens_app.features.measures.pane import MeasuresPane

    pane = MeasuresPane()
    qtbot.addWidget(pane)
    pane.resize(1400, 560)
    pane.show()
    qtbot.waitExposed(pane)
    pane.show_curves([_curves(f"r{i}", 1 + i / 4) for i in range(1, 4)])
    qtbot.wait(50)
    rows = {round(label.sceneBoundingRect().center().y()) for _s, label in pane.legend.items}
    assert len(rows) == 1
    _clear_of_the_plot(pane.plot, pane.legend)
    pane.show_curves([_curves(f"r{i}: a run with a long name, from merge {i:,}", 1 + i / 4) for i in range(1, 4)])
    pane.resize(420, 560)
    qtbot.wait(100)
    rows = {round(label.sceneBoundingRect().center().y()) for _s, label in pane.legend.items}
    assert len(rows) >= 2
    _clear_of_the_plot(pane.plot, pane.legend)


def test_the_legends_follow_a_theme_switch(user_window, qtbot, qapp):
    """View → Theme → Dark: each legend's names take the dark palette's text, readable on the chart (the script
    chart's legend kept pyqtgraph's own grey)."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication, QDockWidget

    from tests.app.test_theme import choose

    from bpe_lens_app.widgets import theme_choice
    from bpe_lens_app.widgets.theme import contrast_ratio, is_dark

    old = QPalette(QApplication.palette())
    try:
        window = user_window()
        window.session.seek(40)
        qtbot.waitUntil(lambda: window.session.merge_count == 40 and not window.session.is_running, timeout=60000)
        window.findChild(QAction, "action_script_curves").trigger()
        dock = window.findChild(QDockWidget, "dock_script_curves")
        qtbot.waitUntil(lambda: dock.widget() is not None and bool(dock.widget().curves), timeout=30000)
        window.findChild(QAction, "action_compare_variants").trigger()
        legends = {"script": dock.widget().plot_widget, "variants": window.variants_feature.tab.chart}
        choose(qtbot, window, "Dark")
        assert is_dark(QApplication.palette())
        for name, chart in legends.items():
            legend = chart.getPlotItem().legend
            text, base = chart.palette().color(QPalette.Text), chart.palette().color(QPalette.Base)
            qtbot.waitUntil(lambda: all(label.opts["color"] == text for _s, label in legend.items), timeout=2000)
            assert legend.items and contrast_ratio(text, base) >= 4.5, name
    finally:
        theme_choice.forget_choice()
        QApplication.setPalette(old)
