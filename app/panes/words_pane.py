"""Every unique word with its frequency and current segmentation as colored chips.

* :class:`WordsModel` — one row per word; it sorts and filters itself (no proxy). A step never
  rebuilds it: it emits ``dataChanged`` over the rows the merges changed (and the rows the merge
  before changed, to clear their highlight); only a "tokens per word" sort re-orders rows
  (``layoutChanged``, keeping the selection).
* :class:`ChipsView` — a table that paints token-id tuples (``IDS_ROLE``) as chips (:mod:`bpe_lens_app.chips`,
  one cached pixmap per distinct chip) over Qt's cells; the chips the last merge created are
  outlined for ~300 ms.
* :class:`WordsPane` — filter (substring), sort (frequency / alphabet / tokens per word), the
  table, the words the last merge changed (before → after) and the selected word's history:
  which merge changed it, step by step.
"""
from __future__ import annotations

from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QSplitter, QVBoxLayout, QWidget)

from bpe_core.types import MergeStep

from ..chips import Chip, ChipMetrics, chip_text, chips_size_hint, paint_chips
from ..session import Session
from ..theme import CHANGED_ROW, FLASH_MS, sort_arrows_follow_order
from ..widgets import QuietScrollBar, RowsView, live_label

# Roles as plain ints: PySide6's old-style ``Qt.DisplayRole`` lookup costs ~14 µs each, and
# data() is called thousands of times a step.
_R = Qt.ItemDataRole
DISPLAY, BACKGROUND, FOREGROUND, FONT, ALIGNMENT, TOOLTIP = (
    int(_R.DisplayRole), int(_R.BackgroundRole), int(_R.ForegroundRole), int(_R.FontRole),
    int(_R.TextAlignmentRole), int(_R.ToolTipRole))
RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
HORIZONTAL = Qt.Orientation.Horizontal
ACCESSIBLE = int(_R.AccessibleTextRole)
IDS_ROLE = int(_R.UserRole) + 1  # tuple of token ids (chip columns)
WORD_INDEX_ROLE = int(_R.UserRole) + 2


