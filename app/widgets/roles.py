"""Item data roles as plain ints, shared by the table models and their views.

PySide6's ``Qt.DisplayRole`` lookup costs ~14 µs each, and ``data()`` is called thousands of
times a step; comparing plain ints costs nothing.
"""
from __future__ import annotations

from PySide6.QtCore import Qt

_R = Qt.ItemDataRole
DISPLAY, BACKGROUND, FOREGROUND, FONT, ALIGNMENT, TOOLTIP = (
    int(_R.DisplayRole), int(_R.BackgroundRole), int(_R.ForegroundRole), int(_R.FontRole),
    int(_R.TextAlignmentRole), int(_R.ToolTipRole))
ACCESSIBLE = int(_R.AccessibleTextRole)
#: the first role free for our own (each model numbers its roles from here)
USER = int(_R.UserRole)
RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
HORIZONTAL = Qt.Orientation.Horizontal
#: a tuple of token ids (chip columns; :class:`~bpe_lens_app.widgets.chips_table.ChipsView` paints them)
IDS_ROLE = USER + 1
