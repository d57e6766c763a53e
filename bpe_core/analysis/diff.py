"""Two vocabularies side by side: where their merges part, which tokens both have, how they cut a text.

Tokens are compared as **byte strings**, whatever the file wrote: GPT-2's glyph tokens (``Ġthe``) and
tiktoken's byte tokens (``b" the"``) are the same token when they are the same bytes; a character-level
token is its UTF-8 bytes. Specials are left out of the counts and listed apart (they are control codes,
not text). Merges are compared as pairs of byte strings, rank by rank: the *first divergent merge* is
the 0-based rank of the first merge that differs, or that one side has and the other lacks — None only
when both merge lists are equal.

Everything here is sets and dicts of bytes built once per model (a 50k vocabulary takes a few tens of
milliseconds); the long lists (``only_a``, the side-by-side ranks) are iterators or slices, so a view
asks for one screenful at a time.

>>> from bpe_core.model import BPEModel
>>> a = BPEModel(unit="chars", tokens=["a", "b", "ab", "abb"], merges=[(0, 1), (2, 1)])
>>> b = BPEModel(unit="bytes", tokens=[b"a", b"b", b"ab", b"ba"], merges=[(0, 1), (1, 0)])
>>> d = diff_models(a, b)
>>> d.first_divergent_merge, d.shared_tokens, d.only_a, d.only_b
(1, 3, 1, 1)
>>> list(d.only_a_tokens()), list(d.only_b_tokens())
([b'abb'], [b'ba'])
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from bpe_core.analysis.lineage import Node, merge_tree
from bpe_core.model import BPEModel
from bpe_core.types import Raw

BytePair = Tuple[bytes, bytes]


def raw_bytes(raw: Raw) -> bytes:
    """A token's bytes: bytes as they are, text as UTF-8 (GPT-2 glyphs are decoded by the readers)."""
    return raw if isinstance(raw, bytes) else raw.encode("utf-8")


class Side:
    """One model's tables for a comparison, built once: bytes -> id, merges as byte pairs."""

    def __init__(self, model: BPEModel) -> None:
        self.model = model

    @cached_property
    def ids(self) -> Dict[bytes, int]:
        """bytes -> the lowest id with those bytes, specials and unused ids left out."""
        specials = self.model.special_ids
        out: Dict[bytes, int] = {}
        for i, t in enumerate(self.model.tokens):
            if t is not None and i not in specials:
                out.setdefault(raw_bytes(t), i)
        return out

    @cached_property
    def merge_pairs(self) -> List[BytePair]:
        tokens = self.model.tokens
        return [(raw_bytes(tokens[a]), raw_bytes(tokens[b])) for a, b in self.model.merges]  # type: ignore[arg-type]

    @cached_property
    def ranks(self) -> Dict[bytes, int]:
        """bytes -> 0-based rank of the first merge that made the token (base symbols have none)."""
        made = self.model.created_by
        tokens = self.model.tokens
        out: Dict[bytes, int] = {}
        for tid, rank in made.items():
            out.setdefault(raw_bytes(tokens[tid]), rank - 1)  # type: ignore[arg-type]
        return out

    @cached_property
    def specials(self) -> Tuple[str, ...]:
        return tuple(sorted(self.model.specials, key=self.model.specials.get))


def first_divergent_merge(a: Sequence[BytePair], b: Sequence[BytePair]) -> Optional[int]:
    """0-based rank of the first merge that differs (or that only the longer list has); None when equal.

    >>> first_divergent_merge([(b"a", b"b")], [(b"a", b"b"), (b"ab", b"c")])
    1
    >>> first_divergent_merge([(b"a", b"b")], [(b"a", b"b")]) is None
    True
    """
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return k
    return None if len(a) == len(b) else min(len(a), len(b))


@dataclass(frozen=True)
class SharedRank:
    """A token both vocabularies have, with its id and the 0-based rank of the merge that made it
    on each side (None: a base symbol there)."""

    token: bytes
    id_a: int
    rank_a: Optional[int]
    id_b: int
    rank_b: Optional[int]


