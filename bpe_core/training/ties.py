"""Ties in the open: the pairs tied with the top count at a position, and what each tie rule picks.

The three rules, all deterministic (the trainer's heap keys in :mod:`bpe_core.training.pair_index`):

* ``first-seen`` - the seeds: among pairs with the top count, the one whose first occurrence
  comes first when scanning words in order of first appearance, symbols left to right
  (what ``max()`` over an insertion-ordered dict rebuilt each merge gives).
* ``hf`` - Hugging Face's BpeTrainer: the smallest ``(id_left, id_right)``.
* ``lexicographic`` - the smallest ``(left, right)`` token values (str or bytes order).

Computed only when asked (:func:`find_ties`): it pops the tied pairs off the trainer's heap and pushes
them back, so it costs a few heap operations per tied pair, and nothing when nobody asks.

>>> from bpe_core.training.trainer import Trainer
>>> from bpe_core.types import TrainerConfig
>>> t = Trainer({"ba": 1, "cab": 1}, TrainerConfig())
>>> ties = find_ties(t)
>>> ties.count, [c.text for c in ties.candidates]
(1, [('b', 'a'), ('c', 'a'), ('a', 'b')])
>>> {rule: ties.pick_text(rule) for rule in TIE_BREAKS}
{'first-seen': ('b', 'a'), 'hf': ('a', 'b'), 'lexicographic': ('a', 'b')}
>>> ties.why["first-seen"]
"first seen at word 0 ('ba'), unit 0"
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from bpe_core.base.symbols import display
from bpe_core.training.pair_index import MASK, SHIFT, PairIndex
from bpe_core.types import TIE_BREAKS, Raw

__all__ = ["TieCandidate", "Ties", "find_ties", "TIE_BREAKS"]


@dataclass(frozen=True)
class TieCandidate:
    """One pair tied with the top count, with each rule's sort key for it."""

    left: int
    right: int
    count: int
    left_token: Raw
    right_token: Raw
    #: where the pair first occurs: (word index in order of first appearance, unit offset in the word)
    first: Tuple[int, int]
    #: table-order: when the pair entered the pair table (its serial; -1 when not numbered)
    serial: int = -1

    @property
    def pair(self) -> Tuple[int, int]:
        return (self.left, self.right)

    @property
    def text(self) -> Tuple[str, str]:
        return (display(self.left_token), display(self.right_token))

    def key(self, rule: str) -> tuple:
        """This pair's sort key under ``rule``: the smallest key wins the tie."""
        if rule == "hf":
            return (self.left, self.right)
        if rule == "lexicographic":
            return (self.left_token, self.right_token)
        if rule == "table-order":
            return (self.serial, self.first)
        return self.first


@dataclass(frozen=True)
class Ties:
    """The pairs tied with the top count at ``position`` (merges done), and each rule's pick.

    ``candidates`` are in the order the trainer's own rule (``rule``) would merge them; ``picks`` maps
    every rule to the pair it picks, ``why`` to the reason in words.
    """

    position: int
    count: int
    rule: str
    candidates: Tuple[TieCandidate, ...]
    picks: Dict[str, Tuple[int, int]]
    why: Dict[str, str]
    words: Tuple[str, ...] = ()  # the first-seen words of the candidates, by candidate

    @property
    def is_tie(self) -> bool:
        return len(self.candidates) > 1

    def candidate(self, pair: Tuple[int, int]) -> Optional[TieCandidate]:
        return next((c for c in self.candidates if c.pair == pair), None)

    def pick_text(self, rule: str) -> Tuple[str, str]:
        return self.candidate(self.picks[rule]).text  # type: ignore[union-attr]

    def rules_picking(self, pair: Tuple[int, int]) -> List[str]:
        """The rules that pick ``pair`` (empty for a pair no rule picks)."""
        return [r for r in self.picks if self.picks[r] == pair]

    def to_data(self) -> dict:
        """Plain data (one JSON line of ``train --ties-report``): tokens as display strings."""
        return {"merge": self.position + 1, "count": self.count, "rule": self.rule,
                "candidates": [list(c.text) for c in self.candidates],
                "picks": {r: list(self.pick_text(r)) for r in self.picks}, "why": dict(self.why)}


