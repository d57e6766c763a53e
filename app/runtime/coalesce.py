"""Throttled and debounced calls on the GUI thread, so held keys and dragged sliders never queue work.

A key held down auto-repeats about 30 times a second, and a slider dragged across the timeline emits a
value at every mouse move. If one step takes longer than the repeat interval, Qt keeps delivering the
queued events one after the other, and the app runs on for dozens of merges after the key is let go.

:class:`Throttled` stops that. It is a throttle in the sense of superqt's ``qthrottled`` (leading
edge, latest arguments kept), whose time window is one pass of the event loop rather than a number
of milliseconds: the first call runs at once; until the event loop has had a pass (and painted), later
calls only replace the one waiting; when the pass is over, the waiting call runs. A replaced call
never happened, so the merge number shown is always the truth.

A deliberate key press must never be dropped, but Qt's shortcuts do not say whether their key event is
an auto-repeat. :class:`KeyRepeat` watches the key events of the focus widget and of the window and
says so, and a press that is not a repeat runs at once (:meth:`Throttled.call_now`).

:class:`PassQueue` does the same for drawing: each pane's costly redraw is debounced (superqt's
``qdebounced``, trailing edge: a newer request replaces the waiting one) and the waiting redraws run
one per event-loop pass, so a single event never redraws every pane and chart at once.
:func:`later` and :func:`forget` use the application's queue.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QWidget


class Throttled(QObject):
    """At most one call per event-loop pass: :meth:`call` runs ``fn(*args)`` now if no call ran in this pass,
    else keeps it as the waiting call (replacing any call waiting before it), to run once the pass is over.

    ``dropped`` counts the calls replaced before they ran (tests and benches read it).
    """

    def __init__(self, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._pending: Optional[Tuple[Callable[..., Any], tuple]] = None
        self._pass = QTimer(self, singleShot=True, interval=0)  # fires once the loop has had its pass
        self._pass.timeout.connect(self._on_pass_timeout)
        self.dropped = 0  # requests replaced by a newer one (for tests and benches)

    def call(self, fn: Callable[..., Any], *args: Any) -> None:
        """Call ``fn(*args)`` now, or after this pass (replacing the waiting call) if a call ran in it."""
        if self._pass.isActive():
            if self._pending is not None:
                self.dropped += 1
            self._pending = (fn, args)
            return
        self._pass.start()
        fn(*args)

    def call_now(self, fn: Callable[..., Any], *args: Any) -> None:
        """Call ``fn(*args)`` now, whatever ran in this pass, dropping the waiting call: a deliberate request
        (a key pressed, not auto-repeated)."""
        if self._pending is not None:
            self._pending = None
            self.dropped += 1
        self._pass.start()
        fn(*args)

    def flush(self) -> None:
        """Run the waiting call now (if there is one)."""
        self._pass.stop()
        self._on_pass_timeout()

    def _on_pass_timeout(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            self._pass.start()
            pending[0](*pending[1])


class KeyRepeat(QObject):
    """Whether the key event being handled is an auto-repeat (:attr:`active`), for shortcuts' slots.

    Key events, and the ShortcutOverride event Qt sends before a shortcut fires, go to the widget with the
    focus, else to the window. Only those two are watched (an event filter on each), not the whole
    application, so other events cost nothing.

    It keeps no reference to the focus widget: Qt names the widget losing the focus (``old``) and the
    filter comes off that one. A reference kept here was the last one to a window nobody else held (a
    parentless view or box, dropped by its maker); letting go of it in this slot deleted that window in
    the middle of Qt's focus-window change, and Qt then used the deleted window (a segfault).
    """

    def __init__(self, window: Optional[QWidget] = None, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.active = False
        if window is not None:
            window.installEventFilter(self)
        app = QApplication.instance()
        if app is not None:
            app.focusChanged.connect(self._on_app_focus_changed)
            self._on_app_focus_changed(None, app.focusWidget())

    def _on_app_focus_changed(self, old: Optional[QWidget], new: Optional[QWidget]) -> None:
        if old is not None:
            try:
                old.removeEventFilter(self)
            except RuntimeError:  # already deleted
                pass
        if new is not None:
            new.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.ShortcutOverride, QEvent.KeyPress, QEvent.KeyRelease):
            self.active = event.isAutoRepeat()
            if event.type() == QEvent.ShortcutOverride and _edits(watched, event):
                event.accept()  # the key goes to the input, not to a window shortcut (Home: Reset)
        return False


_COMBO_KEYS = {Qt.Key_Home, Qt.Key_End, Qt.Key_Up, Qt.Key_Down, Qt.Key_PageUp, Qt.Key_PageDown, Qt.Key_Space}


def _edits(widget: QObject, event: QEvent) -> bool:
    """Whether the focused ``widget`` uses this key itself: a combo box moves its choice with Home, End, the
    arrows and pages (Space opens it), a spin box steps with Up, Down and pages. A line edit, and the one
    inside a spin box or an editable combo, already claims its editing keys."""
    if event.modifiers() & ~Qt.KeypadModifier:
        return False
    if isinstance(widget, QComboBox) and not widget.isEditable():
        return event.key() in _COMBO_KEYS
    if isinstance(widget, QAbstractSpinBox):
        return event.key() in (Qt.Key_Up, Qt.Key_Down, Qt.Key_PageUp, Qt.Key_PageDown)
    return False


class PassQueue(QObject):
    """Debounced calls, one per owner, run one per event-loop pass, oldest first.

    :meth:`later` queues an owner's call; a newer call of the same owner replaces the one waiting (as
    superqt's ``qdebounced`` keeps only the last call). Each call runs in an event-loop pass of its own,
    after everything posted before it (a repaint, a chart scene's flush) has been delivered and the
    loop's timers have had their turn. How: a call's turn is a zero-interval timer, started by an event
    that is posted after whatever the previous call (or the caller) posted, and Qt runs timers only once
    no posted event is waiting.

    Why: installing a corpus redraws every pane, and a pyqtgraph chart's scene, when it flushes its
    changes, makes Qt repaint the window there and then. The install and two charts' flushes used to be
    one event-loop pass with three repaints (issue 9: the load stalled up to 63 ms on wiki.valid.raw).
    Now each chart draws the new corpus in a pass of its own.
    """

    _NEXT = QEvent.Type(QEvent.registerEventType())

    def __init__(self, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._queue: Dict[int, Tuple[QObject, Callable[[], Any]]] = {}
        self._scheduled = False  # a turn is on its way (posted, or its timer started)
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._on_timer_timeout)

    def later(self, owner: QObject, fn: Callable[[], Any]) -> None:
        """Run ``fn()`` in a pass of its own, after the calls already waiting. A call of ``owner`` that is still
        waiting is dropped (the newer one replaces it), and nothing runs once ``owner`` is deleted."""
        self._queue.pop(id(owner), None)
        self._queue[id(owner)] = (owner, fn)
        self._schedule()

    def waiting(self, owner: QObject) -> bool:
        """Whether a call of ``owner`` is waiting."""
        return id(owner) in self._queue

    def forget(self, owner: QObject) -> bool:
        """Drop ``owner``'s waiting call (it has drawn meanwhile); False if none was waiting."""
        return self._queue.pop(id(owner), None) is not None

    @property
    def idle(self) -> bool:
        """Whether no call is waiting (everything asked for has been drawn)."""
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
        finally:  # the next turn is posted after whatever fn posted
            self._schedule()


_PASS_QUEUE: Optional[PassQueue] = None


def pass_queue() -> PassQueue:
    """The GUI thread's one :class:`PassQueue` (made on first use, owned by the application)."""
    global _PASS_QUEUE
    if _PASS_QUEUE is None or not shiboken6.isValid(_PASS_QUEUE):
        _PASS_QUEUE = PassQueue(QCoreApplication.instance())
    return _PASS_QUEUE


def later(owner: QObject, fn: Callable[[], Any]) -> None:
    """:meth:`PassQueue.later` on the application's :func:`pass_queue`."""
    pass_queue().later(owner, fn)


def forget(owner: QObject) -> bool:
    """:meth:`PassQueue.forget` on the application's :func:`pass_queue`."""
    return pass_queue().forget(owner)
