"""PickyBPE's removals are not quadratic: the symbols the trainer reads (``PairIndex.scanned``: merges,
removals, undo) grow in proportion as the corpus doubles, for the same number of merges. A removal reads
only the words its token entered (the records of the merges that formed it), never the whole corpus."""
from __future__ import annotations

import random

from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig


def corpus(n: int) -> dict:
    """``n`` distinct words of two to four syllables (the first ``n`` of a larger corpus's words are these):
    a syllable's inner pairs are merged away inside it, so its pieces get removed."""
    rng = random.Random(5)
    letters = "abcdefghijklmnopqrstuvwxyz"
    syllables = ["".join(rng.choice(letters) for _ in range(3)) for _ in range(60)]
    words: dict = {}
    while len(words) < n:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        words.setdefault(word, rng.randint(1, 9))
    return words


def work(n: int, tau: float) -> tuple:
    t = Trainer(corpus(n), TrainerConfig(variant="picky", ios_threshold=tau, tie_break="hf"))
    start = t.pair_index.scanned
    steps = t.run(merges=300)
    for _ in range(150):
        t.undo()
    return t.pair_index.scanned - start, sum(len(s.removals) for s in steps)


def test_removal_work_grows_linearly_with_the_corpus():
    (small, r1), (big, r2), (bigger, r3) = work(2000, 0.6), work(4000, 0.6), work(8000, 0.6)
    assert min(r1, r2, r3) > 20  # removals happen at every size
    assert big / small < 2.6 and bigger / big < 2.6, (small, big, bigger)


def test_removals_cost_about_what_the_merges_cost():
    picky, removed = work(4000, 0.6)
    plain, none = work(4000, 1.0)
    assert removed > 20 and none == 0
    assert picky < 3 * plain, (picky, plain)
