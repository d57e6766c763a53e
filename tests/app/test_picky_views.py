"""PickyBPE's removals in the training views, from hand-made records (no trainer): the merges table's
"removed" column and struck-through removed tokens, and why-this-split's history of a word a removal split.

Tokens a b c ab abc; merge 1 is a + b → ab, merge 2 is ab + c → abc, after which 'ab' (IoS 0.90) is removed
and split into a b. Word "abcab" keeps one 'ab' after merge 2: the removal splits it; word "abc" does not.
"""
from __future__ import annotations

from typing import List, Tuple

import pytest
from PySide6.QtCore import QObject, Qt, Signal

from bpe_core.types import MergeStep, Removal, TrainerConfig, TrainingStats, WordChange
from bpe_lens_app.features.explain.actions import history_story
from bpe_lens_app.features.training.merges_table import MergesModel

TOKENS = ["a", "b", "c", "ab", "abc"]
WORDS, FREQS = ["abc", "ab", "abcab"], [9, 1, 1]
START: List[Tuple[int, ...]] = [(0, 1, 2), (0, 1), (0, 1, 2, 0, 1)]
AFTER = [[(3, 2), (3,), (3, 2, 3)], [(4,), (0, 1), (4, 0, 1)]]
REMOVED = Removal(3, "ab", (0, 1), 11, 10)


def _step(rank, left, right, new, count, before, after, removals=()) -> MergeStep:
    changed = tuple(i for i in range(len(WORDS)) if before[i] != after[i])
    return MergeStep(rank, left, right, new, TOKENS[left], TOKENS[right], TOKENS[new], count, True, changed,
                     tuple(WordChange(i, WORDS[i], FREQS[i], before[i], after[i]) for i in changed), (),
                     TrainingStats(rank, 3 + rank, 0, sum(FREQS), 11), removals)


STEPS = [_step(1, 0, 1, 3, 11, START, AFTER[0]), _step(2, 3, 2, 4, 10, AFTER[0], AFTER[1], (REMOVED,))]


class PickySession(QObject):
    """The part of the session the views read, over the records above."""

    corpus_loaded = Signal(object)
    reset_done = Signal()
    steps_applied = Signal(list)
    steps_undone = Signal(list)

    def __init__(self) -> None:
        super().__init__()
        self.words, self.freqs = list(WORDS), list(FREQS)
        self.merge_count = 0
        self.timeline: List[MergeStep] = []
        self.config = TrainerConfig(variant="picky")

    @property
    def history(self) -> List[MergeStep]:
        return self.timeline[: self.merge_count]

    def token(self, token_id: int) -> str:
        return TOKENS[token_id]

    display = token

    def word_history(self, i: int):
        out, seg = [(None, START[i])], START[i]
        for step in self.history:
            after = AFTER[step.rank - 1][i]
            if after != seg:
                out.append((step, after))
                seg = after
        return out

    def step(self) -> None:
        step = STEPS[self.merge_count]
        self.timeline[self.merge_count:] = [step] + self.timeline[self.merge_count + 1:]
        self.merge_count += 1
        self.steps_applied.emit([step])

    def undo(self) -> None:
        self.merge_count -= 1
        self.steps_undone.emit([self.timeline[self.merge_count]])


@pytest.fixture
def picky(qapp) -> PickySession:
    return PickySession()


def _column(model, column: int, role=Qt.DisplayRole) -> list:
    return [model.index(r, column).data(role) for r in range(model.rowCount())]


def _struck(model, row: int, column: int) -> bool:
    font = model.index(row, column).data(Qt.FontRole)
    return font is not None and font.strikeOut()


