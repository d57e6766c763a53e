"""The training tables' models from plain in-memory data: no corpus, no trainer, no view.

:class:`PlainSession` holds three words and two hand-written merges and emits the session's
signals; each model is checked by pytest-qt's model tester and by what it answers.
"""
from __future__ import annotations

from typing import List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont

from bpe_core.types import MergeStep, TrainingStats, WordChange
from bpe_lens_app.features.training.merges_table import RANK_ROLE, MergesModel
from bpe_lens_app.features.training.words_model import IDS_ROLE, WORD_INDEX_ROLE, WordsModel
from bpe_lens_app.widgets.theme import changed_row_color, future_text_color
from bpe_lens_app.widgets.chips_table import ChipRowsModel, TokenChips

TOKENS = ["l", "o", "w", "e", "r", "n", "s", "t", "lo", "low"]
WORDS, FREQS = ["low", "lower", "newest"], [5, 2, 6]
START: List[Tuple[int, ...]] = [(0, 1, 2), (0, 1, 2, 3, 4), (5, 3, 2, 3, 6, 7)]
AFTER = [  # segmentations after merge 1 (l + o) and merge 2 (lo + w)
    [(8, 2), (8, 2, 3, 4), START[2]],
    [(9,), (9, 3, 4), START[2]],
]


def _step(rank: int, left: int, right: int, new: int, count: int, before, after) -> MergeStep:
    changed = tuple(i for i in range(len(WORDS)) if before[i] != after[i])
    return MergeStep(rank, left, right, new, TOKENS[left], TOKENS[right], TOKENS[new], count, True, changed,
                     tuple(WordChange(i, WORDS[i], FREQS[i], before[i], after[i]) for i in changed), (),
                     TrainingStats(rank, 8 + rank, 0, sum(FREQS), 14))


STEPS = [_step(1, 0, 1, 8, 7, START, AFTER[0]), _step(2, 8, 2, 9, 7, AFTER[0], AFTER[1])]


class PlainSession(QObject):
    """The part of the session the table models read, over the lists above."""

    corpus_loaded = Signal(object)
    reset_done = Signal()
    steps_applied = Signal(list)
    steps_undone = Signal(list)

    def __init__(self) -> None:
        super().__init__()
        self.words, self.freqs = list(WORDS), list(FREQS)
        self.merge_count = 0
        self.timeline: List[MergeStep] = []

    @property
    def history(self) -> List[MergeStep]:
        return self.timeline[: self.merge_count]

    def segmentation(self, i: int) -> Tuple[int, ...]:
        return AFTER[self.merge_count - 1][i] if self.merge_count else START[i]

    def token(self, token_id: int) -> str:
        return TOKENS[token_id]

    def step(self) -> None:
        step = STEPS[self.merge_count]
        self.timeline[self.merge_count:] = [step] + self.timeline[self.merge_count + 1:]
        self.merge_count += 1
        self.steps_applied.emit([step])

    def undo(self) -> None:
        self.merge_count -= 1
        self.steps_undone.emit([self.timeline[self.merge_count]])


@pytest.fixture
def plain(qapp) -> PlainSession:
    return PlainSession()


def _column(model, column: int, role=Qt.DisplayRole) -> list:
    return [model.index(r, column).data(role) for r in range(model.rowCount())]


def test_words_model_from_plain_data(qtmodeltester, plain):
    model = WordsModel(plain, TokenChips(plain.token))
    qtmodeltester.check(model)
    assert _column(model, WordsModel.WORD) == ["newest", "low", "lower"]  # by frequency, high first
    assert _column(model, WordsModel.FREQ) == ["6", "5", "2"]
    assert _column(model, WordsModel.TOKENS) == ["6", "3", "5"]
    assert _column(model, WordsModel.SEGMENTATION, IDS_ROLE) == [START[2], START[0], START[1]]
    assert _column(model, WordsModel.SEGMENTATION, Qt.AccessibleTextRole) == [
        "[n][e][w][e][s][t]", "[l][o][w]", "[l][o][w][e][r]"]
    assert _column(model, WordsModel.WORD, WORD_INDEX_ROLE) == [2, 0, 1]
    assert _column(model, WordsModel.WORD, Qt.BackgroundRole) == [None, None, None]


def test_words_model_signals_and_highlights_what_a_merge_changed(qtmodeltester, plain):
    model = WordsModel(plain, TokenChips(plain.token))
    changed = []
    model.dataChanged.connect(lambda top, bottom, *_: changed.append((top.row(), bottom.row())))
    plain.step()
    qtmodeltester.check(model)
    assert changed == [(1, 2)]  # low and lower, adjacent rows: one signal
    assert _column(model, WordsModel.SEGMENTATION, IDS_ROLE) == [START[2], (8, 2), (8, 2, 3, 4)]
    assert _column(model, WordsModel.WORD, Qt.BackgroundRole) == [None, changed_row_color(), changed_row_color()]
    assert _column(model, WordsModel.WORD, Qt.ToolTipRole) == [None, "changed by merge 1", "changed by merge 1"]
    plain.undo()
    assert _column(model, WordsModel.WORD, Qt.BackgroundRole) == [None, None, None]
    assert _column(model, WordsModel.SEGMENTATION, IDS_ROLE) == [START[2], START[0], START[1]]


