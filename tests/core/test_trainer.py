"""Trainer: incremental state == full recount; step/undo state machine; tie rules vs a naive trainer."""
from __future__ import annotations

from collections import Counter
from typing import Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bpe_core.training.trainer import SHIFT, Trainer
from bpe_core.types import BPELensError, TrainerConfig


def chars_eow(word: str) -> List[str]:
    return list(word) + ["</w>"]


def naive_train(words: Dict[str, int], rule: str, merges: int, symbols=chars_eow) -> List[Tuple[str, str, int]]:
    """The seeds' algorithm: recount every pair each merge, pick by the tie rule."""
    segs = {w: symbols(w) for w in words}
    ids: Dict[str, int] = {}
    for s in sorted({s for syms in segs.values() for s in syms}):
        ids[s] = len(ids)
    out = []
    for _ in range(merges):
        pairs: Dict[Tuple[str, str], int] = {}
        for w, f in words.items():
            syms = segs[w]
            for i in range(len(syms) - 1):
                pairs[syms[i], syms[i + 1]] = pairs.get((syms[i], syms[i + 1]), 0) + f
        if not pairs:
            break
        if rule == "first-seen":
            best = max(pairs, key=pairs.get)
        elif rule == "hf":
            best = min(pairs, key=lambda p: (-pairs[p], ids[p[0]], ids[p[1]]))
        else:
            best = min(pairs, key=lambda p: (-pairs[p], p))
        a, b = best
        out.append((a, b, pairs[best]))
        ids.setdefault(a + b, len(ids))
        for w, syms in segs.items():
            new, i = [], 0
            while i < len(syms):
                if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
                    new.append(a + b)
                    i += 2
                else:
                    new.append(syms[i])
                    i += 1
            segs[w] = new
    return out


def recount(t: Trainer) -> Counter:
    c: Counter = Counter()
    for syms, f in zip((t.segmentation(i) for i in range(len(t.words))), t.freqs):
        for i in range(len(syms) - 1):
            c[(syms[i] << SHIFT) | syms[i + 1]] += f
    return c


def snapshot(t: Trainer):
    return ([t.segmentation(i) for i in range(len(t.words))], [t.token(i) for i in range(t.vocab_size)],
            {k: v for k, v in t._counts.items() if v}, t.stats)


words_strategy = st.dictionaries(st.text(alphabet="abcd", min_size=1, max_size=9), st.integers(1, 5),
                                 min_size=1, max_size=12)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=words_strategy, rule=st.sampled_from(["first-seen", "hf", "lexicographic"]))
def test_matches_naive_recount(words, rule):
    t = Trainer(words, TrainerConfig(end_of_word_suffix="</w>", tie_break=rule), symbols_fn=chars_eow)
    got = [(t.display(s.left), t.display(s.right), s.count) for s in t.run(merges=40)]
    assert got == naive_train(words, rule, 40)


class StepUndoMachine(RuleBasedStateMachine):
    """Random step/undo sequences: counts equal a recount, undo restores the exact state."""

    def __init__(self) -> None:
        super().__init__()
        self.t = None
        self.snaps = []

    @rule(words=words_strategy, rule_name=st.sampled_from(["first-seen", "hf", "lexicographic"]))
    @precondition(lambda self: self.t is None)
    def start(self, words, rule_name):
        self.t = Trainer(words, TrainerConfig(end_of_word_suffix="</w>", tie_break=rule_name), symbols_fn=chars_eow)
        self.snaps = [snapshot(self.t)]

    @rule()
    @precondition(lambda self: self.t is not None)
    def step(self):
        before = self.t.top_pairs(1)
        s = self.t.step()
        if s is not None:
            assert (s.left, s.right, s.count) == (before[0].left, before[0].right, before[0].count)
            self.snaps.append(snapshot(self.t))

    @rule()
    @precondition(lambda self: self.t is not None)
    def undo(self):
        s = self.t.undo()
        if s is not None:
            self.snaps.pop()
            assert snapshot(self.t) == self.snaps[-1]

    @invariant()
    def counts_equal_recount(self):
        if self.t is not None:
            assert {k: v for k, v in self.t._counts.items() if v} == dict(recount(self.t))
            assert self.t.stats.total_tokens == sum(
                f * len(self.t.segmentation(i)) for i, f in enumerate(self.t.freqs))


TestStepUndo = StepUndoMachine.TestCase
TestStepUndo.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)


def test_seed002_published_example():
    corpus = ["highest", "higher", "lower", "lowest", "cooler", "coolest"]
    cfg = TrainerConfig(end_of_word_suffix="</w>", vocab_size=17, vocab_size_counts="merges")
    t = Trainer({w: 1 for w in corpus}, cfg, symbols_fn=chars_eow)
    steps = t.run()
    assert [(t.display(s.left), t.display(s.right)) for s in steps] == [
        ("e", "s"), ("es", "t"), ("est", "</w>"), ("e", "r"), ("er", "</w>")]
    assert t.stop_reason == "vocab_size"


