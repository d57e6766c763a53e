"""PickyBPE's encoder: a model of algorithm ``"picky"`` encodes as ``picky_tokenize.py`` of pchizhov/picky_bpe.

A model with removals (:attr:`bpe_core.model.BPEModel.removals`) cannot encode by merge ranks: a removed
token must be split again wherever it was made. The reference replays the training's *events* instead:
merges and removals in one list, each merge followed by the removals it caused. A word (a piece of the
model's pipeline) whose whole string is a present token is that token. Otherwise its initial symbols
replay the events: at each point the earliest event, not before the last one applied, that applies to
the word — the merge of a pair it has (every occurrence, left to right) or the split of a removed token
it has (each occurrence becomes the ids the removal split it into). ``merges_limit`` encodes as of merge
k: the events up to merge k and the removals right after it.

Spans come out as :class:`~bpe_core.encoding.encoder.Encoder` reports them: each token covers the initial
symbols it was made of (a split token's parts cover their share of it, by the parts' sizes).

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=["a", "b", "ab", "abb"], merges=[(0, 1), (2, 1)],
...              removals=[(2, 2, (0, 1))], algorithm="picky")
>>> replay = PickyReplay(m)
>>> replay.word([0, 1, 0, 1, 1], [(i, i + 1) for i in range(5)], [])[:2]
([0, 1, 3], [(0, 1), (1, 2), (2, 5)])
>>> PickyReplay(m, merges_limit=1).word([0, 1], [(0, 1), (1, 2)], [])[0]
[2]
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Dict, List, Optional, Sequence, Set, Tuple

from bpe_core.model import BPEModel
from bpe_core.types import BPELensError

Span = Tuple[int, int]
WordResult = Tuple[List[int], List[Span], List[Span]]
#: one event: ("m", (left, right), new id) or ("s", removed id, split ids)
Event = Tuple[str, object, object]


def model_events(model: BPEModel, merges_limit: Optional[int] = None) -> List[Event]:
    """The model's merges and removals as one event list, in training order, up to ``merges_limit``
    merges (each merge's removals included).

    >>> m = BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)], removals=[(1, 2, (0, 1))])
    >>> model_events(m)
    [('m', (0, 1), 2), ('s', 2, (0, 1))]
    """
    n = len(model.merges) if merges_limit is None else min(merges_limit, len(model.merges))
    after: Dict[int, List[Tuple[int, Tuple[int, ...]]]] = {}
    for rank, tid, split in model.removals:
        if not 0 <= rank <= len(model.merges):
            raise BPELensError(f"a removal of token {tid} comes after merge {rank}, but the model has "
                               f"{len(model.merges)} merges")
        after.setdefault(rank, []).append((tid, tuple(split)))
    events: List[Event] = [("s", tid, split) for tid, split in after.get(0, [])]
    results = model.merge_result
    for rank in range(1, n + 1):
        events.append(("m", model.merges[rank - 1], results[rank - 1]))
        events.extend(("s", tid, split) for tid, split in after.get(rank, []))
    return events


def present_after(model: BPEModel, events: Sequence[Event]) -> Set[int]:
    """Ids present once ``events`` have run: tokens no merge makes (characters, specials), the tokens the
    events merged, less those removed and not made again."""
    made = set(model.merge_result)
    present = {i for i, t in enumerate(model.tokens) if t is not None and i not in made}
    for kind, what, new in events:
        if kind == "m":
            present.add(new)  # type: ignore[arg-type]
        else:
            present.discard(what)  # type: ignore[arg-type]
    return present


class PickyReplay:
    """The event replay of one model (as of ``merges_limit`` merges), word by word over ids."""

    def __init__(self, model: BPEModel, merges_limit: Optional[int] = None) -> None:
        self.model = model
        events = model_events(model, merges_limit)
        self.present = present_after(model, events)
        self.merge_at: Dict[Tuple[int, int], List[int]] = {}
        self.split_at: Dict[int, List[int]] = {}
        self.events = events
        for e, (kind, what, _) in enumerate(events):
            table = self.merge_at if kind == "m" else self.split_at
            table.setdefault(what, []).append(e)  # type: ignore[arg-type]
        #: each event's merge rank (0-based): the merge itself, or the merge a removal came right after
        self.rank_of = [n - 1 for n in _running_ranks(events)]
        self.size = self._sizes(model)
        self._prefix = len(model.continuing_subword_prefix)

    @staticmethod
    def _sizes(model: BPEModel) -> Dict[int, int]:
        """Initial symbols per token: 1 for a token no merge makes, else the sum of its first merge's parts."""
        size: Dict[int, int] = {}
        for (a, b), new in zip(model.merges, model.merge_result):
            if new not in size:
                size[new] = size.get(a, 1) + size.get(b, 1)
        return size

    def word(self, ids: List[int], spans: List[Span], drops: List[Span]) -> WordResult:
        """A word's tokens and spans from its initial ids and spans (:meth:`Encoder.start_ids`)."""
        if not ids:
            return ids, spans, drops
        whole = self.whole(ids) if not drops else None
        if whole is not None:
            return [whole], [(spans[0][0], spans[-1][1])], drops
        out = replay(ids, self.merge_at, self.split_at, self.events)
        sizes = [self.size.get(t, 1) for t in out]
        if sum(sizes) != len(ids):
            raise BPELensError("a removal splits a token into parts that do not add up to it")
        result_spans, k = [], 0
        for n in sizes:
            result_spans.append((spans[k][0], spans[k + n - 1][1]))
            k += n
        return out, result_spans, drops

    def whole(self, ids: List[int]) -> Optional[int]:
        """The present token that is the whole word, if any (the reference's shortcut)."""
        tokens = self.model.tokens
        if min(ids) < 0:
            return None  # a symbol kept without a token (id -1)
        if len(ids) == 1:
            return ids[0] if ids[0] in self.present else None
        try:
            raw = tokens[ids[0]] + type(tokens[ids[0]])().join(tokens[i][self._prefix:] for i in ids[1:])  # type: ignore
        except TypeError:
            return None  # a special (text) among byte tokens
        tid = self.model.vocab.get(raw)
        return tid if tid is not None and tid in self.present else None


