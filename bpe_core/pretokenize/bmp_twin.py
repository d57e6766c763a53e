"""A ``regex`` pattern's twin for Python's ``re``, exact on text without astral characters.

The GPT-2 pattern needs ``\\p{L}`` and ``\\p{N}``, which only the ``regex`` module knows, and ``regex``
is ~1.6x slower than ``re`` on the non-ASCII lines of a corpus (a third of the counting time on the
17.6 MB benchmark corpus, though only a fifth of its text). ``re`` takes explicit character classes
instead: every Basic Multilingual Plane character that ``regex`` itself puts in ``\\p{L}``, ``\\p{N}``
and ``\\s``, read from ``regex`` at run time (so its Unicode version, not Python's ``unicodedata``).
Classes of BMP characters compile to a 64k bitmap (``re``'s BIGCHARSET); a class with astral ranges
would be a slow range list, so a line with a character above U+FFFF keeps ``regex``.

Templates are the pattern with ``{L}``, ``{N}``, ``{S}`` (class bodies) in place of the properties;
the same constructs (possessive quantifiers, ``$``, look-ahead) mean the same in both engines, as for
the ASCII twins (tests compare both on every BMP character and on real text).

>>> twin = compile_bmp_twin(BMP_TWINS["gpt2"])
>>> twin.findall("Ça va? 12 ½ déjà\\n")
['Ça', ' va', '?', ' 12', ' ½', ' déjà', '\\n']
"""
from __future__ import annotations

import functools
import re
import sys
from array import array
from typing import Dict, List, Tuple

import regex

#: ``TIKTOKEN_PATTERNS["gpt2"]`` with the property classes spelled out (``\\S`` is ``[^{S}]``)
BMP_TWINS = {
    "gpt2": r"""'(?:[sdmt]|ll|ve|re)| ?[{L}]++| ?[{N}]++| ?[^{S}{L}{N}]++|[{S}]++$|[{S}]+(?![^{S}])|[{S}]""",
}
#: the first character a BMP twin cannot take
ASTRAL = "\U00010000"
#: finds a character a BMP twin cannot take (4x faster than ``max(line) >= ASTRAL``)
find_astral = re.compile("[\U00010000-\U0010ffff]").search


@functools.lru_cache(maxsize=1)
def bmp_classes() -> Dict[str, str]:
    """``re`` class bodies (``\\uXXXX`` ranges) of ``regex``'s ``\\p{L}``, ``\\p{N}``, ``\\s`` on the BMP.

    ~5 ms: one ``finditer`` over the 63k BMP characters (surrogates left out) per class.
    """
    chars = _text(range(0xD800)) + _text(range(0xE000, 0x10000))
    return {name: "".join(map(_span, _runs(prop, chars)))
            for name, prop in (("L", r"\p{L}+"), ("N", r"\p{N}+"), ("S", r"\s+"))}


def _text(code_points: range) -> str:
    """The characters of ``code_points`` (no surrogates): ~1 ms, where ``"".join(map(chr, ...))`` held the GIL
    for 9 ms (a first load's; a GUI thread waited to paint)."""
    return array("I", code_points).tobytes().decode("utf-32-le" if sys.byteorder == "little" else "utf-32-be")


def _runs(prop: str, chars: str) -> List[Tuple[int, int]]:
    return [(ord(m.group()[0]), ord(m.group()[-1])) for m in regex.finditer(prop, chars)]


def _span(run: Tuple[int, int]) -> str:
    a, b = run
    return f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}"


@functools.lru_cache(maxsize=8)
def compile_bmp_twin(template: str) -> "re.Pattern[str]":
    """The ``re`` pattern of ``template`` (see :data:`BMP_TWINS`); exact on text below :data:`ASTRAL`."""
    pattern = template
    for name, body in bmp_classes().items():
        pattern = pattern.replace("{" + name + "}", body)
    return re.compile(pattern)
