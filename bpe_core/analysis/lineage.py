"""Where a token comes from: the tree of merges that built it, down to bytes or characters.

A token made by merge ``r`` has the two tokens of that merge as children (the *first* merge
that produced it, :attr:`BPEModel.created_by`); base symbols, specials and tokens no merge
produces are leaves. Reading the leaves left to right spells the token.

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=["l", "o", "w", "lo", "low"], merges=[(0, 1), (3, 2)])
>>> tree = merge_tree(m, 4)
>>> tree.rank, [c.display for c in tree.children], depth(tree), [m.tokens[i] for i in leaf_ids(tree)]
(2, ['lo', 'w'], 2, ['l', 'o', 'w'])
>>> print(render_tree(tree))
low  #4  merge 2
├─ lo  #3  merge 1
│  ├─ l  #0
│  └─ o  #1
└─ w  #2
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Set, Tuple

from bpe_core.model import BPEModel
from bpe_core.base.merge import shadowed_ranks
from bpe_core.base.symbols import from_glyphs, is_glyph_string, visible_whitespace
from bpe_core.types import BPELensError

_BYTE_PIECE = re.compile(r"<0x[0-9A-F]{2}>")


@dataclass(frozen=True)
class Node:
    """One token in a merge tree; ``rank`` is the 1-based merge that made it (None: a leaf)."""

    id: int
    display: str
    rank: Optional[int]
    children: Tuple["Node", ...] = ()
    #: True when the walk stopped here because the token's merge uses the token itself again
    #: (only a malformed vocabulary, whose merges are out of order, can do that)
    cycle: bool = False


def merge_tree(model: BPEModel, token_id: int, *, hex_bytes: bool = False) -> Node:
    """The merge tree of ``token_id``; BPELensError for an id the vocabulary does not have."""
    if not 0 <= token_id < len(model.tokens) or model.tokens[token_id] is None:
        raise BPELensError(f"token id {token_id} is not in this vocabulary (0..{len(model.tokens) - 1})")
    memo: Dict[int, Node] = {}
    return _build(model, token_id, memo, (), hex_bytes)


def token_id_of(model: BPEModel, token: str) -> int:
    """The id of the token a person named: its text, its GPT-2 glyphs (byte-level models) or ``#id``.

    >>> m = BPEModel(unit="chars", tokens=["l", "o", "lo"], merges=[(0, 1)])
    >>> token_id_of(m, "lo"), token_id_of(m, "#1")
    (2, 1)
    """
    if token.startswith("#") and token[1:].isdigit():
        return int(token[1:])
    for raw in (token, token.encode("utf-8")) if model.unit == "bytes" else (token,):
        tid = model.id_of(raw)
        if tid is not None:
            return tid
    if model.unit == "bytes":
        if is_glyph_string(token) and model.id_of(from_glyphs(token)) is not None:
            return model.id_of(from_glyphs(token))  # type: ignore[return-value]
    raise BPELensError(f"token {token!r} is not in this vocabulary (give its text, GPT-2 glyphs, or #id)")


def _build(model: BPEModel, tid: int, memo: Dict[int, Node], path: Tuple[int, ...], hex_bytes: bool) -> Node:
    hit = memo.get(tid)
    if hit is not None:
        return hit  # shared sub-trees are built once (frozen nodes can be shared)
    display = model.display(tid, hex_bytes=hex_bytes)
    rank = None if tid in model.special_ids else model.created_by.get(tid)
    if rank is None:
        node = Node(tid, display, None)
    elif tid in path:
        return Node(tid, display, rank, (), cycle=True)
    else:
        left, right = model.merges[rank - 1]
        inner = path + (tid,)
        node = Node(tid, display, rank, (_build(model, left, memo, inner, hex_bytes),
                                         _build(model, right, memo, inner, hex_bytes)))
    memo[tid] = node
    return node


def depth(node: Node) -> int:
    """Merges on the longest path down: 0 for a base symbol, 1 for a pair of them, ..."""
    best, stack = 0, [(node, 0)]
    while stack:
        n, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in n.children)
    return best


def leaf_ids(node: Node) -> List[int]:
    """The leaves left to right (the token's base symbols)."""
    out: List[int] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.children:
            stack.extend(reversed(n.children))
        else:
            out.append(n.id)
    return out


def merge_ranks(node: Node) -> List[int]:
    """Ranks of every merge in the tree, in the order they were applied (ascending)."""
    seen = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.rank is not None and n.children:
            seen.add(n.rank)
            stack.extend(n.children)
    return sorted(seen)


def render_tree(node: Node, *, max_depth: Optional[int] = None) -> str:
    """The tree as text for a terminal (whitespace made visible: ``·`` space, ``↵`` newline)."""
    lines: List[str] = [_label(node)]

    def walk(n: Node, prefix: str, level: int) -> None:
        if max_depth is not None and level >= max_depth and n.children:
            lines.append(prefix + "└─ …")
            return
        for k, child in enumerate(n.children):
            last = k == len(n.children) - 1
            lines.append(prefix + ("└─ " if last else "├─ ") + _label(child))
            walk(child, prefix + ("   " if last else "│  "), level + 1)

    walk(node, "", 0)
    return "\n".join(lines)


def _label(n: Node) -> str:
    text = visible_whitespace(n.display)
    if n.cycle:
        return f"{text}  #{n.id}  merge {n.rank} (uses itself: merges out of order)"
    return f"{text}  #{n.id}" + (f"  merge {n.rank}" if n.rank is not None else "")


def base_symbol_ids(model: BPEModel) -> Set[int]:
    """Tokens a word can start as: bytes / characters (with HF's prefix/suffix forms), the
    seeds' end-of-word symbol, ``<0xNN>`` fallback bytes. A vocabulary trained here starts from
    its whole alphabet (every token no merge makes; the CJK splitter's words are symbols)."""
    made = model.created_by
    specials = model.special_ids
    added = {t.get("id") for t in model.config.get("added_tokens") or () if isinstance(t, dict)}
    return _base_ids(model, made, specials) | {i for i in added if isinstance(i, int) and i not in specials}


def _base_ids(model: BPEModel, made: Dict[int, int], specials: frozenset) -> Set[int]:
    # (added tokens of a tokenizer.json are matched in text whole, so they count as base too)
    decides = model.pipeline is not None and model.pipeline.decides_symbols
    if decides or model.algorithm == "tiktoken" or model.ignore_merges:
        # trained alphabets; tiktoken / ignore_merges also emit a whole piece that is a token
        return {i for i, t in enumerate(model.tokens) if t is not None and i not in made and i not in specials}
    pre, suf = model.continuing_subword_prefix, model.hf_end_of_word_suffix
    out: Set[int] = set()
    for i, t in enumerate(model.tokens):
        if t is None or i in specials:
            continue
        if isinstance(t, bytes):
            if len(t) == 1:
                out.add(i)
            continue
        core = t[len(pre):] if pre and t.startswith(pre) else t
        core = core[: -len(suf)] if suf and core.endswith(suf) and len(core) > len(suf) else core
        if len(core) == 1 or t == model.end_of_word_suffix or (model.byte_fallback and _BYTE_PIECE.fullmatch(t)):
            out.add(i)
    return out


def static_reachability(model: BPEModel) -> Tuple[Set[int], List[int]]:
    """``(reachable token ids, late merge ranks)`` when merges apply in rank order.

    A merge is *late* when one of its parts is made only by a later merge: applied in rank
    order it can never fire (an encoder that always takes the lowest rank present may still
    fire it once the part exists, which is why such vocabularies are flagged).

    >>> m = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc", "xy"], merges=[(3, 2), (0, 1)])
    >>> reach, late = static_reachability(m)
    >>> sorted(reach), late
    ([0, 1, 2, 3], [1])
    """
    available = base_symbol_ids(model)
    made = model.created_by
    late: List[int] = []
    shadowed = shadowed_ranks(model.merges)  # never fire: a later merge repeats the pair
    for rank, ((a, b), new) in enumerate(zip(model.merges, model.merge_result), 1):
        if rank - 1 in shadowed:
            continue
        if a in available and b in available:
            available.add(new)
        elif any(p not in available and made.get(p, 0) > rank for p in (a, b)):
            late.append(rank)
    return available, late
