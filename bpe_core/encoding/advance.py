"""A text's encoding one merge later (or earlier) without encoding it again: what a view following a trainer
shows at each step.

As of merge k, no word (pre-tokenizer piece) of an encoding holds a pair of rank k or less. Merge k+1 then
merges its pair's occurrences, the leftmost first, and nothing else happens when it *created* its token: no
earlier merge names the new token, so no pair it forms can fire before merge k+2. That is
:func:`advance`, exact where :class:`~bpe_core.encoding.encoder.Encoder` would give the same (the tests run both
on every preset). It declines (None: encode again) where one merge can change more:

* the merge spelled a token that already existed: the token may complete an earlier merge's pair;
* the encoding holds a symbol of several characters the vocabulary lacks (id -1, a dropped span: a CJK
  pipeline's unit): the new token may spell it (a merged token spells at least two units, never one);
* the model is not a ``merges`` model, takes whole-word tokens (``ignore_merges``), or has an unk token or
  byte fallback (:func:`can_advance`).

Going back, :class:`Trail` returns the encodings it passed (one text, one line of merges). Owning this
instead of re-encoding buys speed: 0.03-0.25 ms for 3,000 characters (wiki.valid.raw, merges 11-160 and
1,501-1,650) where an encoder with a new vocabulary takes 10-15 ms, which a held key asks for 30 times a
second.
"""
from __future__ import annotations

from bisect import bisect_left
from typing import List, Optional, Sequence, Tuple

from bpe_core.base.symbols import display as display_raw
from bpe_core.encoding.encoder import UNKNOWN, LensEncoding
from bpe_core.model import BPEModel
from bpe_core.types import EncodedToken, MergeStep

#: more merges than this in one move are encoded again (a jump, a bulk run's frame)
MAX_STEPS = 32
#: encodings a :class:`Trail` keeps to go back through: at most this many, and at most TRAIL_TOKENS tokens in all
#: (3,000 characters, ~1,100 tokens: 512 encodings, ~10 MB; the pane's longest text, 200,000 characters,
#: ~60,000 tokens: 33 encodings, ~32 MB)
TRAIL_LENGTH = 512
TRAIL_TOKENS = 2_000_000


def can_advance(model: BPEModel) -> bool:
    """Whether encodings with ``model`` (and the models its trainer makes next) may :func:`advance`."""
    return (model.algorithm == "merges" and not model.ignore_merges and model.unk_id is None
            and not model.byte_fallback and model.config.get("variant") != "picky")  # picky: encodes by events


def advance(encoding: LensEncoding, step: MergeStep) -> Optional[LensEncoding]:
    """``encoding`` (as of merge ``step.rank - 1``) as of merge ``step.rank``; None where that needs an encoder.
    The same object when the merged pair is not in it.

    >>> from bpe_core.encoding.encoder import Encoder
    >>> from bpe_core.training.trainer import Trainer
    >>> from bpe_core.types import TrainerConfig
    >>> trainer = Trainer({"ab": 2, "b": 1}, TrainerConfig())
    >>> enc = Encoder(trainer.model()).encode("abab b")
    >>> [t.raw for t in enc.tokens], enc.starts
    (['a', 'b', 'a', 'b', 'b'], (0, 4))
    >>> later = advance(enc, trainer.step())
    >>> [t.raw for t in later.tokens], later.starts, later == Encoder(trainer.model()).encode("abab b")
    (['ab', 'ab', 'b'], (0, 2), True)
    """
    moved = _advance(encoding, tuple(t.id for t in encoding.tokens), step)
    return None if moved is None else moved[0]


def _advance(encoding: LensEncoding, ids: Tuple[int, ...], step: MergeStep
             ) -> Optional[Tuple[LensEncoding, Tuple[int, ...], List[int]]]:
    """:func:`advance` given the encoding's token ids (searched at C speed: a merge touches few tokens, and a
    Python loop over 3,000 characters' tokens cost more than the rest of the step's encode pane); with the
    new encoding's ids and where the merge joined tokens (``i``: tokens ``i`` and ``i + 1``)."""
    toks, given = encoding.tokens, encoding.starts
    if not step.created or step.removals or (toks and not given) or any(e - s > 1 for s, e in encoding.unknown):
        return None
    if UNKNOWN in ids and any(t.id == UNKNOWN and t.end - t.start > 1 for t in toks):
        return None
    left, right, n = step.left, step.right, len(ids)
    hits: List[int] = []  # i: tokens i and i + 1 merge (leftmost first: "a a a" gives "aa a")
    i = _find(ids, left, 0)
    while i >= 0:
        if i + 1 < n and ids[i + 1] == right and not _is_start(given, i + 1):
            hits.append(i)
            i = _find(ids, left, i + 2)
        else:
            i = _find(ids, left, i + 1)
    if not hits:
        return encoding, ids, hits
    raw, shown = step.new_token, display_raw(step.new_token)
    out: List[EncodedToken] = []
    out_ids: List[int] = []
    prev = 0
    for i in hits:
        out.extend(toks[prev:i])
        out.append(EncodedToken(step.new_id, raw, shown, toks[i].start, toks[i + 1].end))
        out_ids.extend(ids[prev:i])
        out_ids.append(step.new_id)
        prev = i + 2
    out.extend(toks[prev:])
    out_ids.extend(ids[prev:])
    return LensEncoding(tuple(out), encoding.unknown, _shifted(given, hits)), tuple(out_ids), hits


