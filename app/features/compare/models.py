"""The comparison tab's table models: merges side by side from the divergence, and a token list
(shared / only A / only B) with both sides' ids and merge ranks.

Both read a :class:`bpe_core.analysis.diff.ModelDiff` lazily: the view asks for the rows on screen
only, so a 50k-merge vocabulary costs nothing until scrolled. Ranks are shown 0-based, as the diff's
``first_divergent_merge`` is.
"""
from __future__ import annotations

from typing import List, Optional

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from bpe_core.analysis import ModelDiff
from bpe_core.base import display, visible_whitespace

from ...widgets.roles import USER

__all__ = ["MergesSideBySide", "TokenDiffModel", "TOKEN_BYTES_ROLE", "KINDS"]

TOKEN_BYTES_ROLE = USER + 11

#: which tokens the list shows
KINDS = ("shared", "only A", "only B")


def shown(token: Optional[bytes]) -> str:
    return "" if token is None else visible_whitespace(display(token))


class MergesSideBySide(QAbstractTableModel):
    """Rank | A's merge | B's merge, from the first divergent merge to the end of the longer list."""

    COL_RANK, COL_A, COL_B = 0, 1, 2
    HEADERS = ("rank", "A", "B")

    def __init__(self, diff: ModelDiff, parent=None) -> None:
        super().__init__(parent)
        self.diff = diff
        self.start = diff.first_divergent_merge if diff.first_divergent_merge is not None else 0
        end = max(len(diff.a.merge_pairs), len(diff.b.merge_pairs))
        self._count = 0 if diff.first_divergent_merge is None else end - self.start

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else 3

    def headerData(self, section: int, orientation, role: int = Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.HEADERS[section]
        return None

    def pair_text(self, side, rank: int) -> str:
        pairs = side.merge_pairs
        if rank >= len(pairs):
            return "—"
        left, right = pairs[rank]
        return f"{shown(left)} + {shown(right)}"

    def data(self, index: QModelIndex, role: int = Qt.DisplayRole):
        if not index.isValid() or role not in (Qt.DisplayRole, Qt.ToolTipRole):
            return None
        rank = self.start + index.row()
        col = index.column()
        if col == self.COL_RANK:
            return f"{rank:,}"
        return self.pair_text(self.diff.a if col == self.COL_A else self.diff.b, rank)


class TokenDiffModel(QAbstractTableModel):
    """One of the token lists (``KINDS``), filtered by a text; columns: token, id and rank on each side."""

    COL_TOKEN, COL_ID_A, COL_RANK_A, COL_ID_B, COL_RANK_B = range(5)
    HEADERS = ("token", "id A", "rank A", "id B", "rank B")

    def __init__(self, diff: ModelDiff, parent=None) -> None:
        super().__init__(parent)
        self.diff = diff
        self.kind = KINDS[0]
        self._filter = ""
        self._all: List[bytes] = list(diff.shared_in_order())
        self._rows: List[bytes] = self._all

    def set_kind(self, kind: str) -> None:
        d = self.diff
        self.kind = kind
        self._all = list({"shared": d.shared_in_order, "only A": d.only_a_tokens, "only B": d.only_b_tokens}[kind]())
        self.set_filter(self._filter)

    def set_filter(self, text: str) -> None:
        """Keep the tokens whose shown text (glyphs, ``·`` for a space) or decoded text contains ``text``."""
        self.beginResetModel()
        self._filter = text
        if text:
            needle = text.lower()
            self._rows = [t for t in self._all if needle in shown(t).lower()
                          or needle in t.decode("utf-8", "replace").lower()]
        else:
            self._rows = self._all
        self.endResetModel()

    def token(self, row: int) -> bytes:
        return self._rows[row]

    def total(self) -> int:
        return len(self._all)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation, role: int = Qt.DisplayRole):
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: QModelIndex, role: int = Qt.DisplayRole):
        if not index.isValid():
            return None
        token = self._rows[index.row()]
        if role == TOKEN_BYTES_ROLE:
            return token
        if role != Qt.DisplayRole:
            return None
        col = index.column()
        if col == self.COL_TOKEN:
            return shown(token)
        side = self.diff.a if col in (self.COL_ID_A, self.COL_RANK_A) else self.diff.b
        if col in (self.COL_ID_A, self.COL_ID_B):
            tid = side.ids.get(token)
            return "—" if tid is None else f"{tid:,}"
        if token not in side.ids:
            return "—"
        rank = side.ranks.get(token)
        return "base" if rank is None else f"{rank:,}"
