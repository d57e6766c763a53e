"""The base of the tables that show a list of immutable records (the health table, the token biography):
the rows shown (``_rows``, which a subclass rebuilds on sort or filter), their headers and tooltips, and the
record behind a cell (``record``). A subclass says what each cell shows in ``data``."""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

from PySide6.QtCore import QAbstractTableModel, QModelIndex

from .roles import DISPLAY, HORIZONTAL, TOOLTIP

__all__ = ["RecordsTableModel"]


class RecordsTableModel(QAbstractTableModel):
    """Rows of records under ``HEADERS`` (``TIPS``: each header's tooltip)."""

    HEADERS: Tuple[str, ...] = ()
    TIPS: Tuple[str, ...] = ()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rows: List[Any] = []

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation, role: int = DISPLAY):
        if orientation == HORIZONTAL and 0 <= section < len(self.HEADERS):
            if role == DISPLAY:
                return self.HEADERS[section]
            if role == TOOLTIP:
                return self.TIPS[section]
        return None

    def record(self, index: QModelIndex) -> Optional[Any]:
        """The record of ``index``'s row, None for an invalid index or a row past the end."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return self._rows[index.row()]