def test_words_model_filters_and_sorts(qtmodeltester, plain):
    model = WordsModel(plain, TokenChips(plain.token))
    model.set_filter("LOW")
    assert _column(model, WordsModel.WORD) == ["low", "lower"]
    assert [model.row_of(i) for i in range(3)] == [0, 1, -1]
    model.sort(WordsModel.WORD, Qt.DescendingOrder)
    assert _column(model, WordsModel.WORD) == ["lower", "low"]
    model.set_filter("")
    model.sort(WordsModel.TOKENS, Qt.DescendingOrder)
    assert _column(model, WordsModel.WORD) == ["newest", "lower", "low"]
    qtmodeltester.check(model)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(st.text(alphabet="aAbB", min_size=1, max_size=3), st.integers(1, 3), st.integers(1, 3)),
                     max_size=30),
       column=st.sampled_from([WordsModel.WORD, WordsModel.FREQ, WordsModel.TOKENS, WordsModel.SEGMENTATION]),
       descending=st.booleans(), needle=st.sampled_from(["", "a", "AB", "zz"]))
def test_words_model_rows_are_a_stable_sort_of_the_words_it_keeps(plain, rows, column, descending, needle):
    """Rows (numpy sorts the numbers) are the words the filter keeps (case-insensitive) in a stable sort by the
    column (the segmentation column sorts by token count), ties in corpus order both ways; ``row_of`` inverts
    it. Few distinct values: many ties."""
    plain.words = [w for w, _, _ in rows]
    plain.freqs = [f for _, f, _ in rows]
    plain.segmentation = lambda i: tuple(range(rows[i][2]))
    model = WordsModel(plain, TokenChips(plain.token))
    model.set_filter(needle)
    model.sort(column, Qt.DescendingOrder if descending else Qt.AscendingOrder)
    kept = [i for i, w in enumerate(plain.words) if needle.lower() in w.lower()]
    key = {WordsModel.WORD: lambda i: plain.words[i], WordsModel.FREQ: lambda i: plain.freqs[i]}.get(
        column, lambda i: rows[i][2])
    want = sorted(kept, key=key, reverse=descending)
    assert [model.word_index(r) for r in range(model.rowCount())] == want
    assert all(type(model.word_index(r)) is int for r in range(model.rowCount()))
    assert [model.row_of(i) for i in range(len(rows))] == [want.index(i) if i in want else -1 for i in range(len(rows))]


def test_merges_model_from_plain_data(qtmodeltester, plain):
    model = MergesModel(plain)
    qtmodeltester.check(model)
    assert model.rowCount() == 0
    plain.step()
    plain.step()
    plain.undo()  # merge 2 stays listed, greyed
    qtmodeltester.check(model)
    assert [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(2)] == [
        ["1", "l", "o", "lo", "7", "2"], ["2", "lo", "w", "low", "7", "2"]]
    assert _column(model, MergesModel.RANK, RANK_ROLE) == [1, 2]
    assert _column(model, MergesModel.RANK, Qt.BackgroundRole) == [changed_row_color(), None]
    assert _column(model, MergesModel.RANK, Qt.ForegroundRole) == [None, future_text_color()]
    bold = _column(model, MergesModel.RANK, Qt.FontRole)
    assert isinstance(bold[0], QFont) and bold[0].bold() and bold[1] is None
    assert _column(model, MergesModel.RANK, Qt.ToolTipRole) == [
        "merge 1, applied: 7 occurrences, 2 words", "merge 2, undone (click to go there again): 7 occurrences, 2 words"]


def test_chip_rows_model_from_plain_rows(qtmodeltester, plain):
    model = ChipRowsModel(("word", "frequency", "after"), (2,), TokenChips(plain.token))
    qtmodeltester.check(model)
    model.set_rows([("low", "5", (9,)), ("lower", "2", (9, 3, 4))])
    qtmodeltester.check(model)
    assert _column(model, 0) == ["low", "lower"]
    assert _column(model, 2) == [None, None]  # chips are painted, not written
    assert _column(model, 2, IDS_ROLE) == [(9,), (9, 3, 4)]
    assert _column(model, 2, Qt.AccessibleTextRole) == ["[low]", "[low][e][r]"]
    assert model.chip_ids(1, 2) == (9, 3, 4) and model.chip_ids(1, 0) is None
    model.set_rows([("newest", "6", START[2])])
    assert model.rowCount() == 1 and _column(model, 0) == ["newest"]
    qtmodeltester.check(model)


def test_a_chips_view_makes_ahead_what_a_repaint_blits(qtbot):
    """ChipsView.warm paints rows offscreen: showing those rows (with the same chips outlined) then blits only."""
    from bpe_lens_app.widgets.chips_table import chips_table

    chips = TokenChips(lambda i: f"t{i}" * (i % 3 + 1))
    model = ChipRowsModel(("word", "frequency", "before", "after"), (2, 3), chips)
    view = chips_table(model, chips, (2, 3), 3)
    qtbot.addWidget(view)
    view.resize(420, 160)
    view.show()
    model.set_rows([("w", "1", (1, 2), (3,))])
    view.viewport().repaint()
    rows = [(f"w{i}", f"{i}", (i, i + 1, 7, i), (i, 99, i)) for i in range(4)]
    view.warm(rows, {99})
    made = dict(view.metrics().pixmaps)
    assert len(made) > 1
    view.flash_ids = {99}
    model.set_rows(rows)
    view.viewport().repaint()
    assert view.metrics().pixmaps == made