@dataclass
class ModelDiff:
    """The comparison of two models (``diff_models``); counts now, long lists on demand."""

    a: Side
    b: Side
    shared: frozenset = field(repr=False)
    first_divergent_merge: Optional[int] = None

    @property
    def shared_tokens(self) -> int:
        return len(self.shared)

    @property
    def only_a(self) -> int:
        return len(self.a.ids) - len(self.shared)

    @property
    def only_b(self) -> int:
        return len(self.b.ids) - len(self.shared)

    def only_a_tokens(self) -> Iterator[bytes]:
        """A's own tokens in A's id order."""
        return (t for t in self.a.ids if t not in self.shared)

    def only_b_tokens(self) -> Iterator[bytes]:
        return (t for t in self.b.ids if t not in self.shared)

    def shared_in_order(self) -> Iterator[bytes]:
        """Shared tokens in A's id order."""
        return (t for t in self.a.ids if t in self.shared)

    def shared_rank(self, token: bytes) -> SharedRank:
        return SharedRank(token, self.a.ids[token], self.a.ranks.get(token), self.b.ids[token],
                          self.b.ranks.get(token))

    def shared_ranks(self, start: int = 0, stop: Optional[int] = None) -> List[SharedRank]:
        """The shared tokens ``start:stop`` (A's id order) with their ranks on both sides."""
        out: List[SharedRank] = []
        for k, t in enumerate(self.shared_in_order()):
            if stop is not None and k >= stop:
                break
            if k >= start:
                out.append(self.shared_rank(t))
        return out

    def merges_from(self, rank: int, count: int) -> List[Tuple[int, Optional[BytePair], Optional[BytePair]]]:
        """Merges ``rank .. rank+count-1`` (0-based) of both sides: ``(rank, pair_a, pair_b)``."""
        ma, mb = self.a.merge_pairs, self.b.merge_pairs
        end = min(rank + count, max(len(ma), len(mb)))
        return [(r, ma[r] if r < len(ma) else None, mb[r] if r < len(mb) else None) for r in range(rank, end)]

    def trees(self, token: bytes) -> Tuple[Optional[Node], Optional[Node]]:
        """The merge tree of the token with these bytes on each side (None where it is missing)."""
        return tuple(merge_tree(s.model, s.ids[token]) if token in s.ids else None  # type: ignore[return-value]
                     for s in (self.a, self.b))


def diff_models(a: BPEModel, b: BPEModel) -> ModelDiff:
    """Compare two vocabularies (any format, or models trained here)."""
    sa, sb = Side(a), Side(b)
    shared = frozenset(sa.ids.keys() & sb.ids.keys())
    return ModelDiff(sa, sb, shared, first_divergent_merge(sa.merge_pairs, sb.merge_pairs))


# -- the same text, encoded by both ------------------------------------------------------------
@dataclass(frozen=True)
class TextDiff:
    """``text`` encoded by both models: the tokens' ``(start, end)`` spans on each side and the
    character spans where their boundaries differ (joined between boundaries both sides share)."""

    text: str
    spans_a: Tuple[Tuple[int, int], ...]
    spans_b: Tuple[Tuple[int, int], ...]
    differing: Tuple[Tuple[int, int], ...]


def differing_spans(spans_a: Sequence[Tuple[int, int]], spans_b: Sequence[Tuple[int, int]],
                    length: int) -> List[Tuple[int, int]]:
    """Character spans between boundaries both sides share, where the two sides' tokens differ.

    A token never crosses a shared boundary, so each lies in one such stretch; a stretch differs when
    its tokens' spans differ — a cut only one side makes, or (byte tokens) a different number of
    tokens inside one character, whose pieces all span that character.

    >>> differing_spans([(0, 2), (2, 5)], [(0, 2), (2, 3), (3, 5)], 5)
    [(2, 5)]
    >>> differing_spans([(0, 1)], [(0, 1), (0, 1)], 1)  # "é" as one byte token, or as two
    [(0, 1)]
    >>> differing_spans([(0, 5)], [(0, 5)], 5)
    []
    """
    cuts_a = {0, length} | {p for s, e in spans_a for p in (s, e)}
    cuts_b = {0, length} | {p for s, e in spans_b for p in (s, e)}
    common = sorted(cuts_a & cuts_b)
    groups: List[Dict[int, List[Tuple[int, int]]]] = [{}, {}]
    for group, spans in zip(groups, (spans_a, spans_b)):
        for span in spans:
            # the stretch holding the token (an empty one at a shared boundary: the stretch ending there)
            k = max(0, bisect_right(common, span[0]) - 1 if span[0] < span[1] else bisect_left(common, span[0]) - 1)
            group.setdefault(k, []).append(span)
    return [(common[k], common[k + 1]) for k in sorted(groups[0].keys() | groups[1].keys())
            if groups[0].get(k) != groups[1].get(k)]


def compare_text(a: BPEModel, b: BPEModel, text: str) -> Tuple[TextDiff, object, object]:
    """``(TextDiff, encoding by a, encoding by b)`` for ``text``."""
    from bpe_core.encoding.encoder import Encoder
    ea, eb = Encoder(a).encode(text), Encoder(b).encode(text)
    sa = tuple((t.start, t.end) for t in ea.tokens)
    sb = tuple((t.start, t.end) for t in eb.tokens)
    return TextDiff(text, sa, sb, tuple(differing_spans(sa, sb, len(text)))), ea, eb