class TokenChips:
    """Chips of a session's tokens, cached by id (cleared when a corpus is loaded)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._cache: Dict[int, Chip] = {}
        session.corpus_loaded.connect(lambda *_: self._cache.clear())

    def chip(self, token_id: int) -> Chip:
        chip = self._cache.get(token_id)
        if chip is None:
            text, partial = chip_text(self.session.token(token_id))
            chip = self._cache[token_id] = Chip(text, token_id, partial=partial)
        return chip

    def chips(self, ids: Iterable[int]) -> List[Chip]:
        return [self.chip(i) for i in ids]

    def text(self, ids: Iterable[int]) -> str:
        """Plain-text form of a segmentation: ``[lo][w]`` (DisplayRole, copy, tests)."""
        return "".join(f"[{self.chip(i).text}]" for i in ids)


class ChipsView(RowsView):
    """A table whose chip columns show token-id tuples (``IDS_ROLE``) as rows of chips
    (:func:`bpe_lens_app.chips.paint_chips`); the chips of ``flash_ids`` are outlined.

    Qt paints every cell (background, selection, the other columns' text); the chips go on top in
    one pass per paint event. An item delegate written in Python costs a call per cell from C++
    (its option, index and painter wrapped each time: ~60 µs, more than the chips themselves), and
    a step repaints a dozen chip cells. The chip columns' DisplayRole is empty (their text form,
    ``[lo][w]``, is the AccessibleTextRole), so Qt draws no text under the chips.
    """

    def __init__(self, chips: TokenChips, chip_columns: Iterable[int], parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.token_chips = chips
        self.chip_columns = tuple(chip_columns)
        self.flash_ids: Set[int] = set()
        self._metrics: Optional[ChipMetrics] = None

    def metrics(self) -> ChipMetrics:
        font = self.font()
        if self._metrics is None or self._metrics.font != font:
            self._metrics = ChipMetrics(font)
        return self._metrics

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        model = self.model()
        region = event.region()
        box = region.boundingRect()
        first = self.rowAt(box.top())
        if model is None or first < 0:
            return
        last = self.rowAt(box.bottom())
        last = model.rowCount() - 1 if last < 0 else last
        m = self.metrics()
        palette = self.palette()
        selection = self.selectionModel()
        columns = [c for c in self.chip_columns if not self.isColumnHidden(c)]
        painter = QPainter(self.viewport())
        for row in range(first, last + 1):
            selected = selection is not None and selection.isRowSelected(row)
            painter.setPen(palette.highlightedText().color() if selected else palette.text().color())  # "…"
            for col in columns:
                cell = self.visualRect(model.index(row, col))
                if not region.intersects(cell):
                    continue
                ids = model.chip_ids(row, col)
                if ids:
                    rect = cell.adjusted(3, 1, -3, -1)
                    painter.setClipRect(rect)
                    paint_chips(painter, rect, self.token_chips.chips(ids), metrics=m, highlight_ids=self.flash_ids)
        painter.end()

    def sizeHintForColumn(self, column: int) -> int:
        if column not in self.chip_columns or self.model() is None:
            return super().sizeHintForColumn(column)
        m = self.metrics()
        widths = [chips_size_hint(self.token_chips.chips(self.model().chip_ids(r, column) or ()), m.font,
                                  metrics=m).width() for r in range(min(self.model().rowCount(), 100))]
        return max(widths, default=0) + 6


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
        self._lower: List[str] = []
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
            return CHANGED_ROW if w in self.changed else None
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
        s, (column, order) = self.session, self._sort
        rows = range(len(s.words))
        if self._filter:
            needle = self._filter
            rows = [i for i, w in enumerate(self._lower) if needle in w]
        if column == self.WORD:
            key = s.words.__getitem__
        elif column == self.FREQ:
            key = s.freqs.__getitem__
        else:
            key = lambda i: len(s.segmentation(i))  # noqa: E731
        # sorted() is stable and keeps ties in corpus order for both directions
        self._order = sorted(rows, key=key, reverse=order == Qt.DescendingOrder)
        self._row_of = [-1] * len(s.words)
        for r, w in enumerate(self._order):
            self._row_of[w] = r

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
        self._lower = [w.lower() for w in self.session.words]
        self._build_order()
        self.endResetModel()

    def _on_session_steps(self, steps: List[MergeStep]) -> None:
        before = self.changed
        last = self.session.history[-1] if self.session.merge_count else None
        self.changed = set(last.changed_words) if last is not None else set()
        self.changed_by = last
        if self._sort[0] == self.TOKENS:
            self._relayout()  # segment counts changed: the order may have too
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


class ChipRowsModel(QAbstractTableModel):
    """A short list of labelled segmentations (changed words, a word's history); reset as a whole."""

    def __init__(self, headers: Sequence[str], chip_columns: Sequence[int], chips: TokenChips, parent=None):
        super().__init__(parent)
        self.headers = tuple(headers)
        self.chip_columns = set(chip_columns)
        self.token_chips = chips
        self.rows: List[tuple] = []

    def set_rows(self, rows: List[tuple]) -> None:
        # rows added or removed at the end, the rest changed in place: no reset (a reset also
        # lays out and repaints the header)
        old, new = len(self.rows), len(rows)
        if new < old:
            self.beginRemoveRows(QModelIndex(), new, old - 1)
            self.rows = self.rows[:new]
            self.endRemoveRows()
        elif new > old:
            self.beginInsertRows(QModelIndex(), old, new - 1)
            self.rows = self.rows + rows[old:]
            self.endInsertRows()
        self.rows = rows
        if min(old, new):
            self.dataChanged.emit(self.index(0, 0), self.index(min(old, new) - 1, len(self.headers) - 1))

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=DISPLAY):
        if orientation == HORIZONTAL and role == DISPLAY:
            return self.headers[section]
        return None

    ROLES = frozenset((DISPLAY, IDS_ROLE, ACCESSIBLE))

    def data(self, index, role=DISPLAY):
        if role not in self.ROLES or not index.isValid():  # (the view asks for eight roles a cell)
            return None
        value = self.rows[index.row()][index.column()]
        if index.column() in self.chip_columns:
            if role == IDS_ROLE:
                return value
            if role == ACCESSIBLE:
                return self.token_chips.text(value)
            return None  # chips are painted by ChipsView
        return value if role == DISPLAY else None

    def chip_ids(self, row: int, column: int) -> Optional[Tuple[int, ...]]:
        return self.rows[row][column] if column in self.chip_columns else None


