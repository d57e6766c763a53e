"""Ties where the trainer is not (issue 23, finding 1): while ``watch_ties`` is on, the timeline records the ties
at each position its trainer passes (a read-ahead, a run, a catch-up), so the tie inspector shows them at a
position the trainer has left behind; they equal a fresh trainer's at that merge."""
from __future__ import annotations

from bpe_core.presets import make_config
from bpe_core.training.ties import find_ties
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer

TEXT = ("the lowest price is lower than the low price; the newest is the widest " * 3 +
        "a rat sat on a mat and a cat ate the rat that sat on the mat\n")


def _counts(config):
    from bpe_core.corpus.counting import count_words_in_texts

    return count_words_in_texts((TEXT,), config)


def _fresh_ties(config, k: int):
    trainer = Trainer(_counts(config), config)
    trainer.run(merges=k)
    return find_ties(trainer)


def _read_ahead(tl: Timeline, lead: int) -> None:
    """What the app's read-ahead does: a frame a merge, applied without showing it."""
    move = tl.read_ahead(lead)
    with move:
        for step in move:
            tl.apply(move.frame([step]), show=False)


def test_ties_recorded_where_the_trainer_passed_while_watched():
    config = make_config("byte-ascii")
    tl = Timeline(Trainer(_counts(config), config))
    tl.watch_ties = True
    tl.step(2)
    _read_ahead(tl, 8)
    assert tl.trainer_lead == 8 and tl.merge_count == 2
    for k in (2, 3, 7, 10, 5, 2):
        tl.jump(k)
        ties = tl.ties_here()
        assert ties is not None and ties == _fresh_ties(config, k), k


def test_no_ties_where_the_trainer_passed_unwatched_until_it_comes_back():
    config = make_config("byte-ascii")
    tl = Timeline(Trainer(_counts(config), config))
    tl.step(2)
    _read_ahead(tl, 8)
    tl.jump(4)
    assert tl.ties_here() is None  # the trainer passed merge 4 unwatched and stands at 10
    move = tl.catch_up()
    tl.apply(tl.walk(move))
    assert tl.ties_here() == _fresh_ties(config, 4)  # the trainer stands here (free): read from it


def test_recorded_ties_beyond_a_new_future_are_forgotten():
    """A pick by hand at merge 3 (a branch): the ties recorded at merges 3 and 4 of the old future are dropped."""
    config = make_config("byte-ascii")
    tl = Timeline(Trainer(_counts(config), config))
    tl.watch_ties = True
    for _ in range(6):
        tl.step(1)
    tl.seek(2)
    other = tl.ties_here().candidates[-1].pair  # not the rule's pick
    tl.trainer.picks[2] = other
    tl.replace_future(2)
    tl.step(2)  # one frame, at merge 4
    tl.jump(3)
    assert tl.ties_here() is None  # not the old future's
    tl.jump(4)
    fresh = Trainer(_counts(config), config)
    fresh.picks[2] = other
    fresh.run(merges=4)
    assert tl.ties_here() == find_ties(fresh)
