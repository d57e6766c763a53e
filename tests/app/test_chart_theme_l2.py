"""Brief L2, finding 1 (user test of the built wheel): after a live View → Theme switch, in either direction, the
legends of the Variants chart, the script chart and the Measures chart were drawn in the old theme's text colour
(black on the dark chart, white on the light one), and the Measures chart kept its dark background under Light.
pyqtgraph's ``LegendItem.setLabelTextColor`` stores a label's colour without drawing its text again.

These tests look at what the chart paints (``QWidget.grab``): the legend's names stand out on the chart's
background, the chart's background is the theme's, and each curve stands out on it."""
from __future__ import annotations

from collections import Counter

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QPalette
from PySide6.QtWidgets import QApplication, QDockWidget, QPushButton

from bpe_lens_app.widgets.theme import MIN_GRAPHIC_CONTRAST, contrast_ratio


pytestmark = pytest.mark.usefixtures("system_palette_back")  # (tests/app/conftest.py)


def painted(chart):
    """What the chart shows (its pixels) and the colour most of them have (the chart's background)."""
    image = chart.grab().toImage()
    counts = Counter(image.pixel(x, y) for x in range(0, image.width(), 3) for y in range(0, image.height(), 3))
    return image, QColor.fromRgb(counts.most_common(1)[0][0])


def text_contrast(chart, label, image, background: QColor) -> float:
    """The strongest contrast a pixel of ``label``'s text (a pyqtgraph LabelItem) has with the chart's
    background (anti-aliased text reaches its full colour in its stems)."""
    rect = chart.mapFromScene(label.item.sceneBoundingRect()).boundingRect().intersected(image.rect())
    assert rect.width() > 2 and rect.height() > 2, label.text
    return max(contrast_ratio(image.pixelColor(x, y), background)
               for x in range(rect.left(), rect.right() + 1) for y in range(rect.top(), rect.bottom() + 1))


def legend_contrast(chart, legend, image, background: QColor) -> float:
    """The least, over the legend's names, of :func:`text_contrast`."""
    return min(text_contrast(chart, label, image, background) for _sample, label in legend.items)


def test_legends_and_backgrounds_follow_a_live_theme_switch(user_window, qtbot):
    from tests.app.test_theme import choose

    window = user_window()
    window.resize(1440, 900)
    session = window.session
    session.seek(40)
    qtbot.waitUntil(lambda: session.merge_count == 40 and not session.is_running, timeout=60000)
    choose(qtbot, window, "Light")
    # the script chart (a dock), the Variants tab's chart and the Measures chart, made under Light
    window.findChild(QAction, "action_script_curves").trigger()
    dock = window.findChild(QDockWidget, "dock_script_curves")
    qtbot.waitUntil(lambda: dock.widget() is not None and bool(dock.widget().curves), timeout=30000)
    window.resizeDocks([dock], [520], Qt.Horizontal)  # wide enough to read its legend
    window.findChild(QAction, "action_compare_variants").trigger()
    variants = window.variants_feature.tab
    window.findChild(QAction, "action_measures").trigger()
    measures = window.tabs.currentWidget()
    qtbot.mouseClick(measures.findChild(QPushButton, "measures_corpus"), Qt.LeftButton)
    measures.every.setValue(20)
    compute = measures.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(measures.lines) and compute.isEnabled(), timeout=120000)
    qtbot.wait(50)
    image, background = painted(measures.chart)  # its title in the theme's text (was pyqtgraph's grey on white)
    assert text_contrast(measures.chart, measures.plot.titleLabel, image, background) >= 4.5
    charts = {"script": (None, dock.widget().plot_widget, dock.widget().legend),
              "variants": (variants, variants.chart, variants.legend),
              "measures": (measures, measures.chart, measures.legend)}
    for theme in ("Dark", "Light", "Dark"):
        choose(qtbot, window, theme)
        palette = QApplication.palette()
        base = palette.color(QPalette.Base)
        for name, (tab, chart, legend) in charts.items():
            if tab is not None:
                window.tabs.setCurrentWidget(tab)
            qtbot.wait(50)
            assert legend.isVisible() and legend.items, name
            image, background = painted(chart)
            assert contrast_ratio(background, base) < 1.1, (theme, name, background.name(), base.name())
            assert legend_contrast(chart, legend, image, background) >= 3.0, (theme, name)
            assert text_contrast(chart, chart.getPlotItem().titleLabel, image, background) >= 4.5, (theme, name)
            for curve in [c for c in chart.getPlotItem().listDataItems() if c.name()]:  # each stands out
                pen = pg.mkPen(curve.opts["pen"]).color()
                assert contrast_ratio(pen, base) >= MIN_GRAPHIC_CONTRAST, (theme, name, curve.name(), pen.name())


def test_the_script_curves_stand_out_after_a_live_switch(user_window, qtbot):
    """A script curve made on the light chart (brown, dark enough for white) stood out too little on the dark one
    (its colour was made readable once, for the background it was drawn on first); the other way as well."""
    from tests.app.test_script_curves_words_f3 import FILES, open_chart
    from tests.app.test_theme import choose

    window, chart = open_chart(user_window, qtbot, FILES, merge=60)
    assert len(chart.curves) >= 7
    for theme in ("Light", "Dark", "Light"):
        choose(qtbot, window, theme)
        base = QApplication.palette().color(QPalette.Base)
        for group, curve in chart.curves.items():
            pen = pg.mkPen(curve.opts["pen"]).color()
            assert contrast_ratio(pen, base) >= MIN_GRAPHIC_CONTRAST, (theme, group, pen.name())