def test_merges_table_shows_the_removal_and_strikes_the_removed_token(qtmodeltester, picky):
    model = MergesModel(picky)
    qtmodeltester.check(model)
    assert model.headerData(MergesModel.REMOVED, Qt.Horizontal) == "removed"
    picky.step()
    picky.step()
    qtmodeltester.check(model)
    assert _column(model, MergesModel.REMOVED) == ["", "✂ ab → a b (IoS 0.91)"]
    assert "IoS = merged / frequency before the merge = 10 / 11" in model.index(1, MergesModel.REMOVED).data(
        Qt.ToolTipRole)
    assert _struck(model, 0, MergesModel.NEW) and _struck(model, 1, MergesModel.LEFT)  # 'ab' is gone
    assert not _struck(model, 0, MergesModel.LEFT) and not _struck(model, 1, MergesModel.NEW)
    picky.undo()  # before merge 2's removal: 'ab' is back
    assert not _struck(model, 0, MergesModel.NEW) and not _struck(model, 1, MergesModel.LEFT)
    assert _column(model, MergesModel.REMOVED) == ["", "✂ ab → a b (IoS 0.91)"]  # the undone row still says it


def test_plain_bpe_has_no_removed_column(qtmodeltester, picky):
    picky.config = TrainerConfig()
    model = MergesModel(picky)
    assert model.columnCount() == 6


def test_why_this_split_lists_the_removal_that_split_the_word(picky):
    picky.step()
    picky.step()
    story = history_story(picky, 2)  # abcab: a b c a b → ab c ab → abc a b
    assert [f.caption for f in story.frames][1:] == [
        "merge 1 changed it: a + b → ab",
        "merge 2 changed it: ab + c → abc; removed 'ab' (IoS 0.91): split into a b"]
    assert [c.text for c in story.frames[-1].chips] == ["abc", "a", "b"]
    story = history_story(picky, 1)  # ab: only the removal changed it
    assert [f.caption for f in story.frames][1:] == [
        "merge 1 changed it: a + b → ab", "after merge 2: removed 'ab' (IoS 0.91): split into a b"]
    assert [f.caption for f in history_story(picky, 0).frames][1:] == [  # abc: the merge used its only 'ab'
        "merge 1 changed it: a + b → ab", "merge 2 changed it: ab + c → abc"]


def test_why_this_split_of_a_picky_models_chip_names_the_removal(qapp):
    """A picky model's word explained as the encode pane's chip click does: the removal step has its own caption
    (not a merge of two neighbours), and the frames end at the encoder's tokens."""
    from bpe_core import Trainer, make_config
    from bpe_core.analysis import explain_at
    from bpe_lens_app.features.explain.actions import explanation_story

    config = make_config("char-whitespace", variant="picky", ios_threshold=0.6)
    trainer = Trainer({"abc": 9, "abcab": 3}, config)  # ab + c → abc leaves abcab's second 'ab' alone
    while trainer.step() is not None and not any(s.removals for s in trainer.history):
        pass
    model = trainer.model()
    assert model.removals, "the rule removed nothing: the example is wrong"
    word = explain_at(model, "abcab", 0)
    story = explanation_story(model, word)
    captions = [f.caption for f in story.frames]
    assert any(c.startswith("removed ") and "split into" in c for c in captions), captions
    assert [c.text for c in story.frames[-1].chips] == list(word.tokens)


def test_merges_table_reads_the_removals_of_a_replaced_future_again(qtmodeltester, picky):
    """Undo, then a different merge 2 (another branch) without a removal: nothing is struck any more."""
    model = MergesModel(picky)
    picky.step()
    picky.step()
    assert _struck(model, 0, MergesModel.NEW)
    picky.undo()
    other = _step(2, 3, 2, 4, 10, AFTER[0], [(4,), (3,), (4, 3)])  # the same merge, nothing removed
    picky.timeline[1] = other
    picky.merge_count = 2
    picky.steps_applied.emit([other])
    qtmodeltester.check(model)
    assert _column(model, MergesModel.REMOVED) == ["", ""]
    assert not _struck(model, 0, MergesModel.NEW) and not _struck(model, 1, MergesModel.LEFT)
