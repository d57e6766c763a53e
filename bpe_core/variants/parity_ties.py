"""Ties in a parity-aware run: the pairs tied with the top count in the column the next merge is chosen by,
and what the reference's rule and each of the Trainer's tie rules would pick among them.

The reference's rule (``rule == "parity"``): the largest pair in Python's order of its symbols (GPT-2 glyph
strings read as the reference reads), ``max((count, pair))``. Ties are common (634 of the ``base`` golden's
1,000 merges), so the tie inspector shows them as it does for a Trainer.

>>> from bpe_core.types import TrainerConfig
>>> from bpe_core.variants.parity_run import ParityTrainer
>>> t = ParityTrainer({"en": {" ab": 2, " cd": 2}}, TrainerConfig(variant="parity"), dev={"en": {" ab": 1}})
>>> ties = parity_ties(t)
>>> ties.count, [c.text for c in ties.candidates]
(2, [('Ġ', 'c'), ('Ġ', 'a'), ('c', 'd'), ('a', 'b')])
>>> ties.pick_text("parity"), ties.pick_text("hf"), ties.why["first-seen"]
(('Ġ', 'c'), ('Ġ', 'a'), "first seen at word 0 (' ab'), unit 0")
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from bpe_core.training.ties import TieCandidate, Ties, reason
from bpe_core.types import TIE_BREAKS

__all__ = ["parity_ties"]


def _first(trainer, pair: Tuple[str, str]) -> Optional[Tuple[int, int]]:
    """(word, symbol offset) of the pair's first occurrence, words in the trainer's order."""
    words = trainer.bpe.train.words
    for k in sorted(trainer.bpe.train.where.get(pair, ())):
        w = words[k][0]
        for off in range(len(w) - 1):
            if (w[off], w[off + 1]) == pair:
                return min(trainer.words_of_row(k)), off
    return None


def parity_ties(trainer, *, limit: int = 200) -> Ties:
    """The ties where ``trainer`` (a ParityTrainer) stands, best first by the reference's rule."""
    bpe = trainer.bpe
    col = bpe.column(bpe.next_language())
    pairs = bpe.train.pairs
    top = max((c[col] for c in pairs.values()), default=0)
    tied = sorted((p for p, c in pairs.items() if c[col] == top and top > 0), reverse=True)[:limit]
    cands = []
    for p in tied:
        first = _first(trainer, p)
        if first is None:
            continue
        left, right = trainer.id_of_symbol(p[0]), trainer.id_of_symbol(p[1])
        cands.append(TieCandidate(left, right, top, trainer.token(left), trainer.token(right), first))
    words = tuple(trainer.words[c.first[0]] for c in cands)
    picks: Dict[str, Tuple[int, int]] = {}
    why: Dict[str, str] = {}
    if cands:
        picks["parity"] = cands[0].pair
        why["parity"] = ("the only pair with the top count" if len(cands) == 1 else
                         "the largest pair in the reference's order ({!r}, {!r})".format(*tied[0]))
        for rule in TIE_BREAKS:
            best = min(cands, key=lambda c: c.key(rule))
            picks[rule] = best.pair
            why[rule] = reason(rule, best, words[cands.index(best)], len(cands))
    return Ties(trainer.merge_count, top if cands else 0, "parity", tuple(cands), picks, why, words)
