"""The theme the user picks (View → Theme): the desktop's palette (System), or the app's own Light or
Dark palette, switched live; and toggles that look checked under any of them.

Every pane paints from the application palette (:mod:`bpe_lens_app.theme`) and restyles its charts
when the palette changes, so setting the application palette is all a switch needs: no restart.
The presenter keeps its own black, whatever the theme. Chips keep their light backgrounds with dark
text (:mod:`bpe_lens_app.widgets.chip_colors`).

Toggles look checked under every theme: :func:`~bpe_lens_app.theme.show_checked`.
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from .theme import dark_palette

#: the choices, as stored in the settings -> as shown in the menu
THEMES: Dict[str, str] = {"system": "System", "light": "Light", "dark": "Dark"}
DEFAULT_THEME = "system"

#: what the app had before it first set a palette of its own: ``(set, palette)``, where ``set`` says the
#: palette had been set explicitly (else System goes back to the desktop's palette, live)
_before: Optional[Tuple[bool, QPalette]] = None


def light_palette() -> QPalette:
    """Fusion's own light palette (dark text on white and light grey), whatever the desktop's."""
    return QStyleFactory.create("Fusion").standardPalette()


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
            app.setPalette(palette if explicit else QPalette())  # an empty palette: the desktop's again
        return
    if _before is None:
        _before = (QApplication.testAttribute(Qt.AA_SetPalette), QPalette(app.palette()))
    app.setPalette(dark_palette() if name == "dark" else light_palette())


def forget_choice() -> None:
    """Forget the palette kept for System (as a new process starts: the tests' clean slate)."""
    global _before
    _before = None
