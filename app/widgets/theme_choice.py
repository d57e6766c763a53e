"""The theme the user picks (View → Theme): the desktop's palette (System), or the app's own Light or
Dark palette, switched live.

Every pane paints from the application palette (:mod:`bpe_lens_app.widgets.theme`) and restyles its charts
when the palette changes, so setting the application palette is all a switch needs: no restart.
The presenter keeps its own black, whatever the theme. Chips keep their light backgrounds with dark
text (:mod:`bpe_lens_app.widgets.chip_colors`).

Toggles look checked under every theme (:mod:`bpe_lens_app.widgets.checked_style`); the training
buttons' icons take the palette's button text (:func:`tint_icons`: Qt's built-in ones are black).
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QStyle

from .theme import dark_palette, palette_of

#: the choices, as stored in the settings -> as shown in the menu
THEMES: Dict[str, str] = {"system": "System", "light": "Light", "dark": "Dark"}

#: what the app had before it first set a palette of its own: ``(set, palette)``, where ``set`` says the
#: palette had been set explicitly (else System goes back to the desktop's palette, live)
_before: Optional[Tuple[bool, QPalette]] = None


def light_palette() -> QPalette:
    """A light palette (Fusion's light colors: dark text on white and light grey, disabled text greyed),
    whatever the desktop's; the counterpart of :func:`~bpe_lens_app.widgets.theme.dark_palette`."""
    p = QPalette()
    roles = {QPalette.Window: "#efefef", QPalette.WindowText: "#000000", QPalette.Base: "#ffffff",
             QPalette.AlternateBase: "#f7f7f7", QPalette.Text: "#000000", QPalette.Button: "#efefef",
             QPalette.ButtonText: "#000000", QPalette.Highlight: "#308cc6", QPalette.HighlightedText: "#ffffff",
             QPalette.ToolTipBase: "#ffffdc", QPalette.ToolTipText: "#000000", QPalette.PlaceholderText: "#767676",
             QPalette.Light: "#ffffff", QPalette.Midlight: "#cacaca", QPalette.Mid: "#b8b8b8",
             QPalette.Dark: "#9f9f9f", QPalette.Shadow: "#767676", QPalette.BrightText: "#ffffff",
             QPalette.Link: "#0000ff", QPalette.LinkVisited: "#ff00ff"}
    palette_of(p, roles, disabled_text="#bebebe")
    p.setColor(QPalette.Disabled, QPalette.Base, QColor("#efefef"))
    p.setColor(QPalette.Disabled, QPalette.Highlight, QColor("#919191"))
    return p


def apply_theme(name: str) -> None:
    """Give the application the palette of theme ``name`` (``system``, ``light`` or ``dark``), at once.

    ``system`` puts back the palette the app had before it chose one (the desktop's); when the app never
    chose one, it changes nothing. An unknown name counts as ``system``."""
    global _before
    app = QApplication.instance()
    if name not in ("light", "dark"):
        if _before is not None:
            explicit, palette = _before
            _before = None
            app.styleHints().unsetColorScheme()
            app.setPalette(palette if explicit else QPalette())  # an empty palette: the desktop's again
        return
    if _before is None:
        _before = (QApplication.testAttribute(Qt.AA_SetPalette), QPalette(app.palette()))
    # the window frame and native dialogs follow where the platform lets them (Windows, macOS, portals)
    app.styleHints().setColorScheme(Qt.ColorScheme.Dark if name == "dark" else Qt.ColorScheme.Light)
    app.setPalette(dark_palette() if name == "dark" else light_palette())


def forget_choice() -> None:
    """Forget the palette kept for System and the color scheme asked for (as a new process starts: the
    tests' clean slate)."""
    global _before
    _before = None
    QApplication.instance().styleHints().unsetColorScheme()


#: the training actions whose icons are one-color shapes, drawn in the palette's button text
TINTED_ACTIONS = ("reset", "undo", "step", "play", "run")


def tinted(icon: QIcon, color: QColor, sizes=(16, 24, 32)) -> QIcon:
    """``icon``'s shape filled with ``color`` (its alpha kept): a black icon made readable on dark."""
    out = QIcon()
    for size in sizes:
        source = icon.pixmap(size, size)
        if source.isNull():
            continue
        pixmap = QPixmap(source.size())
        pixmap.setDevicePixelRatio(source.devicePixelRatio())
        pixmap.fill(Qt.transparent)
        painter = QPainter(pixmap)
        painter.drawPixmap(0, 0, source)
        painter.setCompositionMode(QPainter.CompositionMode_SourceIn)
        painter.fillRect(pixmap.rect(), color)
        painter.end()
        out.addPixmap(pixmap)
    return out


#: the style's standard icons that are one-color shapes (the media buttons'): tinted; others kept as drawn
ONE_COLOR_ICONS = frozenset((QStyle.SP_MediaPlay, QStyle.SP_MediaPause, QStyle.SP_MediaSeekBackward,
                             QStyle.SP_MediaSeekForward, QStyle.SP_MediaSkipBackward, QStyle.SP_MediaSkipForward))


def standard_icon(pixmap) -> QIcon:
    """The style's standard icon ``pixmap`` (``QStyle.SP_MediaPlay``, ...); a one-color one in the
    application palette's button text color."""
    app = QApplication.instance()
    icon = app.style().standardIcon(pixmap)
    return tinted(icon, app.palette().color(QPalette.ButtonText)) if pixmap in ONE_COLOR_ICONS else icon


def tint_icons(actions) -> None:
    """Give the training actions' icons (:data:`TINTED_ACTIONS` of a ``TrainActions``) the application
    palette's button text color: called when the window is made and at each theme switch."""
    color = QApplication.palette().color(QPalette.ButtonText)
    for name in TINTED_ACTIONS:
        action = actions[name]
        if not action.icon().isNull():
            action.setIcon(tinted(action.icon(), color))
