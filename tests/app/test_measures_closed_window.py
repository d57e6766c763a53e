"""A window closed while its Measures curves compute: the computation stops and nothing reaches the deleted tab.

Found by the full suite (session 7): a test that closed its window during a compute left the worker running, and
its next progress report reached the tab's deleted progress bar inside the next test ("Internal C++ object
(QProgressBar) already deleted"). A user meets the same when a window goes while it computes (Open workspace
replaces what the tab showed; quitting mid-compute)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton


def _window(qtbot):
    """The window as ``user_window`` opens it, but not handed to qtbot: this test deletes it itself."""
    from bpe_lens_app.__main__ import open_window, parse_args
    window, session = open_window(parse_args([]))
    qtbot.waitUntil(lambda: session.corpus is not None and not session.is_loading, timeout=120000)
    return window, session


def test_closing_the_window_mid_compute_stops_the_curves_and_reaches_no_deleted_widget(user_window, qtbot):
    window, session = _window(qtbot)
    qtbot.keyClick(window, Qt.Key_End)
    qtbot.waitUntil(lambda: not window.session.is_running and window.session.merge_count > 0, timeout=120000)
    window.findChild(QAction, "action_measures").trigger()
    feature = window.measures_feature
    pane = window.tabs.currentWidget()
    feature.pane.every.setValue(1)  # a point every merge: the compute outlives the window
    qtbot.mouseClick(pane.findChild(QPushButton, "measures_compute"), Qt.LeftButton)
    qtbot.waitUntil(lambda: pane.progress.isVisible(), timeout=30000)
    calls = feature.calls
    window.close()
    window.deleteLater()
    qtbot.waitUntil(lambda: feature.pane is None, timeout=10000)  # the tab went with the window
    qtbot.waitUntil(lambda: not calls.busy, timeout=60000)  # cancelled, not left to run
    qtbot.wait(500)  # any report still queued is delivered now: it must reach no deleted widget
    session.shutdown()
