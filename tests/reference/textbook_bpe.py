"""Textbook BPE, written from the definition, to check ``bpe_core.analysis.explain`` against.

Not a seed: the loop every BPE description gives, as slow and plain as possible. Each step looks at
*all* adjacent pairs again, takes the one of lowest rank (the leftmost of equal ranks), merges that
one occurrence, and starts over. (GPT-2's own ``bpe()`` merges every occurrence of the pair at
once; for a merge list whose results come after their parts, as every trained list does, both
give the same tokens; the leftmost-one-at-a-time order is tokenizers' ``merge_all``.) Nothing here
imports ``bpe_core``.

>>> ranked_steps(["l", "o", "w"], {("l", "o"): 0, ("lo", "w"): 1})
([(0, 'l', 'o', ['lo', 'w']), (1, 'lo', 'w', ['low'])], ['low'])
>>> byte_rank_steps(b"abc", {b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"abc": 4})
([(3, b'b', b'c', [b'a', b'bc']), (4, b'a', b'bc', [b'abc'])], [b'abc'])
"""
from __future__ import annotations

from typing import Dict, List, Tuple


def ranked_steps(symbols: List, ranks: Dict[Tuple, int], join=None) -> Tuple[List[tuple], List]:
    """(steps, final): each step ``(rank, left, right, symbols after)``; ``join`` makes the merged
    symbol (default ``left + right``; a ``##`` prefix model drops the right one's prefix)."""
    join = join or (lambda a, b: a + b)
    syms = list(symbols)
    steps = []
    while True:
        best = None
        for i in range(len(syms) - 1):
            r = ranks.get((syms[i], syms[i + 1]))
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            return steps, syms
        r, i = best
        left, right = syms[i], syms[i + 1]
        syms = syms[:i] + [join(left, right)] + syms[i + 2:]
        steps.append((r, left, right, list(syms)))


def byte_rank_steps(data: bytes, ranks: Dict[bytes, int]) -> Tuple[List[tuple], List[bytes]]:
    """tiktoken's rule from its description: merge the adjacent parts whose concatenation has the
    lowest rank (leftmost on ties) until no concatenation has one. Steps ``(rank, left, right, parts)``."""
    parts = [data[i:i + 1] for i in range(len(data))]
    steps = []
    while True:
        best = None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            return steps, parts
        r, i = best
        left, right = parts[i], parts[i + 1]
        parts = parts[:i] + [left + right] + parts[i + 2:]
        steps.append((r, left, right, list(parts)))


def bytes_to_unicode() -> Dict[int, str]:
    """GPT-2's byte -> printable character map (``encoder.py``): printable bytes stay, the rest
    become chr(256 + n) in order."""
    bs = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
          + list(range(ord("®"), ord("ÿ") + 1)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))
