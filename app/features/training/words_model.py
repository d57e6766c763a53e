"""The words table's model: one row per unique word, its frequency and current segmentation.

It sorts and filters itself (no proxy). A step never rebuilds it: it emits ``dataChanged`` over
the rows the merges changed (and the rows the merge before changed, to clear their highlight),
only for rows a view shows; only a "tokens per word" sort re-orders rows (``layoutChanged``,
keeping the selection).
"""
from __future__ import annotations

from typing import Callable, List, Optional, Set, Tuple

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from bpe_core import MergeStep

from ...session.session import Session
from ...widgets.theme import changed_row_color
from ...widgets.chip_text import chip_text
from ...widgets.chips_table import TokenChips
from ...widgets.roles import (ACCESSIBLE, ALIGNMENT, BACKGROUND, DISPLAY, HORIZONTAL, IDS_ROLE, RIGHT_ALIGNED,
                             TOOLTIP, USER)

__all__ = ["WordsModel", "WORD_INDEX_ROLE", "IDS_ROLE"]

WORD_INDEX_ROLE = USER + 2
#: a batch of more steps than this (a seek, a run's frame) repaints every row on screen at once
MANY_STEPS = 64


class WordsModel(QAbstractTableModel):
    """One row per shown word; it sorts and filters itself.

    A ``QSortFilterProxyModel`` would call into Python once per row to filter and once per
    comparison to sort (seconds for 25k words); here the row -> word list is built with plain
    Python over the session's lists (milliseconds) and the view only asks for visible rows.
    """

    WORD, FREQ, TOKENS, SEGMENTATION = range(4)
    HEADERS = ("word", "frequency", "tokens", "segmentation")
    SORTS = {"frequency": (FREQ, Qt.DescendingOrder), "alphabet": (WORD, Qt.AscendingOrder),
             "tokens per word": (TOKENS, Qt.DescendingOrder)}

    def __init__(self, session: Session, chips: TokenChips, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.token_chips = chips
        self.changed: Set[int] = set()  # words the last merge changed
        self.changed_by: Optional[MergeStep] = None
        self._filter = ""
        self._sort = self.SORTS["frequency"]
        self._order: List[int] = []  # row -> word index
        self._row_of: List[int] = []  # word index -> row, -1 when filtered out
        self._lower: Optional[List[str]] = None  # the words in lower case, made when a filter first needs them
        self._visible_rows: Optional[Callable[[], Tuple[int, int]]] = None
        session.corpus_loaded.connect(self._on_session_reset)
        session.reset_done.connect(self._on_session_reset)
        session.steps_applied.connect(self._on_session_steps)
        session.steps_undone.connect(self._on_session_steps)
        self._on_session_reset()

    # -- Qt model API --------------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=DISPLAY):
        if orientation == HORIZONTAL and role == DISPLAY:
            return self.HEADERS[section]
        return None

    #: roles data() answers; others (font, decoration, check state, ...) return at once
    ROLES = frozenset((DISPLAY, IDS_ROLE, WORD_INDEX_ROLE, BACKGROUND, ALIGNMENT, TOOLTIP, ACCESSIBLE))

    def chip_ids(self, row: int, column: int) -> Optional[Tuple[int, ...]]:
        """The token ids a chip cell shows (ChipsView asks directly: no index, no role)."""
        return self.session.segmentation(self._order[row]) if column == self.SEGMENTATION else None

    def data(self, index, role=DISPLAY):
        if role not in self.ROLES or not index.isValid():
            return None
        col, s = index.column(), self.session
        w = self._order[index.row()]
        if role == DISPLAY:
            if col == self.WORD:
                return chip_text(s.words[w])[0]
            if col == self.FREQ:
                return f"{s.freqs[w]:,}"
            if col == self.TOKENS:
                return str(len(s.segmentation(w)))
            return None  # chips are painted by ChipsView
        if role == ACCESSIBLE:
            return self.token_chips.text(s.segmentation(w)) if col == self.SEGMENTATION else None
        if role == IDS_ROLE:
            return s.segmentation(w) if col == self.SEGMENTATION else None
        if role == WORD_INDEX_ROLE:
            return w
        if role == BACKGROUND:
            return self._changed_bg if w in self.changed else None
        if role == ALIGNMENT:
            return RIGHT_ALIGNED if col in (self.FREQ, self.TOKENS) else None
        if w in self.changed and self.changed_by is not None:  # TOOLTIP
            return f"changed by merge {self.changed_by.rank}"
        return None

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        self._sort = (self.TOKENS if column == self.SEGMENTATION else column, order)
        self._relayout()

    # -- rows ----------------------------------------------------------------------------------------
    def word_index(self, row: int) -> int:
        return self._order[row]

    def row_of(self, word_index: int) -> int:
        """The row showing a word, or -1 when the filter hides it."""
        return self._row_of[word_index]

    def set_filter(self, text: str) -> None:
        self.beginResetModel()
        self._filter = text.lower()
        self._build_order()
        self.endResetModel()

    def _build_order(self) -> None:
        """Rows in the sort's order, ties in corpus order in both directions; numbers sorted with numpy (81k
        words of the 17.6 MB corpus by frequency: ~9 ms, where ``sorted`` with a key, a loop for ``_row_of`` and
        the words lower-cased for a filter took ~24 ms of the load's install on the GUI thread)."""
        s, (column, order) = self.session, self._sort
        n = len(s.words)
        rows = np.arange(n)
        if self._filter:
            if self._lower is None:
                self._lower = [w.lower() for w in s.words]
            needle = self._filter
            rows = np.fromiter((i for i, w in enumerate(self._lower) if needle in w), dtype=np.int64)
        descending = order == Qt.DescendingOrder
        if column == self.WORD:  # sorted() is stable and keeps ties in corpus order for both directions
            rows = np.array(sorted(rows.tolist(), key=s.words.__getitem__, reverse=descending), dtype=np.int64)
        else:
            if column == self.FREQ:
                values = np.array(s.freqs, dtype=np.int64)[rows]
            else:
                values = np.fromiter((len(s.segmentation(i)) for i in rows.tolist()), dtype=np.int64, count=len(rows))
            rows = rows[np.argsort(-values if descending else values, kind="stable")]
        row_of = np.full(n, -1, dtype=np.int64)
        row_of[rows] = np.arange(len(rows))
        self._order, self._row_of = rows.tolist(), row_of.tolist()

    def _relayout(self) -> None:
        """Re-sort keeping the view's selection and current row on the same words."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        words = [self._order[i.row()] for i in old]
        self._build_order()
        self.changePersistentIndexList(old, [self.index(self._row_of[w], i.column()) if self._row_of[w] >= 0
                                             else QModelIndex() for i, w in zip(old, words)])
        self.layoutChanged.emit()

    # -- session facts -------------------------------------------------------------------------------
    def _on_session_reset(self, *_) -> None:
        self.beginResetModel()
        self.changed, self.changed_by = set(), None
        self._changed_bg = changed_row_color()  # looked up once a step, not per cell
        self._lower = None
        self._build_order()
        self.endResetModel()

    def _on_session_steps(self, steps: List[MergeStep]) -> None:
        self._changed_bg = changed_row_color()
        before = self.changed
        last = self.session.history[-1] if self.session.merge_count else None
        self.changed = set(last.changed_words) if last is not None else set()
        self.changed_by = last
        if self._sort[0] == self.TOKENS:
            self._relayout()  # segment counts changed: the order may have too
            return
        if len(steps) > MANY_STEPS:  # a seek: most rows on screen change; their union would cost more
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._order) - 1, self.SEGMENTATION))
            return
        # rows to signal: the words this step changed and those the one before changed (their
        # highlight goes). One step (applied or undone) changed exactly one of the two sets.
        changed = (before, self.changed) if len(steps) == 1 else \
            (set().union(*(st.changed_words for st in steps), before, self.changed),)
        # the rows a view shows get one signal per run of adjacent changed rows (the view repaints
        # just those); the rows above and below them one span each, which that view does not
        # repaint (one span over all changed rows would repaint every row on screen). Only the
        # rows on screen are looked at: a merge can change thousands of words.
        n = len(self._order)
        first, last_shown = self.visible_rows()
        first, last_shown = max(first, 0), min(last_shown, n - 1)
        order = self._order
        shown = [r for r in range(first, last_shown + 1) if any(order[r] in c for c in changed)]
        runs: List[Tuple[int, int]] = []
        for r in shown:
            if runs and runs[-1][1] == r - 1:
                runs[-1] = (runs[-1][0], r)
            else:
                runs.append((r, r))
        if sum(len(c) for c in changed) > len(shown):  # changed words off screen (or filtered out)
            runs += [span for span in ((0, first - 1), (last_shown + 1, n - 1)) if span[0] <= span[1]]
        col = self.SEGMENTATION
        for top, bottom in runs:
            self.dataChanged.emit(self.index(top, 0), self.index(bottom, col))

    def visible_rows(self) -> Tuple[int, int]:
        """The rows a view shows, first and last (``set_visible_rows``); all rows by default."""
        return self._visible_rows() if self._visible_rows is not None else (0, len(self._order) - 1)

    def set_visible_rows(self, source: Optional[Callable[[], Tuple[int, int]]]) -> None:
        """Where a step's fine-grained signals go: ``source()`` gives the rows a view shows."""
        self._visible_rows = source
