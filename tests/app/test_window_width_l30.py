"""Nothing in the window raises its minimum width past a 1280x720 screen (the user test of the built wheel
under Xvfb at 1280x720, session 7: End, View › Measures…, View › Why this split, Compute: the window grew to
1389 px and stayed so after the compute ended, the dock's right side and the status bar's progress off the
screen; the bar's "Computing the curves" was squeezed into two clipped lines). The Measures tab's progress
and Cancel take a row of their own while it computes; the other tabs' progress rows (Health, the token
biography, the Variants tab's add-a-run) are checked the same way. The pair chart's captions stay in its view
(whole, or cut short with "…" and the whole caption in a tooltip)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QPushButton

from bpe_lens_app.layout_state import frame_margins

#: the user's screen: 1280 px, the window's frame inside it
SCREEN_WIDTH = 1280


def _room(window) -> int:
    margins = frame_margins(window)
    return SCREEN_WIDTH - margins.left() - margins.right()


def _text_fits(bar) -> bool:
    """The bar's text (its format filled in) fits in the bar on one line, with a little room each side."""
    fm = bar.fontMetrics()
    return fm.horizontalAdvance(bar.text()) + 2 * fm.averageCharWidth() <= bar.contentsRect().width() \
        and fm.height() <= bar.contentsRect().height()


def _at_1280(user_window, qtbot):
    window = user_window()
    window.resize(_room(window), 690)
    qtbot.keyClick(window, Qt.Key_End)  # run to the end, as the user did
    qtbot.waitUntil(lambda: not window.session.is_running and window.session.merge_count > 0, timeout=120000)
    window.findChild(QDockWidget, "explain_dock").show()  # View › Why this split
    qtbot.wait(200)
    assert window.width() <= _room(window)
    return window


def test_computing_measures_keeps_the_window_on_a_1280_screen(user_window, qtbot):
    window = _at_1280(user_window, qtbot)
    window.findChild(QAction, "action_measures").trigger()
    pane = window.tabs.currentWidget()
    qtbot.wait(200)
    width, idle = window.width(), window.minimumSizeHint().width()
    assert idle <= _room(window), idle
    seen = []

    def look(_p=None):  # what the window and the bar are at each report of the computation, once laid out
        qtbot.wait(1)
        if pane.progress.isVisible():
            seen.append((window.minimumSizeHint().width(), window.width(), pane.progress.text(),
                         _text_fits(pane.progress), pane.cancel_button.isVisible()))

    window.measures_feature.calls.progressed.connect(look)
    compute = pane.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    look()
    qtbot.waitUntil(lambda: compute.isEnabled() and not pane.progress.isVisible(), timeout=120000)
    assert seen, "the bar showed its progress"
    grown = [s for s in seen if s[0] > idle or s[1] > width]
    assert not grown, (idle, width, grown[:3])
    cut = [s for s in seen if not (s[3] and s[4])]
    assert not cut, (pane.progress.size(), cut[:3])
    qtbot.wait(100)
    assert window.width() == width and window.minimumSizeHint().width() <= _room(window)


def test_the_other_tabs_progress_rows_keep_the_window_on_a_1280_screen(user_window, qtbot, monkeypatch, tmp_path):
    """Health, the token biography and the Variants tab (adding a run) while they work: the same window, no
    wider (their bar and Cancel sit beside a wrapping title, or under the buttons, not on a row of controls)."""
    from PySide6.QtWidgets import QFileDialog

    from bpe_lens_app.features.inspector.biography_actions import open_biography

    window = _at_1280(user_window, qtbot)
    corpus = tmp_path / "eval.txt"
    corpus.write_text("the cat sat on the mat\n" * 20, encoding="utf-8")
    width = window.width()
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(corpus)], ""))
    window.findChild(QAction, "action_vocabulary_health").trigger()
    health = window.tabs.currentWidget()
    qtbot.waitUntil(lambda: health.report is not None, timeout=60000)
    biography = open_biography(window, window.session.model(), "r1", [str(corpus)])
    window.findChild(QAction, "action_compare_variants").trigger()
    variants = window.tabs.currentWidget()
    working = {"health": (health, lambda: health._set_running(True)),
               "biography": (biography, lambda: biography._set_running(True)),
               "variants": (variants, lambda: variants.busy("A parity run: counting", 3, 10))}
    for name, (pane, work) in working.items():
        window.tabs.setCurrentWidget(pane)
        qtbot.wait(50)
        idle = window.minimumSizeHint().width()
        work()
        qtbot.wait(100)
        assert pane.progress.isVisible(), name
        assert window.minimumSizeHint().width() <= max(idle, _room(window)), name
        assert window.width() == width, name
        assert _text_fits(pane.progress), (name, pane.progress.text(), pane.progress.size())


def _inside(rect, view) -> bool:
    return rect.left() >= -1 and rect.right() <= view.width() + 1


def _shown(item):
    """A text item's text as drawn (its empty margins off), in the chart's scene."""
    margin = item.document().documentMargin()
    return item.sceneBoundingRect().adjusted(margin, 0, -margin, 0)


def _tooltip_at(view, rect) -> str:
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    QToolTip.hideText()
    at = view.mapFromScene(rect.center())
    event = QHelpEvent(QEvent.ToolTip, at, view.viewport().mapToGlobal(at))
    QApplication.sendEvent(view.viewport(), event)
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_the_pair_chart_s_captions_are_whole_or_elided_with_a_tooltip_at_1280(user_window, qtbot):
    """At 1280 px with Why this split open the pair chart's title read "Next pairs (top 1" and its axis title
    "pair count — orange: next merge; o": cut at the view's edge (the title's width pushed the chart, its
    counts too, past the view). Each caption is in the view, whole or elided with "…" and the whole caption
    in its tooltip; the chart's counts are in the view."""
    window = _at_1280(user_window, qtbot)
    session = window.session
    session.seek(6000)  # late merges: the top pairs are tied, the axis title is the long one
    qtbot.waitUntil(lambda: session.merge_count == 6000 and not session.is_running, timeout=60000)
    qtbot.wait(300)
    chart = window.pair_chart
    view, plot = chart.plot_widget, chart.plot_item
    assert chart.tied_bars() > 1
    assert plot.sceneBoundingRect().right() <= view.viewport().width() + 1  # the counts' axis in the view
    whole = {"title": f"Next pairs (top {chart.rows})", "axis": "pair count — orange: next merge; outlined: tied"}
    items = {"title": plot.titleLabel.item, "axis": plot.getAxis("bottom").label}
    for name, item in items.items():
        rect = _shown(item)
        assert _inside(rect, view.viewport()), (name, item.toPlainText(), rect, view.viewport().width())
        text = item.toPlainText().strip()  # (the axis adds a space for its units)
        if text != whole[name]:
            assert text.endswith("…") and whole[name].startswith(text[:-1]), (name, text)
            assert _tooltip_at(view, rect) == whole[name], name
