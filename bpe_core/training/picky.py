"""What runs inside the Trainer after each merge: PickyBPE's removals, and the table-order bookkeeping.

PickyBPE (Chizhov et al. 2024; reference pchizhov/picky_bpe ``bpe_trainer.py``, docs/variants.md): each
token's frequency is its weighted count of occurrences in the words. After the merge of A and B (merged m
times), A's and B's frequencies drop by m (by 2m when A is B); then A, then B (once when A is B), is removed
when its Intersection over Self, m / (m + what is left of it), is strictly above τ (``ios_threshold``) and
it is not atomic (one of the initial symbols or a special). Its remaining occurrences are split into the
present tokens of its merge tree (:meth:`MergeRules.walk`), whose frequencies grow by what it had; it keeps
its id, leaves the vocabulary count, and a later merge that forms its string again restores it (same id,
its first parents). The words that hold a token are found from the words it entered (the merges that
formed it and the splits that made it a part), never by scanning the corpus.

Every change goes through ``PairIndex.replace`` and is recorded, so that ``Trainer.undo`` takes a step's
removals and its merge back exactly.

>>> from bpe_core.training.trainer import Trainer
>>> from bpe_core.types import TrainerConfig
>>> t = Trainer({"aab": 3}, TrainerConfig(variant="picky", ios_threshold=0.5))
>>> [(t.display(s.new_id), [(r.token, r.split) for r in s.removals]) for s in t.run(merges=2)]
[('aa', []), ('aab', [('aa', (0, 0))])]
>>> t.vocab_size, t.undo().rank, t.vocab_size
(3, 2, 3)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from bpe_core.base.merge import expand_pair
from bpe_core.training.pairs import MASK, SHIFT
from bpe_core.training.rules import pair_filter
from bpe_core.training.table_order import TableOrder
from bpe_core.types import Removal

__all__ = ["MergeRules", "StepUndo", "rules_of", "refusal", "best_allowed"]


@dataclass
class RemovalUndo:
    token_id: int
    left: int  # the frequency it had when removed
    split: Tuple[int, ...]
    words: Tuple[int, ...]
    olds: List[List[int]]  # the words' segmentations before the removal (list objects, not copied)
    entered: list  # the token's list of entered words, cleared by the removal
    parts: List[int]  # the parts whose entered lists got ``words``
    order: Optional[tuple] = None


@dataclass
class StepUndo:
    """What a merge's rules changed (the trainer's undo log holds it next to the merge's own entry)."""

    merged: int
    restored: bool
    order: Optional[tuple] = None
    removals: List[RemovalUndo] = field(default_factory=list)
    #: the record's changed words (the merge's and the removals'), and their segmentations before the step
    changed: Tuple[int, ...] = ()
    befores: Optional[List[List[int]]] = None


