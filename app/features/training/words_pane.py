"""Words pane: every unique word with its frequency and current segmentation as chips.

Filter (substring), sort (frequency / alphabet / tokens per word), the words table
(:class:`~bpe_lens_app.features.training.words_model.WordsModel` in a
:class:`~bpe_lens_app.widgets.chips_table.ChipsView`), the words the last merge changed
(before → after) and the selected word's history: which merge changed it, step by step. The
chips the last merge created are outlined for ~300 ms.
"""
from __future__ import annotations

from typing import List, Optional, Set, Tuple

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QSplitter, QVBoxLayout, QWidget

from bpe_core import MergeStep
from bpe_core.analysis import removal_label, removals_in_word

from ...session.session import Session
from ...widgets.theme import FLASH_MS, WARM_MS, sort_arrows_follow_order
from ...widgets.chip_text import chip_text
from ...widgets.chips_table import ChipRowsModel, TokenChips, chips_table
from ...widgets.quiet import live_label
from .words_model import WORD_INDEX_ROLE, WordsModel

__all__ = ["WordsPane"]


class WordsPane(QWidget):
    """The words table with filter and sort, the last merge's changes and the selected word's history."""

    word_selected = Signal(int)  # word index

    def __init__(self, session: Session, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        # a chip's tooltip tells the count its pair had when it merged (the newest merge that made it)
        self.token_chips = TokenChips(session.token, count=lambda t: next(
            (st.count for st in reversed(session.history) if st.new_id == t), None))
        session.corpus_loaded.connect(self.token_chips.clear)
        session.tokens_renamed.connect(self.token_chips.clear)
        self.model = WordsModel(session, self.token_chips, self)
        self.filter_edit = QLineEdit(self, placeholderText="filter words (Ctrl+F)", clearButtonEnabled=True)
        self.filter_edit.textChanged.connect(self._on_filter_text_changed)
        self.sort_box = QComboBox(self)
        self.sort_box.addItems(list(WordsModel.SORTS))
        self.sort_box.currentTextChanged.connect(self.sort_by)
        self.count_label = live_label(self, min_text="888,888 of 888,888 words")
        self.table = chips_table(self.model, self.token_chips, [WordsModel.SEGMENTATION], WordsModel.SEGMENTATION)
        self.table.setSortingEnabled(True)
        sort_arrows_follow_order(self.table.horizontalHeader())
        self.table.setColumnWidth(WordsModel.WORD, 130)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.model.set_visible_rows(self._table_rows_shown)
        self.changed_title = live_label(self)
        self.changed_model = ChipRowsModel(("word", "frequency", "before", "after"), (2, 3), self.token_chips, self)
        self.changed_table = chips_table(self.changed_model, self.token_chips, (2, 3), 3)
        self.history_title = live_label(self, "Select a word to see which merges built it.")
        self.history_model = ChipRowsModel(("merge", "pair", "segmentation"), (2,), self.token_chips, self)
        self.history_table = chips_table(self.history_model, self.token_chips, (2,), 2)
        self._flash_timer = QTimer(self, singleShot=True, interval=FLASH_MS)
        self._flash_timer.timeout.connect(self._on_flash_timer_timeout)
        self._warm_timer = QTimer(self, singleShot=True, interval=WARM_MS)  # the next merge's rows, made ahead
        self._warm_timer.timeout.connect(self._warm_next_changes)
        self._selected: Optional[int] = None
        self._build_layout()
        self.sort_by("frequency")
        for signal in (session.corpus_loaded, session.reset_done):
            signal.connect(self._on_session_reset)
        session.steps_applied.connect(self._on_session_steps_applied)
        session.steps_undone.connect(self._on_session_steps_undone)
        session.caught_up.connect(self._show_changes)  # after a seek: the merge's examples, from the trainer
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
        for table in (self.table, self.changed_table, self.history_table):  # a header and a row at the least:
            table.setMinimumHeight(table.horizontalHeader().sizeHint().height() + 24)  # small screens fit
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
        self._warm_timer.start()
        if self._selected is not None and any(self._selected in st.changed_words for st in steps):
            self._show_history(self._selected)
        elif old and any(i in old for row in self.history_model.rows for i in row[2]):
            self.history_table.viewport().update()  # the previous merge's outline goes

    def _on_session_steps_undone(self, steps: List[MergeStep]) -> None:
        self._show_changes()
        self._warm_timer.start()
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
        # short: at 1024 px this pane is ~300 px wide (the rows below are the most frequent words)
        self.changed_title.setText(
            f"Merge {step.rank} ({text(step.left).text} + {text(step.right).text} → {text(step.new_id).text}) "
            f"changed {len(step.changed_words):,} word{'' if len(step.changed_words) == 1 else 's'}")
        self.changed_model.set_rows(_change_rows(s.examples(step)))  # a bulk run's merge: from the records

    def _warm_next_changes(self) -> None:
        """The next merge's changed words as its step will show them (when it is known: read ahead, or undone),
        painted offscreen (:meth:`ChipsView.warm`)."""
        step, view = self.session.next_step(), self.changed_table
        if step is None or not step.examples or not view.isVisible():
            return
        first = max(0, view.rowAt(0))
        shown = view.viewport().height() // max(1, view.verticalHeader().defaultSectionSize()) + 1
        view.warm(_change_rows(step.examples[first:first + shown]), {step.new_id})

    def _show_history(self, word_index: int) -> None:
        self._selected = word_index
        s = self.session
        text = self.token_chips.chip
        rows: List[Tuple] = []
        before: Tuple[int, ...] = ()
        removed = 0
        for step, seg in s.word_history(word_index):
            if step is None:
                rows.append(("start", "", seg))
            else:
                what = [f"{text(step.left).text} + {text(step.right).text}"] if seg.count(step.new_id) > before.count(
                    step.new_id) else []
                cuts = [removal_label(r, lambda t: text(t).text) for r in removals_in_word(step, before, seg)]
                removed += bool(cuts)
                rows.append((f"{step.rank}", "; ".join(what + cuts), seg))
            before = tuple(seg)
        self.history_title.setText(
            f"<b>{chip_text(s.words[word_index])[0]}</b> ({s.freqs[word_index]:,}×): "
            f"{len(rows) - 1} merge(s) changed it" + (f", {removed} removal(s) split it" if removed else ""))
        self.history_model.set_rows(rows)


def _change_rows(examples) -> List[Tuple]:
    """The changed-words table's rows: word, frequency, segmentation before and after the merge."""
    return [(chip_text(ex.word)[0], f"{ex.freq:,}", ex.before, ex.after) for ex in examples]
