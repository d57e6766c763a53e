"""KeyRepeat (the training shortcuts' auto-repeat watch) must not own the widget with the focus.

It used to keep the focus widget in a Python attribute and let go of it in its ``focusChanged`` slot.
When the focus widget was a window of its own that nothing else held (a view a test made and dropped, a
parentless box), the last reference went away inside Qt's focus-window change, the window was deleted
there, and Qt went on to use it: a segfault (seen when tests/app/test_workspace.py ran before
tests/app/test_chips.py: a main window of the last workspace test, closed but not yet deleted, still had
its KeyRepeat listening while test_chips showed and dropped token views).
"""
from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import weakref

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from bpe_lens_app.runtime.coalesce import KeyRepeat


def _shown(qapp) -> QLineEdit:
    box = QLineEdit()
    box.resize(200, 40)
    box.show()
    box.activateWindow()
    box.setFocus(Qt.OtherFocusReason)
    qapp.processEvents()
    return box


def test_a_dropped_window_that_had_the_focus_is_gone_at_once(qapp):
    watch = KeyRepeat()
    box = _shown(qapp)
    assert QApplication.focusWidget() is box
    gone = weakref.ref(box)
    del box
    gc.collect()
    assert gone() is None  # KeyRepeat held it: it lived on until the next focus change
    del watch


_SCRIPT = textwrap.dedent(
    """
    import os
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QLineEdit
    from bpe_lens_app.runtime.coalesce import KeyRepeat

    app = QApplication([])
    watch = KeyRepeat()
    for i in range(5):
        box = QLineEdit()
        box.resize(200, 40)
        box.show()
        box.setFocus(Qt.OtherFocusReason)
        app.processEvents()
        del box  # the next window's focus change let go of it, inside Qt: it was deleted there
    print("all windows shown")
    """
)


def test_showing_windows_one_after_the_other_with_a_key_repeat_listening_does_not_crash():
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", _SCRIPT], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "all windows shown" in done.stdout