def _shifted(starts: Tuple[int, ...], hits: List[int]) -> Tuple[int, ...]:
    """Word starts once the tokens after ``hits`` are joined to them: each start less the joins before it (a word
    never starts at a right token merged away). A slice and a map per join, not a bisection per start."""
    out: List[int] = []
    lo = bisect_left(starts, hits[0] + 1)
    out += starts[:lo]
    for t, i in enumerate(hits[1:], start=1):
        hi = bisect_left(starts, i + 1, lo)
        out += map(t.__rsub__, starts[lo:hi])
        lo = hi
    out += map(len(hits).__rsub__, starts[lo:])
    return tuple(out)


def _find(ids: Tuple[int, ...], token: int, start: int) -> int:
    try:
        return ids.index(token, start)
    except ValueError:
        return -1


def _key(step: MergeStep) -> Tuple[int, int, int, int]:
    """What tells a merge from another at the same rank (a branch)."""
    return step.rank, step.left, step.right, step.new_id


def _is_start(starts: Tuple[int, ...], i: int) -> bool:
    k = bisect_left(starts, i)
    return k < len(starts) and starts[k] == i


class Trail:
    """One text's encoding along a trainer's merges: forward by :func:`advance`, back through the
    encodings passed. ``at``: the merge count ``encoding`` is as of."""

    def __init__(self, encoding: LensEncoding, at: int) -> None:
        self.encoding, self.at = encoding, at
        self._ids = tuple(t.id for t in encoding.tokens)
        # (step's key, the encoding before it and its ids, where it joined tokens), newest last
        self._passed: List[Tuple[Tuple[int, int, int, int], LensEncoding, Tuple[int, ...], List[int]]] = []
        #: what the last :meth:`follow` went through, a merge at a time: ``(before, hits, after, undone)``; tokens
        #: ``hits[t]`` and ``hits[t] + 1`` of ``before`` are token ``hits[t] - t`` of ``after`` (a view showing
        #: one token per chip can splice its chips instead of making them all again)
        self.moves: List[Tuple[LensEncoding, List[int], LensEncoding, bool]] = []
        self._peeked: Optional[Tuple[Tuple[int, int, int, int], LensEncoding, Tuple[LensEncoding, Tuple[int, ...], List[int]]]] = None

    def peek(self, step: MergeStep) -> Optional[Tuple[LensEncoding, List[int]]]:
        """The encoding one merge (``step``) on and where it joins tokens, the trail staying where it is (a view
        makes the next merge's chips ahead); :meth:`follow` takes it from here. None: not the next merge, or one
        to encode again for."""
        if step.rank != self.at + 1:
            return None
        moved = _advance(self.encoding, self._ids, step)
        self._peeked = None if moved is None else (_key(step), self.encoding, moved)
        return None if moved is None else (moved[0], moved[2])

    def follow(self, steps: Sequence[MergeStep], undone: bool) -> Optional[LensEncoding]:
        """The encoding after ``steps`` (undone: newest first, as a timeline reports them); None: encode again
        (the trail stays where it was: make a new one from that encoding)."""
        if not steps or len(steps) > MAX_STEPS:
            return None
        keep = max(1, min(TRAIL_LENGTH, TRAIL_TOKENS // max(1, len(self._ids))))
        enc, ids, at, passed = self.encoding, self._ids, self.at, self._passed[-keep:]
        moves: List[Tuple[LensEncoding, List[int], LensEncoding, bool]] = []
        for step in steps:
            key = _key(step)
            if undone:
                if step.rank != at or not passed or passed[-1][0] != key:
                    return None
                after = enc
                _, enc, ids, hits = passed.pop()
                moves.append((enc, hits, after, True))
                at -= 1
                continue
            peeked = self._peeked
            if peeked is not None and peeked[0] == key and peeked[1] is enc:
                moved = peeked[2]
            else:
                moved = _advance(enc, ids, step) if step.rank == at + 1 else None
            if moved is None:
                return None
            after, after_ids, hits = moved
            passed.append((key, enc, ids, hits))
            moves.append((enc, hits, after, False))
            enc, ids, at = after, after_ids, step.rank
        self.encoding, self._ids, self.at, self._passed, self.moves = enc, ids, at, passed, moves
        return enc
