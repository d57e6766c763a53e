"""The tokens per word by script chart's log axis keeps its tick labels apart (the user test of the built wheel:
above a fivefold spread the axis turns logarithmic, and pyqtgraph labels every 2..9 of each decade, which run
together near the decade's top: "7", "8", "9", "10¹" drawn over each other in a chart 450 px high). The labels
drawn are now as many of the decades, 2s, 3s and 5s as keep a line apart, and they read as the values do."""
from __future__ import annotations

import pytest

from tests.app.axis_checks import drawn_labels, labels_a_line_apart
from tests.app.test_script_curves_words_f3 import FILES, open_chart


@pytest.fixture
def chart(user_window, qtbot):
    _window, chart = open_chart(user_window, qtbot, FILES, merge=150)
    dock = chart.parent()
    dock.setFloating(True)
    return chart


@pytest.mark.parametrize("height", [900, 600, 450, 340])
def test_the_log_axis_labels_keep_apart(chart, qtbot, height):
    chart.parent().resize(380, height)
    qtbot.wait(100)
    labels_a_line_apart(chart.plot_widget.getPlotItem().getAxis("left"), height)


def test_the_log_axis_labels_read_as_the_values(chart, qtbot):
    chart.parent().resize(380, 900)
    qtbot.wait(100)
    texts = [t for _y, t in drawn_labels(chart.plot_widget.getPlotItem().getAxis("left"))]
    assert "10" in texts and "20" in texts, texts  # not "10¹", "2·10¹"
    assert all(text.isdigit() for text in texts), texts
