"""The window's layout promises hold under a larger font than this machine's DejaVu Sans 9 pt.

Ubuntu desktops draw the app in Noto Sans, whose line is 17 % taller than DejaVu Sans's at the same point
size (16.3 px against 14.0 px at 9 pt; its average character is 14 % wider, its running text 8 % narrower),
and many users choose a larger system font. The CI machine has only DejaVu, so these tests give the
application the least size that covers Noto Sans 9 pt: DejaVu Sans at 11 pt (x 1.22: 17.5 px a line,
7.6 px an average character), or Noto Sans at 9 pt where it is installed, and check what the user sees:
the window usable at 1024x700, four history charts at 1440x900, a window that fits a 960x540 screen
(1920x1080 at 2x), the dropout distribution's rows at 1280x720.
"""
from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QFontMetrics, QFontMetricsF
from PySide6.QtWidgets import QApplication

from tests.app.test_axes_and_status import one_history_chart_at_1024x700
from tests.app.test_cut_text_w5 import sampled_dropout

#: Noto Sans 9 pt, measured with QFontMetricsF under a fontconfig that prefers it: its line height and its
#: average character width in pixels (DejaVu Sans 9 pt: 13.95 and 6.08)
NOTO_LINE, NOTO_CHAR = 16.32, 6.92


def covering_size(font: QFont) -> float:
    """The least point size from 9 up (in half points) at which ``font``'s family draws lines at least as
    tall and characters at least as wide as Noto Sans 9 pt: 11 for DejaVu Sans, 9 for Noto Sans itself."""
    points = 9.0
    while True:
        font.setPointSizeF(points)
        fm = QFontMetricsF(font)
        if fm.height() >= NOTO_LINE and fm.averageCharWidth() >= NOTO_CHAR:
            return points
        points += 0.5


@pytest.fixture
def big_font(qtbot):
    """The application's font at :func:`covering_size` for the test (as Noto Sans or a larger system font
    gives it)."""
    app = QApplication.instance()
    before = app.font()
    font = app.font()
    font.setPointSizeF(covering_size(QFont(font)))
    app.setFont(font)
    yield font
    app.setFont(before)


@pytest.fixture
def big_window(big_font, loaded_window, qtbot):
    qtbot.wait(20)  # (font changes reach widgets through posted events)
    assert QFontMetricsF(loaded_window.history_chart.font()).height() >= NOTO_LINE
    return loaded_window


def test_usable_at_1024x700_under_a_big_font(qtbot, big_window):
    one_history_chart_at_1024x700(big_window, qtbot)  # the default font's checks, under the big one


def test_four_history_charts_at_1440x900_under_a_big_font(qtbot, big_window):
    w = big_window
    w.resize(1440, 900)
    w.session.step(5)
    qtbot.wait(50)
    chart = w.history_chart
    assert not chart.single_chart() and not chart.picker.isVisible()
    assert all(p.isVisible() for p in chart.plots)
    view = chart.layout_widget
    line = QFontMetrics(chart.font()).height()
    for plot in chart.plots:  # each chart whole inside its view, with room for a curve
        box = plot.sceneBoundingRect()
        assert box.right() <= view.width() + 1 and box.bottom() <= view.height() + 1
        assert plot.getViewBox().height() >= 3 * line, plot.titleLabel.text


def test_the_window_fits_a_960x540_screen_under_a_big_font(qtbot, big_font, user_window):
    """1920x1080 at 2x: 540 logical pixels high; Qt's offscreen platform frames a window with a few pixels
    (tests/app/test_journeys_screens.py), a window manager's title bar takes more: the window's least size
    leaves 8 pixels for them."""
    w = user_window()
    hint = w.minimumSizeHint()
    assert hint.width() <= 960 and hint.height() <= 540 - 8, (hint.width(), hint.height())
    w.resize(960, 532)
    qtbot.wait(20)
    assert (w.width(), w.height()) == (960, 532)
    assert w.statusBar().geometry().bottom() < w.height()


def test_dropout_distribution_shows_rows_at_1280x720_under_a_big_font(qtbot, big_font, user_window):
    window = user_window()
    pane, panel = sampled_dropout(window, qtbot)
    status = panel.status
    assert status.isVisible() and status.fontMetrics().horizontalAdvance(status.text()) <= status.width()
    table = panel.table
    rows_shown = table.viewport().height() // table.verticalHeader().defaultSectionSize()
    assert rows_shown >= 6, f"the distribution shows {rows_shown} rows"
    assert window.height() <= 720
    pane.dropout.wait()


@pytest.mark.parametrize("size", [(1024, 700), (1280, 720), (1440, 900)], ids=["1024x700", "1280x720", "1440x900"])
def test_no_label_or_button_text_is_cut_under_a_big_font(qtbot, big_font, user_window, size):
    """Every label and button of the first window reads whole (or ends in "…" with its tooltip), as
    tests/app/test_journeys_screens.py checks each screen under the default font."""
    from screen_driver import clipped

    window = user_window()
    window.resize(*size)
    window.session.step(5)
    qtbot.waitUntil(lambda: window.session.merge_count == 5, timeout=20000)
    qtbot.wait(100)
    assert (window.width(), window.height()) == size
    assert clipped(window) == []
