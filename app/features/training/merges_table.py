"""The merges so far: rank, left, right, new token, count, words changed. Clicking a row scrubs there.

Rows are the session's *timeline*: merges undone stay listed (greyed) until the settings change,
so the table also shows where stepping forward will go. A run whose rule removes tokens (PickyBPE) gets a
"removed" column (``✂ ab → a b (IoS 0.93)``, the IoS inputs in its tooltip), and a token removed at the
current merge is struck through wherever the table names it. New merges arrive with
``beginInsertRows``; moving along the timeline only restyles rows (``dataChanged``). The view
(:class:`MergesView`) repaints only the rows a step appends or restyles, and follows the newest
merge by scrolling (a blit), so a step paints two or three rows, not the table.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QVBoxLayout, QWidget

from bpe_core import MergeStep
from bpe_core.analysis import ios_inputs, removal_label

from ...session.session import Session
from ...widgets.theme import changed_row_color, future_text_color
from ...widgets.chip_text import chip_text
from ...widgets.quiet import QuietScrollBar, RowsView
from ...widgets.roles import ALIGNMENT, BACKGROUND, DISPLAY, FONT, FOREGROUND, HORIZONTAL, RIGHT_ALIGNED, TOOLTIP, USER

RANK_ROLE = USER + 1


class MergesModel(QAbstractTableModel):
    RANK, LEFT, RIGHT, NEW, COUNT, WORDS, REMOVED = range(7)
    HEADERS = ("#", "left", "right", "new", "count", "words", "removed")
    HEADER_TIPS = ("the merge's rank", "the left token of the pair", "the right token of the pair",
                   "the new token the merge makes", "how often the pair occurred when it was merged",
                   "how many distinct words the merge changed", "the tokens the rule removed right after that merge")

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self._rows = len(session.timeline)
        self._current = session.merge_count
        self._bold = QFont()
        self._bold.setBold(True)
        self._struck, self._struck_bold = QFont(), QFont(self._bold)
        self._struck.setStrikeOut(True)
        self._struck_bold.setStrikeOut(True)
        self._removals = _Removals()
        self._has_removals = self._rule_removes()
        self._removals.scan(session.timeline)
        self._gone = self._removals.gone(self._current)
        self._restyle()
        session.corpus_loaded.connect(self._on_session_reset)
        session.steps_applied.connect(self._on_session_moved)
        session.steps_undone.connect(self._on_session_moved)
        session.reset_done.connect(self._on_session_moved)

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS) - (not self._has_removals)

    def _rule_removes(self) -> bool:
        """Whether this run's training rule removes tokens (its column is shown)."""
        config = getattr(self.session, "config", None)
        return getattr(config, "variant", "bpe") == "picky"

    def _show(self, token_id: int) -> str:
        return chip_text(self.session.token(token_id))[0]

    def headerData(self, section, orientation, role=DISPLAY):
        if orientation == HORIZONTAL and role == DISPLAY:
            return self.HEADERS[section]
        if orientation == HORIZONTAL and role == TOOLTIP:
            return self.HEADER_TIPS[section]
        return None

    def step(self, row: int) -> MergeStep:
        return self.session.timeline[row]

    ROLES = frozenset((DISPLAY, RANK_ROLE, FOREGROUND, BACKGROUND, FONT, ALIGNMENT, TOOLTIP))

    def data(self, index, role=DISPLAY):
        if role not in self.ROLES or not index.isValid():
            return None
        row, col = index.row(), index.column()
        step = self.session.timeline[row]
        if role == DISPLAY:
            if col == self.RANK:
                return str(step.rank)
            if col == self.LEFT:
                return chip_text(step.left_token)[0]
            if col == self.RIGHT:
                return chip_text(step.right_token)[0]
            if col == self.NEW:
                return chip_text(step.new_token)[0]
            if col == self.COUNT:
                return f"{step.count:,}"
            if col == self.REMOVED:
                return "; ".join(removal_label(r, self._show) for r in step.removals)
            return f"{len(step.changed_words):,}"
        if role == RANK_ROLE:
            return step.rank
        if role == FOREGROUND and step.rank > self._current:
            return self._future_fg
        if role == BACKGROUND and step.rank == self._current:
            return self._changed_bg
        if role == FONT:
            if self._gone and self._names_gone(step, col):
                return self._struck_bold if step.rank == self._current else self._struck
            if step.rank == self._current:
                return self._bold
        if role == ALIGNMENT and col in (self.RANK, self.COUNT, self.WORDS):
            return RIGHT_ALIGNED
        if role == TOOLTIP and col == self.REMOVED and step.removals:
            return "\n".join(f"{removal_label(r, self._show)}: removed right after merge {step.rank}, its other "
                             f"occurrences split; {ios_inputs(r)}" for r in step.removals)
        if role == TOOLTIP and self._gone and self._names_gone(step, col):
            return f"{self._show(self._token_of(step, col))} is removed at merge {self._current} (struck through)"
        if role == TOOLTIP:
            state = "applied" if step.rank <= self._current else "undone (click to go there again)"
            n = len(step.changed_words)
            return f"merge {step.rank}, {state}: {step.count:,} occurrences, {n:,} word{'' if n == 1 else 's'}"
        return None

    def _token_of(self, step: MergeStep, col: int) -> Optional[int]:
        return {self.LEFT: step.left, self.RIGHT: step.right, self.NEW: step.new_id}.get(col)

    def _names_gone(self, step: MergeStep, col: int) -> bool:
        """Whether the cell names a token removed at the current merge."""
        return self._token_of(step, col) in self._gone

    def _restyle(self) -> None:
        """The theme's row colors, looked up once a move rather than per cell painted."""
        self._changed_bg, self._future_fg = changed_row_color(), future_text_color()

    def _on_session_reset(self, *_) -> None:
        self._restyle()
        self.beginResetModel()
        self._rows = len(self.session.timeline)
        self._current = self.session.merge_count
        self._has_removals = self._rule_removes()
        self._removals = _Removals()
        self._removals.scan(self.session.timeline)
        self._gone = self._removals.gone(self._current)
        self.endResetModel()

    def _on_session_moved(self, *_) -> None:
        self._restyle()
        n = len(self.session.timeline)
        if n < self._rows:  # a different future replaced the undone merges
            self.beginRemoveRows(QModelIndex(), n, self._rows - 1)
            self._rows = n
            self.endRemoveRows()
            self._removals = _Removals()  # the records that follow differ
        old, self._current = self._current, self.session.merge_count
        self._removals.scan(self.session.timeline)
        gone, self._gone = self._gone, self._removals.gone(self._current)
        if n > self._rows:
            self.beginInsertRows(QModelIndex(), self._rows, n - 1)
            self._rows = n
            self.endInsertRows()
        lo, hi = sorted((old, self._current))
        lo, hi = max(lo - 1, 0), min(hi, self._rows) - 1
        if self._rows and hi >= lo:
            self.dataChanged.emit(self.index(lo, 0), self.index(hi, self.columnCount() - 1),
                                  [FOREGROUND, BACKGROUND, FONT, TOOLTIP])
        if gone != self._gone and self._rows:  # a token removed or back: its names anywhere in the table
            self.dataChanged.emit(self.index(0, 0), self.index(self._rows - 1, self.columnCount() - 1), [FONT, TOOLTIP])