class MergeRules:
    """The rules of one trainer (``Trainer._rules``): PickyBPE when ``variant == "picky"``, the table-order
    serials when ``tie_break == "table-order"``."""

    def __init__(self, trainer) -> None:
        cfg = trainer.config
        self.trainer = trainer
        self.idx = trainer.pair_index
        self.order = TableOrder(self.idx) if cfg.tie_break == "table-order" else None
        self.picky = cfg.variant == "picky"
        self.tau = cfg.ios_threshold
        self.atomic_below = trainer.initial_vocab_size  # initial symbols and specials are never removed
        n = len(trainer._tokens)
        freq = [0] * n
        if self.picky:
            for seg, f in zip(trainer._segs, trainer.freqs):
                for t in seg:
                    freq[t] += f
            for sid in trainer.specials.values():  # never merged; the reference's model file lists 0
                freq[sid] = 0
        self.freq = freq  # weighted occurrences of each token
        self.present = [True] * n
        self.parents: List[Optional[Tuple[int, int]]] = [None] * n
        self.entered: List[list] = [[] for _ in range(n)]  # per token: tuples of words it entered
        self.absent = 0
        #: rank -> removals, for the model (only ranks with removals)
        self.removed_at: Dict[int, Tuple[Removal, ...]] = {}

    # -- after a merge --------------------------------------------------------------------
    def merged(self, left: int, right: int, new_id: int, created: bool, m: int, changed: Tuple[int, ...],
               befores: Optional[List[List[int]]]) -> Tuple[Tuple[Removal, ...], StepUndo, int]:
        """The rules after the merge (left, right) -> new_id of ``m`` occurrences (weighted) in ``changed``;
        returns the removals, the undo entry and the change in the corpus's token count."""
        segs = self.trainer._segs
        if created:
            self.freq.append(0)
            self.present.append(True)
            self.parents.append((left, right))
            self.entered.append([])
        restored = not self.present[new_id]
        if restored:
            self.present[new_id] = True
            self.absent -= 1
        undo = StepUndo(m, restored)
        if self.order is not None:
            olds = befores if befores is not None else [expand_pair(segs[w], new_id, left, right) for w in changed]
            undo.order = self.order.sync(olds, [segs[w] for w in changed], True)
        if not self.picky:
            return (), undo, 0
        freq = self.freq
        freq[new_id] += m
        freq[left] -= m
        freq[right] -= m
        self.entered[new_id].append(changed)
        removals: List[Removal] = []
        delta = 0
        for t in (left,) if left == right else (left, right):
            rest = freq[t]
            if t < self.atomic_below or not m / (rest + m) > self.tau:
                continue
            entry, d = self._remove(t)
            delta += d
            undo.removals.append(entry)
            removals.append(Removal(t, self.trainer._tokens[t], entry.split, rest + m, m))
        if removals:
            undo.changed, undo.befores = self._record_words(left, right, new_id, changed, befores, undo.removals)
        return tuple(removals), undo, delta

    def walk(self, t: int) -> List[int]:
        """The present tokens a token's merge tree ends in (itself when present or atomic), as ``Token.walk``."""
        if t < self.atomic_below or self.present[t]:
            return [t]
        left, right = self.parents[t]  # type: ignore[misc]
        return self.walk(left) + self.walk(right)

    def _remove(self, t: int) -> Tuple[RemovalUndo, int]:
        segs, idx, freq = self.trainer._segs, self.idx, self.freq
        self.present[t] = False
        self.absent += 1
        split = tuple(self.walk(t))
        rest = freq[t]
        listed = {w for chunk in self.entered[t] for w in chunk}
        idx.scanned += sum(len(segs[w]) for w in listed)  # work counted: each listed word is read once
        words = tuple(sorted(w for w in listed if t in segs[w]))
        olds = [segs[w] for w in words]
        delta = 0
        for w, old in zip(words, olds):
            new: List[int] = []
            for s in old:
                if s == t:
                    new.extend(split)
                else:
                    new.append(s)
            delta += idx.replace(w, new)
        for s in split:
            freq[s] += rest
        freq[t] = 0
        entered, self.entered[t] = self.entered[t], []
        parts = [s for s in dict.fromkeys(split) if s >= self.atomic_below]
        for s in parts:
            self.entered[s].append(words)
        order = None
        if self.order is not None:
            inner = [(a << 21) | b for a, b in zip(split, split[1:])]
            order = self.order.sync(olds, [segs[w] for w in words], True, inner)
        return RemovalUndo(t, rest, split, words, olds, entered, parts, order), delta

    def _record_words(self, left: int, right: int, new_id: int, changed: Tuple[int, ...],
                      befores: Optional[List[List[int]]], removals: Sequence[RemovalUndo]
                      ) -> Tuple[Tuple[int, ...], List[List[int]]]:
        """The step's changed words (merge and removals, ascending) and each one's segmentation before it."""
        before: Dict[int, List[int]] = {}
        for r in removals:
            for w, old in zip(r.words, r.olds):
                before.setdefault(w, old)  # the first removal that touched it saw it right after the merge
        segs = self.trainer._segs
        for j, w in enumerate(changed):
            if befores is not None:
                before[w] = befores[j]
            else:
                before[w] = expand_pair(before.get(w, segs[w]), new_id, left, right)
        words = tuple(sorted(before))
        return words, [list(before[w]) for w in words]

    # -- undo -----------------------------------------------------------------------------
    def undo_removals(self, undo: StepUndo) -> int:
        """Take the step's removals back (the words return to their state right after the merge); the merge's
        table serials come back first. Returns the change in the corpus's token count."""
        idx, freq = self.idx, self.freq
        delta = 0
        for r in reversed(undo.removals):
            if r.order is not None:
                self.order.restore(r.order)  # type: ignore[union-attr]
            for w, old in zip(r.words, r.olds):
                delta += idx.replace(w, old)
            if r.order is not None:
                self.order.forget(r.order)  # type: ignore[union-attr]
            for s in r.split:
                freq[s] -= r.left
            freq[r.token_id] = r.left
            self.present[r.token_id] = True
            self.absent -= 1
            self.entered[r.token_id] = r.entered
            for s in r.parts:
                self.entered[s].pop()
        if undo.order is not None:
            self.order.restore(undo.order)  # type: ignore[union-attr]
        return delta

    def undo_merge(self, undo: StepUndo, left: int, right: int, new_id: int, created: bool) -> None:
        """After the trainer took the merge back: its frequencies, restoration and serials."""
        if undo.order is not None:
            self.order.forget(undo.order)  # type: ignore[union-attr]
        if self.picky:
            m = undo.merged
            self.freq[new_id] -= m
            self.freq[left] += m
            self.freq[right] += m
            self.entered[new_id].pop()
        if undo.restored:
            self.present[new_id] = False
            self.absent += 1
        if created:
            for lst in (self.freq, self.present, self.parents, self.entered):
                lst.pop()


