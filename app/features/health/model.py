"""The health table's model: one row per token of a :class:`~bpe_core.analysis.health.HealthReport`.

Like the inspector's token list it sorts and filters itself (a row -> report-row list rebuilt with
plain Python, then a reset) instead of sitting behind a ``QSortFilterProxyModel``, which calls back
into Python per row and per comparison (seconds for GPT-2's 50k tokens).
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal

from bpe_core.analysis import TokenHealth
from bpe_core.base import visible_whitespace

from ...widgets.records_table import RecordsTableModel
from ...widgets.roles import ALIGNMENT, DISPLAY, RIGHT_ALIGNED, USER

__all__ = ["HealthTableModel", "TOKEN_ID_ROLE"]

TOKEN_ID_ROLE = USER + 11


class HealthTableModel(RecordsTableModel):
    """Tokens with their usage and status; ``set_filter`` keeps a status and a text."""

    COL_ID, COL_TOKEN, COL_RANK, COL_USAGE, COL_MERGE_COUNT, COL_STATUS = range(6)
    HEADERS = ("id", "token", "rank", "usage", "merge count", "status")
    TIPS = ("token id", "the token (whitespace made visible)", "the merge that makes it (0: a base unit)",
            "occurrences when the corpus is encoded", "its merge's pair count on this corpus when it applies",
            "used / unused / consumed (made, always merged further) / dead (its merge never fires) / "
            "unreachable (no text can make it) / special")

    filter_changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._all: Sequence[TokenHealth] = ()
        self._rows: List[TokenHealth] = []
        self._shown: List[str] = []
        self._status = ""
        self._text = ""
        self._sort = (self.COL_ID, Qt.AscendingOrder)

    # -- Qt model
    def data(self, index: QModelIndex, role: int = DISPLAY):
        row = self.record(index)
        if row is None:
            return None
        col = index.column()
        if role == DISPLAY:
            return self.cell(row, col)
        if role == ALIGNMENT and col in (self.COL_ID, self.COL_RANK, self.COL_USAGE, self.COL_MERGE_COUNT):
            return RIGHT_ALIGNED
        if role == TOKEN_ID_ROLE:
            return row.id
        return None

    def cell(self, row: TokenHealth, col: int) -> str:
        if col == self.COL_ID:
            return str(row.id)
        if col == self.COL_TOKEN:
            return visible_whitespace(row.token)
        if col == self.COL_RANK:
            return f"{row.rank:,}" if row.rank else "—"
        if col == self.COL_USAGE:
            return f"{row.usage:,}"
        if col == self.COL_MERGE_COUNT:
            return "—" if row.merge_count is None else f"{row.merge_count:,}"
        return row.status

    # -- content, sort and filter
    def set_rows(self, rows: Sequence[TokenHealth]) -> None:
        self._all = rows
        self._rebuild()

    @property
    def shown(self) -> List[TokenHealth]:
        """The rows as the view shows them (filtered, sorted)."""
        return list(self._rows)

    def set_filter(self, *, status: Optional[str] = None, text: Optional[str] = None) -> None:
        """Keep only ``status`` ("" for all) and tokens containing ``text`` (case-insensitive)."""
        if status is not None:
            self._status = status
        if text is not None:
            self._text = text.casefold()
        self._rebuild()

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        self._sort = (column, order)
        self._rebuild()

    def _key(self, col: int):
        if col == self.COL_TOKEN:
            return lambda r: r.token
        if col == self.COL_RANK:
            return lambda r: (r.rank, r.id)  # base units (0) first, last when descending
        if col == self.COL_USAGE:
            return lambda r: (r.usage, r.id)
        if col == self.COL_MERGE_COUNT:
            return lambda r: (-1 if r.merge_count is None else r.merge_count, r.id)
        if col == self.COL_STATUS:
            return lambda r: (r.status, r.id)
        return lambda r: r.id

    def _rebuild(self) -> None:
        self.beginResetModel()
        rows = [r for r in self._all if (not self._status or r.status == self._status)
                and (not self._text or self._text in r.token.casefold())]
        col, order = self._sort
        rows.sort(key=self._key(col), reverse=order == Qt.DescendingOrder)
        self._rows = rows
        self.endResetModel()
        self.filter_changed.emit()
