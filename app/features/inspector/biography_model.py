"""The token biography table's model: one row per token of a :class:`~bpe_core.analysis.Biography`.

Like the health table it sorts and filters itself instead of sitting behind a ``QSortFilterProxyModel``
(which calls back into Python per row and per comparison: seconds for GPT-2's 50,257 tokens). The rows are
the biography's immutable records; a sort or a filter rebuilds one list of them with plain Python (a
filter keeps the order of the sort) and resets the view, which then asks ``data()`` for the visible rows
only. Rows without a value in the sorted column (no rank, no residue ratio, no IoS) come last either way,
ties in id order, as in ``bpe-lens-cli tokens --sort``.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal

from bpe_core.analysis import BIOGRAPHY_FILTERS, TokenLife
from bpe_core.base import visible_whitespace

from ...widgets.records_table import RecordsTableModel
from ...widgets.roles import ALIGNMENT, DISPLAY, RIGHT_ALIGNED, USER

__all__ = ["BiographyTableModel", "TOKEN_ID_ROLE"]

TOKEN_ID_ROLE = USER + 12


def _ratio(value: Optional[float], digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _count(value: int) -> str:
    return f"{value:,}"


class BiographyTableModel(RecordsTableModel):
    """Every token's biography; ``set_filter`` keeps one of the core's FILTERS and a text."""

    (COL_ID, COL_TOKEN, COL_RANK, COL_BIRTH, COL_EMITTED, COL_RESIDUE, COL_IOS, COL_REACHABLE, COL_BYTES,
     COL_STATUS) = range(10)
    HEADERS = ("id", "token", "rank", "count at birth", "emitted", "residue ratio", "IoS", "reachable", "bytes",
               "status")
    #: the TokenLife field each column shows (and sorts by)
    FIELDS = ("token_id", "token", "rank", "birth_count", "emitted", "residue_ratio", "ios", "reachable", "n_bytes",
              "status")
    TIPS = ("token id", "the token (whitespace made visible)",
            "the merge that made it (its birth); — for a base unit or a special token",
            "its merge's pair count on the corpus when the merges are replayed in order",
            "how often the encoder emits it on the corpus",
            "emitted / count at birth: low means later merges consumed it (an intermediate merge residue, LiteToken)",
            "intersection over self (PickyBPE): the largest share of its occurrences a merge it is part of takes",
            "whether some text can produce it through the merges", "its length in UTF-8 bytes",
            "ok / likely residue / never emitted / unreachable / base / special")
    NUMERIC = frozenset((COL_ID, COL_RANK, COL_BIRTH, COL_EMITTED, COL_RESIDUE, COL_IOS, COL_BYTES))

    filter_changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._all: Sequence[TokenLife] = ()
        self._haystack: Dict[int, str] = {}  # token id -> what the text filter searches
        self._sorted: List[TokenLife] = []
        self._rows: List[TokenLife] = []
        self._preset = "all"
        self._text = ""
        self._sort = (self.COL_ID, Qt.AscendingOrder)
        self._cells: Dict[int, Callable[[TokenLife], str]] = {
            self.COL_ID: lambda t: str(t.token_id), self.COL_TOKEN: lambda t: visible_whitespace(t.token),
            self.COL_RANK: lambda t: "—" if t.rank is None else _count(t.rank),
            self.COL_BIRTH: lambda t: _count(t.birth_count), self.COL_EMITTED: lambda t: _count(t.emitted),
            self.COL_RESIDUE: lambda t: _ratio(t.residue_ratio, 4), self.COL_IOS: lambda t: _ratio(t.ios),
            self.COL_REACHABLE: lambda t: "yes" if t.reachable else "no",
            self.COL_BYTES: lambda t: str(t.n_bytes), self.COL_STATUS: lambda t: t.status}

    # -- Qt model
    def data(self, index: QModelIndex, role: int = DISPLAY):
        row = self.record(index)
        if row is None:
            return None
        if role == DISPLAY:
            return self._cells[index.column()](row)
        if role == ALIGNMENT and index.column() in self.NUMERIC:
            return RIGHT_ALIGNED
        if role == TOKEN_ID_ROLE:
            return row.token_id
        return None

    # -- content, sort and filter
    def set_rows(self, rows: Sequence[TokenLife]) -> None:
        self._all = tuple(rows)
        self._haystack = {t.token_id: f"{t.token.casefold()}\0{visible_whitespace(t.token).casefold()}"
                          for t in self._all}
        self._resort()

    @property
    def shown(self) -> List[TokenLife]:
        """The rows as the view shows them (filtered, sorted)."""
        return list(self._rows)

    def total(self) -> int:
        return len(self._all)

    def token_id(self, row: int) -> int:
        return self._rows[row].token_id

    def set_filter(self, *, preset: Optional[str] = None, text: Optional[str] = None) -> None:
        """Keep the rows of the core's filter ``preset`` (one of BIOGRAPHY_FILTERS) whose token contains
        ``text`` (case-insensitive; the token as shown, with visible whitespace, or as stored)."""
        if preset is not None:
            if preset not in BIOGRAPHY_FILTERS:
                raise ValueError(f"no filter {preset!r}")
            self._preset = preset
        if text is not None:
            self._text = text.casefold()
        self._refilter()

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        if 0 <= column < len(self.FIELDS):
            self._sort = (column, order)
            self._resort()

    def _resort(self) -> None:
        col, order = self._sort
        name = self.FIELDS[col]
        have = sorted((t for t in self._all if getattr(t, name) is not None), key=lambda t: t.token_id)
        have.sort(key=lambda t: getattr(t, name), reverse=order == Qt.DescendingOrder)  # stable: ties by id
        self._sorted = have + [t for t in self._all if getattr(t, name) is None]
        self._refilter()

    def _refilter(self) -> None:
        keep, text, hay = BIOGRAPHY_FILTERS[self._preset], self._text, self._haystack
        self.beginResetModel()
        self._rows = [t for t in self._sorted if keep(t) and (not text or text in hay[t.token_id])]
        self.endResetModel()
        self.filter_changed.emit()
