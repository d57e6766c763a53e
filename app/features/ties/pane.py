"""The tie inspector: the pairs tied with the top count at the position, which pair each tie rule picks
and why, and "Merge this instead" for any listed pair (the next pairs below the tied ones, greyed).

It shows a :class:`~bpe_core.training.ties.Ties` as it is given; it computes nothing and emits the pick
as an intent (``pick_requested``).
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from bpe_core.training import Ties
from bpe_core.types import TIE_BREAKS

from ...widgets.chip_text import chip_text

#: a next pair that is not tied: (left id, right id), its count, its tokens as shown
OtherPair = Tuple[Tuple[int, int], int, Tuple[str, str]]

PAIR, COUNT, FIRST, PICKED = range(4)
HEADERS = ("Pair", "Count", "First seen (word, unit)", "Picked by")


def pair_text(text: Tuple[str, str]) -> str:
    return f'"{text[0]}" + "{text[1]}"'


class TiesPane(QWidget):
    """Tied pairs and each rule's pick; select a row and press "Merge this instead"."""

    pick_requested = Signal(object)  # (left id, right id)

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setObjectName("ties_pane")
        self.header = QLabel("No corpus loaded.", wordWrap=True, objectName="ties_header")
        self.table = QTableWidget(0, len(HEADERS), objectName="ties_table")
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.why = QLabel("", wordWrap=True, objectName="ties_why", textInteractionFlags=Qt.TextSelectableByMouse)
        self.pick_button = QPushButton("Merge this instead", objectName="ties_pick", enabled=False)
        self.pick_button.setToolTip("Merge the selected pair at this position instead of the rule's pair; "
                                    "the rule's merges are kept as a branch to switch to and compare with")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for w in (self.header, self.table, self.why, self.pick_button):
            layout.addWidget(w)
        layout.setStretch(1, 1)
        self._pairs: list = []
        self.table.itemSelectionChanged.connect(self._on_table_selection_changed)
        self.pick_button.clicked.connect(self._on_pick_button_clicked)

    def show_ties(self, ties: Optional[Ties], others: Sequence[OtherPair] = (), *, waiting: str = "") -> None:
        """Show ``ties`` (None: ``waiting`` says why nothing is shown) and, greyed, the ``others``."""
        self.table.setRowCount(0)
        self._pairs = []
        if ties is None or not ties.candidates:
            self.header.setText(waiting or "No pair left to merge.")
            self.why.setText("")
            self.pick_button.setEnabled(False)
            return
        n = len(ties.candidates)
        merge = ties.position + 1
        if ties.is_tie:
            self.header.setText(f"Merge {merge}: {n} pairs tied at count {ties.count:,} — this run uses "
                                f"the {ties.rule} rule. Outlined in the pair chart.")
        else:
            self.header.setText(f"Merge {merge}: no tie — one pair has the top count {ties.count:,}.")
        bold = QFont(self.font())
        bold.setBold(True)
        for c, word in zip(ties.candidates, ties.words):
            rules = ties.rules_picking(c.pair)
            label = ", ".join(r + (" (this run)" if r == ties.rule else "") for r in rules)
            self._add_row(c.pair, (pair_text(c.text), f"{c.count:,}", f"{c.first[0]} ({chip_text(word)[0]}), {c.first[1]}",
                                   label), bold if ties.rule in rules else None)
        tied = {c.pair for c in ties.candidates}
        for pair, count, text in others:
            if pair not in tied:
                self._add_row(pair, (pair_text(text), f"{count:,}", "", ""), None, grey=True)
        self.why.setText("\n".join(f"{r}: {ties.why[r]}" for r in TIE_BREAKS))
        self.pick_button.setEnabled(False)
        self.table.scrollToTop()  # a new position: its tied pairs in view, not where the last one was scrolled

    def _add_row(self, pair, texts, font, *, grey: bool = False) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self._pairs.append(pair)
        for col, text in enumerate(texts):
            item = QTableWidgetItem(text)
            if col == COUNT:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            if font is not None:
                item.setFont(font)
            if grey:
                item.setForeground(self.palette().placeholderText())
            self.table.setItem(row, col, item)

    def pairs(self) -> list:
        """The listed pairs (ids), in row order (tests)."""
        return list(self._pairs)

    def rows(self) -> list:
        """The table's texts, row by row (tests)."""
        return [[self.table.item(r, c).text() for c in range(len(HEADERS))] for r in range(self.table.rowCount())]

    def select_pair(self, pair: Tuple[int, int]) -> None:
        self.table.selectRow(self._pairs.index(pair))

    def _on_table_selection_changed(self) -> None:
        self.pick_button.setEnabled(bool(self.table.selectionModel().selectedRows()))

    def _on_pick_button_clicked(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.pick_requested.emit(self._pairs[rows[0].row()])
