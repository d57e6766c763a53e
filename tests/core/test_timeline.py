"""Timeline: the published position equals a fresh run to the same merge, whatever the path taken."""
from __future__ import annotations

import doctest
import functools
from dataclasses import replace
from typing import Dict, List

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import bpe_core.training.timeline as timeline_module
from bpe_core.corpus.counting import count_words_in_texts
from bpe_core.presets import make_config
from bpe_core.training.timeline import TOP_K, Timeline, target_merges
from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig

from .paths import EXAMPLES, need

#: the stop rule the state machines run into (seeks go beyond it)
LIMIT = 40


@functools.lru_cache(maxsize=None)
def _texts() -> tuple:
    examples = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.txt"))]
    return tuple(examples + [need("tinyshakespeare.txt").read_text(encoding="utf-8")[:4000]])


def _counts(config: TrainerConfig) -> Dict[str, int]:
    return count_words_in_texts(_texts(), config)


def fresh(config: TrainerConfig, k: int) -> Trainer:
    """A trainer that never undid anything, run to merge ``k`` (or its stop rule)."""
    trainer = Trainer(_counts(config), config)
    trainer.run(merges=k)
    return trainer


def small() -> Timeline:
    return Timeline(fresh_small(0))


def pairs(steps) -> List[tuple]:
    return [(s.rank, s.left, s.right, s.new_id, s.count) for s in steps]


def test_the_module_example_runs():
    assert doctest.testmod(timeline_module).failed == 0


def test_undone_steps_stay_and_come_back_the_same():
    tl = small()
    taken = tl.step(5)
    assert [s.rank for s in taken] == [1, 2, 3, 4, 5] and tl.merge_count == 5
    undone = tl.undo(3)
    assert [s.rank for s in undone] == [5, 4, 3] and tl.merge_count == 2
    assert pairs(tl.steps) == pairs(taken) and pairs(tl.history) == pairs(taken[:2])
    again = tl.seek(5)
    assert pairs(again) == pairs(taken[2:]) and pairs(tl.steps) == pairs(taken)


def test_seek_beyond_the_known_steps_trains_further():
    tl = small()
    tl.step(2)
    tl.reset()
    assert tl.merge_count == 0 and len(tl.steps) == 2
    tl.seek(6)
    assert tl.merge_count == 6 and len(tl.steps) == 6
    assert pairs(tl.history) == pairs(fresh_small(6).history)


def fresh_small(k: int) -> Trainer:
    t = Trainer({"low": 5, "lower": 2, "newest": 6, "widest": 3}, TrainerConfig(end_of_word_suffix="</w>"))
    t.run(merges=k)
    return t


def test_a_stop_rule_is_published():
    tl = Timeline(Trainer({"low": 5, "lower": 2}, TrainerConfig(num_merges=2)))
    assert len(tl.step(5)) == 2 and tl.stop_reason == "merges"
    assert tl.step() == [] and tl.stop_reason == "merges"
    tl.undo()
    assert tl.stop_reason is None


def test_a_move_publishes_nothing_until_its_frames_are_applied():
    tl = small()
    before = [tl.segmentation(i) for i in range(len(tl.words))]
    move = tl.forward(4)
    frames = []
    batch = []
    for step in move:
        batch.append(step)
        if len(batch) == 2:
            frames.append(move.frame(batch))
            batch = []
        assert tl.merge_count == 0 and tl.is_moving  # readers still see merge 0
        assert [tl.segmentation(i) for i in range(len(tl.words))] == before
        assert tl.model().merges == []
    assert tl.is_moving  # exhausted, but its owner may still take the last frame
    move.close()
    assert not tl.is_moving
    for frame in frames:
        tl.apply(frame)
    assert tl.merge_count == 4
    ref = fresh_small(4)
    assert [tl.segmentation(i) for i in range(len(tl.words))] == [ref.segmentation(i) for i in range(len(tl.words))]
    assert tl.steps[-1].examples  # the latest step is published with its examples


