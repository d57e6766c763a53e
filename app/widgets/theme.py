"""Colors, fonts and the presenter's high-contrast look, in one place.

Token chip colors live in :mod:`bpe_lens_app.widgets.chip_colors` (chips bring their own light
background and dark text, so they read the same on any palette). Everything else a pane paints
with comes from the system palette through the helpers here, so a dark desktop gives dark
charts with light text, and highlights that keep the palette's text readable. The constants
are the base hues; the helpers adjust them to the palette (:func:`readable_on`).
"""
from __future__ import annotations

import math
import re
import zlib

from typing import Optional, Tuple

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QHeaderView, QProxyStyle, QStyle, QStyleFactory, QStyleOptionHeader

#: the next merge (pair chart) and the merge that just fired (banner, flashes)
ACCENT = QColor("#d9480f")
#: ordinary bars and curves
BAR = QColor("#4c6ef5")
#: the outline of bars tied with the top count (pair chart)
TIE = QColor("#212529")
CURVES = (QColor("#1c7ed6"), QColor("#2b8a3e"), QColor("#ae3ec9"), QColor("#e67700"))
#: more curves than CURVES (a chart of one curve per script: up to a dozen), each its own hue; any two of the
#: first eight far apart on a light and a dark chart (CIEDE2000 difference 20 or more once made readable: the
#: accent's red-orange beside the orange was 12, too close to tell apart), the rest as unlike them as can be
MANY_CURVES = (*CURVES, QColor("#1098ad"), QColor("#e03131"), QColor("#f783ac"), QColor("#ffd43b"),
               QColor("#5f3dc4"), QColor("#74b816"), QColor("#868e96"), QColor("#8d5524"))
#: one colour per run, the n-th for run rN, in every chart that draws runs (the Variants tab, Measures)
RUN_COLORS = MANY_CURVES[:8]
#: the hue of rows the last merge changed (words pane, merges table current row), mixed into the base
CHANGED_TINT = QColor("#fab005")
CHANGED_TINT_AMOUNT = 0.25
#: how long the chips a merge just created stay marked
FLASH_MS = 300
#: a pane makes the next merge's chips this long after a step is shown (the user reads it; a held key's next
#: step comes sooner and the pane makes nothing ahead)
WARM_MS = 40
#: error messages (settings dialog)
ERROR = QColor("#c92a2a")
#: graphics (bars, curves) keep at least this contrast with the chart background (WCAG: 3:1)
MIN_GRAPHIC_CONTRAST = 3.0


# --------------------------------------------------------------------------- palette helpers
def luminance(color: QColor) -> float:
    """WCAG relative luminance (0 black .. 1 white)."""
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colors, 1..21 (body text wants >= 4.5).

    >>> round(contrast_ratio(QColor("white"), QColor("black")))
    21
    """
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` toward ``b`` (in sRGB)."""
    return QColor.fromRgbF(*(x + (y - x) * t for x, y in zip(a.getRgbF()[:3], b.getRgbF()[:3])))


def app_palette() -> QPalette:
    return QGuiApplication.palette()


def is_dark(palette: Optional[QPalette] = None) -> bool:
    """True when the palette draws light text on a dark base (a dark desktop theme)."""
    palette = palette or app_palette()
    return luminance(palette.color(QPalette.Base)) < luminance(palette.color(QPalette.Text))


def readable_on(color: QColor, background: QColor, minimum: float = MIN_GRAPHIC_CONTRAST) -> QColor:
    """``color``, lightened on a dark background (darkened on a light one) until it stands out."""
    out = QColor(color)
    dark = luminance(background) < 0.18
    for _ in range(12):
        if contrast_ratio(out, background) >= minimum:
            break
        out = out.lighter(115) if dark else out.darker(115)
    return out


_CACHE: dict = {}


def _cached(name: str, palette: Optional[QPalette], make) -> QColor:
    """One color per palette (``cacheKey``): table models ask for them from ``data()``."""
    palette = palette or app_palette()
    key = (name, palette.cacheKey())
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        hit = _CACHE[key] = make(palette)
    return hit


def changed_row_color(palette: Optional[QPalette] = None) -> QColor:
    """Background of rows the last merge changed: the base tinted warm (pale yellow on a light
    palette, dark amber on a dark one), so the palette's text stays readable on it."""
    return _cached("changed", palette, lambda p: mix(p.color(QPalette.Base), CHANGED_TINT, CHANGED_TINT_AMOUNT))


def future_text_color(palette: Optional[QPalette] = None) -> QColor:
    """Text of rows that are known but not applied (the undone part of the timeline): greyed."""
    return _cached("future", palette, lambda p: mix(p.color(QPalette.Text), p.color(QPalette.Base), 0.45))


def error_text_color(palette: Optional[QPalette] = None) -> QColor:
    """Red for an error message, as readable as text on the palette's window."""
    palette = palette or app_palette()
    return readable_on(ERROR, palette.color(QPalette.Window), 4.5)