def tied_pairs(idx: PairIndex) -> List[Tuple[int, int]]:
    """(pair key, count) of every pair with the top count, best first by the index's rule.

    Pops them off the heap and pushes them back: the index's state is unchanged.
    """
    taken: List[Tuple[int, int]] = []
    seen = set()
    top = None
    while True:
        best = idx.pop_best()
        if best is None:
            break
        if top is None:
            top = best[1]
        if best[1] != top:
            idx.push_back(*best)
            break
        if best[0] not in seen:  # the heap may hold a valid pair twice
            seen.add(best[0])
            taken.append(best)
    for key, c in taken:
        idx.push_back(key, c)
    return taken


def first_occurrence(idx: PairIndex, key: int) -> Tuple[int, int]:
    """(word, unit offset) of the first occurrence of pair ``key``, scanning words in order.

    Exact for every rule (the index keeps a lower bound only for first-seen): the words that may hold
    the pair are tried in order until one does.
    """
    left, right = key >> SHIFT, key & MASK
    for w in sorted(idx.where.get(key, ())):
        off = idx.offset_in(w, left, right)
        if off is not None:
            return (w, off)
    raise AssertionError("a pair with a count occurs in no word")


def find_ties(trainer, *, limit: int = 200) -> Ties:
    """The pairs tied with the top count where ``trainer`` stands (at most ``limit`` of them).

    One candidate is no tie (:attr:`Ties.is_tie` False); no pair at all gives no candidates. A trainer with a
    tie rule of its own (parity-aware BPE's) answers itself, through its ``ties``.
    """
    if hasattr(trainer, "ties"):
        return trainer.ties(limit=limit)
    idx: PairIndex = trainer.pair_index
    tied = tied_pairs(idx)[:limit]
    cands = tuple(TieCandidate(k >> SHIFT, k & MASK, c, trainer.token(k >> SHIFT), trainer.token(k & MASK),
                               first_occurrence(idx, k), serial(trainer, k)) for k, c in tied)
    words = tuple(trainer.words[c.first[0]] for c in cands)
    picks: Dict[str, Tuple[int, int]] = {}
    why: Dict[str, str] = {}
    # table-order depends on when pairs entered the table (the history), not on the state: known only when
    # the trainer keeps it
    rules = TIE_BREAKS + ("table-order",) if trainer.config.tie_break == "table-order" else TIE_BREAKS
    for rule in rules if cands else ():
        best = min(cands, key=lambda c: c.key(rule))
        picks[rule] = best.pair
        why[rule] = reason(rule, best, words[cands.index(best)], len(cands))
    return Ties(trainer.merge_count, cands[0].count if cands else 0, trainer.config.tie_break, cands,
                picks, why, words)


def serial(trainer, key: int) -> int:
    """The pair's serial in the table-order numbering (kept only when the trainer's rule is table-order)."""
    return trainer.pair_index.serial.get(key, -1)


def reason(rule: str, best: TieCandidate, word: str, n: int) -> str:
    """Why ``rule`` picks ``best`` among ``n`` tied pairs, in words (the exact rule the trainer applies)."""
    if n == 1:
        return "the only pair with the top count"
    if rule == "hf":
        return "smallest (id_left, id_right) = ({}, {}), {!r} + {!r}".format(best.left, best.right, *best.text)
    if rule == "lexicographic":
        return "smallest (left, right) token values = ({!r}, {!r})".format(*best.text)
    if rule == "table-order" and best.serial >= 0:
        return f"entered the pair table first (serial {best.serial})"
    w, off = best.first
    return f"first seen at word {w} ({word!r}), unit {off}"