def test_one_move_at_a_time():
    tl = small()
    move = tl.forward()
    next(iter(move))
    with pytest.raises(RuntimeError):
        tl.back(1)
    move.close()
    move.close()  # twice is harmless
    assert not tl.is_moving
    tl.apply(move.frame([]))
    unstarted = tl.back(1)
    unstarted.close()  # a move closed before its first merge frees the trainer too
    assert not tl.is_moving and tl.trainer.merge_count == 1


def test_model_during_a_move_is_built_from_the_records():
    tl = Timeline(Trainer(_counts(make_config("gpt2")), make_config("gpt2")))
    tl.step(10)
    move = tl.forward(5)
    merges = iter(move)
    steps = [next(merges) for _ in range(5)]
    tl.apply(move.frame(steps))
    assert tl.is_moving  # not exhausted yet: the trainer is still the move's
    during = tl.model()
    move.close()
    after = tl.model()  # the trainer's own, now that it is free
    assert during is not after
    assert during.tokens == after.tokens and during.merges == after.merges
    assert during.merge_counts == after.merge_counts and during.specials == after.specials
    assert tl.model() is after  # cached per position


def test_word_history_replays_the_applied_merges():
    config = make_config("char-whitespace")
    start = Trainer(_counts(config), config)
    tl = Timeline(Trainer(_counts(config), config))
    tl.step(15)
    for i in range(len(tl.words)):
        hist = tl.word_history(i)
        assert hist[0] == (None, start.segmentation(i))
        assert hist[-1][1] == tl.segmentation(i)
        assert all(step.new_id in seg for step, seg in hist[1:])


def test_target_merges_follows_the_config():
    tl = Timeline(Trainer({"low": 5, "lower": 2}, TrainerConfig(vocab_size=8)))
    assert tl.target_merges == 8 - tl.initial_vocab
    assert target_merges(TrainerConfig(num_merges=7), 100) == 7
    assert target_merges(TrainerConfig(), None) == timeline_module.DEFAULT_TARGET


def test_seed000_tokens_are_the_trainers_ids():
    """The seed-000 model renumbers tokens; the timeline shows the trainer's ids (segmentations use them)."""
    config = make_config("nltk-wordpunct")
    tl = Timeline(Trainer.from_texts(["the lowest price is lower than the last one"], config))
    assert [tl.display(t) for t in tl.segmentation(0)] == ["t", "h", "e", "</w>"]
    tl.step(3)
    assert tl.model().algorithm == "seed000-greedy"


def test_a_trained_trainer_is_refused():
    trainer = fresh_small(1)
    with pytest.raises(ValueError):
        Timeline(trainer)


