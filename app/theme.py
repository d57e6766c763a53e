"""Colors, fonts and the presenter's high-contrast look, in one place.

Token chip colors live in :mod:`app.chips`; this module holds everything else a pane paints with.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QApplication, QLabel, QSizePolicy, QWidget

#: the next merge (pair chart) and the merge that just fired (banner, flashes)
ACCENT = QColor("#d9480f")
#: ordinary bars and curves
BAR = QColor("#4c6ef5")
CURVES = (QColor("#1c7ed6"), QColor("#2b8a3e"), QColor("#ae3ec9"), QColor("#e67700"))
#: rows the last merge changed (words pane, merges table current row)
CHANGED_ROW = QColor("#fff3bf")
#: outline drawn around chips a merge just created (~300 ms)
FLASH = QColor("#f03e3e")
FLASH_MS = 300
#: text of rows that are known but not applied (the undone part of the timeline)
FUTURE_TEXT = QColor("#9aa0a6")

PRESENTER_POINT_SIZE = 22
PRESENTER_BG = "#000000"
PRESENTER_FG = "#ffffff"
PRESENTER_ACCENT = "#ffd43b"

MIN_POINT_SIZE, MAX_POINT_SIZE = 7, 32


def configure_pyqtgraph() -> None:
    """Global pyqtgraph options; call once, before any plot is created (``main()``)."""
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True, background="w", foreground="#212529")


def apply_app_theme(app: QApplication) -> None:
    app.setStyle("Fusion")


def font_with_size(font: QFont, point_size: float, *, bold: bool = False) -> QFont:
    out = QFont(font)
    out.setPointSizeF(point_size)
    out.setBold(bold)
    return out


def change_app_font_size(delta: int) -> int:
    """Make every widget's font ``delta`` points larger (Ctrl +/-); returns the new size."""
    app = QApplication.instance()
    font = app.font()
    size = max(MIN_POINT_SIZE, min(MAX_POINT_SIZE, round(font.pointSizeF()) + delta))
    font.setPointSizeF(size)
    app.setFont(font)
    return size


def presenter_stylesheet(point_size: int = PRESENTER_POINT_SIZE) -> str:
    """High contrast for a projector: white on black, yellow accents, large type."""
    return f"""
        QWidget#presenter, QWidget#presenter QWidget {{
            background: {PRESENTER_BG}; color: {PRESENTER_FG}; font-size: {point_size}pt;
        }}
        QWidget#presenter QLabel#banner {{
            color: {PRESENTER_ACCENT}; font-size: {round(point_size * 1.5)}pt; font-weight: bold;
        }}
        QWidget#presenter QToolButton, QWidget#presenter QPushButton {{
            background: #222; color: {PRESENTER_FG}; border: 2px solid {PRESENTER_FG};
            border-radius: 6px; padding: 4px 10px;
        }}
        QWidget#presenter QToolButton:checked {{ background: {PRESENTER_ACCENT}; color: #000; }}
    """


class LiveLabel(QWidget):
    """A one-line label whose text changes every step without re-laying out the window.

    A QLabel calls ``updateGeometry()`` on every ``setText``; unless the label has a fixed width
    *and* height, that invalidates its layout and every layout above it, up to the window: a
    QTabWidget answers that by repainting all of itself (measured: the whole main window,
    ~5 ms, on every step). Here the QLabel (``.label``, which keeps the object name, so style
    sheets such as ``QLabel#banner`` apply) sits in a holder without a layout: its geometry
    requests stop at the holder, which passes one on only when the label's height changes (a
    style sheet or a new font). The holder's width is fixed when ``min_text`` is given (room
    for a typical text), else it takes what its layout gives it.
    """

    def __init__(self, parent: QWidget | None = None, text: str = "", *, object_name: str = "",
                 min_text: str = "") -> None:
        super().__init__(parent)
        self.label = QLabel(text, self)
        if object_name:
            self.setObjectName(f"{object_name}_holder")
            self.label.setObjectName(object_name)
        self._min_text = min_text
        self._height = 0
        self.setSizePolicy(QSizePolicy.Fixed if min_text else QSizePolicy.Ignored, QSizePolicy.Fixed)
        self._fit()

    # the QLabel API the panes use
    def setText(self, text: str) -> None:
        if text != self.label.text():
            self.label.setText(text)

    def text(self) -> str:
        return self.label.text()

    def setAlignment(self, alignment) -> None:
        self.label.setAlignment(alignment)

    def setTextFormat(self, fmt) -> None:
        self.label.setTextFormat(fmt)

    # geometry
    def _fit(self) -> None:
        self._height = self.label.sizeHint().height()
        if self._min_text:
            self.setFixedWidth(self.label.fontMetrics().horizontalAdvance(self._min_text) + 8)
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        width = self.label.fontMetrics().horizontalAdvance(self._min_text or self.label.text()) + 8
        return QSize(width, self._height)

    def minimumSizeHint(self) -> QSize:
        return QSize(self.width() if self._min_text else 0, self._height)

    def resizeEvent(self, event) -> None:
        self.label.setGeometry(self.rect())

    def event(self, event) -> bool:
        # the label's geometry requests end here (no layout); only a new height goes on
        if event.type() in (QEvent.LayoutRequest, QEvent.FontChange, QEvent.StyleChange, QEvent.Polish):
            if self.label.sizeHint().height() != self._height or event.type() == QEvent.FontChange:
                self._fit()
        return super().event(event)


def live_label(parent: QWidget, text: str = "", *, object_name: str = "", min_text: str = "",
               font: QFont | None = None) -> LiveLabel:
    """A :class:`LiveLabel` (``font`` set on it)."""
    label = LiveLabel(parent, text, object_name=object_name, min_text=min_text)
    if font is not None:
        label.setFont(font)
    return label
