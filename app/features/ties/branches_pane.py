"""The branches of the training run: a list (the current one starred), Switch, and a comparison of a
branch with the current one — merges side by side from where they part, and the words they split
differently side by side.

Shows what it is given (:class:`~bpe_core.training.branches.BranchComparison`); emits intents.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QSplitter, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from bpe_core import MergeStep
from bpe_core.base import display
from bpe_core.training import BranchComparison

from ...widgets.chip_text import chip_text

#: one branch as listed: (id, name, fork, merges known, is current)
BranchRow = Tuple[int, str, int, int, bool]


def merge_text(step: Optional[MergeStep]) -> str:
    if step is None:
        return ""
    return f'"{display(step.left_token)}" + "{display(step.right_token)}"  ({step.count:,})'


def _table(name: str, headers: Sequence[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers), objectName=name)
    table.setHorizontalHeaderLabels(list(headers))
    table.setEditTriggers(QAbstractItemView.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


def _fill(table: QTableWidget, rows: Sequence[Sequence[str]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(text))


class BranchesPane(QWidget):
    """Branch list with Switch and Compare; the comparison below it."""

    switch_requested = Signal(int)
    compare_requested = Signal(int)  # compare this branch with the current one
    diff_requested = Signal(int)  # the whole tokenizer diff of this branch and the current one, in a tab

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.setObjectName("branches_pane")
        self.list = QListWidget(objectName="branches_list")
        self.switch_button = QPushButton("Switch to", objectName="branches_switch", enabled=False)
        self.compare_button = QPushButton("Compare with current", objectName="branches_compare", enabled=False)
        self.diff_button = QPushButton("Diff in a tab", objectName="branches_diff", enabled=False,
                                       toolTip="The two branches' vocabularies compared as tokenizers (a comparison tab)")
        self.title = QLabel("\"Merge this instead\" on another pair than the rule's makes a branch.", wordWrap=True,
                            objectName="branches_title")
        self.merges = _table("branches_merges", ("Merge", "A", "B"))
        self.words = _table("branches_words", ("Word", "Count", "A", "B"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.switch_button)
        buttons.addWidget(self.compare_button)
        buttons.addWidget(self.diff_button)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(QLabel("Branches"))
        top_layout.addWidget(self.list)
        top_layout.addLayout(buttons)
        top_layout.addWidget(self.title)
        split = QSplitter(Qt.Vertical)
        for w in (top, self.merges, self.words):
            split.addWidget(w)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)
        self._current = 0
        self.list.currentItemChanged.connect(self._on_list_current_item_changed)
        self.switch_button.clicked.connect(lambda: self._emit(self.switch_requested))
        self.compare_button.clicked.connect(lambda: self._emit(self.compare_requested))
        self.diff_button.clicked.connect(lambda: self._emit(self.diff_requested))

    def show_branches(self, rows: Sequence[BranchRow]) -> None:
        selected = self.selected_id()
        self.list.clear()
        for bid, name, fork, known, current in rows:
            text = f"{'★ ' if current else '   '}{name} — parts at merge {fork}, {known} merges known"
            item = QListWidgetItem(text)
            item.setData(Qt.UserRole, bid)
            self.list.addItem(item)
            if current:
                self._current = bid
            if bid == selected:
                self.list.setCurrentItem(item)
        self._on_list_current_item_changed()

    def show_comparison(self, cmp: Optional[BranchComparison]) -> None:
        if cmp is None:
            return
        a, b = cmp.names
        self.title.setText(f"A: {a}\nB: {b}\nThey part after merge {cmp.fork}; words after {cmp.depth} "
                           f"merges on each.")
        _fill(self.merges, [(str(rank), merge_text(x), merge_text(y)) for rank, x, y in cmp.rows])
        _fill(self.words, [(chip_text(word)[0], f"{freq:,}", " | ".join(x), " | ".join(y)) for word, freq, x, y in cmp.words])

    def branch_texts(self) -> list:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def selected_id(self) -> Optional[int]:
        item = self.list.currentItem()
        return None if item is None else item.data(Qt.UserRole)

    def select_branch(self, branch_id: int) -> None:
        for i in range(self.list.count()):
            if self.list.item(i).data(Qt.UserRole) == branch_id:
                self.list.setCurrentRow(i)

    def _emit(self, signal) -> None:
        bid = self.selected_id()
        if bid is not None:
            signal.emit(bid)

    def _on_list_current_item_changed(self, *_) -> None:
        bid = self.selected_id()
        other = bid is not None and bid != self._current
        self.switch_button.setEnabled(other)
        self.compare_button.setEnabled(other)
        self.diff_button.setEnabled(other)