def rules_of(trainer):
    """The rules that run after each merge of ``trainer`` (:class:`~bpe_core.training.picky.MergeRules`):
    PickyBPE's removals and the table-order serials; None when neither applies."""
    cfg = trainer.config
    if cfg.variant != "picky" and cfg.tie_break != "table-order":
        return None
    return MergeRules(trainer)


def refusal(trainer) -> Optional[Callable[[int, int], bool]]:
    """Which pairs (left id, right id) ``trainer`` never merges: PickyBPE never counts a pair with a special
    (its ``<UNK>`` stands in the words), and a rule's :func:`~bpe_core.training.rules.pair_filter` refuses
    some (SuperBPE's stage 2: more than 4 words, a colon before a space); None: none refused."""
    specials = set(trainer.specials.values()) if trainer.config.variant == "picky" else set()
    allowed, tokens = pair_filter(trainer.config), trainer._tokens
    if allowed is not None:
        return lambda left, right: not allowed(tokens[left], tokens[right])
    if not specials:
        return None
    return lambda left, right: left in specials or right in specials


def best_allowed(idx, refuse: Callable[[int, int], bool]) -> Optional[Tuple[int, int]]:
    """The best (pair key, count) on ``idx``'s heap that ``refuse`` lets merge. A refused pair leaves the
    heap (its count stays): a refusal depends on the two tokens only, so it never changes, and the pair comes
    back only when it gains occurrences, to be refused again. SuperBPE's fork drops such a pair the same way;
    pushing it back made every step pop the same refused pairs again (60 a step on a 4 MB stage 2)."""
    best = idx.pop_best()
    while best is not None and refuse(best[0] >> SHIFT, best[0] & MASK):
        best = idx.pop_best()
    return best


#: PickyBPE's character coverage (the reference's default): the rarest characters beyond it become ``<UNK>``
COVERAGE = 0.9999


def covered(initial: List[List], freqs: Sequence[int], config) -> List[List]:
    """The words' initial symbols with the characters the reference's ``_filter_characters`` drops replaced
    by ``<UNK>`` (when the config has that special): with N characters in all, ``N - round(0.9999 N)`` may be
    dropped, the rarest first (ties: the later seen first), while their running total stays below that. Where the
    rarest alone reaches it, none is dropped: the reference's ``most_common()[-0:]`` drops every character
    there, a slicing bug (docs/variants.md).

    >>> covered([["a"] * 30000, ["b", "a"], ["c"]], [1, 1, 1], type("C", (), {"special_tokens": ("<UNK>",)})())[1:]
    [['<UNK>', 'a'], ['<UNK>']]
    """
    if "<UNK>" not in config.special_tokens:
        return initial
    chars: Dict = {}
    for syms, f in zip(initial, freqs):
        for c in syms:
            chars[c] = chars.get(c, 0) + f
    size = sum(chars.values())
    drop = size - round(COVERAGE * size)
    if drop <= 0:
        return initial
    common = sorted(chars.items(), key=lambda kv: -kv[1])  # stable: Counter.most_common's order
    total, n = 0, len(common)
    for i, (_, f) in enumerate(reversed(common)):
        total += f
        if total >= drop:
            n = i
            break
    if n == 0:  # the reference's most_common()[-0:] drops every character here (a slicing bug): none
        return initial
    gone = {c for c, _ in common[-n:]}
    return [[("<UNK>" if c in gone else c) for c in syms] for syms in initial]
