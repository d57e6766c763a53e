"""A user's split pattern, guarded: nested quantifiers warned of up front, a runaway match stopped.

A pattern like ``(a+)+$`` backtracks catastrophically: on a line of 30k ``a`` and a ``b`` the regex
engine tries every way to split the run (cubic or worse: 1k characters take 3.6 s, 2k 34 s, 30k
days). One regex call cannot be interrupted from Python, so two guards:

* :func:`pattern_warnings` - when the pattern is set (the CLI prints it, the app can show it): a
  quantified group that holds an unbounded quantifier of its own, not made possessive or atomic;
* :func:`guarded_finditer` - every match of a user pattern runs with the ``regex`` module's
  ``timeout``: past :data:`PATTERN_SECONDS` (plus time for the line's length) the call stops with a
  one-line :class:`PatternTimeout` naming the nested quantifier, instead of running for hours.

The timeout is what a user expects of a pattern that cannot finish: an error saying why, not a run
that has to be killed; counting of such a pattern also runs where Cancel stops it at once
(:mod:`bpe_core.corpus.counting`).
"""
from __future__ import annotations

from typing import Iterator, List, Optional, Tuple

import regex

from bpe_core.types import BPELensError

#: seconds one line may take to split, whatever its length (a linear pattern splits MBs a second)
PATTERN_SECONDS = 10.0
#: more time for longer lines: characters a second even a heavy linear pattern splits
CHARS_PER_SECOND = 200_000

_OPEN_EXTENSIONS = ("?:", "?P<", "?<", "?'", "?i", "?m", "?s", "?x", "?a", "?u", "?L", "?V", "?f", "?r", "?w")


class PatternTimeout(BPELensError):
    """A user split pattern that took too long on one piece of text (see the module doc)."""


def _quantifier_at(p: str, i: int) -> Tuple[int, bool, bool]:
    """``(length, variable, possessive)`` of a quantifier starting at ``p[i]`` (length 0: none);
    variable: it may repeat more than once and a varying number of times (``+ * {2,} {1,3}``).

    >>> _quantifier_at("a+?", 1), _quantifier_at("a{2,}", 1), _quantifier_at("a{2}", 1), _quantifier_at("a++", 1)
    ((2, True, False), (4, True, False), (3, False, False), (2, True, True))
    """
    if i >= len(p):
        return 0, False, False
    c = p[i]
    if c in "+*?":
        n, unbounded = 1, c != "?"
    elif c == "{":
        close = p.find("}", i)
        body = p[i + 1:close] if close > 0 else ""
        low, comma, high = body.partition(",")
        if not body or not (low.strip().isdigit() or not low.strip()) or not (high.strip().isdigit() or not high.strip()):
            return 0, False, False  # a literal "{"
        n = close - i + 1
        unbounded = bool(comma) and (not high.strip() or int(high) > max(1, int(low or 0)))
        if not comma:
            return n, False, False
    else:
        return 0, False, False
    if i + n < len(p) and p[i + n] in "+?":
        return n + 1, unbounded, p[i + n] == "+"
    return n, unbounded, False


def nested_quantifiers(pattern: str) -> List[Tuple[int, str]]:
    """``(character index, text)`` of each group quantified without bound around an unbounded
    quantifier of its own (neither possessive nor in an atomic group): ``(a+)+``, ``(\\w+\\s?)*``.

    >>> nested_quantifiers(r"(a+)+$"), nested_quantifiers(r"x(?:\\w+\\s?)*y")
    ([(0, '(a+)+')], [(1, '(?:\\\\w+\\\\s?)*')])
    >>> nested_quantifiers(r"(a++)+"), nested_quantifiers(r"(?>a+)+"), nested_quantifiers(r"[(a+)+]\\(a+\\)+")
    ([], [], [])
    """
    found: List[Tuple[int, str]] = []
    stack: List[List] = []  # [start, holds an unbounded quantifier, atomic]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":  # a class: skip to its unescaped "]" (a "]" right after "[" or "[^" is literal)
            j = i + 1 + (pattern[i + 1:i + 2] == "^")
            j += pattern[j:j + 1] == "]"
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            continue
        if c == "(":
            stack.append([i, False, pattern.startswith("?>", i + 1)])
            i += 1
            continue
        if c == ")" and stack:
            start, inner, atomic = stack.pop()
            length, unbounded, possessive = _quantifier_at(pattern, i + 1)
            if inner and not atomic and unbounded and not possessive:
                found.append((start, pattern[start:i + 1 + length]))
            if stack and (inner or unbounded) and not atomic and not possessive:
                stack[-1][1] = True  # the outer group holds a variable repetition too
            i += 1 + length
            continue
        length, unbounded, possessive = _quantifier_at(pattern, i)
        if length and unbounded and not possessive and stack:
            stack[-1][1] = True
        i += max(1, length)
    return found


def pattern_warnings(pattern: Optional[str]) -> List[str]:
    """One-line warnings about a user split pattern (empty when none applies).

    >>> pattern_warnings(r"(a+)+$")[0].split(":")[0]
    "the pattern '(a+)+$' nests a quantifier at character 0 ('(a+)+')"
    """
    if not pattern:
        return []
    return [f"the pattern {pattern!r} nests a quantifier at character {at} ({text!r}): on a long line it may "
            "backtrack catastrophically (run for hours); make the inner one possessive (a++) or the group "
            "atomic ((?>...))" for at, text in nested_quantifiers(pattern)]


def time_allowed(text: str) -> float:
    """Seconds one call may take on ``text``: :data:`PATTERN_SECONDS`, plus time for its length."""
    return PATTERN_SECONDS + len(text) / CHARS_PER_SECOND


def timeout_error(pattern: "regex.Pattern[str]", text: str) -> PatternTimeout:
    """The one-line error for a split that ran out of :func:`time_allowed` on ``text``."""
    nested = nested_quantifiers(pattern.pattern)
    why = f" (nested quantifier at character {nested[0][0]}: {nested[0][1]!r})" if nested else ""
    head = text[:30] + ("..." if len(text) > 30 else "")
    return PatternTimeout(f"the split pattern {pattern.pattern!r} took over {time_allowed(text):.3g} s on one line "
                          f"({len(text):,} characters, starting {head!r}): it may backtrack catastrophically{why}")


def guarded_finditer(pattern: "regex.Pattern[str]", text: str) -> Iterator["regex.Match[str]"]:
    """``pattern.finditer(text)`` that stops with :func:`timeout_error` past :func:`time_allowed`.

    >>> [m.group() for m in guarded_finditer(regex.compile(r"\\w+"), "a bc")]
    ['a', 'bc']
    """
    try:
        yield from pattern.finditer(text, timeout=time_allowed(text))
    except TimeoutError:
        raise timeout_error(pattern, text) from None
