"""The pair index's compact state (lists of words, live pairs only, packed hf heap keys) against the
simple path: a full recount of the words, and the tuple keys the packing stands for.

Long words of two letters make one merge touch a pair more than ``MANY`` times in a word, so the
aggregated update (pairs.apply_many) runs too.
"""
from __future__ import annotations

from collections import Counter
from typing import Dict, List

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bpe_core.training.pairs import MANY, PACK, PMASK, SHIFT, pair_keys
from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig

RULES = ["first-seen", "hf", "lexicographic"]
# short words and words long enough for more than MANY occurrences of a pair in one word
words_strategy = st.dictionaries(
    st.one_of(st.text(alphabet="abc", min_size=1, max_size=8), st.text(alphabet="ab", min_size=2 * MANY, max_size=160)),
    st.integers(1, 4), min_size=1, max_size=8)


def chars(word: str) -> List[str]:
    return list(word)


def holders(t: Trainer) -> Dict[int, set]:
    """pair key -> the words that hold it now, and the weighted counts, recounted from scratch."""
    where: Dict[int, set] = {}
    for w in range(len(t.words)):
        for k in pair_keys(list(t.segmentation(w))):
            where.setdefault(k, set()).add(w)
    return where


def recount(t: Trainer) -> Counter:
    c: Counter = Counter()
    for w, f in enumerate(t.freqs):
        for k in pair_keys(list(t.segmentation(w))):
            c[k] += f
    return c


def check_index(t: Trainer, stepped_only: bool) -> None:
    idx = t._idx
    assert all(v >= 0 for v in idx.counts.values())
    assert {k: v for k, v in idx.counts.items() if v} == dict(recount(t))
    for k, ws in holders(t).items():  # the index may name stale words, never miss a holder
        assert ws <= set(idx.where[k]), k
    if stepped_only:  # merges alone keep live pairs only: a pair at count 0 is forgotten
        assert set(idx.where) == set(idx.counts)
    if t.config.tie_break == "hf":  # every live pair has an entry at least as good as its count
        best: Dict[int, int] = {}
        for key in idx.heap:
            k = key & PMASK
            best[k] = max(best.get(k, 0), -(key >> PACK))
        assert all(best.get(k, 0) >= c for k, c in idx.counts.items() if c > 0)


class CompactIndexMachine(RuleBasedStateMachine):
    """Random steps and undos over long and short words: the compact index equals a recount."""

    def __init__(self) -> None:
        super().__init__()
        self.t = None
        self.undone = False

    @rule(words=words_strategy, rule_name=st.sampled_from(RULES))
    @precondition(lambda self: self.t is None)
    def start(self, words, rule_name):
        self.t = Trainer(words, TrainerConfig(tie_break=rule_name), symbols_fn=chars)

    @rule(n=st.integers(1, 6))
    @precondition(lambda self: self.t is not None)
    def step(self, n):
        for _ in range(n):
            before = self.t.top_pairs(1)
            s = self.t.step()
            if s is None:
                break
            assert (s.left, s.right, s.count) == (before[0].left, before[0].right, before[0].count)

    @rule()
    @precondition(lambda self: self.t is not None)
    def undo(self):
        self.undone |= self.t.undo() is not None

    @invariant()
    def index_equals_recount(self):
        if self.t is not None:
            check_index(self.t, stepped_only=not self.undone)


TestCompactIndex = CompactIndexMachine.TestCase
TestCompactIndex.settings = settings(max_examples=80, stateful_step_count=25, deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=words_strategy, rule_name=st.sampled_from(RULES))
def test_a_full_run_picks_the_recounted_best_each_merge(words, rule_name):
    """Each merge is the best pair of a full recount under the tie rule (hf: smallest ids)."""
    t = Trainer(words, TrainerConfig(tie_break=rule_name), symbols_fn=chars)
    while True:
        counts = recount(t)
        s = t.step()
        if s is None:
            assert not counts
            break
        top = max(counts.values())
        assert s.count == top
        if rule_name == "hf":
            assert (s.left << SHIFT) | s.right == min(k for k, c in counts.items() if c == top)
    check_index(t, stepped_only=True)


