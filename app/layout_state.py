"""The window's layout across runs (geometry, dock state and every named splitter, in QSettings), and its
place on the screen: the first window is sized from the screen's free area, a remembered one is kept
inside it (an earlier run may have been on a larger screen), and both are checked again once the window
manager has framed the window (its title bar and borders are known only then)."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QMargins, QObject, QRect, QSettings, QSize, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

#: the first window's size when the screen has room for it
PREFERRED = QSize(1440, 900)
#: room kept for a title bar and borders while the window manager has not framed the window yet
FRAME_GUESS = QMargins(8, 40, 8, 8)
#: how long after showing the window a late frame (a window manager's title bar) is waited for (ms)
FRAME_WAIT_MS = 3000


def restore_layout(window: QMainWindow, settings: QSettings) -> bool:
    """Restore the remembered layout; True when a window geometry was remembered (it is then kept
    inside the screen's free area, whatever screen it was saved on)."""
    geometry = settings.value("window/geometry")
    restored = geometry is not None and window.restoreGeometry(geometry)
    if geometry is not None:
        window.restoreState(settings.value("window/state"))
    for splitter in window.findChildren(QSplitter):
        state = settings.value(f"window/{splitter.objectName()}")
        if state is not None and splitter.objectName():
            splitter.restoreState(state)
    if restored and not (window.isMaximized() or window.isFullScreen()):  # (those fit the screen already)
        fit_to_screen(window, window.size())
    return bool(restored)


def save_layout(window: QMainWindow, settings: QSettings) -> None:
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", window.saveState())
    for splitter in window.findChildren(QSplitter):
        if splitter.objectName():
            settings.setValue(f"window/{splitter.objectName()}", splitter.saveState())


def frame_margins(window: QWidget) -> QMargins:
    """The window's frame (title bar, borders) once the window manager has drawn it, else a guess."""
    frame, inner = window.frameGeometry(), window.geometry()
    if window.isVisible() and frame != inner:
        return QMargins(inner.left() - frame.left(), inner.top() - frame.top(),
                        frame.right() - inner.right(), frame.bottom() - inner.bottom())
    return FRAME_GUESS


def free_area(window: QWidget) -> QRect:
    """The free area (without panels and docks) of the screen the window is on, or will be on."""
    screen = QGuiApplication.screenAt(window.geometry().center()) if window.isVisible() else None
    screen = screen or window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fit_to_screen(window: QWidget, size: QSize = PREFERRED) -> None:
    """Give the window ``size``, made small enough that it and its frame fit the screen's free area,
    and move it inside that area (centred when it had to move)."""
    area, margins = free_area(window), frame_margins(window)
    room = area.size().shrunkBy(margins)
    window.resize(size.boundedTo(room).expandedTo(QSize(1, 1)))
    frame = QRect(window.pos(), window.size().grownBy(margins))
    if not area.contains(frame):
        left = area.left() + max(0, (area.width() - frame.width()) // 2)
        top = area.top() + max(0, (area.height() - frame.height()) // 2)
        window.move(left, top)


class _FrameWatch(QObject):
    """Fits the window to the screen again once its frame is known (the window manager frames a
    window after it is shown), then leaves; gives up after :data:`FRAME_WAIT_MS`."""

    def __init__(self, window: QWidget, size: QSize) -> None:
        super().__init__(window)
        self.window, self.size = window, size
        self.shown_size = None  # its size when shown: a size set by anyone afterwards is theirs, left alone
        self.done = False
        window.installEventFilter(self)
        QTimer.singleShot(FRAME_WAIT_MS, self.stop)
        QTimer.singleShot(0, self.check)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Show and self.shown_size is None:
            self.shown_size = self.window.size()
        if event.type() in (QEvent.Move, QEvent.Resize, QEvent.Show):
            QTimer.singleShot(0, self.check)
        return False

    def check(self) -> None:
        w = self.window
        if self.done or not w.isVisible() or w.frameGeometry() == w.geometry():
            return  # not framed yet
        if w.size() == self.shown_size and not w.isMaximized() and not w.isFullScreen():
            fit_to_screen(w, self.size)
        self.stop()

    def stop(self) -> None:
        if not self.done:
            self.done = True
            self.window.removeEventFilter(self)
            self.deleteLater()


def place_window(window: QMainWindow, restored: bool) -> None:
    """Before the window is first shown: its size from the screen (or the remembered one, already
    fitted by :func:`restore_layout`); after it is shown, fitted again with its real frame."""
    if not restored:
        fit_to_screen(window, PREFERRED)
    _FrameWatch(window, PREFERRED if not restored else window.size())
