"""The one merge routine and the one segmenter against naive references; long words stay linear."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bpe_core.base import merge as merge_mod
from bpe_core.base.merge import (expand_pair, find_pair, merge_in_place, merge_pair, merge_table, segment,
                                     segment_all)
from bpe_core.training import pair_index
from bpe_core.training.pair_index import SHIFT, PairIndex, pairs_of
from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig

words = st.lists(st.integers(0, 3), max_size=40)


def naive_merge(syms: List[int], a: int, b: int, new: int) -> Optional[List[int]]:
    """Left to right, non-overlapping: the textbook loop."""
    out, i, hit = [], 0, False
    while i < len(syms):
        if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
            out.append(new)
            i += 2
            hit = True
        else:
            out.append(syms[i])
            i += 1
    return out if hit else None


def naive_segment(ids: List[int], table: Dict[Tuple[int, int], Tuple[int, int]]) -> List[int]:
    """Merge the lowest-ranked pair, the leftmost on ties, one at a time, rescanning every time."""
    ids = list(ids)
    while True:
        ranked = [(table[(ids[i], ids[i + 1])][0], i) for i in range(len(ids) - 1) if (ids[i], ids[i + 1]) in table]
        if not ranked:
            return ids
        _, i = min(ranked)
        ids[i:i + 2] = [table[(ids[i], ids[i + 1])][1]]


@given(words, st.integers(0, 3), st.integers(0, 3))
def test_merge_pair_equals_the_naive_loop(syms, a, b):
    assert merge_pair(syms, a, b, 9) == naive_merge(syms, a, b, 9)
    if a != b:  # the pair index scans for the rarer symbol then
        assert find_pair(syms, a, b, by_right=True) == find_pair(syms, a, b)


@given(words, st.integers(0, 3), st.integers(0, 3))
def test_merge_in_place_and_expand_are_inverse(syms, a, b):
    work = list(syms)
    spots = find_pair(work, a, b)
    if not spots:
        return
    merge_in_place(work, spots, 9)
    assert work == naive_merge(syms, a, b, 9)
    assert [work[s - k] for k, s in enumerate(spots)] == [9] * len(spots)  # where the merged pairs sit
    assert expand_pair(work, 9, a, b) == syms


@settings(max_examples=200)
@given(words, st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=8))
def test_segment_equals_rescanning_lowest_rank_first(syms, pairs):
    # every merge makes its own new token; a repeated pair keeps its last rank (the one merge table)
    table = merge_table(pairs, [10 + r for r in range(len(pairs))])
    # later merges may use earlier results, as a trained vocabulary's do
    table.update({(10 + r, s): (len(pairs) + r, 20 + r) for r, (_, s) in enumerate(pairs)})
    merged, starts = segment(syms, table)
    assert merged == naive_segment(syms, table)
    assert starts[:1] == ([0] if syms else []) and starts == sorted(set(starts))
    assert segment_all([syms, syms], table) == [merged, merged]


def _recount(t: Trainer) -> Dict[int, int]:
    out: Dict[int, int] = {}
    for w in range(len(t.words)):
        for k in pairs_of(t.segmentation(w)):
            out[k] = out.get(k, 0) + t.freqs[w]
    return out


@pytest.mark.parametrize("many", [0, 2, 32])  # 0: every word takes the aggregated (long-word) path
@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=st.lists(st.tuples(st.text("ab", min_size=1, max_size=30), st.integers(1, 5)), min_size=1, max_size=8),
       rule=st.sampled_from(["hf", "first-seen", "lexicographic"]))
def test_the_pair_index_merges_like_merge_pair_and_keeps_exact_counts(monkeypatch, many, items, rule):
    monkeypatch.setattr(pair_index, "MANY", many)
    t = Trainer(dict(items), TrainerConfig(tie_break=rule))
    states = []
    for _ in range(6):
        before = [list(t.segmentation(w)) for w in range(len(t.words))]
        counts_before = _recount(t)
        step = t.step()
        if step is None:
            break
        counts_after = _recount(t)
        moved = sorted(k for k in set(counts_before) | set(counts_after)
                       if counts_before.get(k, 0) != counts_after.get(k, 0))
        assert step.changed_pairs == tuple((k >> SHIFT, k & pair_index.MASK, counts_after.get(k, 0)) for k in moved)
        for w, syms in enumerate(before):
            assert list(t.segmentation(w)) == (merge_pair(syms, step.left, step.right, step.new_id) or syms)
        assert {k: c for k, c in t._counts.items() if c} == _recount(t)
        states.append(before)
    while states:  # undo restores every earlier state exactly
        t.undo()
        assert [list(t.segmentation(w)) for w in range(len(t.words))] == states.pop()
        assert {k: c for k, c in t._counts.items() if c} == _recount(t)


class CountingList(list):
    """A list that counts item writes and deletions (the work a merge does on the word)."""

    writes = 0

    def __setitem__(self, key, value):
        CountingList.writes += 1
        super().__setitem__(key, value)

    def __delitem__(self, key):
        CountingList.writes += 1
        super().__delitem__(key)


def test_merging_a_256k_symbol_word_rewrites_it_once():
    word = CountingList([0, 1] * 128_000)  # 128k occurrences of the pair
    CountingList.writes = 0
    spots = find_pair(word, 0, 1)
    merge_in_place(word, spots, 2)
    assert len(word) == 128_000 and set(word) == {2}
    assert CountingList.writes == 1  # one slice assignment, not a del per occurrence (quadratic)
    assert expand_pair(word, 2, 0, 1) == [0, 1] * 128_000


def test_the_trainer_merges_and_undoes_a_256k_character_word(monkeypatch):
    """The merge's work is counted, not its calls: a count of merge_in_place calls passed while the merge
    read the word once per occurrence (128k times 256k symbols: 97 s). tests/core/test_work_counted.py
    checks the same work as the word doubles from 16k to 256k characters."""
    calls: List[int] = []
    real = merge_mod.merge_in_place

    def spy(syms, spots, new):
        calls.append(len(spots))
        real(syms, spots, new)

    monkeypatch.setattr("bpe_core.training.pair_index.merge_in_place", spy)
    word = "ab" * 128_000
    t = Trainer({word: 1, "ab": 3}, TrainerConfig(tie_break="hf"))
    idx = t.pair_index
    scanned = idx.scanned
    step = t.step()
    assert (t.token(step.new_id), step.count) == ("ab", 128_003)
    # the merge read the long word once (a count and a scan), whatever its occurrences, and rewrote it
    # in one call ("ab", holding the pair once, is merged inline by the pair index: no call)
    assert idx.scanned - scanned == len(word) + 2
    assert calls == [128_000]
    assert len(t.segmentation(0)) == 128_000
    scanned = idx.scanned
    t.undo()
    assert idx.scanned - scanned == (128_000 + 256_000) + (1 + 2)  # each word's two segmentations, once
    assert t.segmentation(0) == tuple(t.id_of(c) for c in word)
    assert t.pair_count(t.id_of("a"), t.id_of("b")) == 128_003
    assert t.pair_count(t.id_of("b"), t.id_of("a")) == 127_999


def test_pair_keys_fit_the_shift():
    idx = PairIndex([[1, 2]], [1], [b"a", b"b", b"c"], [1, 1, 1], "hf")
    assert idx.counts == {(1 << SHIFT) | 2: 1}
