"""The timeline through PickyBPE's removals: step, undo, seek, jump (from the records), read-ahead and the
worker's batched moves in any order == a fresh picky run to the same merge (every word's segmentation, the
vocabulary count, the next pairs, the statistics, the model with its removals), and a word's history lists
the steps whose removals split it.
"""
from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, settings
from hypothesis.stateful import invariant

from bpe_core.presets import make_config
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer

from .test_timeline import LIMIT, TimelineVsFreshRun, _counts, fresh


class PickyTimelineVsFreshRun(TimelineVsFreshRun):
    """tests/core/test_timeline.py's state machine on a PickyBPE run (gpt2 preset, tau 0.6: removals early)."""

    config = replace(make_config("gpt2"), num_merges=LIMIT, variant="picky", ios_threshold=0.6)

    @invariant()
    def removals_and_word_histories_match(self) -> None:
        tl = getattr(self, "tl", None)
        if tl is None:
            return
        ref = fresh(self.config, self.at)
        assert tl.model().removals == ref.model().removals
        assert tl.model().algorithm == ref.model().algorithm
        assert tl.model().extras.get("token_freqs") == ref.model().extras.get("token_freqs")  # saves and reopens
        for i in range(0, len(ref.words), 97):
            history = tl.word_history(i)
            assert history[-1][1] == ref.segmentation(i)


class PickyCharTimelineVsFreshRun(PickyTimelineVsFreshRun):
    """The same with characters, an end-of-word suffix, the seeds' first-seen tie rule and tau 0.5."""

    config = replace(make_config("char-whitespace"), num_merges=LIMIT, variant="picky", ios_threshold=0.5)


class PickyPresetTimelineVsFreshRun(PickyTimelineVsFreshRun):
    """The same with the "picky" preset: the reference's words, <UNK>, table-order ties, tau 0.6."""

    config = replace(make_config("picky"), num_merges=LIMIT, vocab_size=None, ios_threshold=0.6)


_settings = settings(max_examples=12, stateful_step_count=10, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
TestPickyTimelineVsFreshRun = PickyTimelineVsFreshRun.TestCase
TestPickyTimelineVsFreshRun.settings = _settings
TestPickyCharTimelineVsFreshRun = PickyCharTimelineVsFreshRun.TestCase
TestPickyCharTimelineVsFreshRun.settings = _settings
TestPickyPresetTimelineVsFreshRun = PickyPresetTimelineVsFreshRun.TestCase
TestPickyPresetTimelineVsFreshRun.settings = _settings


def test_the_runs_remove_tokens_and_a_word_history_shows_the_removal():
    for config in (PickyTimelineVsFreshRun.config, PickyCharTimelineVsFreshRun.config,
                   PickyPresetTimelineVsFreshRun.config):
        tl = Timeline(Trainer(_counts(config), config))
        steps = tl.step(LIMIT)
        removing = [s for s in steps if s.removals]
        assert removing, config.preset
        for step in removing:  # every word the step changed (its merge or its removals) shows the step
            for word in step.changed_words:
                assert step.rank in [s.rank for s, _ in tl.word_history(word)[1:]]


def test_a_branch_picked_after_removals_is_restored():
    """A saved branch names its picks by token text; on a picky run the newest tokens have ids at or above
    the vocabulary count (removed tokens keep their ids), and they are still found."""
    from bpe_core.training.branches import Branches
    config = PickyTimelineVsFreshRun.config
    tl = Timeline(Trainer(_counts(config), config))
    tl.step(LIMIT - 3)  # a pick before the stop rule
    trainer = tl.trainer
    assert trainer.token_count > trainer.vocab_size  # tokens were removed
    from bpe_core.training.pairs import MASK, SHIFT
    high = [(k >> SHIFT, k & MASK) for k in trainer._counts if max(k >> SHIFT, k & MASK) >= trainer.vocab_size]
    assert high
    branches = Branches(tl)
    branches.pick(*high[0], name="by hand")
    data = branches.to_data()
    again = Branches.from_data(Timeline(Trainer(_counts(config), config)), data)
    assert again.to_data() == data