def _table(model, chips: TokenChips, chip_columns: Iterable[int], stretch: int) -> ChipsView:
    view = ChipsView(chips, chip_columns)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectRows)
    view.setSelectionMode(QAbstractItemView.SingleSelection)
    view.setEditTriggers(QAbstractItemView.NoEditTriggers)
    view.setWordWrap(False)
    view.verticalHeader().hide()
    view.setVerticalScrollBar(QuietScrollBar(Qt.Vertical, view))
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.Interactive)
    header.setSectionResizeMode(stretch, QHeaderView.Stretch)
    header.setHighlightSections(False)
    view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
    view.verticalHeader().setDefaultSectionSize(ChipMetrics(view.font()).height() + 6)
    return view


class WordsPane(QWidget):
    """The words table with filter and sort, the last merge's changes and the selected word's history."""

    word_selected = Signal(int)  # word index

    def __init__(self, session: Session, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        self.token_chips = TokenChips(session)
        self.model = WordsModel(session, self.token_chips, self)
        self.filter_edit = QLineEdit(self, placeholderText="filter words (Ctrl+F)", clearButtonEnabled=True)
        self.filter_edit.textChanged.connect(self._on_filter_text_changed)
        self.sort_box = QComboBox(self)
        self.sort_box.addItems(list(WordsModel.SORTS))
        self.sort_box.currentTextChanged.connect(self.sort_by)
        self.count_label = live_label(self, min_text="888,888 of 888,888 words")
        self.table = _table(self.model, self.token_chips, [WordsModel.SEGMENTATION], WordsModel.SEGMENTATION)
        self.table.setSortingEnabled(True)
        sort_arrows_follow_order(self.table.horizontalHeader())
        self.table.setColumnWidth(WordsModel.WORD, 130)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.model.set_visible_rows(self._table_rows_shown)
        self.changed_title = live_label(self)
        self.changed_model = ChipRowsModel(("word", "frequency", "before", "after"), (2, 3), self.token_chips, self)
        self.changed_table = _table(self.changed_model, self.token_chips, (2, 3), 3)
        self.history_title = live_label(self, "Select a word to see which merges built it.")
        self.history_model = ChipRowsModel(("merge", "pair", "segmentation"), (2,), self.token_chips, self)
        self.history_table = _table(self.history_model, self.token_chips, (2,), 2)
        self._flash_timer = QTimer(self, singleShot=True, interval=FLASH_MS)
        self._flash_timer.timeout.connect(self._on_flash_timer_timeout)
        self._selected: Optional[int] = None
        self._build_layout()
        self.sort_by("frequency")
        for signal in (session.corpus_loaded, session.reset_done):
            signal.connect(self._on_session_reset)
        session.steps_applied.connect(self._on_session_steps_applied)
        session.steps_undone.connect(self._on_session_steps_undone)
        self._on_session_reset()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.addWidget(QLabel("<b>Words</b>"))
        bar.addWidget(self.filter_edit, 1)
        bar.addWidget(QLabel("sort:"))
        bar.addWidget(self.sort_box)
        bar.addWidget(self.count_label)
        lower = QWidget(self)
        low = QHBoxLayout(lower)
        low.setContentsMargins(0, 0, 0, 0)
        for title, table in ((self.changed_title, self.changed_table), (self.history_title, self.history_table)):
            box = QVBoxLayout()
            box.addWidget(title)
            box.addWidget(table)
            low.addLayout(box, 1)
        self.splitter = QSplitter(Qt.Vertical, self, objectName="splitter_words")
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(lower)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([300, 200])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.splitter, 1)

    # -- commands ------------------------------------------------------------------------------------
    def sort_by(self, name: str) -> None:
        column, order = WordsModel.SORTS[name]
        if self.sort_box.currentText() != name:
            self.sort_box.setCurrentText(name)
        self.table.sortByColumn(column, order)

    def set_filter(self, text: str) -> None:
        self.filter_edit.setText(text)

    def focus_filter(self) -> None:
        self.filter_edit.setFocus()
        self.filter_edit.selectAll()

    def select_word(self, word_index: int) -> None:
        row = self.model.row_of(word_index)
        if row >= 0:
            index = self.model.index(row, WordsModel.WORD)
            self.table.setCurrentIndex(index)
            self.table.scrollTo(index)
        else:
            self._show_history(word_index)

    def _table_rows_shown(self) -> Tuple[int, int]:
        n = self.model.rowCount()
        if not self.table.isVisible():
            return (n, n)  # nothing on screen: every changed row falls in the two spans
        first = max(self.table.rowAt(0), 0)
        last = self.table.rowAt(self.table.viewport().height() - 1)
        return first, (last if last >= 0 else n - 1)

    def visible_words(self) -> List[str]:
        """Words in the table's order after sort and filter (tests)."""
        words = self.session.words
        return [words[self.model.word_index(r)] for r in range(self.model.rowCount())]

    # -- session facts -------------------------------------------------------------------------------
    def _on_session_reset(self, *_) -> None:
        self._selected = None
        self.changed_model.set_rows([])
        self.history_model.set_rows([])
        self.changed_title.setText("Words the last merge changed appear here.")
        self.history_title.setText("Select a word to see which merges built it.")
        self._update_count()

    def _on_session_steps_applied(self, steps: List[MergeStep]) -> None:
        # the new token's chips sit in the rows this step repaints anyway: no extra repaint now,
        # one when the flash ends
        old = self.flash_ids if self._flash_timer.isActive() else set()
        self._set_flash_ids({steps[-1].new_id})
        self._flash_timer.start()
        self._show_changes()
        if self._selected is not None and any(self._selected in st.changed_words for st in steps):
            self._show_history(self._selected)
        elif old and any(i in old for row in self.history_model.rows for i in row[2]):
            self.history_table.viewport().update()  # the previous merge's outline goes

    def _on_session_steps_undone(self, steps: List[MergeStep]) -> None:
        self._show_changes()
        if self._selected is not None:
            self._show_history(self._selected)

    def _on_filter_text_changed(self, text: str) -> None:
        self.model.set_filter(text)
        self._update_count()

    def _on_table_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            word_index = current.data(WORD_INDEX_ROLE)
            self._show_history(word_index)
            self.word_selected.emit(word_index)

    # -- views ---------------------------------------------------------------------------------------
    def _on_flash_timer_timeout(self) -> None:
        self._set_flash_ids(set())
        for view in (self.table, self.changed_table, self.history_table):
            view.viewport().update()

    @property
    def flash_ids(self) -> Set[int]:
        """The token ids whose chips are outlined now (the merge that just fired)."""
        return self.table.flash_ids

    def _set_flash_ids(self, ids: Set[int]) -> None:
        for view in (self.table, self.changed_table, self.history_table):
            view.flash_ids = ids

    def _update_count(self) -> None:
        self.count_label.setText(f"{self.model.rowCount():,} of {len(self.session.words):,} words")

    def _show_changes(self) -> None:
        s = self.session
        step = s.history[-1] if s.merge_count else None
        if step is None:
            self.changed_model.set_rows([])
            self.changed_title.setText("Words the last merge changed appear here.")
            return
        text = self.token_chips.chip
        self.changed_title.setText(
            f"Merge {step.rank} ({text(step.left).text} + {text(step.right).text} → {text(step.new_id).text}) "
            f"changed {len(step.changed_words):,} words; the most frequent:")
        self.changed_model.set_rows([(chip_text(ex.word)[0], f"{ex.freq:,}", ex.before, ex.after)
                                     for ex in step.examples])

    def _show_history(self, word_index: int) -> None:
        self._selected = word_index
        s = self.session
        text = self.token_chips.chip
        rows: List[Tuple] = []
        for step, seg in s.word_history(word_index):
            if step is None:
                rows.append(("start", "", seg))
            else:
                rows.append((f"{step.rank}", f"{text(step.left).text} + {text(step.right).text}", seg))
        self.history_title.setText(
            f"<b>{chip_text(s.words[word_index])[0]}</b> ({s.freqs[word_index]:,}×): "
            f"{len(rows) - 1} merge(s) changed it")
        self.history_model.set_rows(rows)