@given(st.lists(st.tuples(st.integers(1, 2 ** 40), st.integers(0, (1 << 2 * SHIFT) - 1)), min_size=1, max_size=30))
def test_packed_hf_keys_sort_as_the_tuples_and_unpack(entries):
    packed = [k - (c << PACK) for c, k in entries]
    assert [(-(p >> PACK), p & PMASK) for p in sorted(packed)] == [(c, k) for c, k in
                                                                   sorted(entries, key=lambda e: (-e[0], e[1]))]


@settings(max_examples=200, deadline=None)
@given(segs=st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=8), max_size=40),
       slice_words=st.integers(1, 12), data=st.data())
def test_initial_pairs_counted_a_slice_of_words_at_a_time_equal_a_plain_count(segs, slice_words, data):
    """initial_pairs passes over a slice of words at a time (the GIL is free between passes); its counts and
    word lists equal a plain loop's over every word: pairs never span two words, also across slices."""
    import bpe_core.training.pairs as pairs

    freqs = data.draw(st.lists(st.integers(1, 9), min_size=len(segs), max_size=len(segs)))
    saved, pairs.PAIRS_SLICE = pairs.PAIRS_SLICE, slice_words
    try:
        counts, where = pairs.initial_pairs(segs, freqs)
    finally:
        pairs.PAIRS_SLICE = saved
    want: Counter = Counter()
    owners: Dict[int, List[int]] = {}
    for w, seg in enumerate(segs):
        for a, b in zip(seg, seg[1:]):
            want[a << SHIFT | b] += freqs[w]
            owners.setdefault(a << SHIFT | b, []).append(w)
    assert counts == dict(want) and where == owners


@settings(max_examples=100, deadline=None)
@given(words=words_strategy, slice_words=st.integers(1, 5), rule_name=st.sampled_from(RULES))
def test_token_occurrences_counted_a_slice_of_words_at_a_time_equal_a_plain_count(words, slice_words, rule_name):
    """The index counts each token's occurrences in the unique words a slice of words a pass (the GIL is free
    between passes, as for initial_pairs): the same as one count over every word."""
    import bpe_core.training.pair_index as pair_index

    saved, pair_index.PAIRS_SLICE = pair_index.PAIRS_SLICE, slice_words
    try:
        t = Trainer(words, TrainerConfig(tie_break=rule_name), symbols_fn=chars)
    finally:
        pair_index.PAIRS_SLICE = saved
    plain = Counter(tid for w in range(len(t.words)) for tid in t.segmentation(w))
    assert t._idx.occ == [plain.get(tid, 0) for tid in range(len(t._idx.occ))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=words_strategy, rule_name=st.sampled_from(RULES),
       moves=st.lists(st.tuples(st.booleans(), st.integers(1, 5)), min_size=1, max_size=12))
def test_rebuilding_the_heap_and_the_word_lists_changes_no_merge(words, rule_name, moves):
    """Scrubbing grows the lazy heap and word lists; PairIndex.bound rebuilds them. Rebuilt at every chance
    (no slack), a trainer stepping and undoing at random merges exactly as one that never rebuilds, and its
    index still equals a recount."""
    import bpe_core.training.index_bounds as index_bounds
    from bpe_core.training.pair_index import PairIndex

    def play() -> List[tuple]:
        t = Trainer(words, TrainerConfig(tie_break=rule_name), symbols_fn=chars)
        seen = []
        for forward, n in moves:
            for _ in range(n):
                s = t.step() if forward else t.undo()
                seen.append(None if s is None else (forward, s.left, s.right, s.count))
            check_index(t, stepped_only=True)
        return seen

    plain = play()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(index_bounds, "SLACK_MIN", -1 << 40)  # no slack: rebuilt after every merge and undo
        rebuilt = []
        real_heap, real_where = PairIndex.rebuild_heap, index_bounds.rebuild_where
        mp.setattr(PairIndex, "rebuild_heap", lambda self: rebuilt.append("rebuild_heap") or real_heap(self))
        mp.setattr(index_bounds, "rebuild_where", lambda idx: rebuilt.append("rebuild_where") or real_where(idx))
        assert play() == plain
    if any(plain):  # a merge or an undo happened: both were rebuilt
        assert {"rebuild_heap", "rebuild_where"} <= set(rebuilt)
