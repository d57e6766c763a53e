"""bpe_core/analysis/removals.py: which removals of a step split a word, and how a removal is told."""
from __future__ import annotations

from bpe_core.analysis import removal_caption, removal_label, removals_in_word
from bpe_core.types import MergeStep, Removal, TrainingStats

# ids: a=0 b=1 c=2 ab=3 abc=4 ; merge 2 is ab + c -> abc, after which 'ab' is removed (split a b)
NAMES = {0: "a", 1: "b", 2: "c", 3: "ab", 4: "abc"}
REMOVED = Removal(3, "ab", (0, 1), 10, 9)


def _step(removals=(REMOVED,)) -> MergeStep:
    return MergeStep(2, 3, 2, 4, "ab", "c", "abc", 9, True, (0, 1), (), (), TrainingStats(2, 5, 0, 0, 0), removals)


def test_a_removal_splits_only_the_words_that_kept_the_token():
    step = _step()
    assert removals_in_word(step, (3, 2), (4,)) == ()  # the merge used the only 'ab'
    assert removals_in_word(step, (3, 3, 2), (0, 1, 4)) == (REMOVED,)  # one 'ab' left over: split
    assert removals_in_word(step, (3,), (0, 1)) == (REMOVED,)  # the merge missed the word: only the removal
    assert removals_in_word(step, (0, 2), (0, 2)) == ()
    assert removals_in_word(_step(()), (3,), (3,)) == ()


def test_a_removal_is_told_with_its_split_and_ios():
    assert removal_label(REMOVED, NAMES.get) == "✂ ab → a b (IoS 0.90)"
    assert removal_caption(REMOVED, NAMES.get) == "removed 'ab' (IoS 0.90): split into a b"
