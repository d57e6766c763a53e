"""Vocabulary inspector: a searchable, sortable token list | the selected token's merge tree |
an encode pane over the same vocabulary.

The token list is :class:`~bpe_lens_app.features.inspector.token_model.TokenTableModel` (named column
constants, a token-id role; it sorts and filters itself, see there); the token column is painted
as chips by :class:`TokenChipDelegate`.
"""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QEvent, QModelIndex, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QSplitter, QStyle,
    QStyledItemDelegate, QTableView, QVBoxLayout, QWidget,
)

from bpe_core import BPEModel

from ...widgets.theme import sort_arrows_follow_order
from ...widgets.chips import ChipMetrics, model_chip, paint_chips
from ...widgets.merge_tree import MergeTreeView
from ...panes.encode_pane import EncodePane
from .token_model import TOKEN_ID_ROLE, TokenTableModel

__all__ = ["TokenChipDelegate", "InspectorTab"]


class TokenChipDelegate(QStyledItemDelegate):
    """Paints the token column as a chip (same colors as everywhere else)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._metrics: Optional[ChipMetrics] = None

    def paint(self, painter: QPainter, option, index: QModelIndex) -> None:
        model = index.model()
        vocab = getattr(model, "vocab_model", None)
        if vocab is None:
            return super().paint(painter, option, index)
        style = option.widget.style() if option.widget else QApplication.style()
        self.initStyleOption(option, index)
        option.text = ""
        style.drawControl(QStyle.CE_ItemViewItem, option, painter, option.widget)
        if self._metrics is None or self._metrics.font != option.font:
            self._metrics = ChipMetrics(option.font)
        chip = model_chip(vocab, index.data(TOKEN_ID_ROLE), mode="glyphs")
        r = option.rect.adjusted(3, 1, -3, -1)
        paint_chips(painter, QRect(r), [chip], option.font, metrics=self._metrics)

    def sizeHint(self, option, index) -> QSize:
        s = super().sizeHint(option, index)
        return QSize(s.width() + 12, s.height() + 4)


# --------------------------------------------------------------------------- tab
class InspectorTab(QWidget):
    """Token list | merge tree of the selected token | encode pane, for one vocabulary."""

    token_selected = Signal(int)
    train_further_requested = Signal()  # "Train further on a corpus…" (app/features/compare/actions.py answers it)
    biography_requested = Signal()  # "Token biography…" (biography_actions.py answers it)

    SEARCH_DEBOUNCE_MS = 150

    def __init__(self, model: BPEModel, title: str = "", parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.vocab_model = model
        self.title = title or model.name or "vocabulary"
        self.table_model = TokenTableModel(model, self)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search tokens: text, glyphs (Ġthe), id, or hex:e4 b8")
        self.search.setClearButtonEnabled(True)
        self.count_label = QLabel()
        self.further_button = QPushButton("Train further on a corpus…", objectName="train_further_button")
        self.further_button.setToolTip("Learn more merges on a corpus of yours, after this vocabulary's own")
        self.further_button.clicked.connect(self.train_further_requested)
        self.biography_button = QPushButton("Token biography…", objectName="biography_button")
        self.biography_button.setToolTip("Every token's birth, emitted count, residue ratio and IoS on a corpus")
        self.biography_button.clicked.connect(self.biography_requested)
        self.table = self._make_table()
        self.tree = MergeTreeView()
        self.tree.set_model(model)
        self.encode_pane = EncodePane()
        self.encode_pane.set_model(model)
        self._search_timer = QTimer(self, singleShot=True, interval=self.SEARCH_DEBOUNCE_MS)
        self._build_layout()

        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self._search_timer.timeout.connect(self.apply_search)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.table_model.filter_changed.connect(self._update_count)
        self.table_model.modelAboutToBeReset.connect(self._remember_selection)
        self.table_model.modelReset.connect(self._restore_selection)
        self.tree.token_clicked.connect(self.select_token)
        self.encode_pane.token_activated.connect(self.select_token)  # a chip clicked: its token
        self._update_count()

    def _make_table(self) -> QTableView:
        t = QTableView()
        t.setModel(self.table_model)
        t.setItemDelegateForColumn(TokenTableModel.COL_TOKEN, TokenChipDelegate(t))
        t.setSelectionBehavior(QAbstractItemView.SelectRows)
        t.setSelectionMode(QAbstractItemView.SingleSelection)
        t.setSortingEnabled(True)
        sort_arrows_follow_order(t.horizontalHeader())
        t.sortByColumn(TokenTableModel.COL_ID, Qt.AscendingOrder)
        t.setWordWrap(False)
        t.setAlternatingRowColors(True)
        vh = t.verticalHeader()
        vh.hide()
        vh.setSectionResizeMode(QHeaderView.Fixed)  # never measure 200k rows
        hh = t.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.Interactive)
        hh.setStretchLastSection(True)
        self._size_columns(t)
        return t

    def _size_columns(self, t: QTableView) -> None:
        """Column widths from the font (no ResizeToContents: it would measure every row)."""
        fm = t.fontMetrics()
        t.verticalHeader().setDefaultSectionSize(fm.height() + 10)
        digits = fm.horizontalAdvance("0") * len(f"{len(self.vocab_model.tokens):,}") + 16
        widths = {TokenTableModel.COL_ID: digits, TokenTableModel.COL_TOKEN: fm.horizontalAdvance("M") * 10,
                  TokenTableModel.COL_TEXT: fm.horizontalAdvance("M") * 7,
                  TokenTableModel.COL_BYTES: fm.horizontalAdvance("00 ") * 5,
                  TokenTableModel.COL_LENGTH: fm.horizontalAdvance("length") + 24}
        for col, w in widths.items():
            t.setColumnWidth(col, w)

    def changeEvent(self, e) -> None:
        super().changeEvent(e)
        if e.type() == QEvent.FontChange and hasattr(self, "table"):
            self._size_columns(self.table)

    def _build_layout(self) -> None:
        left = QWidget()
        lay = QVBoxLayout(left)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.search)
        row = QHBoxLayout()
        row.addWidget(self.count_label, 1)
        row.addWidget(self.biography_button)
        row.addWidget(self.further_button)
        lay.addLayout(row)
        lay.addWidget(self.table, 1)
        right = QSplitter(Qt.Vertical)
        right.addWidget(self.tree)
        right.addWidget(self.encode_pane)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)
        right.setSizes([600, 400])
        self.tree.setMinimumHeight(160)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        split.setSizes([560, 840])
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addWidget(split)

    # -- public
    def apply_search(self) -> None:
        """Filter the list by the search box now (skipping the debounce)."""
        self._search_timer.stop()
        self.table_model.set_filter(self.search.text())

    def select_token(self, token_id: int) -> bool:
        """Select ``token_id`` in the list (clearing a filter that hides it) and show its tree."""
        row = self.table_model.row_of(token_id)
        if row < 0 and self.search.text():
            self.search.blockSignals(True)
            self.search.clear()
            self.search.blockSignals(False)
            self.table_model.set_filter("")
            row = self.table_model.row_of(token_id)
        if row < 0:
            return False
        idx = self.table_model.index(row, 0)
        self.table.setCurrentIndex(idx)
        self.table.scrollTo(idx, QAbstractItemView.PositionAtCenter)
        return True

    def selected_token(self) -> Optional[int]:
        idx = self.table.currentIndex()
        return self.table_model.token_id(idx.row()) if idx.isValid() else None

    # -- slots
    def _remember_selection(self) -> None:
        self._kept = self.selected_token()

    def _restore_selection(self) -> None:
        """Keep the selected token selected across a filter change when it is still listed."""
        kept = getattr(self, "_kept", None)
        row = self.table_model.row_of(kept) if kept is not None else -1
        if row >= 0:
            self.table.setCurrentIndex(self.table_model.index(row, 0))

    def _on_table_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        tid = self.table_model.token_id(current.row())
        self.tree.show_token(tid)
        self.token_selected.emit(tid)

    def _update_count(self) -> None:
        shown, total = self.table_model.rowCount(), self.table_model.total()
        self.count_label.setText(f"{total:,} tokens" if shown == total else f"{shown:,} of {total:,} tokens")
