"""Tables whose cells show token-id tuples as rows of chips.

* :class:`TokenChips` — a chip per token id, cached (cleared when the ids change meaning);
* :class:`ChipsView` — a :class:`~.quiet.RowsView` that paints chip columns (``IDS_ROLE``);
* :class:`ChipRowsModel` — a short list of labelled segmentations, from plain rows;
* :func:`chips_table` — a ChipsView set up the way the panes show them.
"""
from __future__ import annotations

from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QToolTip, QWidget

from bpe_core.base import to_hex
from bpe_core.types import Raw

from .chip_text import UNKNOWN_LABEL, chip_text, escape_html, unknown_tooltip
from .chips import Chip, ChipMetrics, chips_size_hint, layout_chips, paint_chips
from .quiet import QuietScrollBar, RowsView
from .roles import ACCESSIBLE, DISPLAY, HORIZONTAL, IDS_ROLE

__all__ = ["TokenChips", "ChipsView", "ChipRowsModel", "chips_table"]

#: a chip cell's chips sit this far inside it (left, top, right, bottom)
CELL_MARGINS = (3, 1, -3, -1)


class TokenChips:
    """Chips of a vocabulary's tokens, cached by id; ``token(id)`` gives a token's bytes or text.

    Call :meth:`clear` when ids change meaning (another corpus or settings). ``count(id)``: the count of the
    pair a token was merged from, when known (its tooltip says it).
    """

    def __init__(self, token: Callable[[int], Raw], count: Optional[Callable[[int], Optional[int]]] = None) -> None:
        self.token = token
        self.count = count
        self._cache: Dict[int, Chip] = {}

    def clear(self, *_) -> None:
        self._cache.clear()

    def chip(self, token_id: int) -> Chip:
        chip = self._cache.get(token_id)
        if chip is None and token_id < 0:  # no token (``token(-1)`` would be the newest one)
            chip = self._cache[token_id] = Chip(UNKNOWN_LABEL, token_id, unknown=True)
        elif chip is None:
            text, partial = chip_text(self.token(token_id))
            chip = self._cache[token_id] = Chip(text, token_id, partial=partial)
        return chip

    def chips(self, ids: Iterable[int]) -> List[Chip]:
        return [self.chip(i) for i in ids]

    def tooltip(self, token_id: int) -> str:
        """What hovering a token's chip tells: its id, what it reads, its bytes in hex, its count when known."""
        if token_id < 0:
            return unknown_tooltip(None)
        raw = self.token(token_id)
        data = raw if isinstance(raw, bytes) else raw.encode("utf-8")
        lines = [f"<b>id {token_id}</b> · {escape_html(self.chip(token_id).text)}",
                 f"text: {escape_html(repr(data.decode('utf-8', 'replace')))}",
                 f"bytes ({len(data)}): {to_hex(data)}"]
        count = self.count(token_id) if self.count is not None else None
        if count is not None:
            lines.append(f"count when merged: {count:,}")
        return "<br>".join(lines)

    def text(self, ids: Iterable[int]) -> str:
        """Plain-text form of a segmentation: ``[lo][w]`` (DisplayRole, copy, tests)."""
        return "".join(f"[{self.chip(i).text}]" for i in ids)


