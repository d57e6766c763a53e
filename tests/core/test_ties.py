"""Ties in the open (issue 11): the tied pairs and each rule's pick, manual picks, branches.

The tied pairs are checked against counts made from scratch on the segmentations; each rule's pick
against what a trainer with that rule merges from the same state (reached by forcing the same merges);
branches against fresh trainers given the same forced picks.
"""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from bpe_core.presets import make_config
from bpe_core.training.branches import Branches
from bpe_core.training.ties import TIE_BREAKS, find_ties
from bpe_core.training.timeline import TOP_K, Timeline
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError, TrainerConfig

from tests.core.test_seed_texts import SEED001_SENTENCE, SEED002_WORDS

WORDS = st.dictionaries(st.text("abcd", min_size=1, max_size=7), st.integers(1, 4), min_size=1, max_size=8)


def brute_counts(t: Trainer) -> Counter:
    counts: Counter = Counter()
    for i, f in enumerate(t.freqs):
        seg = t.segmentation(i)
        for pair in zip(seg, seg[1:]):
            counts[pair] += f
    return counts


def forced(words, config, merges) -> Trainer:
    """A fresh trainer made to merge ``merges`` (pairs of ids) first, in order."""
    t = Trainer(words, config)
    t.picks = dict(enumerate(merges))
    for _ in merges:
        t.step()
    return t


@settings(max_examples=60, deadline=None)
@given(words=WORDS, k=st.integers(0, 6), rule=st.sampled_from(TIE_BREAKS))
def test_ties_are_the_pairs_with_the_top_count_and_each_rule_picks_what_it_merges(words, k, rule):
    t = Trainer(words, TrainerConfig(tie_break=rule))
    t.run(merges=k)
    counts = brute_counts(t)
    ties = find_ties(t)
    if not counts:
        assert ties.candidates == () and ties.picks == {}
        return
    top = max(counts.values())
    assert ties.count == top and {c.pair for c in ties.candidates} == {p for p, c in counts.items() if c == top}
    assert ties.candidates[0].pair == (t.top_pairs(1)[0].left, t.top_pairs(1)[0].right)  # the rule's order
    assert brute_counts(t) == counts  # asking changed nothing
    history = [(s.left, s.right) for s in t.history]
    for other in TIE_BREAKS:
        ref = forced(words, TrainerConfig(tie_break=other), history)
        step = ref.step()
        assert (step.left, step.right) == ties.picks[other], other
        assert ties.why[other]


def test_the_reasons_name_the_rule_exactly():
    t = Trainer({"ba": 1, "cab": 1}, TrainerConfig())
    ties = find_ties(t)
    assert ties.is_tie and ties.why == {
        "first-seen": "first seen at word 0 ('ba'), unit 0",
        "hf": "smallest (id_left, id_right) = (0, 1), 'a' + 'b'",
        "lexicographic": "smallest (left, right) token values = ('a', 'b')"}
    assert ties.rules_picking(ties.picks["hf"]) == ["hf", "lexicographic"]
    assert ties.to_data()["candidates"] == [["b", "a"], ["c", "a"], ["a", "b"]]


def test_seed001_walkthrough_tie_after_th_lists_the_pairs_the_text_names():
    t = Trainer.from_texts([SEED001_SENTENCE], TrainerConfig(pretokenizer="whitespace"))
    assert not find_ties(t).is_tie  # (t, h) 3 times: no tie at merge 1
    t.step()
    ties = find_ties(t)
    assert ties.count == 2 and {("th", "e"), ("l", "o")} <= {c.text for c in ties.candidates}
    t.step(pair=(t.id_of("l"), t.id_of("o")))  # the walkthrough's pick: lo
    ties = find_ties(t)
    assert ties.count == 2 and {("th", "e"), ("lo", "w"), ("w", "e")} <= {c.text for c in ties.candidates}
    # after the one pick by hand, the seeds' rule gives the text's third merge (the)
    assert ties.pick_text("first-seen") == ("th", "e") and ties.why["first-seen"].startswith("first seen at word 0")
    step = t.step()
    assert (step.left, step.right) == ties.picks["first-seen"] and step.new_token == "the"


def test_seed002_first_merge_tie_each_rule():
    t = Trainer.from_texts([" ".join(SEED002_WORDS)], make_config("char-whitespace", vocab_size=17))
    ties = find_ties(t)
    assert ties.count == 3 and {("e", "s"), ("e", "r")} <= {c.text for c in ties.candidates}
    assert {r: ties.pick_text(r) for r in TIE_BREAKS} == {
        "first-seen": ("e", "s"), "hf": ("e", "r"), "lexicographic": ("e", "r")}


def test_manual_pick_records_its_count_and_refuses_absent_pairs():
    t = Trainer({"abc": 3, "bc": 1}, TrainerConfig())
    a, b, c = (t.id_of(x) for x in "abc")
    n = t.pair_count(a, b)
    step = t.step(pair=(a, b))
    assert (step.left, step.right, step.count) == (a, b, n) == (a, b, 3)
    with pytest.raises(BPELensError, match="does not occur"):
        t.step(pair=(c, a))
    with pytest.raises(BPELensError, match="does not occur"):
        t.step(pair=(99, 0))
    t.undo()
    assert t.step().left == b  # the rule again: (b, c) 4 times


