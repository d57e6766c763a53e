"""PickyBPE as a rule inside the Trainer (bpe_core/training/picky.py): undo is exact through removals.

A run that steps forward, undoes some steps and steps again must be, at every position, the state of a
fresh run stepped to the same position: segmentations, pair counts and the order of the next pairs, the
weighted token frequencies, which tokens are present, the statistics and the vocabulary count.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig

WORDS = st.dictionaries(st.text("abc", min_size=1, max_size=9), st.integers(1, 6), min_size=1, max_size=8)
TAUS = st.sampled_from([0.3, 0.6, 0.9, 1.0])
RULES = st.sampled_from(["first-seen", "hf", "table-order"])


def state(t: Trainer) -> tuple:
    rules = t._rules
    return ([t.segmentation(i) for i in range(len(t.words))], dict(t._counts), t.top_pairs(30), t.stats,
            t.vocab_size, list(rules.freq), list(rules.present), dict(t.pair_index.serial),
            [(s.rank, s.new_id, s.removals) for s in t.history])


def fresh(words, cfg, picks) -> Trainer:
    t = Trainer(words, cfg)
    for p in picks:
        t.step(pair=p)
    return t


@settings(max_examples=80, deadline=None)
@given(words=WORDS, tau=TAUS, rule=RULES, moves=st.lists(st.integers(-4, 6), min_size=1, max_size=6))
def test_undo_through_removals_is_exact(words, tau, rule, moves):
    cfg = TrainerConfig(variant="picky", ios_threshold=tau, tie_break=rule)
    t = Trainer(words, cfg)
    for n in moves:
        if n >= 0:
            t.run(merges=t.merge_count + n)
        else:
            for _ in range(-n):
                t.undo()
        picks = [(s.left, s.right) for s in t.history]
        assert state(t) == state(fresh(words, cfg, picks))


def test_a_removed_token_leaves_the_vocabulary_and_returns_when_formed_again():
    t = Trainer({"aaab": 2, "aab": 1}, TrainerConfig(variant="picky", ios_threshold=0.5, tie_break="table-order"))
    steps = t.run(merges=6)
    removed = [(s.rank, t.display(r.token_id), [t.display(x) for x in r.split]) for s in steps for r in s.removals]
    assert removed and all(t.token(r.token_id) for s in steps for r in s.removals)
    assert t.vocab_size == len(t.model().tokens) - sum(not p for p in t._rules.present)
    assert t.model().algorithm == "picky" and t.model().removals


def test_tau_one_is_plain_bpe():
    words = {"lower": 3, "lowest": 2, "newer": 4, "wider": 1}
    plain = Trainer(words, TrainerConfig(tie_break="hf"))
    picky = Trainer(words, TrainerConfig(tie_break="hf", variant="picky", ios_threshold=1.0))
    assert [(s.left, s.right, s.count) for s in plain.run(merges=12)] == [
        (s.left, s.right, s.count) for s in picky.run(merges=12)]
    assert picky.model().algorithm == "merges"
