"""The docks on the window's right side fit the screen: a dock that would stack the side taller than the
screen's free area joins a dock already there as a tab instead.

Qt stacks the docks of one area, so the window's minimum height is the sum of theirs (the ties dock and "Why
this split" together need 838 px with the menus), and a window whose minimum is taller than the screen grows
past it: at 1280×720 its title bar and bottom leave the screen, and stay off it at the next start. Docks
tabbed together need only the tallest one's height. Where the screen has the room, docks stack as before.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow

from .layout_state import frame_margins, free_area


def add_side_dock(window: QMainWindow, dock: QDockWidget) -> None:
    """Put ``dock`` on the window's right side; each time it is shown, it is fitted (see the module doc)."""
    window.addDockWidget(Qt.RightDockWidgetArea, dock)
    dock.visibilityChanged.connect(lambda shown: QTimer.singleShot(0, lambda: fit_side_dock(window, dock))
                                   if shown else None)


def fit_side_dock(window: QMainWindow, dock: QDockWidget) -> None:
    """Tab ``dock`` with another shown dock of the right side when the window no longer fits the screen."""
    if not dock.isVisible() or dock.isFloating():
        return
    margins = frame_margins(window)
    room = free_area(window).height() - margins.top() - margins.bottom()
    if window.minimumSizeHint().height() <= room:
        return
    tabbed = set(window.tabifiedDockWidgets(dock))
    beside = [d for d in window.findChildren(QDockWidget) if d is not dock and d.isVisible() and not d.isFloating()
              and d not in tabbed and window.dockWidgetArea(d) == Qt.RightDockWidgetArea]
    if beside:
        window.tabifyDockWidget(beside[0], dock)
        QTimer.singleShot(0, lambda: back_inside(window, dock, room))  # once the layout has the tabs


def back_inside(window: QMainWindow, dock: QDockWidget, room: int) -> None:
    """Bring ``dock`` (just asked for) to the front of its tabs, and shrink a window the stacked docks made
    taller than ``room`` back to it (not below its minimum)."""
    dock.raise_()
    if window.height() > room and not window.isMaximized() and not window.isFullScreen():
        window.resize(window.width(), max(room, window.minimumSizeHint().height()))
