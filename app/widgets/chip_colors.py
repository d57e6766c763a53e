"""Token colors as QColors: the palette and its rules live in :mod:`bpe_core.render.palette`
(one home, shared with the headless slide renderer); this module turns its hex colors into QColors.

A token's color is a stable function of its id (:func:`token_color`); :func:`chip_colors` gives a
row of tokens colors in which neighbours always differ, also under simulated color-vision deficiencies.

>>> [c.name() for c in chip_colors([5, 5, 5])][0] != chip_colors([5, 5, 5])[1].name()
True
"""
from __future__ import annotations

from typing import Iterable, List, Tuple

from PySide6.QtGui import QColor

from bpe_core.render import (ACCENT_HEX, DELTA_E, MIN_DELTA_E, PALETTE_HEX, TEXT_HEX, chip_indices, distinguishable,
                             palette_index)

__all__ = ["PALETTE", "PALETTE_HEX", "TEXT_COLOR", "ACCENT", "MIN_DELTA_E", "DELTA_E",
           "token_color", "chip_colors", "chip_indices", "palette_index", "distinguishable"]

PALETTE: Tuple[QColor, ...] = tuple(QColor(h) for h in PALETTE_HEX)
TEXT_COLOR = QColor(TEXT_HEX)
#: outline of highlighted / flashing chips (hover, "the merge that just fired")
ACCENT = QColor(ACCENT_HEX)


def token_color(token_id: int) -> QColor:
    """The background color of a token, the same in every view and every run."""
    return QColor(PALETTE[palette_index(token_id)])


def chip_colors(ids: Iterable[int]) -> List[QColor]:
    """Colors for a row of tokens; neighbours always differ (see :func:`chip_indices`).

    >>> a, b = chip_colors([7, 7])
    >>> a != b
    True
    """
    return [QColor(PALETTE[k]) for k in chip_indices(ids)]
