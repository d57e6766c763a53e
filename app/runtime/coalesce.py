"""At most one request per event-loop pass: held keys and dragged sliders never queue work.

A key held down auto-repeats ~30 times a second; a slider dragged across a timeline emits a value per
mouse move. When one step takes longer than the repeat interval, Qt delivers the queued events one
after the other and the app overshoots by dozens of merges after the key is let go. A :class:`Latest`
runs the first request at once, then, until the event loop has had a pass (and painted), keeps only
the newest request; that one runs in the next pass. The count shown is always the truth: a dropped
request never happened. Deliberate presses are never dropped: Qt's shortcuts do not say whether the
key auto-repeats, so a :class:`KeyRepeat` watches the key events of the widget with the focus (and
of the window) and a request made while handling a first press runs at once (:meth:`Latest.run`).

The same holds for drawing: :func:`later` runs a pane's costly redraw in an event-loop pass of its own
(:class:`Passes`), so one event never draws every pane and chart at once.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
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


class Passes(QObject):
    """Callables run one per event-loop pass, oldest first, each once what was posted before it (a repaint,
    a scene's flush) has been delivered and the loop's timers have had their turn: a call's turn is a zero
    timer, started by an event posted after what the call before it (or the caller) posted; Qt runs timers
    only once no posted event waits.

    Why: a corpus installed in one slot redraws every pane, and a pyqtgraph chart's scene, when it
    flushes its changes, has Qt repaint the window there and then (the scene's dirty-item pass sends the
    window's pending update request at once). The install and two charts' flushes were one event-loop
    pass of three repaints (issue 9: the load's stall, up to 63 ms on wiki.valid.raw). Each chart draws
    a new corpus in a pass of its own instead.
    """

    _NEXT = QEvent.Type(QEvent.registerEventType())

    def __init__(self, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._queue: Dict[int, Tuple[QObject, Callable[[], Any]]] = {}
        self._scheduled = False  # a turn is on its way (posted, or its timer started)
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._on_timer_timeout)

    def later(self, owner: QObject, fn: Callable[[], Any]) -> None:
        """Run ``fn()`` in a pass of its own, after those waiting; ``owner``'s call still waiting is dropped
        (a newer one replaces it), and none runs once ``owner`` is deleted."""
        self._queue.pop(id(owner), None)
        self._queue[id(owner)] = (owner, fn)
        self._schedule()

    def waiting(self, owner: QObject) -> bool:
        return id(owner) in self._queue

    def forget(self, owner: QObject) -> bool:
        """Drop ``owner``'s waiting call (it drew meanwhile); False if none waited."""
        return self._queue.pop(id(owner), None) is not None

    @property
    def idle(self) -> bool:
        """No call waits (what was asked for is drawn)."""
        return not self._queue

    def flush(self) -> None:
        """Run every waiting call now, in order."""
        while self._queue:
            self._run_next()

    def event(self, event: QEvent) -> bool:
        if event.type() == self._NEXT:
            self._timer.start()
            return True
        return super().event(event)

    def _schedule(self) -> None:
        if self._queue and not self._scheduled:
            self._scheduled = True
            QCoreApplication.postEvent(self, QEvent(self._NEXT))

    def _on_timer_timeout(self) -> None:
        self._scheduled = False
        if self._queue:
            self._run_next()

    def _run_next(self) -> None:
        owner, fn = self._queue.pop(next(iter(self._queue)))
        try:
            if shiboken6.isValid(owner):
                fn()
        finally:  # the next turn is posted after what fn posted
            self._schedule()


_PASSES: Optional[Passes] = None


def passes() -> Passes:
    """The GUI thread's one :class:`Passes` (made with, and owned by, the application)."""
    global _PASSES
    if _PASSES is None or not shiboken6.isValid(_PASSES):
        _PASSES = Passes(QCoreApplication.instance())
    return _PASSES


def later(owner: QObject, fn: Callable[[], Any]) -> None:
    """:meth:`Passes.later` on the application's :func:`passes`."""
    passes().later(owner, fn)


def forget(owner: QObject) -> bool:
    """:meth:`Passes.forget` on the application's :func:`passes`."""
    return passes().forget(owner)
