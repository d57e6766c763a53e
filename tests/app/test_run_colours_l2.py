"""Brief L2, findings 2 and 3 (user test of the built wheel).

2. One colour per run in every chart: the Variants chart and the Measures chart gave the same run different
   colours (Variants r5 purple, Measures r5 green), and after a workspace was reopened the colours followed the
   order the runs were restored in. A run's colour is now a function of its id (rN: the n-th colour of
   ``theme.RUN_COLORS``), the same in both charts and in any order the runs come.
3. Colours too close: orange and red-orange side by side (r2 parity against r3 PickyBPE; Devanagari against Arabic
   in the script chart). Any two of the first eight colours are now far apart on a light and on a dark chart.
"""
from __future__ import annotations

import itertools
import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QPushButton, QTreeWidget

from bpe_lens_app.widgets.theme import MANY_CURVES, RUN_COLORS, dark_palette, graphic_color, run_color


def _pens(plot) -> dict:
    """Each named curve's colour by the run's id (a legend's name starts "r2: ...")."""
    return {item.name().split(":")[0]: item.opts["pen"].color().name() for item in plot.listDataItems()
            if item.name()}


def test_a_run_has_the_nth_colour_whatever_else_is_open():
    for n in (1, 2, 5, 8):
        assert run_color(f"r{n}").name() == graphic_color(RUN_COLORS[n - 1]).name()
    assert run_color("r9").name() == run_color("r1").name()  # the palette starts again
    assert run_color("r3", dark_palette()).name() == graphic_color(RUN_COLORS[2], dark_palette()).name()
    assert run_color("odd id").name() == run_color("odd id").name()  # an id of another form: a fixed colour too


def test_both_charts_give_a_run_its_colour_in_any_order(user_window, qtbot, monkeypatch):
    """Four runs (a SuperBPE branch from merge 90, a PickyBPE run, a branch from merge 40 listed before the
    first): the Variants chart and the Measures chart draw each in its id's colour; a tab and a pane made anew
    and given the runs in another order (a reopened workspace) draw them the same."""
    from tests.app.test_add_rule_run import _choose
    from tests.app.test_variant_runs_l import _continue_at, _picky

    from bpe_lens_app.features.measures.pane import MeasuresPane
    from bpe_lens_app.features.variants.pane import VariantsTab

    window = user_window()
    _continue_at(window, qtbot, 90, runs=2)
    tab = window.variants_feature.tab
    tree = tab.findChild(QTreeWidget, "variant_branches")
    _choose(monkeypatch, _picky)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2, timeout=60000)
    _continue_at(window, qtbot, 40, runs=4)
    window.variants_feature.show_tab()
    palette = tab.chart.palette()
    expected = {f"r{n}": run_color(f"r{n}", palette).name() for n in range(1, 5)}
    assert _pens(tab.chart.getPlotItem()) == expected
    window.findChild(QAction, "action_measures").trigger()
    measures = window.tabs.currentWidget()
    qtbot.mouseClick(measures.findChild(QPushButton, "measures_corpus"), Qt.LeftButton)
    measures.every.setValue(20)
    compute = measures.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: len(measures.lines) == 4 and compute.isEnabled(), timeout=120000)
    assert _pens(measures.plot) == expected
    # reopened: the runs restored in another order, into a tab and a pane that have drawn nothing yet
    again = VariantsTab(tab.figures_of, lambda: None)
    qtbot.addWidget(again)
    again.set_runs(list(reversed(tab.runs)))
    assert _pens(again.chart.getPlotItem()) == expected
    pane = MeasuresPane()
    qtbot.addWidget(pane)
    pane.show_curves(list(reversed(measures.curves)))
    assert _pens(pane.plot) == expected


def _lab(color: QColor):
    """CIE L*a*b* (D65) of an sRGB colour."""
    def linear(u: float) -> float:
        return u / 12.92 if u <= 0.04045 else ((u + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(x) for x in color.getRgbF()[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(one: QColor, two: QColor) -> float:
    """CIEDE2000 colour difference (about 1: just noticeable; the old orange and red-orange were 12 apart)."""
    (l1, a1, b1), (l2, a2, b2) = _lab(one), _lab(two)
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c, d_h = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = (-math.sin(math.radians(60 * math.exp(-((h_mean - 275) / 25) ** 2)))
           * 2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


#: the least difference between any two of the first eight colours, as drawn on a light and a dark chart
MIN_DELTA_E = 20


def test_any_two_of_the_first_eight_colours_are_far_apart():
    from bpe_lens_app.widgets.theme_choice import light_palette

    for palette in (light_palette(), dark_palette()):
        for colors in (RUN_COLORS[:8], MANY_CURVES[:8]):
            drawn = [graphic_color(c, palette) for c in colors]
            for a, b in itertools.combinations(drawn, 2):
                assert delta_e(a, b) >= MIN_DELTA_E, (a.name(), b.name(), round(delta_e(a, b), 1))