# -- branches: pick / switch / undo sequences against fresh runs with the same forced picks ------------

LIMIT = 8


class BranchesVsFreshRuns(RuleBasedStateMachine):
    config = make_config("char-whitespace", num_merges=LIMIT)

    @initialize(words=WORDS)
    def start(self, words) -> None:
        self.words = words
        self.tl = Timeline(Trainer(words, self.config))
        self.br = Branches(self.tl)

    @rule(n=st.integers(1, 4))
    def step(self, n: int) -> None:
        self.tl.step(n)

    @rule(n=st.integers(1, 4))
    def undo(self, n: int) -> None:
        self.tl.undo(n)

    @rule(k=st.integers(0, LIMIT))
    def seek(self, k: int) -> None:
        self.tl.seek(k)

    @rule(which=st.integers(0, 30))
    def pick(self, which: int) -> None:
        tl = self.tl
        if tl.merge_count >= LIMIT:
            return
        ties = find_ties(tl.trainer) if not tl.is_lagging else None
        pairs = sorted(brute_counts(tl.trainer))
        if not pairs or ties is None:
            return
        left, right = pairs[which % len(pairs)]
        before = len(self.br.all())
        forks = tl.merge_count < len(tl.steps) and (tl.steps[tl.merge_count].left,
                                                     tl.steps[tl.merge_count].right) != (left, right)
        branch, steps = self.br.pick(left, right)
        assert (branch is not None) == forks and len(self.br.all()) == before + forks
        assert [(s.left, s.right) for s in steps] == [(left, right)]

    @rule(which=st.integers(0, 10))
    def switch(self, which: int) -> None:
        branches = self.br.all()
        self.br.switch(branches[which % len(branches)].id)

    @invariant()
    def every_branch_equals_a_fresh_run_with_its_picks(self) -> None:
        tl = getattr(self, "tl", None)
        if tl is None:
            return
        for br in self.br.all():
            ref = Trainer(self.words, self.config)
            ref.picks = dict(br.picks)
            ref.run()
            assert [(s.left, s.right, s.count) for s in br.steps] == \
                [(s.left, s.right, s.count) for s in ref.history[:len(br.steps)]]
        cur = self.br.current
        ref = Trainer(self.words, self.config)
        ref.picks = dict(tl.trainer.picks)
        ref.seek(tl.merge_count)
        assert [(s.left, s.right) for s in tl.history] == [(s.left, s.right) for s in ref.history]
        assert all(tl.segmentation(i) == ref.segmentation(i) for i in range(len(ref.words)))
        assert tl.top_pairs == tuple(ref.top_pairs(TOP_K)) and tl.stats == ref.stats
        assert tl.model().merges == ref.model().merges and cur.id == self.br.current_id


TestBranchesVsFreshRuns = BranchesVsFreshRuns.TestCase
TestBranchesVsFreshRuns.settings = settings(max_examples=25, stateful_step_count=12, deadline=None,
                                            suppress_health_check=[HealthCheck.too_slow])


def seed002_timeline() -> Timeline:
    return Timeline(Trainer.from_texts([" ".join(SEED002_WORDS)], make_config("char-whitespace", vocab_size=17)))


def test_pick_with_a_future_keeps_it_as_a_branch_and_compare_shows_both():
    tl = seed002_timeline()
    br = Branches(tl)
    tl.step(5)
    tl.seek(0)
    e, r = tl.trainer.id_of("e"), tl.trainer.id_of("r")
    branch, _ = br.pick(e, r)
    assert branch.fork == 0 and branch.parent == 0 and len(br.all()) == 2
    tl.step(4)
    cmp = br.compare(0, branch.id)
    assert cmp.fork == 0 and cmp.depth == 5
    assert [(a.left_token, a.right_token) for _, a, _ in cmp.rows][:1] == [("e", "s")]
    assert [(b.left_token, b.right_token) for _, _, b in cmp.rows][:1] == [("e", "r")]
    assert cmp.words == ()  # the same five merges in another order: every word ends the same
    early = br.compare(0, branch.id, depth=1, words=[0])
    words = {w: (x, y) for w, _, x, y in early.words}
    assert words["highest"] == (("h", "i", "g", "h", "es", "t", "</w>"), ("h", "i", "g", "h", "e", "s", "t", "</w>"))
    assert words["higher"] == (("h", "i", "g", "h", "e", "r", "</w>"), ("h", "i", "g", "h", "er", "</w>"))
    assert set(words) == set(SEED002_WORDS)  # word 0 chosen; every other word differs after one merge
    br.switch(0)  # back where main was left (merge 0), its future known again
    assert tl.merge_count == 0 and [s.new_token for s in tl.steps] == ["es", "est", "est</w>", "er", "er</w>"]
    br.switch(branch.id)
    assert tl.history[0].new_token == "er" and tl.merge_count == 5


def test_branches_to_data_and_back():
    tl = seed002_timeline()
    br = Branches(tl)
    tl.step(5)
    tl.seek(1)
    br.pick(tl.trainer.id_of("e"), tl.trainer.id_of("r"))
    tl.step(2)
    data = br.to_data()
    assert [b["fork"] for b in data["branches"]] == [0, 1] and data["current"] == 1
    assert data["branches"][1]["picks"] == [[1, "e", "r"]]
    again = Branches.from_data(seed002_timeline(), data)
    assert again.to_data() == data
