"""At most one request per event-loop pass: held keys and dragged sliders never queue work.

A key held down auto-repeats ~30 times a second; a slider dragged across a timeline emits a value per
mouse move. When one step takes longer than the repeat interval, Qt delivers the queued events one
after the other and the app overshoots by dozens of merges after the key is let go. A :class:`Latest`
runs the first request at once, then, until the event loop has had a pass (and painted), keeps only
the newest request; that one runs in the next pass. The count shown is always the truth: a dropped
request never happened. Deliberate presses are never dropped: Qt's shortcuts do not say whether the
key auto-repeats, so a :class:`KeyRepeat` watches the key events of the widget with the focus (and
of the window) and a request made while handling a first press runs at once (:meth:`Latest.run`).
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget


class Latest(QObject):
    """Call ``fn(*args)`` now, or (while the last call's pass is not over) replace the pending call."""

    def __init__(self, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._pending: Optional[Tuple[Callable[..., Any], tuple]] = None
        self._pass = QTimer(self, singleShot=True, interval=0)  # fires once the loop had its pass
        self._pass.timeout.connect(self._on_pass_timeout)
        self.dropped = 0  # requests replaced by a newer one (for tests and benches)

    def call(self, fn: Callable[..., Any], *args: Any) -> None:
        if self._pass.isActive():
            if self._pending is not None:
                self.dropped += 1
            self._pending = (fn, args)
            return
        self._pass.start()
        fn(*args)

    def run(self, fn: Callable[..., Any], *args: Any) -> None:
        """Call now, whatever is pending (which is dropped): a deliberate request."""
        if self._pending is not None:
            self._pending = None
            self.dropped += 1
        self._pass.start()
        fn(*args)

    def flush(self) -> None:
        """Run the pending call now (if any)."""
        self._pass.stop()
        self._on_pass_timeout()

    def _on_pass_timeout(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            self._pass.start()
            pending[0](*pending[1])


class KeyRepeat(QObject):
    """Whether the key event being handled auto-repeats (:attr:`active`), for shortcuts' slots.

    Key events (and the ShortcutOverride Qt sends before a shortcut fires) go to the focus widget,
    else to the window: only those two are watched, not the whole application, so other events
    pay nothing.
    """

    def __init__(self, window: Optional[QWidget] = None, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.active = False
        self._focus: Optional[QWidget] = None
        if window is not None:
            window.installEventFilter(self)
        app = QApplication.instance()
        if app is not None:
            app.focusChanged.connect(self._on_app_focus_changed)
            self._on_app_focus_changed(None, app.focusWidget())

    def _on_app_focus_changed(self, old: Optional[QWidget], new: Optional[QWidget]) -> None:
        if self._focus is not None:
            try:
                self._focus.removeEventFilter(self)
            except RuntimeError:  # already deleted
                pass
        self._focus = new
        if new is not None:
            new.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.ShortcutOverride, QEvent.KeyPress, QEvent.KeyRelease):
            self.active = event.isAutoRepeat()
        return False
