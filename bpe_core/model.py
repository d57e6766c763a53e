"""BPEModel: one vocabulary, trained here or loaded from a file.

A model is data: token values by id, merges in rank order, specials, and the pipeline that
cuts text into pieces. The :mod:`bpe_core.encoding.encoder` turns it into encodings.

>>> m = BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)])
>>> m.id_of("ab"), m.merge_rank[(0, 1)], m.vocab_size
(2, 1, 3)
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple

from bpe_core.base.merge import pair_ranks, shadowed_ranks
from bpe_core.base.symbols import display as display_raw
from bpe_core.base.units import Units
from bpe_core.pipelines.base import TextPipeline
from bpe_core.types import MergeStep, Raw, TokenInfo, Unit

Algorithm = Literal["merges", "tiktoken", "seed000-greedy", "picky"]


@dataclass(eq=False)
class BPEModel:
    """One vocabulary: tokens by id, merges by rank, specials, the pipeline and how to encode.

    >>> m = BPEModel(unit="bytes", tokens=[b"a", b"b", b"ab"], merges=[(0, 1)], merge_counts=[7])
    >>> m.token_info(2).parts, m.merged_raw(0, 1), m.merge_counts
    ((0, 1), b'ab', [7])
    """

    unit: Unit
    #: raw token value by id; ``None`` for an id the file leaves unused. Specials are ``str``.
    tokens: List[Optional[Raw]]
    #: (left_id, right_id) in rank order; rank = index + 1
    merges: List[Tuple[int, int]] = field(default_factory=list)
    #: the count each merge had when it was learned (None when the file does not store it)
    merge_counts: List[Optional[int]] = field(default_factory=list)
    specials: Dict[str, int] = field(default_factory=dict)
    pipeline: Optional[TextPipeline] = None
    algorithm: Algorithm = "merges"
    #: seeds: a separate end-of-word symbol appended to every word ("</w>")
    end_of_word_suffix: str = ""
    #: HF: suffix attached to a word's last symbol / prefix on non-initial symbols
    hf_end_of_word_suffix: str = ""
    continuing_subword_prefix: str = ""
    unk_id: Optional[int] = None
    fuse_unk: bool = False
    byte_fallback: bool = False
    ignore_merges: bool = False
    #: with no unk token: keep a symbol the vocabulary lacks as a token of id -1 (the seeds'
    #: tokenize does) instead of dropping it (what tokenizers does)
    keep_unknown: bool = False
    name: str = ""
    source_format: str = "native"
    #: preset name and TrainerConfig fields (native), or the file's normalizer/pre-tokenizer JSON
    config: Dict[str, Any] = field(default_factory=dict)
    #: a training rule's removals (PickyBPE), in order: (the merge rank after which it happened, the removed
    #: token's id, the ids it was split into); a model with removals encodes by events (algorithm "picky")
    removals: List[Tuple[int, int, Tuple[int, ...]]] = field(default_factory=list)
    #: format-specific extras (seed 000's freqs table, ...)
    extras: Dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.merge_counts) < len(self.merges):
            self.merge_counts = list(self.merge_counts) + [None] * (len(self.merges) - len(self.merge_counts))

    # -- lookups -------------------------------------------------------------------------
    @property
    def units(self) -> Units:
        """The unit mapper each piece starts from: the trained pipeline's own (its config's unit, the
        pre-tokenizer's suffix rule), else this model's unit and affixes (an imported file).

        >>> BPEModel(unit="chars", tokens=[], continuing_subword_prefix="##").units.symbols("abc")
        ['a', '##b', '##c']
        """
        pipe = self.pipeline
        if pipe is not None and pipe.decides_symbols:
            return pipe.units  # type: ignore[attr-defined,no-any-return]
        return Units(self.unit, end_of_word_suffix=self.end_of_word_suffix,
                     prefix=self.continuing_subword_prefix, end=self.hf_end_of_word_suffix)

    @property
    def vocab_size(self) -> int:
        return sum(1 for t in self.tokens if t is not None)

    @cached_property
    def vocab(self) -> Dict[Raw, int]:
        """raw -> id; for a raw value present twice the lowest id wins."""
        out: Dict[Raw, int] = {}
        for i, t in enumerate(self.tokens):
            if t is not None and t not in out:
                out[t] = i
        return out

    @cached_property
    def merge_rank(self) -> Dict[Tuple[int, int], int]:
        """(left_id, right_id) -> 1-based rank (a repeated pair keeps its last rank, as tokenizers:
        :func:`~bpe_core.base.merge.pair_ranks`)."""
        return {pair: r + 1 for pair, r in pair_ranks(self.merges).items()}

    @cached_property
    def merge_result(self) -> List[int]:
        """Id of the token each merge produces (by rank - 1)."""
        return [self.vocab[self.merged_raw(left, right)] for left, right in self.merges]

    def merged_raw(self, left: int, right: int) -> Raw:
        """The token a merge of two ids makes. tokenizers drops the right token's first
        ``len(continuing_subword_prefix)`` characters ("a" + "##b" -> "ab")."""
        a, b = self.tokens[left], self.tokens[right]
        if self.continuing_subword_prefix:
            b = b[len(self.continuing_subword_prefix):]  # type: ignore[index]
        return a + b  # type: ignore[operator]

    @cached_property
    def created_by(self) -> Dict[int, int]:
        """token id -> 1-based rank of the first merge that produces it (a merge whose pair a later
        merge repeats never fires: :func:`~bpe_core.base.merge.shadowed_ranks`)."""
        out: Dict[int, int] = {}
        shadowed = shadowed_ranks(self.merges)
        for r, tid in enumerate(self.merge_result, 1):
            if r - 1 not in shadowed:
                out.setdefault(tid, r)
        return out

    def id_of(self, raw: Raw) -> Optional[int]:
        return self.vocab.get(raw)

    def display(self, token_id: int, *, hex_bytes: bool = False) -> str:
        raw = self.tokens[token_id]
        return "" if raw is None else display_raw(raw, hex_bytes=hex_bytes)

    def token_info(self, token_id: int) -> TokenInfo:
        raw = self.tokens[token_id]
        if raw is None:
            raise KeyError(token_id)
        rank = self.created_by.get(token_id)
        parts = self.merges[rank - 1] if rank else None
        special = token_id in self.special_ids
        return TokenInfo(token_id, raw, self.display(token_id), rank, parts, special)

    @cached_property
    def special_ids(self) -> frozenset:
        return frozenset(self.specials.values())

    def extended(self, steps: Sequence[MergeStep]) -> "BPEModel":
        """The same model with the merges of ``steps`` appended (and the tokens they created): the vocabulary
        at a later merge, built from a run's records without its trainer."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(tokens=list(self.tokens) + [s.new_token for s in steps if s.created],
                      merges=list(self.merges) + [(s.left, s.right) for s in steps],
                      merge_counts=list(self.merge_counts) + [s.count for s in steps], config=dict(self.config))
        return BPEModel(**values)

    def truncated(self, num_merges: int) -> "BPEModel":
        """The same model restricted to its first ``num_merges`` merges (ids unchanged)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(merges=self.merges[:num_merges], merge_counts=self.merge_counts[:num_merges])
        return BPEModel(**values)
