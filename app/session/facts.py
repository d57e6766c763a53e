"""Read-only views of the session's timeline, declared once per fact on the session class.

``words = Fact[List[str]](list)`` on a class with a ``_tl`` (the timeline, or None before a corpus)
reads ``session._tl.words``, or ``list()`` while there is no timeline: the session keeps no copy.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Optional, TypeVar

T = TypeVar("T")


class Fact(Generic[T]):
    """A read-only view of the timeline's attribute of the same name (``empty()`` before a corpus)."""

    def __init__(self, empty: Optional[Callable[[], T]] = None, *, name: str = "") -> None:
        self._empty, self._name = empty, name

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = self._name or name

    def __get__(self, session: Optional[Any], owner: type) -> T:
        if session is None:
            return self  # type: ignore[return-value]  # the class attribute itself
        timeline = session._tl
        if timeline is not None:
            return getattr(timeline, self._name)
        return self._empty() if self._empty is not None else None  # type: ignore[return-value]
