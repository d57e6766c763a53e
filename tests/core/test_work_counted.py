"""Work counted, not timed: what a merge, an undo and a seek cost as their input doubles.

The pair index counts the symbols it reads (:attr:`PairIndex.scanned`: a word's length each time a merge,
an undo or the first count reads it) and the heap entries it pushes (:attr:`PairIndex.pushes`). A long
word's merge must read it a bounded number of times: the work at 2n is at most ``RATIO`` times the work
at n, from 16k to 256k characters (a merge that reads the word once per occurrence is quadratic: 4x per
doubling). Scrubbing back and forth must not grow what the trainer holds: the live memory after 100 round
trips is at most 1.2x what it is after one, and so are the heap and the pair -> words lists (peak to peak:
they are rebuilt now and then, :mod:`bpe_core.training.index_bounds`) and a round trip's work.
"""
from __future__ import annotations

import gc
import sys
from typing import Callable, List, Tuple

import pytest

from bpe_core.training import index_bounds
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig

from .paths import need

SIZES = [16_384, 32_768, 65_536, 131_072, 262_144]  # characters in the long word
RATIO = 2.3  # work at 2n over work at n: linear is 2, quadratic 4


def work(t: Trainer) -> Tuple[int, int]:
    idx = t.pair_index
    return idx.scanned, idx.pushes


def counted(t: Trainer, action: Callable[[], object]) -> int:
    """Symbols read plus heap entries pushed while ``action`` runs."""
    s0, p0 = work(t)
    action()
    s1, p1 = work(t)
    return (s1 - s0) + (p1 - p0)


def assert_linear(label: str, figures: List[int]) -> None:
    for n, a, b in zip(SIZES, figures, figures[1:]):
        assert b <= RATIO * max(a, 1), f"{label}: work {a} at {n} characters, {b} at {2 * n} ({b / max(a, 1):.1f}x)"


def two_letter_word(n: int) -> Trainer:
    """``ab`` repeated to n characters (the pair (a, b) n/2 times in one word), and ``ab`` three times."""
    return Trainer({"ab" * (n // 2): 1, "ab": 3}, TrainerConfig(tie_break="hf"))


def one_letter_word(n: int) -> Trainer:
    """n times ``a``: the pair (a, a) overlaps itself."""
    return Trainer({"a" * n: 1}, TrainerConfig(tie_break="hf"))


@pytest.mark.parametrize("make", [two_letter_word, one_letter_word], ids=["ab", "aa"])
def test_a_long_words_first_merge_and_its_undo_stay_linear(make):
    merges, undos, counts = [], [], []
    for n in SIZES:
        t = make(n)
        counts.append(t.pair_index.scanned)  # the first count reads every symbol once
        merges.append(counted(t, t.step))
        assert t.merge_count == 1
        undos.append(counted(t, t.undo))
        assert t.merge_count == 0
        # the merge read the word a bounded number of times, not once per occurrence of the pair
        assert merges[-1] <= 8 * n, (n, merges[-1])
    assert_linear("first count", counts)
    assert_linear("first merge", merges)
    assert_linear("undo", undos)


@pytest.mark.parametrize("make", [two_letter_word, one_letter_word], ids=["ab", "aa"])
def test_seeking_a_long_word_stays_linear(make):
    trainer_seeks, timeline_seeks = [], []
    for n in SIZES:
        t = make(n)
        trainer_seeks.append(counted(t, lambda: (t.seek(3), t.seek(0))))
        assert t.merge_count == 0
        tl = Timeline(make(n))
        timeline_seeks.append(counted(tl.trainer, lambda: (tl.seek(3), tl.seek(0), tl.seek(3))))
        assert tl.merge_count == 3
    assert_linear("Trainer.seek", trainer_seeks)
    assert_linear("Timeline.seek", timeline_seeks)


# -- scrubbing: 1 -> 100 round trips ------------------------------------------------------------------------

def corpus() -> List[str]:
    """20 kB of real text."""
    return [need("tinyshakespeare.txt").read_text(encoding="utf-8")[:20_000]]


def live_blocks() -> int:
    """Memory blocks the interpreter holds now (what is unreachable collected first; cheaper than tracemalloc)."""
    gc.collect()
    return sys.getallocatedblocks()


@pytest.mark.parametrize("use_timeline", [False, True], ids=["Trainer", "Timeline"])
def test_scrubbing_back_and_forth_holds_no_more_after_100_round_trips_than_after_one(use_timeline):
    """Seek to merge 30 and back to 0, 100 times: what the trainer holds and the work of a round trip stay
    what they were after the first. The lazy heap and word lists grow between rebuilds (a saw tooth), so
    they are compared peak to peak (trips 1-10 and 91-100) and checked against their bounds each trip."""
    far, trips = 30, 100
    before = live_blocks()
    t = Trainer.from_texts(corpus(), TrainerConfig(tie_break="hf"))
    mover = Timeline(t) if use_timeline else t
    idx = t.pair_index
    works, heaps, lists = [], [], []
    for trip in range(trips):
        works.append(counted(t, lambda: (mover.seek(far), mover.seek(0))))
        heaps.append(len(idx.heap))
        lists.append(sum(map(len, idx.where.values())))
        if trip == 0:
            after_one = live_blocks() - before
        assert t.merge_count == 0
        assert heaps[-1] <= index_bounds.HEAP_SLACK * len(idx.counts) + index_bounds.SLACK_MIN
        assert lists[-1] == idx.listed
    after_100 = live_blocks() - before
    assert len(idx.counts) > 500  # a real state: hundreds of live pairs
    assert after_100 <= 1.2 * after_one, (after_one, after_100)
    assert max(heaps[-10:]) <= 1.2 * max(heaps[:10]), (heaps[:10], heaps[-10:])
    assert max(lists[-10:]) <= 1.2 * max(lists[:10]), (lists[:10], lists[-10:])
    # the last round trips do the work of the first ones (rebuilds included: compared 25 trips at a time)
    assert sum(works[-25:]) <= 1.2 * sum(works[:25]), (works[:25], works[-25:])