class _Removals:
    """The removals and the merges that made each token, read once from the records as rows arrive, so the
    tokens removed at any merge are found from the few removal events, not from every row."""

    def __init__(self) -> None:
        self.scanned = 0
        self.events: List[Tuple[int, int]] = []  # (rank, removed token id), in rank order
        self.made: Dict[int, List[int]] = {}  # token id -> the ranks of the merges that made it
        self.last: Optional[MergeStep] = None  # the last record read (a replaced one means another branch)

    def scan(self, steps: List[MergeStep]) -> None:
        """Read the records not read yet; all of them again when those read were replaced (another branch)."""
        if self.scanned and (len(steps) < self.scanned or steps[self.scanned - 1] is not self.last):
            self.__init__()
        for step in steps[self.scanned:]:
            self.made.setdefault(step.new_id, []).append(step.rank)
            self.events += [(step.rank, r.token_id) for r in step.removals]
        self.scanned = len(steps)
        self.last = steps[-1] if steps else None

    def gone(self, k: int) -> Set[int]:
        """The tokens removed after the first ``k`` merges (a later merge that made one again brings it back)."""
        out: Set[int] = set()
        for rank, token in self.events:
            if rank > k:
                break
            if any(rank < r <= k for r in self.made.get(token, ())):
                continue
            out.add(token)
        return out


class MergesView(RowsView):
    """A :class:`~bpe_lens_app.widgets.quiet.RowsView` that repaints only the new rows when rows are appended.

    QTableView answers any row insert with a delayed items layout that repaints the whole
    viewport (~2 ms for a dozen rows of six columns: every merge). Rows appended at the end move
    nothing already drawn, so for them the layout only updates the scroll range and repaints the
    new rows' strip; anything else (reset, removal, sort, font change) lays out as usual.
    """

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._appended: Optional[int] = None  # first row appended since the last layout
        # per pixel: an appended row leaves the offset alone (per item, a view at the bottom is
        # bottom-aligned, and a new row would move what is drawn without repainting it)
        self.setVerticalScrollMode(QAbstractItemView.ScrollPerPixel)
        self.setVerticalScrollBar(QuietScrollBar(Qt.Vertical, self))  # its range grows every step

    def setModel(self, model) -> None:
        super().setModel(model)
        model.rowsInserted.connect(self._on_model_rows_inserted)
        for signal in (model.modelReset, model.layoutChanged, model.rowsRemoved, model.rowsMoved,
                       model.columnsInserted, model.columnsRemoved):
            signal.connect(self._on_model_reshaped)

    def _on_model_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        if parent.isValid() or last != self.model().rowCount() - 1 or self._appended == -1:
            self._appended = -1  # not (only) appended: lay out everything
        elif self._appended is None:
            self._appended = first

    def _on_model_reshaped(self, *_) -> None:
        self._appended = -1

    def doItemsLayout(self) -> None:
        first, self._appended = self._appended, None
        if first is None or first < 0:
            super().doItemsLayout()
            return
        self.updateGeometries()  # the scroll range
        # the new rows' strip (rows restyled meanwhile were updated by RowsView.dataChanged)
        viewport = self.viewport()
        top = max(self.rowViewportPosition(first), 0)
        if top < viewport.height():
            viewport.update(0, top, viewport.width(), viewport.height() - top)


