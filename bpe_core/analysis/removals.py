"""How a training rule's removals (PickyBPE) are told: one line per removal, its IoS inputs, and which
removals of a step split a given word.

A :class:`~bpe_core.types.Removal` says a token was taken out right after a merge and its remaining
occurrences replaced by ``split``. The merges table, the words pane and why-this-split all tell it in
the same words, made here; ``show`` turns a token id into the text a person reads (the app's chip text).

>>> from bpe_core.types import Removal
>>> r = Removal(5, "ab", (0, 1), 100, 93)
>>> removal_label(r, {5: "ab", 0: "a", 1: "b"}.get)
'✂ ab → a b (IoS 0.93)'
>>> removal_caption(r, {5: "ab", 0: "a", 1: "b"}.get)
"removed 'ab' (IoS 0.93): split into a b"
>>> ios_inputs(r)
'IoS = merged / frequency before the merge = 93 / 100 = 0.930'
"""
from __future__ import annotations

from typing import Callable, Sequence, Tuple

from bpe_core.types import MergeStep, Removal

__all__ = ["removal_label", "removal_caption", "ios_inputs", "removals_in_word"]

Show = Callable[[int], str]


def removal_label(r: Removal, show: Show) -> str:
    """The short form for a table cell: ``✂ ab → a b (IoS 0.93)``."""
    return f"✂ {show(r.token_id)} → {' '.join(show(t) for t in r.split)} (IoS {r.ios:.2f})"


def removal_caption(r: Removal, show: Show) -> str:
    """The sentence for a word's history: ``removed 'ab' (IoS 0.93): split into a b``."""
    return f"removed '{show(r.token_id)}' (IoS {r.ios:.2f}): split into {' '.join(show(t) for t in r.split)}"


def ios_inputs(r: Removal) -> str:
    """Where the IoS comes from: how much of the token's frequency the merge used, over its frequency."""
    return f"IoS = merged / frequency before the merge = {r.merged:,} / {r.freq:,} = {r.ios:.3f}"


def removals_in_word(step: MergeStep, before: Sequence[int], after: Sequence[int]) -> Tuple[Removal, ...]:
    """The removals of ``step`` that split a word whose segmentation went from ``before`` to ``after``.

    A removed token is a parent of the merge: the merge used some of its occurrences in the word, the
    removal split the rest. So a removal split the word when the word held more occurrences of the token
    than the merge used (the merge's count in the word is how many more ``step.new_id`` it holds after).
    """
    if not step.removals:
        return ()
    fired = list(after).count(step.new_id) - list(before).count(step.new_id)
    out = []
    for r in step.removals:
        used = fired * ((step.left == r.token_id) + (step.right == r.token_id))
        if list(before).count(r.token_id) > used:
            out.append(r)
    return tuple(out)
