"""The session's read-only facts: each one reads the timeline, so the session keeps no copy.

The session declares most facts in one line each, as a :class:`Fact`. ``words = Fact[List[str]](list)``
on the session means that ``session.words`` reads ``session._tl.words`` (the timeline's list of unique
words), or returns ``list()``, an empty list, while no corpus is loaded. A fact may name one of the
timeline's methods, too: ``session.segmentation(i)`` then calls ``timeline.segmentation(i)``.

A fact that needs more than one attribute is a function here: :func:`examples_at`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generic, Optional, Tuple, TypeVar

from bpe_core import MergeStep, Trainer
from bpe_core.training import changed_word_examples
from bpe_core.types import WordChange

if TYPE_CHECKING:
    from bpe_core import Timeline

T = TypeVar("T")


class Fact(Generic[T]):
    """A read-only attribute of the session that reads the timeline's attribute of the same name
    (or of ``name``), and ``empty()`` while there is no timeline (None when ``empty`` is not given)."""

    def __init__(self, empty: Optional[Callable[[], T]] = None, *, name: str = "") -> None:
        self._empty, self._name = empty, name

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = self._name or name

    def __get__(self, session: Optional[Any], owner: type) -> T:
        if session is None:
            return self  # type: ignore[return-value]  # read on the class: the Fact itself
        timeline = session._tl
        if timeline is not None:
            return getattr(timeline, self._name)
        return self._empty() if self._empty is not None else None  # type: ignore[return-value]


def examples_at(tl: Optional[Timeline], step: MergeStep) -> Tuple[WordChange, ...]:
    """The most frequent words ``step`` changed, as they were before and after it.

    A merge made one at a time carries its examples. The merges of a long run on a worker carry none, to
    keep the run fast (issue 23, finding 3), so for the merge at the position they are made here from the
    timeline's records. For any other merge without examples the answer is empty.
    """
    if step.examples or not step.changed_words or tl is None or tl.merge_count != step.rank:
        return step.examples
    return changed_word_examples(tl.words, tl.freqs, _AtPosition(tl.segmentation), step.changed_words, None,
                        (step.left, step.right, step.new_id), Trainer.EXAMPLES)


class _AtPosition:
    """The words' segmentations at the position, indexed like a list (what ``changed_word_examples`` reads)."""

    def __init__(self, segmentation: Callable[[int], Tuple[int, ...]]) -> None:
        self._segmentation = segmentation

    def __getitem__(self, i: int) -> Tuple[int, ...]:
        return self._segmentation(i)