def test_from_corpus_reports_progress(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("low lower newest widest\n" * 20, encoding="utf-8")
    seen = []
    tl = Timeline.from_corpus(str(path), TrainerConfig(), progress=seen.append)
    assert tl.merge_count == 0 and tl.words and seen


class TimelineVsFreshRun(RuleBasedStateMachine):
    """Step / undo / seek / reset / worker-style moves in any order == a fresh run to the same merge."""

    config: TrainerConfig = replace(make_config("gpt2"), num_merges=LIMIT)

    @initialize()
    def load(self) -> None:
        self.tl = Timeline(Trainer(_counts(self.config), self.config))
        self.at = 0
        self.read_ranks: set = set()  # merges a read-ahead frame ended at: the trainer's next pairs recorded there

    @rule(n=st.integers(1, 6))
    def step(self, n: int) -> None:
        self.tl.step(n)
        self.at = min(LIMIT, self.at + n)

    @rule(n=st.integers(1, 6))
    def undo(self, n: int) -> None:
        self.tl.undo(n)
        self.at = max(0, self.at - n)

    @rule(k=st.integers(0, LIMIT + 5))
    def seek(self, k: int) -> None:
        self.tl.seek(k)
        self.at = min(LIMIT, k)

    @rule()
    def reset(self) -> None:
        self.tl.reset()
        self.at = 0

    @rule(k=st.integers(0, LIMIT + 5), batch=st.integers(1, 7), stop_after=st.integers(1, 50))
    def move_in_batches(self, k: int, batch: int, stop_after: int) -> None:
        """What the app's worker does: frames every ``batch`` merges, applied later; maybe cancelled."""
        tl = self.tl
        catch_up = tl.catch_up()  # as the app does first: a move starts where the trainer is
        if catch_up is not None:
            tl.apply(tl.walk(catch_up))
        shown = pairs(tl.history)
        move = tl.toward(k)
        frames, pending, done = [], [], 0
        for step in move:
            pending.append(step)
            done += 1
            if len(pending) == batch:
                frames.append(move.frame(pending))
                pending = []
            if done == stop_after:
                break
        if pending:
            frames.append(move.frame(pending))
        move.close()
        assert pairs(tl.history) == shown  # nothing published before apply
        for frame in frames:
            tl.apply(frame)
        tl.settle()
        sign = -1 if move.undone else 1
        self.at = tl.trainer.merge_count
        assert self.at == len(shown) + sign * done

    @rule(lead=st.integers(2, 12), stop_after=st.integers(1, 20))
    def read_ahead(self, lead: int, stop_after: int) -> None:
        """What the app does while the user steps: the trainer runs on, a frame a merge, applied unshown."""
        tl = self.tl
        before, reached = tl.trainer_lead, list(tl.reached_steps)
        move = tl.read_ahead(lead)
        if move is None:
            return
        frames = []
        with move:
            for step in move:
                frames.append(move.frame([step]))
                if len(frames) == stop_after:
                    break
        for frame in frames:
            assert tl.apply(frame, show=False) == []
            self.read_ranks.add(frame.steps[-1].rank)
        tl.settle()
        assert tl.merge_count == self.at and tl.trainer_lead == before + len(frames)
        assert pairs(tl.reached_steps) == pairs(reached)  # what was read ahead is not on the slider

    @rule(k=st.integers(0, LIMIT + 5))
    def jump(self, k: int) -> None:
        """A scrub or a step shown from the records (the trainer stays where it is)."""
        tl = self.tl
        k = min(k, len(tl.steps))
        tl.jump(k)
        self.at = k
        if k in self.read_ranks:  # not any merge the trainer is past: a seek's frame records its end only
            assert tl.top_pairs_exact  # each merge read ahead left the trainer's own next pairs
        assert len(tl.reached_steps) >= k

    @invariant()
    def equals_a_fresh_run(self) -> None:
        tl = getattr(self, "tl", None)
        if tl is None:
            return
        ref = fresh(self.config, self.at)
        assert tl.merge_count == ref.merge_count == self.at
        assert tl.trainer.merge_count == self.at + tl.trainer_lead
        assert all(tl.segmentation(i) == ref.segmentation(i) for i in range(len(ref.words)))
        if tl.top_pairs_exact:
            assert tl.top_pairs == tuple(ref.top_pairs(TOP_K))
        else:  # the next known merges with their counts: the first one is the trainer's next
            assert tl.top_pairs[:1] == tuple(ref.top_pairs(1))
        assert tl.stats == ref.stats and tl.vocab_size == ref.vocab_size
        assert pairs(tl.history) == pairs(ref.history)
        model, ref_model = tl.model(), ref.model()
        assert model.merges == ref_model.merges and model.tokens == ref_model.tokens
        assert model.merge_counts == ref_model.merge_counts
        assert all(tl.display(t) == ref.display(t) for t in range(ref.vocab_size))
        if tl.stop_reason is not None:
            assert tl.stop_reason == "merges" and self.at == LIMIT


class CharTimelineVsFreshRun(TimelineVsFreshRun):
    """The same with character units, an end-of-word suffix and the seeds' first-seen tie rule."""

    config = replace(make_config("char-whitespace"), num_merges=LIMIT)


_settings = settings(max_examples=20, stateful_step_count=12, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
TestTimelineVsFreshRun = TimelineVsFreshRun.TestCase
TestTimelineVsFreshRun.settings = _settings
TestCharTimelineVsFreshRun = CharTimelineVsFreshRun.TestCase
TestCharTimelineVsFreshRun.settings = _settings
