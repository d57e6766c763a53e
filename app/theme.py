"""Colors, fonts and the presenter's high-contrast look, in one place.

Token chip colors live in :mod:`bpe_lens_app.chips`; this module holds everything else a pane paints with.
"""
from __future__ import annotations

from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QApplication, QHeaderView, QProxyStyle, QStyle, QStyleFactory, QStyleOptionHeader

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


class SortArrowStyle(QProxyStyle):
    """A style whose header sort arrows that point the way the rows run: ▲ ascending (a → z,
    small → large), ▼ descending. Fusion draws Qt's ascending order as ▼ (the old Windows
    convention), so the words table, sorted by descending frequency, showed ▲."""

    def drawPrimitive(self, element, option, painter, widget=None) -> None:
        if element == QStyle.PE_IndicatorHeaderArrow and isinstance(option, QStyleOptionHeader):
            flipped = QStyleOptionHeader(option)
            if option.sortIndicator == QStyleOptionHeader.SortUp:
                flipped.sortIndicator = QStyleOptionHeader.SortDown
            elif option.sortIndicator == QStyleOptionHeader.SortDown:
                flipped.sortIndicator = QStyleOptionHeader.SortUp
            option = flipped
        super().drawPrimitive(element, option, painter, widget)


_SORT_STYLES: dict = {}


def sort_arrows_follow_order(header: QHeaderView) -> None:
    """Give a sortable table's header :class:`SortArrowStyle` (only the header: a Python style
    hook on every widget would be called for every table cell painted)."""
    base = QApplication.style().name() or "Fusion"
    style = _SORT_STYLES.get(base)
    if style is None:  # kept alive here: a widget does not own the style it is given
        style = _SORT_STYLES[base] = SortArrowStyle(QStyleFactory.create(base))
    header.setStyle(style)


def apply_app_theme(app: QApplication) -> None:
    app.setStyle("Fusion")


def font_with_size(font: QFont, point_size: float, *, bold: bool = False) -> QFont:
    out = QFont(font)
    out.setPointSizeF(point_size)
    out.setBold(bold)
    return out


def change_app_font_size(delta: int) -> int:
    """Make every widget's font ``delta`` points larger (Ctrl +/-); returns the new size."""
    return set_app_font_size(round(QApplication.instance().font().pointSizeF()) + delta)


def set_app_font_size(points: int) -> int:
    """Give every widget a ``points``-sized font (clamped to a readable range); returns the size."""
    app = QApplication.instance()
    font = app.font()
    size = max(MIN_POINT_SIZE, min(MAX_POINT_SIZE, points))
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
