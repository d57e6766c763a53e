"""After a training setting is picked, Space steps again (a live demo: pick a preset, press Space).

A combo box keeps the keyboard after its choice is picked, and Space with a combo box focused opens it. The
training settings' widgets (the toolbar's preset box, the controls' speed box, the ×N box after Enter) hand the
keyboard back to the main view once a value is picked; Tab still reaches them. The keys go where a user's keys
go: to the widget that has the keyboard (``QApplication.focusWidget()``), not to the window."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def _focused(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=5000)
    return QApplication.focusWidget()


def _pick(qtbot, box, text: str) -> None:
    """Click ``box`` open and click ``text`` in its list, as a user picks with the mouse."""
    qtbot.mouseClick(box, Qt.LeftButton)
    view = box.view()
    qtbot.waitUntil(view.isVisible, timeout=5000)
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a list takes no click this soon after it opened
    row = box.findText(text)
    assert row >= 0, text
    rect = view.visualRect(view.model().index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: not view.isVisible(), timeout=5000)


def _space_steps(qtbot, window, box=None) -> None:
    """Press Space where the keyboard is: merge 1 shows (and no list pops up)."""
    label = window.controls.merge_label
    assert label.text().startswith("merge 0 /"), label.text()
    qtbot.keyClick(_focused(qtbot, window), Qt.Key_Space)
    qtbot.waitUntil(lambda: label.text().startswith("merge 1 /"), timeout=10000)
    if box is not None:
        assert not box.view().isVisible()


def _loaded(qtbot, session, preset: str) -> None:
    qtbot.waitUntil(lambda: not session.is_loading and session.config.preset == preset
                    and session.corpus is not None and session.corpus.config.preset == preset, timeout=60000)


def test_space_steps_after_picking_a_preset(qtbot, user_window):
    window = user_window()
    box = window.preset_box
    _pick(qtbot, box, "byte-ascii")
    _loaded(qtbot, window.session, "byte-ascii")
    assert box.currentText() == "byte-ascii"
    _space_steps(qtbot, window, box)
    assert box.currentText() == "byte-ascii"  # Space did not move the choice either
    # the keyboard can still reach the box: Tab goes through the window's widgets to it
    box.setFocus(Qt.TabFocusReason)
    assert box.hasFocus()


def test_space_steps_after_picking_a_speed(qtbot, user_window):
    window = user_window()
    box = window.controls.speed_box
    _pick(qtbot, box, "20 merges/s")
    assert box.currentText() == "20 merges/s"
    _space_steps(qtbot, window, box)
    assert box.currentText() == "20 merges/s"


def test_space_steps_after_picking_a_preset_with_the_keyboard(qtbot, user_window):
    window = user_window()
    box = window.preset_box
    box.setFocus(Qt.TabFocusReason)
    qtbot.waitUntil(box.hasFocus, timeout=5000)
    qtbot.keyClick(box, Qt.Key_Space)  # Space opens the focused box: that is how a keyboard user picks
    qtbot.waitUntil(box.view().isVisible, timeout=5000)
    row = box.findText("char-whitespace")
    box.view().setCurrentIndex(box.view().model().index(row, 0))
    qtbot.keyClick(box.view(), Qt.Key_Return)
    _loaded(qtbot, window.session, "char-whitespace")
    _space_steps(qtbot, window, box)


def test_space_steps_after_entering_n(qtbot, user_window):
    window = user_window()
    n_box = window.controls.n_box
    qtbot.mouseClick(n_box, Qt.LeftButton)
    qtbot.waitUntil(n_box.hasFocus, timeout=5000)
    n_box.selectAll()
    qtbot.keyClicks(n_box, "25")
    qtbot.keyClick(n_box, Qt.Key_Return)
    assert window.train_actions["step_n"].text() == "Step ×25"
    _space_steps(qtbot, window)
    assert n_box.value() == 25