class ChipsView(RowsView):
    """A table whose chip columns show token-id tuples (``IDS_ROLE``) as rows of chips
    (:func:`.chips.paint_chips`); the chips of ``flash_ids`` are outlined.

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
        columns = self._shown_chip_columns()
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
                    painter.setClipRect(cell.adjusted(*CELL_MARGINS))
                    self._paint_cell(painter, cell, ids, self.flash_ids, m)
        painter.end()

    def chip_at(self, pos: QPoint) -> Optional[int]:
        """The token id of the chip under ``pos`` (viewport coordinates), as :meth:`paintEvent` lays them out."""
        index, model = self.indexAt(pos), self.model()
        if not index.isValid() or index.column() not in self._shown_chip_columns():
            return None
        ids = model.chip_ids(index.row(), index.column()) or ()
        cell = self.visualRect(index).adjusted(*CELL_MARGINS)
        rects, _cut = layout_chips(cell, self.token_chips.chips(ids), self.metrics())
        return next((t for r, t in zip(rects, ids) if r.contains(QPointF(pos))), None)

    def viewportEvent(self, e) -> bool:
        if e.type() == QEvent.ToolTip:  # a chip tells its id, bytes and count; elsewhere the cell's own tooltip
            token_id = self.chip_at(e.pos())
            if token_id is not None:
                QToolTip.showText(e.globalPos(), self.token_chips.tooltip(token_id), self.viewport())
                return True
        return super().viewportEvent(e)

    def warm(self, rows: Iterable[Sequence], flash_ids: Set[int]) -> None:
        """Make the chip pixmaps a repaint of ``rows`` (a model's rows: token-id tuples in the chip columns) with
        ``flash_ids`` outlined would blit, painting their chip cells offscreen: the rows a coming merge shows,
        made while the user reads this one, so that its repaint only blits (a new token's chips in a few colors,
        outlined: ~0.2 ms each on the step otherwise)."""
        m = self.metrics()
        grid = 1 if self.showGrid() else 0
        height = self.verticalHeader().defaultSectionSize() - grid
        columns = self._shown_chip_columns()
        if not columns or height <= 2:
            return
        dpr = self.viewport().devicePixelRatioF()
        image = QImage(max(1, int(max(self.columnWidth(c) for c in columns) * dpr)), max(1, int(height * dpr)),
                       QImage.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(dpr)
        painter = QPainter(image)
        for row in rows:
            for col in columns:
                if row[col]:
                    self._paint_cell(painter, QRect(0, 0, self.columnWidth(col) - grid, height), row[col], flash_ids, m)
        painter.end()

    def _shown_chip_columns(self) -> List[int]:
        return [c for c in self.chip_columns if not self.isColumnHidden(c)]

    def _paint_cell(self, painter: QPainter, cell: QRect, ids: Sequence[int], flash_ids: Set[int],
                    m: ChipMetrics) -> None:
        """One cell's chips, as a repaint and :meth:`warm` both draw them."""
        paint_chips(painter, cell.adjusted(*CELL_MARGINS), self.token_chips.chips(ids), metrics=m,
                    highlight_ids=flash_ids)

    def sizeHintForColumn(self, column: int) -> int:
        if column not in self.chip_columns or self.model() is None:
            return super().sizeHintForColumn(column)
        m = self.metrics()
        widths = [chips_size_hint(self.token_chips.chips(self.model().chip_ids(r, column) or ()), m.font,
                                  metrics=m).width() for r in range(min(self.model().rowCount(), 100))]
        return max(widths, default=0) + 6


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


def chips_table(model, chips: TokenChips, chip_columns: Iterable[int], stretch: int) -> ChipsView:
    """A read-only, single-row-selection ChipsView of ``model``; column ``stretch`` takes the room left."""
    view = ChipsView(chips, chip_columns)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectRows)
    view.setSelectionMode(QAbstractItemView.SingleSelection)
    view.setEditTriggers(QAbstractItemView.NoEditTriggers)
    view.setWordWrap(False)
    view.verticalHeader().hide()
    view.setVerticalScrollBar(QuietScrollBar(Qt.Vertical, view))
    # always there: rows that come and go with each merge never narrow the chip columns (a scroll bar that
    # appears re-lays out the view a pass of the event loop after the step, and every chip cell moves)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.Interactive)
    header.setSectionResizeMode(stretch, QHeaderView.Stretch)
    header.setHighlightSections(False)
    view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
    view.verticalHeader().setDefaultSectionSize(ChipMetrics(view.font()).height() + 6)
    return view
