"""The tokens per word by script chart stays readable when a script written without spaces is among the groups:
a Han "word" is a whole clause (tens to hundreds of tokens), which flattened every other script's curve against
the bottom of a linear axis (the screenshot of the mixed Chinese-German corpus: Han 174.5, Latin 3.6). Above a
fivefold spread the y axis is logarithmic, the values read are unchanged, and the note says why Han's is so high."""
from __future__ import annotations

import pytest

from tests.app.test_script_curves_words_f3 import FILES, _note, open_chart


def test_a_script_without_spaces_puts_the_chart_on_a_log_axis(user_window, qtbot):
    _window, chart = open_chart(user_window, qtbot, FILES, merge=150)
    values = chart.values()
    assert values["Han"] > 5 * values["Latin"]
    plot = chart.plot_widget.getPlotItem()
    assert plot.getAxis("left").logMode  # a fivefold spread: log scale
    assert values == pytest.approx(dict(zip(chart.tracker.groups, chart.tracker.values())), rel=1e-12)
    assert _note(chart)["Han"] == pytest.approx(values["Han"], abs=0.005)
    assert "Han is written without spaces" in chart.note.text()


def test_scripts_with_spaces_keep_a_linear_axis(user_window, qtbot):
    spaced = [f for f in FILES if f.endswith(("eng.txt", "rus.txt"))]
    _window, chart = open_chart(user_window, qtbot, spaced, merge=50)
    assert not chart.plot_widget.getPlotItem().getAxis("left").logMode
    assert "without spaces" not in chart.note.text()


def test_each_script_gets_its_own_colour(user_window, qtbot):
    """Eight scripts on five colours drew Latin and Hangul both blue, Tamil and Han both green."""
    _window, chart = open_chart(user_window, qtbot, FILES)
    colours = [curve.opts["pen"].color().name() for curve in chart.curves.values()]
    assert len(colours) >= 7 and len(set(colours)) == len(colours), colours
