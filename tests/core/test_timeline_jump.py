"""Timeline.jump: any known merge published from the records alone equals a fresh run to that merge,
and the trainer catching up afterwards publishes nothing until it arrives, then its own exact facts."""
from __future__ import annotations

import doctest
import itertools
import functools
import random
from typing import Dict

import pytest

import bpe_core.training.word_changes as word_changes_module
from bpe_core.corpus.counting import count_words_in_texts
from bpe_core.presets import make_config
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer
from bpe_core.types import PairCount, TrainerConfig

from .paths import need

KNOWN = 120


@functools.lru_cache(maxsize=None)
def _text() -> str:
    return need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8")[:60_000]


def _counts(config: TrainerConfig) -> Dict[str, int]:
    return count_words_in_texts((_text(),), config)


@functools.lru_cache(maxsize=None)
def _fresh(preset: str, k: int) -> tuple:
    """(segmentations, stats, top pairs, merges) of a trainer that never undid, run to merge ``k``."""
    config = make_config(preset, num_merges=None, vocab_size=None)
    trainer = Trainer(_counts(config), config)
    trainer.run(merges=k)
    return (tuple(trainer.segmentation(i) for i in range(len(trainer.words))), trainer.stats,
            tuple(trainer.top_pairs(20)), trainer.model().merges)


def _trained(preset: str) -> Timeline:
    config = make_config(preset, num_merges=None, vocab_size=None)
    tl = Timeline(Trainer(_counts(config), config))
    tl.step(KNOWN)
    return tl


def _assert_at(tl: Timeline, preset: str, k: int, *, exact_top: bool) -> None:
    segs, stats, top, merges = _fresh(preset, k)
    assert tl.merge_count == k
    assert tuple(tl.segmentation(i) for i in range(len(tl.words))) == segs
    assert tl.stats == stats and tl.vocab_size == stats.vocab_size
    if tl.model().algorithm == "merges" or not tl.is_lagging:  # seed 000's needs the trainer's tables
        assert tl.model().merges == merges
    if exact_top:
        assert tl.top_pairs == top
    else:
        assert tl.top_pairs[0] == top[0]  # the next merge, with its count: exact from the records


def test_the_module_example_runs():
    assert doctest.testmod(word_changes_module).failed == 0


@pytest.mark.parametrize("preset", ["gpt2", "nltk-wordpunct", "cjk-mixed"])
def test_a_jump_shows_the_state_of_a_fresh_run(preset):
    tl = _trained(preset)
    known = len(tl.steps)  # cjk-mixed stops at its 100 merges
    rng = random.Random(9)
    for k in [0, known, 1, 37] + rng.sample(range(known + 1), 4):
        steps, undone = tl.jump(k)
        _assert_at(tl, preset, k, exact_top=k in (0, known))  # frames published the top pairs there
        assert tl.is_lagging == (k != known) and tl.trainer.merge_count == known  # the trainer stayed
        assert all(s.rank > k for s in steps) if undone else all(s.rank <= k for s in steps)


def test_a_jump_passes_exactly_the_steps_between():
    tl = _trained("gpt2")
    steps, undone = tl.jump(30)
    assert undone and [s.rank for s in steps] == list(range(KNOWN, 30, -1))
    steps, undone = tl.jump(50)
    assert not undone and [s.rank for s in steps] == list(range(31, 51))
    assert tl.jump(50) == ([], False)
    assert tl.jump(10_000)[0][-1].rank == KNOWN  # at most the known merges: a jump never trains


def test_catching_up_publishes_nothing_until_the_trainer_arrives():
    tl = _trained("gpt2")
    tl.jump(20)
    before = tuple(tl.segmentation(i) for i in range(len(tl.words)))
    move = tl.catch_up()
    batch, shown = [], []
    for step in move:
        batch.append(step)
        if len(batch) == 25:
            shown += tl.apply(move.frame(batch))
            batch = []
            assert tl.merge_count == 20 and tl.is_lagging == (tl.trainer.merge_count != 20)
            assert tuple(tl.segmentation(i) for i in range(len(tl.words))) == before
    shown += tl.apply(move.frame(batch))
    move.close()
    assert shown == [] and not tl.is_lagging and tl.trainer.merge_count == 20
    _assert_at(tl, "gpt2", 20, exact_top=True)
    assert tl.catch_up() is None


def test_a_catch_up_cut_short_then_another_jump():
    tl = _trained("gpt2")
    tl.jump(10)
    move = tl.catch_up()
    steps = list(itertools.islice(move, 40))  # the trainer undoes 40: now at 80
    tl.apply(move.frame(steps))
    move.close()
    assert tl.trainer.merge_count == 80 and tl.merge_count == 10
    tl.jump(100)  # the other way: the trainer at 80 goes forward again
    _assert_at(tl, "gpt2", 100, exact_top=False)
    tl.apply(tl.walk(tl.catch_up()))
    _assert_at(tl, "gpt2", 100, exact_top=True)


def test_a_move_past_the_position_publishes_from_the_position_on():
    """Stepping while the trainer lags behind: its move passes the position and publishes beyond it."""
    tl = _trained("gpt2")
    tl.jump(20)
    assert tl.apply(tl.walk(tl.back(KNOWN - 50))) == []  # the trainer alone, 120 -> 50: short of 20
    tl.jump(60)
    assert tl.merge_count == 60 and tl.trainer.merge_count == 50
    shown = tl.apply(tl.walk(tl.toward(70)))  # 50 -> 70 passes 60
    assert [s.rank for s in shown] == list(range(61, 71)) and not tl.is_lagging
    _assert_at(tl, "gpt2", 70, exact_top=True)


def test_stepping_without_threads_catches_up_first():
    tl = _trained("gpt2")
    tl.jump(5)
    assert [s.rank for s in tl.step(2)] == [6, 7]
    _assert_at(tl, "gpt2", 7, exact_top=True)
    tl.jump(90)
    assert [s.rank for s in tl.undo(3)] == [90, 89, 88]
    _assert_at(tl, "gpt2", 87, exact_top=True)
    tl.jump(3)
    tl.seek(KNOWN + 5)  # trains further
    assert len(tl.steps) == KNOWN + 5 and tl.merge_count == KNOWN + 5


def test_the_next_known_merges_stand_in_for_top_pairs():
    tl = _trained("gpt2")
    tl.jump(33)
    assert tl.top_pairs == tuple(PairCount(s.left, s.right, s.count) for s in tl.steps[33:53])


def test_frames_index_their_own_records_as_update_does():
    """A frame's word -> ranks table (built where the move runs) gives the same seek index as
    indexing the records one by one, also when frames overlap what is indexed already."""
    from bpe_core.training.word_changes import WordChanges, ranks_by_word

    config = make_config("gpt2", num_merges=None, vocab_size=None)
    trainer = Trainer(_counts(config), config)
    steps = [trainer.step() for _ in range(60)]
    initial = [() for _ in trainer.words]
    by_update, by_frames = WordChanges(initial), WordChanges(initial)
    by_update.update(steps)
    for lo, hi in ((0, 7), (7, 8), (5, 30), (30, 60)):  # (5, 30) overlaps ranks 6..8, indexed already
        assert by_frames.add(ranks_by_word(steps[lo:hi]), lo + 1, hi)
    assert not WordChanges(initial).add(ranks_by_word(steps[10:20]), 11, 20)  # a gap: update() instead
    assert by_frames._ranks == by_update._ranks and by_frames._indexed == by_update._indexed == 60
