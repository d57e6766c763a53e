"""The one place BPE Lens turns JSON text into values: every JSON file it reads comes through here.

Python's ``json`` raises a ``RecursionError`` on ``[[[[…]]]]`` nested a thousand deep and a
``ValueError`` on an integer of more than 4,300 digits; both would reach the user as a traceback.
:func:`parse_json` turns them into one :class:`~bpe_core.types.BPELensError` line naming the file,
and refuses nesting deeper than :data:`MAX_DEPTH` levels (real files nest a few levels), so no code
that walks the value later (a pre-tokenizer ``Sequence``, a workspace's view state) can recurse
too deep. Text that is not JSON at all still raises ``json.JSONDecodeError``: each reader words that
in its own terms (a truncated tokenizer.json, a damaged workspace).

>>> parse_json('{"a": [1, 2]}', "v.json")
{'a': [1, 2]}
>>> parse_json("[" * 200 + "]" * 200, "v.json")
Traceback (most recent call last):
...
bpe_core.types.BPELensError: v.json: the JSON is too deeply nested (more than 100 levels of [ and {): a corrupt or hostile file
>>> parse_json('{"a":\\n ' + "7" * 5000 + "}", "v.json")
Traceback (most recent call last):
...
bpe_core.types.BPELensError: v.json: a number with 5000 digits at line 2 column 2: too long for an id or a count (a corrupt or hand-edited file)
"""
from __future__ import annotations

import json
import re
from typing import Any, Union

from bpe_core.types import BPELensError

#: the deepest nesting of arrays and objects a file may have (tokenizer.json files nest ~6 deep)
MAX_DEPTH = 100

_DIGITS = re.compile(r"value has (\d+) digits")


def parse_json(text: Union[str, bytes], where: str) -> Any:
    """The value of the JSON ``text`` read from the file ``where``.

    BPELensError for nesting deeper than :data:`MAX_DEPTH` and for an integer too long to convert;
    ``json.JSONDecodeError`` (left to the caller) for text that is not JSON.
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise _too_deep(where) from None
    except ValueError as exc:  # an integer beyond sys.get_int_max_str_digits()
        found = _DIGITS.search(str(exc))
        if found is None:
            raise
        raise _long_number(text, int(found.group(1)), where) from None
    if nesting_depth(value, MAX_DEPTH) > MAX_DEPTH:
        raise _too_deep(where)
    return value


def nesting_depth(value: Any, stop: int = -1) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar is 0, ``[]`` is 1), without
    recursion; the walk stops once it passes ``stop`` (when given).

    >>> nesting_depth(7), nesting_depth([]), nesting_depth({"a": [1, {"b": []}]})
    (0, 1, 4)
    """
    if not isinstance(value, (dict, list)):
        return 0
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if 0 <= stop < deepest:
            break
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return deepest


def _too_deep(where: str) -> BPELensError:
    return BPELensError(f"{where}: the JSON is too deeply nested (more than {MAX_DEPTH} levels of [ and {{): "
                        "a corrupt or hostile file")


def _long_number(text: Union[str, bytes], digits: int, where: str) -> BPELensError:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    # the integer (not a float's fraction or exponent) of exactly that many digits
    at = re.search(r"(?<![\d.eE+-])-?\d{%d}(?![\d.eE])" % digits, text)
    place = ""
    if at is not None:
        line = text.count("\n", 0, at.start()) + 1
        place = f" at line {line} column {at.start() - (text.rfind(chr(10), 0, at.start()) + 1) + 1}"
    return BPELensError(f"{where}: a number with {digits} digits{place}: too long for an id or a count "
                        "(a corrupt or hand-edited file)")
