"""The window's layout across runs: geometry, dock state and every named splitter, in QSettings."""
from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMainWindow, QSplitter


def restore_layout(window: QMainWindow, settings: QSettings) -> None:
    geometry = settings.value("window/geometry")
    if geometry is not None:
        window.restoreGeometry(geometry)
        window.restoreState(settings.value("window/state"))
    for splitter in window.findChildren(QSplitter):
        state = settings.value(f"window/{splitter.objectName()}")
        if state is not None and splitter.objectName():
            splitter.restoreState(state)


def save_layout(window: QMainWindow, settings: QSettings) -> None:
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", window.saveState())
    for splitter in window.findChildren(QSplitter):
        if splitter.objectName():
            settings.setValue(f"window/{splitter.objectName()}", splitter.saveState())