def edge_color(palette: Optional[QPalette] = None) -> QColor:
    """Lines that connect things (the merge tree's edges): halfway between text and base."""
    palette = palette or app_palette()
    return mix(palette.color(QPalette.Text), palette.color(QPalette.Base), 0.5)


def chart_colors(palette: Optional[QPalette] = None) -> Tuple[QColor, QColor]:
    """(background, foreground) of a chart: the palette's base and text."""
    palette = palette or app_palette()
    return QColor(palette.color(QPalette.Base)), QColor(palette.color(QPalette.Text))


def graphic_color(color: QColor, palette: Optional[QPalette] = None) -> QColor:
    """A bar or curve color adjusted to stand out on the chart background of ``palette``."""
    return readable_on(color, chart_colors(palette)[0])


def run_slot(run_id: str) -> int:
    """Where run ``run_id``'s colour is: n - 1 for rN (r1 the first of :data:`RUN_COLORS`), counting on past
    the palette's end (a caller may dash the lines of a second round); an id of another form a fixed place of
    its own.

    >>> run_slot("r1"), run_slot("r12")
    (0, 11)
    """
    m = re.fullmatch(r"[A-Za-z]*([0-9]+)", run_id.strip())
    if m and int(m.group(1)) > 0:
        return int(m.group(1)) - 1
    return zlib.crc32(run_id.encode("utf-8"))


def run_color(run_id: str, palette: Optional[QPalette] = None) -> QColor:
    """Run ``run_id``'s colour on a chart of ``palette``: a function of the run alone, so every chart gives a run
    the same colour, whatever else is open and in whatever order the runs were opened or restored."""
    return graphic_color(RUN_COLORS[run_slot(run_id) % len(RUN_COLORS)], palette)


def style_plot(plot_widget, plot_item, palette: Optional[QPalette] = None) -> None:
    """Give a pyqtgraph plot the palette's chart colors: background, axis lines and labels, title.

    Called when a chart is made and when its palette changes (a live switch to a dark theme).
    """
    import pyqtgraph as pg

    background, foreground = chart_colors(palette)
    plot_widget.setBackground(background)
    for name in ("left", "right", "bottom", "top"):
        axis = plot_item.getAxis(name)
        axis.setPen(pg.mkPen(foreground))
        axis.setTextPen(pg.mkPen(foreground))
    title = plot_item.titleLabel
    if title.text:
        title.setText(title.text, color=foreground)


class _PaletteFollower(QObject):
    """Restyles one chart when its widget's palette changes (see :func:`follow_palette`)."""

    def __init__(self, plot_widget, plot_item) -> None:
        super().__init__(plot_widget)
        self.plot_item = plot_item

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.PaletteChange:
            style_plot(obj, self.plot_item, obj.palette())
        return False


def follow_palette(plot_widget, plot_item) -> None:
    """:func:`style_plot` now, and again whenever the widget's palette changes (View → Theme, a
    desktop switching to dark): for charts whose pane has no palette hook of its own."""
    style_plot(plot_widget, plot_item)
    plot_widget.installEventFilter(_PaletteFollower(plot_widget, plot_item))


#: the presenter's type before it knows its screen (:func:`presenter_point_size` then)
PRESENTER_POINT_SIZE = 22
#: screen lines (logical pixels) per point of the presenter's type, and screen columns per point: the
#: type is a fixed share of the screen (20 pt on 720 lines, 30 pt on 1080, 60 pt on 2160; a 4:3
#: screen by its width, so that one row of controls fits)
PRESENTER_LINES_PER_POINT, PRESENTER_COLUMNS_PER_POINT = 38, 51
PRESENTER_BG = "#000000"
PRESENTER_FG = "#ffffff"
PRESENTER_ACCENT = "#ffd43b"
PRESENTER_BAR = "#74c0fc"

MIN_POINT_SIZE, MAX_POINT_SIZE = 7, 32


def configure_pyqtgraph() -> None:
    """Global pyqtgraph options; call once, before any plot is created (``main()``).

    No global colors: each chart takes its background and foreground from its palette
    (:func:`style_plot`), so a dark desktop gives dark charts.
    """
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True)


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


def bold_font() -> QFont:
    """A font that sets only the weight: family and size still come from the parent (so the
    widget follows Ctrl +/-, which a full copy of a font would freeze)."""
    font = QFont()
    font.setBold(True)
    return font


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


def presenter_point_size(width: int, height: int) -> int:
    """The presenter's type on a screen of ``width`` x ``height`` logical pixels: a fixed share of the
    screen, so a room sees the same picture on a 720-line projector and a 4K one (the banner, 1.6x
    the type, is then 5.6 % of the screen's height: :func:`presenter_banner_size`)."""
    return max(8, round(min(height / PRESENTER_LINES_PER_POINT, width / PRESENTER_COLUMNS_PER_POINT)))