class MergesTable(QWidget):
    seek_requested = Signal(int)

    def __init__(self, session: Session, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = MergesModel(session, self)
        self.view = MergesView(self)
        self.view.setObjectName("merges_table")
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Stretch)  # the token columns share what is left
        header.setMinimumSectionSize(self._text_width("right"))  # never narrower than their headers
        # not ResizeToContents: that asks data() of up to 1,000 rows on every scroll (9 ms a step)
        self._size_number_columns()
        self._size_removed_column()
        self.model.modelReset.connect(self._size_number_columns)
        self.model.modelReset.connect(self._size_removed_column)
        self.model.rowsInserted.connect(self._on_first_rows)
        self.view.clicked.connect(self._on_view_clicked)
        self.view.activated.connect(self._on_view_clicked)  # Enter on a row
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel(wordWrap=True)
        self._retitle()
        self.model.modelReset.connect(self._retitle)
        layout.addWidget(self.title)  # (wraps: its width never sets the window's least width on small screens)
        layout.addWidget(self.view)
        session.steps_applied.connect(self._follow)
        session.steps_undone.connect(self._follow)

    def _retitle(self) -> None:
        """The pane's title; a run whose rule removes tokens also says what its marks mean."""
        text = "<b>Merges</b> — click a row to go to that merge; greyed rows were undone"
        if self.model.columnCount() > MergesModel.REMOVED:
            text += "; ✂ a token removed after that merge, struck through while it is gone"
        self.title.setText(text)

    def _text_width(self, text: str) -> int:
        """The width a column needs to show ``text`` whole, in the header's or the cells' font."""
        fm = max((self.view.horizontalHeader().fontMetrics(), self.view.fontMetrics()),
                 key=lambda m: m.horizontalAdvance(text))
        return fm.horizontalAdvance(text) + 16

    def _size_number_columns(self) -> None:
        """The rank, count and words columns fixed at the width of their widest number (the first merge's count
        is the largest, and no merge changes more words than its count) or their header, whichever is wider."""
        header, m = self.view.horizontalHeader(), self.model
        timeline = self.session.timeline
        widest = f"{max(timeline[0].count, 88_888) if timeline else 8_888_888:,}"
        for col, sample in ((MergesModel.RANK, "88,888"), (MergesModel.COUNT, widest), (MergesModel.WORDS, widest)):
            header.setSectionResizeMode(col, QHeaderView.Fixed)
            header.resizeSection(col, max(self._text_width(sample), self._text_width(m.HEADERS[col])))

    def _on_first_rows(self, _parent, first: int, _last: int) -> None:
        if first == 0:  # the first merge's count is known now
            self._size_number_columns()

    def _size_removed_column(self) -> None:
        """A run that removes tokens: its "removed" column as wide as a typical label (at most 2/5 of the
        table; the user may drag it), the others stretched."""
        if self.model.columnCount() > MergesModel.REMOVED:
            header = self.view.horizontalHeader()
            header.setSectionResizeMode(MergesModel.REMOVED, QHeaderView.Interactive)
            label = self.view.fontMetrics().horizontalAdvance("✂ ·abc → · abc (IoS 0.93)") + 12
            header.resizeSection(MergesModel.REMOVED, min(label, max(80, self.view.viewport().width() * 2 // 5)))

    def _on_view_clicked(self, index: QModelIndex) -> None:
        self.seek_requested.emit(index.data(RANK_ROLE))

    def _follow(self, steps: List[MergeStep]) -> None:
        k = self.session.merge_count
        if k and self.view.isVisible():
            with self.view.verticalScrollBar().held():  # a longer range, and the newest row in view
                self.view.updateGeometries()  # the scroll range of appended rows is otherwise updated lazily
                self.view.scrollTo(self.model.index(k - 1, 0))

    def rows_text(self) -> List[List[str]]:
        """The table as displayed (tests, CSV)."""
        m = self.model
        return [[m.index(r, c).data() for c in range(m.columnCount())] for r in range(m.rowCount())]
