"""Checks every reader runs on what a file claims, before it builds anything from it.

A vocabulary file is the user's input: an id of 10**12 must not allocate a list of 10**12
slots (MemoryError), a ``"vocab": []`` must not reach ``.items()`` (AttributeError), two
tokens on one id must not silently drop one of them. Each check raises
:class:`~bpe_core.types.BPELensError` with one line that says what is wrong and where.

>>> table_size([0, 1, 2], "vocab.json")
3
>>> table_size([0, 10**12], "vocab.json")
Traceback (most recent call last):
...
bpe_core.types.BPELensError: vocab.json: id 1000000000000 is far beyond its 2 entries (a corrupt or hand-edited file)
>>> expect({"a": 1}, dict, "model.vocab", "tokenizer.json")
{'a': 1}
>>> expect([], dict, "vocab", "mine.json")
Traceback (most recent call last):
...
bpe_core.types.BPELensError: mine.json: "vocab" is a JSON array, expected an object
"""
from __future__ import annotations

from typing import Any, Collection, Iterable

from bpe_core.types import BPELensError

#: how far the highest id may lie beyond the number of entries: real files have a few holes
#: (tokenizers' added tokens, seed 000's specials), never millions
SPARSE_SLACK = 4
SPARSE_MARGIN = 1000

_JSON_NAMES = {dict: "an object", list: "an array", str: "a string", int: "an integer",
               float: "a number", bool: "true/false", type(None): "null"}


def json_kind(value: Any) -> str:
    """How JSON calls the type of ``value`` ("an object", "an array", ...)."""
    return _JSON_NAMES.get(type(value), type(value).__name__)


def expect(value: Any, kind: type, field: str, where: str) -> Any:
    """``value`` when it is of ``kind`` (a bool is no int); else one line naming the field."""
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        shown = "a JSON " + json_kind(value).split(" ", 1)[-1] if type(value) in _JSON_NAMES else json_kind(value)
        raise BPELensError(f"{where}: \"{field}\" is {shown}, expected {_JSON_NAMES.get(kind, kind.__name__)}")
    return value


def is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def table_size(ids: Collection[int], where: str, entries: int = -1) -> int:
    """The length of a token table holding ``ids`` (already checked with :func:`is_id`).

    Refuses a table far larger than its entries: one stray huge id would otherwise make a
    giant, mostly empty list (or a MemoryError). ``entries`` defaults to ``len(ids)``; ``where``
    (the file's name) starts the message unless it is empty.
    """
    entries = len(ids) if entries < 0 else entries
    top = max(ids, default=-1)
    if top > SPARSE_SLACK * entries + SPARSE_MARGIN:
        prefix = f"{where}: " if where else ""
        raise BPELensError(f"{prefix}id {top} is far beyond its {entries} entries (a corrupt or hand-edited file)")
    return top + 1


def first_duplicate(ids: Iterable[int]) -> Any:
    """The first id seen twice, or None.

    >>> first_duplicate([3, 1, 3]), first_duplicate([1, 2])
    (3, None)
    """
    seen = set()
    for i in ids:
        if i in seen:
            return i
        seen.add(i)
    return None