def presenter_banner_size(point_size: int, height: int, dpi: float = 96.0) -> int:
    """The banner's points: 1.6x the type, and at least 5.3 % of the screen's ``height`` (a narrow screen,
    whose type its width limits, still shows the merge large; a long banner is elided)."""
    return max(round(point_size * 1.6), math.ceil(0.053 * height * 72 / dpi))


def presenter_stylesheet(point_size: int = PRESENTER_POINT_SIZE, banner_size: int = 0) -> str:
    """High contrast for a projector: white on black, yellow accents, large type.

    Secondary controls (``Words…``, ``Esc``, the typing hint) are smaller than the stepping ones, so
    one row of controls fits a 1024-pixel projector; the encode box wears a yellow frame while it has
    the keyboard (then Space types instead of stepping). Borders, padding and the scroll bars (dark:
    a native light bar glares inside the black boxes) grow with the type. The banner is ``banner_size``
    (default: 1.6x the type).
    """
    banner_size = banner_size or round(point_size * 1.6)
    small = round(point_size * 0.7)
    pad_y, pad_x, line = max(2, point_size // 10), max(8, point_size * 2 // 5), max(2, point_size // 10)
    bar = max(12, point_size * 3 // 5)
    return f"""
        QWidget#presenter, QWidget#presenter QWidget {{
            background: {PRESENTER_BG}; color: {PRESENTER_FG}; font-size: {point_size}pt;
        }}
        QWidget#presenter QLabel#banner {{
            color: {PRESENTER_ACCENT}; font-size: {banner_size}pt; font-weight: bold;
        }}
        QWidget#presenter QToolButton, QWidget#presenter QPushButton {{
            background: #222; color: {PRESENTER_FG}; border: {line}px solid {PRESENTER_FG};
            border-radius: {3 * line}px; padding: {pad_y}px {pad_x}px;
        }}
        QWidget#presenter QPushButton, QWidget#presenter QLabel#focus_hint,
        QWidget#presenter QLabel#words_note {{ font-size: {small}pt; }}
        QWidget#presenter QLabel#focus_hint {{ color: {PRESENTER_ACCENT}; }}
        QWidget#presenter QLabel#words_note {{ color: {PRESENTER_ACCENT}; background: #222; padding: {pad_y}px; }}
        QWidget#presenter QToolButton:checked {{ background: {PRESENTER_ACCENT}; color: #000; }}
        QWidget#presenter QPlainTextEdit {{ border: 2px solid #444; }}
        QWidget#presenter QPlainTextEdit:focus {{ border: 3px solid {PRESENTER_ACCENT}; }}
        QWidget#presenter QScrollBar {{ background: #111; border: none; margin: 0; }}
        QWidget#presenter QScrollBar:vertical {{ width: {bar}px; }}
        QWidget#presenter QScrollBar:horizontal {{ height: {bar}px; }}
        QWidget#presenter QScrollBar::handle {{ background: #555; border-radius: {bar // 3}px; margin: 2px; }}
        QWidget#presenter QScrollBar::handle:vertical {{ min-height: {2 * bar}px; }}
        QWidget#presenter QScrollBar::handle:horizontal {{ min-width: {2 * bar}px; }}
        QWidget#presenter QScrollBar::add-line, QWidget#presenter QScrollBar::sub-line {{
            width: 0; height: 0; border: none; background: none;
        }}
        QWidget#presenter QScrollBar::add-page, QWidget#presenter QScrollBar::sub-page {{ background: none; }}
    """

def dark_palette() -> QPalette:
    """A typical dark desktop palette (Fusion's dark colors, disabled text greyed): what a user with
    a dark theme gives the app. The screenshots (``--dark``) and the dark-palette tests use it."""
    p = QPalette()
    roles = {QPalette.Window: "#353535", QPalette.WindowText: "#f0f0f0", QPalette.Base: "#232323",
             QPalette.AlternateBase: "#2e2e2e", QPalette.Text: "#f0f0f0", QPalette.Button: "#353535",
             QPalette.ButtonText: "#f0f0f0", QPalette.Highlight: "#2a82da", QPalette.HighlightedText: "#ffffff",
             QPalette.ToolTipBase: "#353535", QPalette.ToolTipText: "#f0f0f0", QPalette.PlaceholderText: "#9a9a9a",
             QPalette.Light: "#505050", QPalette.Midlight: "#404040", QPalette.Mid: "#303030",
             QPalette.Dark: "#202020", QPalette.Shadow: "#141414", QPalette.BrightText: "#ff6b6b",
             QPalette.Link: "#74a7ff"}
    return palette_of(p, roles, disabled_text="#7a7a7a")


def palette_of(p: QPalette, roles: dict, *, disabled_text: str) -> QPalette:
    """``p`` with each role's color of ``roles`` and greyed text when disabled (the dark and light themes)."""
    for role, color in roles.items():
        p.setColor(role, QColor(color))
    for role in (QPalette.WindowText, QPalette.Text, QPalette.ButtonText):
        p.setColor(QPalette.Disabled, role, QColor(disabled_text))
    return p
