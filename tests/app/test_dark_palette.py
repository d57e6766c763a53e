"""A dark system palette gives dark charts with light text and highlights that keep text readable.

Contrast is the WCAG ratio (:func:`bpe_lens_app.widgets.theme.contrast_ratio`): text >= 4.5, graphics
(bars, curves) >= 3 against what they are drawn on.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from bpe_lens_app.widgets.theme import (changed_row_color, contrast_ratio, dark_palette, future_text_color, is_dark,
                                 luminance)
from bpe_lens_app.widgets.chip_colors import PALETTE, TEXT_COLOR

TEXT, GRAPHIC = 4.5, 3.0


@pytest.fixture
def dark(qapp):
    old = QApplication.palette()
    QApplication.setPalette(dark_palette())
    yield QApplication.palette()
    QApplication.setPalette(old)


def _chart_checks(background: QColor, text_pens, graphic_colors, palette: QPalette) -> None:
    assert background.name() == palette.color(QPalette.Base).name()
    assert luminance(background) < 0.05  # a dark chart, not white
    for pen in text_pens:
        assert contrast_ratio(pen.color(), background) >= TEXT
    for color in graphic_colors:
        assert contrast_ratio(color, background) >= GRAPHIC


def test_the_fixture_palette_is_dark(qapp, dark):
    assert is_dark(dark)


def test_charts_are_dark_with_readable_axes_bars_and_curves(qtbot, dark, loaded_window):
    w = loaded_window
    w.session.step(3)
    chart = w.pair_chart
    plot = chart.plot_item
    _chart_checks(chart.plot_widget.backgroundBrush().color(),
                  [plot.getAxis(n).textPen() for n in ("left", "right", "bottom")],
                  [b.color() for b in chart.bars.opts["brushes"]], dark)
    image = chart.plot_widget.grab().toImage()
    assert luminance(image.pixelColor(2, 2)) < 0.05  # what is on screen, too
    hist = w.history_chart
    _chart_checks(hist.layout_widget.backgroundBrush().color(),
                  [p.getAxis(n).textPen() for p in hist.plots for n in ("left", "bottom")],
                  [c.pen.color() for c in hist.curves], dark)


def test_a_palette_switch_restyles_the_charts(qtbot, loaded_window):
    chart = loaded_window.pair_chart
    assert luminance(chart.plot_widget.backgroundBrush().color()) > 0.9  # the light default
    old = QApplication.palette()
    try:
        QApplication.setPalette(dark_palette())
        qtbot.waitUntil(lambda: luminance(chart.plot_widget.backgroundBrush().color()) < 0.05, timeout=2000)
        assert contrast_ratio(chart.plot_item.getAxis("bottom").textPen().color(),
                              chart.plot_widget.backgroundBrush().color()) >= TEXT
    finally:
        QApplication.setPalette(old)


def test_highlighted_rows_keep_the_palette_text_readable(qtbot, dark, loaded_window):
    w = loaded_window
    s = w.session
    s.step(3)
    s.undo(1)  # merge 3 is known but undone: a greyed row
    text, base = dark.color(QPalette.Text), dark.color(QPalette.Base)
    changed = changed_row_color(dark)
    assert contrast_ratio(text, changed) >= TEXT
    word = next(iter(s.history[-1].changed_words))
    row = w.words.model.row_of(word)
    assert w.words.model.index(row, 0).data(Qt.BackgroundRole) == changed
    merges = w.merges.model
    assert merges.index(1, 0).data(Qt.BackgroundRole) == changed  # the current merge (2)
    future = merges.index(2, 0).data(Qt.ForegroundRole)
    assert future == future_text_color(dark)
    assert GRAPHIC <= contrast_ratio(future, base) < contrast_ratio(text, base)  # greyed, still legible


def test_chips_and_the_hovered_span_read_on_any_palette(qtbot, dark, loaded_window):
    for color in PALETTE:
        assert contrast_ratio(TEXT_COLOR, color) >= 7.0
    pane = loaded_window.encode
    pane.set_text("the lower newest")
    pane.encode_now()
    pane.view.hovered.emit(0)  # the mouse over the first chip
    (selection,) = pane.editor.extraSelections()
    fmt = selection.format
    assert contrast_ratio(fmt.foreground().color(), fmt.background().color()) >= TEXT


#: how far apart (RGB distance, 0..441) a checked and an unchecked toggle's average colors are at least
APART = 90


def _distance(a: QColor, b: QColor) -> float:
    return sum((x - y) ** 2 for x, y in zip(a.getRgb()[:3], b.getRgb()[:3])) ** 0.5


def _mean(widget) -> QColor:
    image = widget.grab().toImage()
    pixels = [image.pixelColor(x, y) for x in range(3, image.width() - 3) for y in range(3, image.height() - 3)]
    return QColor(*(round(sum(getattr(c, f)() for c in pixels) / len(pixels)) for f in ("red", "green", "blue")))


def test_a_checked_encode_toggle_is_visibly_checked_on_a_dark_desktop(qtbot, dark, loaded_window):
    """Issue 25: under a dark palette the checked encode-mode toggle looked like the unchecked ones
    (Fusion darkens a checked button's #353535 by 10 %)."""
    pane = loaded_window.encode
    assert pane.whitespace_toggle.isChecked() and not pane.ids_toggle.isChecked()  # the defaults
    assert _distance(_mean(pane.whitespace_toggle), _mean(pane.ids_toggle)) >= APART
    off = _mean(pane.ids_toggle)
    qtbot.mouseClick(pane.ids_toggle, Qt.LeftButton)
    assert pane.ids_toggle.isChecked()
    on = _mean(pane.ids_toggle)
    assert _distance(on, off) >= APART, (on.name(), off.name())