def test_duplicate_token_reuses_id_and_undo_restores():
    # a corpus holding the literal text "</w>": merges can spell the suffix symbol itself
    t = Trainer({"</w>": 5}, TrainerConfig(end_of_word_suffix="</w>"), symbols_fn=chars_eow)
    suffix_id = t.id_of("</w>")
    snaps = [snapshot(t)]
    steps = []
    while (s := t.step()) is not None:
        steps.append(s)
        snaps.append(snapshot(t))
    dup = [s for s in steps if not s.created]
    assert [t.display(s.new_id) for s in dup] == ["</w>"] and dup[0].new_id == suffix_id
    assert t.vocab_size == len({t.token(i) for i in range(t.vocab_size)})  # no token twice
    assert [(t.display(s.left), t.display(s.right)) for s in steps] == [
        (a, b) for a, b, _ in naive_train({"</w>": 5}, "first-seen", 99)]
    while t.undo() is not None:
        snaps.pop()
        assert snapshot(t) == snaps[-1]


def test_step_record_examples_before_after():
    t = Trainer({"aab": 3, "ab": 1, "b": 2}, TrainerConfig(tie_break="first-seen"), symbols_fn=list)
    s = t.step()
    assert (t.display(s.left), t.display(s.right), s.count) == ("a", "b", 4)
    assert [t.words[e.word_index] for e in s.examples] == ["aab", "ab"]  # most frequent first
    for ex in s.examples:
        assert ex.after == t.segmentation(ex.word_index)
        assert "".join(t.display(i) for i in ex.before) == ex.word


def test_stop_rules():
    words = {"aaaa": 1, "bb": 1}
    t = Trainer(words, TrainerConfig(min_frequency=2), symbols_fn=list)
    t.run()
    assert t.stop_reason == "min_frequency"
    t = Trainer(words, TrainerConfig(num_merges=1), symbols_fn=list)
    t.run()
    assert t.merge_count == 1 and t.stop_reason == "merges"
    t = Trainer(words, TrainerConfig(), symbols_fn=list)
    t.run()
    assert t.stop_reason == "no_pairs"


def test_seek_and_reset():
    t = Trainer({"banana": 3, "bandana": 2}, TrainerConfig(), symbols_fn=list)
    t.seek(4)
    four = snapshot(t)
    t.seek(1)
    t.seek(4)
    assert snapshot(t) == four
    t.reset()
    assert t.merge_count == 0


@pytest.mark.parametrize("cfg, message", [
    (TrainerConfig(tie_break="random"), "tie rule"),
    (TrainerConfig(unit="bytes", end_of_word_suffix="</w>"), "suffix"),
    (TrainerConfig(vocab_size=-1), "vocab size"),
    (TrainerConfig(min_frequency=-2), "min frequency"),
])
def test_bad_config_is_a_clear_error(cfg, message):
    with pytest.raises(BPELensError, match=message):
        Trainer({"ab": 1}, cfg, symbols_fn=list)


def test_min_word_count_removing_everything():
    with pytest.raises(BPELensError, match="min word count"):
        Trainer({"ab": 1}, TrainerConfig(min_word_count=5), symbols_fn=list)


@settings(max_examples=60, deadline=None)
@given(words=words_strategy, rule=st.sampled_from(["first-seen", "hf"]), n=st.integers(1, 12))
def test_light_records_and_detail_equal_detailed_steps(words, rule, n):
    cfg = TrainerConfig(end_of_word_suffix="</w>", tie_break=rule)
    full = Trainer(words, cfg, symbols_fn=chars_eow)
    detailed = [s for s in (full.step() for _ in range(n)) if s is not None]
    light = Trainer(words, cfg, symbols_fn=chars_eow)
    steps = light.run(merges=n)
    assert [(s.left, s.right, s.count, s.changed_words, s.stats) for s in steps] == [
        (s.left, s.right, s.count, s.changed_words, s.stats) for s in detailed]
    if steps:
        assert all(s.examples == () for s in steps)
        last = light.detail(steps[-1])
        assert last.examples == detailed[-1].examples
        assert last.changed_pairs == detailed[-1].changed_pairs
    if len(steps) > 1:  # after an undo the new latest step is detailed by diffing its words
        light.undo()
        again = light.detail(light.history[-1])
        assert again.examples == detailed[-2].examples
        assert again.changed_pairs == detailed[-2].changed_pairs


@settings(max_examples=100, deadline=None)
@given(words=words_strategy, n=st.integers(1, 10))
def test_changed_pairs_are_exactly_the_pairs_whose_count_moved(words, n):
    t = Trainer(words, TrainerConfig(end_of_word_suffix="</w>"), symbols_fn=chars_eow)
    for _ in range(n):
        before = recount(t)
        s = t.step()
        if s is None:
            break
        after = recount(t)
        moved = {k for k in set(before) | set(after) if before.get(k, 0) != after.get(k, 0)}
        assert {(a << SHIFT) | b for a, b, _ in s.changed_pairs} == moved
        assert all(c == after.get((a << SHIFT) | b, 0) for a, b, c in s.changed_pairs)
