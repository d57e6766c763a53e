"""Docks on the right side never make the window taller than the screen (the user test of issue 24 at
1280×720: "Ties and branches" plus "Why this split" stacked need 838 px, and the window grew past the
screen, title bar and bottom off it, and came back that way at the next start). The test screen is the
offscreen platform's 800×800: the same overflow."""
from __future__ import annotations

from PySide6.QtWidgets import QDockWidget, QTabBar

from bpe_lens_app.layout_state import frame_margins, free_area


def _dock(window, name: str) -> QDockWidget:
    return window.findChild(QDockWidget, name)


def _front_tab(window) -> str:
    """The title of the dock in front of the side's tabs ("" when no dock is tabbed)."""
    for bar in window.findChildren(QTabBar):
        titles = [bar.tabText(i) for i in range(bar.count())]
        if "Ties && branches" in titles:
            return bar.tabText(bar.currentIndex())
    return ""


def _fits(window) -> bool:
    margins = frame_margins(window)
    return window.height() + margins.top() + margins.bottom() <= free_area(window).height()


def test_a_second_dock_that_would_not_fit_becomes_a_tab_and_the_window_stays_on_the_screen(user_window, qtbot):
    window = user_window()
    ties, explain = _dock(window, "dock_ties"), _dock(window, "explain_dock")
    ties.show()
    qtbot.wait(100)  # the user looks at it before asking for the next
    assert ties.isVisible() and _fits(window)
    explain.show()
    qtbot.waitUntil(lambda: window.tabifiedDockWidgets(explain) == [ties], timeout=3000)
    qtbot.waitUntil(lambda: _fits(window), timeout=3000)
    assert window.minimumSizeHint().height() <= free_area(window).height()
    qtbot.waitUntil(lambda: _front_tab(window) == "Why this split", timeout=3000)  # the dock asked for
    ties.raise_()  # and the other is one click away
    qtbot.waitUntil(lambda: _front_tab(window) == "Ties && branches", timeout=3000)


def test_docks_that_fit_stay_stacked(user_window, qtbot):
    window = user_window()
    curves, explain = _dock(window, "dock_script_curves"), _dock(window, "explain_dock")
    curves.show()
    explain.show()
    qtbot.wait(200)
    if window.minimumSizeHint().height() <= free_area(window).height():
        assert window.tabifiedDockWidgets(explain) == []
