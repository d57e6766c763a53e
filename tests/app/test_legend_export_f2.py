"""A chart exported as a 2x PNG draws its legend at 2x too, in every chart with a legend (the Measures chart,
the Variants tab's curves, tokens per word by script). pyqtgraph's legend ignores transformations, so the
picture scaled everything but the legend; the shared chart export now scales it for every chart."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QAction, QImage

from bpe_lens_app.features.exports import export_chart


def _legend_width_in_png(qtbot, plot, legend, tmp_path) -> float:
    """How many times wider the legend is drawn in a PNG exported at twice the chart's width than in one at
    its width (the legend's pixels: where the picture differs from one without the legend)."""
    qtbot.wait(50)
    assert legend.isVisible() and legend.items, "the chart shows a legend"

    def picture(name, width):
        export_chart(plot, str(tmp_path / name), width=width)
        img = QImage(str(tmp_path / name)).convertToFormat(QImage.Format_RGB32)
        return np.frombuffer(img.constBits(), np.uint32).reshape(img.height(), -1)[:, :img.width()].copy()

    def drawn(scale):
        width = round(scale * plot.sceneBoundingRect().width())
        with_legend = picture(f"a{scale}.png", width)
        legend.setVisible(False)
        try:
            without = picture(f"b{scale}.png", width)
        finally:
            legend.setVisible(True)
        cols = np.nonzero((with_legend != without).any(axis=0))[0]
        return cols.max() - cols.min() + 1

    return drawn(2) / drawn(1)


def test_the_measures_chart(qtbot, tmp_path):
    from tests.app.test_measures_layout import _curves

    from bpe_lens_app.features.measures.pane import MeasuresPane

    pane = MeasuresPane()
    qtbot.addWidget(pane)
    pane.resize(1000, 560)
    pane.show()
    qtbot.waitExposed(pane)
    pane.show_curves([_curves("r1: plain BPE (gpt2)", 1.0)])
    assert _legend_width_in_png(qtbot, pane.plot, pane.legend, tmp_path) >= 1.8


def test_the_variants_chart(user_window, qtbot, tmp_path):
    window = user_window()
    session = window.session
    session.seek(60)
    qtbot.waitUntil(lambda: session.merge_count == 60 and not session.is_running, timeout=60000)
    window.findChild(QAction, "action_compare_variants").trigger()
    tab = window.variants_feature.tab
    assert window.tabs.currentWidget() is tab
    assert _legend_width_in_png(qtbot, tab.chart.getPlotItem(), tab.legend, tmp_path) >= 1.8


def test_the_tokens_per_word_by_script_chart(user_window, qtbot, tmp_path):
    from PySide6.QtWidgets import QDockWidget

    from bpe_lens_app.features.training.script_curves_pane import ScriptCurvesChart

    path = tmp_path / "mixed.txt"
    path.write_text(("The cat sat on the mat, and the other cats watched.\n" * 3
                     + "却说曹操引兵追赶刘备，关羽张飞与赵云护着玄德。\n" * 2) * 5, encoding="utf-8")
    window = user_window(str(path))
    window.findChild(QAction, "action_script_curves").trigger()
    dock = window.findChild(QDockWidget, "dock_script_curves")
    qtbot.waitUntil(lambda: dock.isVisible() and dock.findChild(ScriptCurvesChart) is not None, timeout=10000)
    chart = dock.findChild(ScriptCurvesChart)
    dock.setFloating(True)
    dock.resize(800, 500)
    window.session.seek(30)
    qtbot.waitUntil(lambda: window.session.merge_count == 30 and len(chart.curves) == 2, timeout=60000)
    assert _legend_width_in_png(qtbot, chart.plot_widget.getPlotItem(), chart.legend, tmp_path) >= 1.8