def _running_ranks(events: Sequence[Event]) -> List[int]:
    out, n = [], 0
    for kind, _, _ in events:
        n += kind == "m"
        out.append(n)
    return out


def replay(ids: List[int], merge_at: Dict[Tuple[int, int], List[int]], split_at: Dict[int, List[int]],
           events: Sequence[Event], log: Optional[List[Tuple[int, List[int]]]] = None) -> List[int]:
    """``picky_tokenize.BPEModel._encode_word_by_events`` over ids: apply the earliest applicable event
    (not before the last one applied) until none applies. ``log`` gets (event index, ids after it) per event.

    >>> replay([0, 1, 0], {(0, 1): [0]}, {2: [1]}, [("m", (0, 1), 2), ("s", 2, (0, 1))])
    [0, 1, 0]
    """
    toks = list(ids)
    previous = -1
    while True:
        best = None
        for p in zip(toks, toks[1:]):
            at = merge_at.get(p)
            if at is not None:
                i = bisect_left(at, previous)
                if i < len(at) and (best is None or at[i] < best):
                    best = at[i]
        for t in toks:
            at = split_at.get(t)
            if at is not None:
                i = bisect_left(at, previous)
                if i < len(at) and (best is None or at[i] < best):
                    best = at[i]
        if best is None:
            return toks
        previous = best
        kind, what, new = events[best]
        if kind == "s":
            toks = [x for t in toks for x in (new if t == what else (t,))]  # type: ignore[union-attr]
            if log is not None:
                log.append((best, toks))
            continue
        out, i, n = [], 0, len(toks)
        while i < n:
            if i < n - 1 and (toks[i], toks[i + 1]) == what:
                out.append(new)
                i += 2
            else:
                out.append(toks[i])
                i += 1
        toks = out  # type: ignore[assignment]
        if log is not None:
            log.append((best, toks))
