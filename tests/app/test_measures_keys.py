"""Issue 27 user test: a key that edits a focused input goes to that input, never to the window's stepping
shortcuts (Home in the Measure combo reset the training to merge 0)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QSpinBox

from tests.core.paths import ROOT

ENG = str(ROOT / "tests" / "data" / "parallel" / "eng.txt")


def _measures(window, qtbot, k):
    session = window.session
    session.seek(k)
    qtbot.waitUntil(lambda: session.merge_count == k and not session.is_running, timeout=60000)
    window.findChild(QAction, "action_measures").trigger()
    return window.tabs.currentWidget()


def test_home_end_and_arrows_in_the_measure_combo_stay_in_the_combo(user_window, qtbot):
    window = user_window(ENG)
    pane = _measures(window, qtbot, 40)
    combo = pane.findChild(QComboBox, "measures_measure")
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    combo.setCurrentIndex(1)
    for key, index in ((Qt.Key_Home, 0), (Qt.Key_End, combo.count() - 1)):
        qtbot.keyClick(combo, key)
        qtbot.wait(50)
        assert combo.currentIndex() == index  # the combo moved
        assert window.session.merge_count == 40  # the run stays at its merge
    for key in (Qt.Key_Up, Qt.Key_Down):
        qtbot.keyClick(combo, key)
        qtbot.wait(50)
        assert window.session.merge_count == 40


def test_home_in_the_every_box_stays_in_the_box(user_window, qtbot):
    window = user_window(ENG)
    pane = _measures(window, qtbot, 40)
    box = pane.findChild(QSpinBox, "measures_every")
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    for key in (Qt.Key_Home, Qt.Key_End, Qt.Key_Left, Qt.Key_Right, Qt.Key_Backspace):
        qtbot.keyClick(box, key)
        qtbot.wait(50)
        assert window.session.merge_count == 40


def test_choosing_other_files_clears_the_old_curves_at_once(user_window, qtbot, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QLabel, QPushButton

    window = user_window(ENG)
    pane = _measures(window, qtbot, 40)
    compute = pane.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(pane.plot.listDataItems()) and compute.isEnabled(), timeout=60000)
    rus = str(ROOT / "tests" / "data" / "parallel" / "rus.txt")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([rus], ""))
    qtbot.mouseClick(pane.findChild(QPushButton, "measures_choose"), Qt.LeftButton)
    assert pane.findChild(QLabel, "measures_files").text() == "rus.txt"
    assert pane.plot.listDataItems() == []  # no curve of eng.txt under the label "rus.txt"
    note = pane.findChild(QLabel, "measures_note").text()
    assert "eng.txt" in note and "Compute" in note, note
    qtbot.wait(100)
    assert pane.findChild(QLabel, "measures_note").text() == note
