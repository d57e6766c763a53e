"""Why this split: every merge that fires in each word, and why the last tokens stay apart.

``explain(model, text)`` cuts ``text`` with the model's own pipeline (the pieces the
:class:`~bpe_core.encoding.encoder.Encoder` encodes), takes each word's starting units from the
encoder (affixes, unk, byte fallback), and runs THE merge routine of
:mod:`bpe_core.base.merge` with its ``fired`` log: the steps are what the encoder does, not a
second implementation's guess. For the final tokens it says, per adjacent pair, whether the pair
is a merge at all and why it did not fire, then names the best remaining pair.

Families: ``merges`` (tokenizer.json, vocab.json + merges.txt, trained here, ``</w>`` suffix
models): ``segment``'s heap order, one step per merge fired (the leftmost of equal ranks first);
``tiktoken``: ``byte_pair_bounds`` (rank of the concatenated bytes; the step's ``rank`` is the
position of the merge that makes that token in the recovered merge list); ``seed000-greedy``: seed
000's table-value loop, which is not ranked merging (said in each word's note); ``picky``: PickyBPE's
event replay (:mod:`bpe_core.encoding.picky`): each merge that fires and each removal that splits.

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=["l", "o", "w", "lo", "low"], merges=[(0, 1), (3, 2)])
>>> w = explain(m, "low").words[0]
>>> [(s.rank, s.tokens) for s in w.steps], w.tokens
([(0, ('lo', 'w')), (1, ('low',))], ('low',))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from bpe_core.encoding.encoder import UNKNOWN, Encoder
from bpe_core.base.merge import NO_RANK, byte_pair_bounds, merge_in_place, segment
from bpe_core.base.symbols import display as display_raw
from bpe_core.model import BPEModel
from bpe_core.types import Piece


@dataclass(frozen=True)
class Step:
    """One merge as it fires: ``rank`` is its 0-based position in the model's merge list."""

    rank: Optional[int]
    left: str
    right: str
    result: str
    #: index, in the segmentation before this step, of the left token
    at: int
    ids: Tuple[int, ...]
    tokens: Tuple[str, ...]
    #: tiktoken: the byte rank of the result; seed 000: the table value that picked the pair
    score: Optional[int] = None
    #: PickyBPE: this step is a removal right after merge ``rank``: ``left`` split into ``result``'s tokens
    removed: bool = False


@dataclass(frozen=True)
class PairWhy:
    """Why two adjacent final tokens were not merged."""

    left: str
    right: str
    #: the pair's 0-based merge rank when it is a merge (then it is past ``merges_limit``)
    rank: Optional[int]
    reason: str


@dataclass(frozen=True)
class WordExplanation:
    word: str
    start: int
    end: int
    special: bool
    units: Tuple[str, ...]
    #: the starting ids (-1: a kept symbol outside the vocabulary)
    unit_ids: Tuple[int, ...]
    steps: Tuple[Step, ...]
    ids: Tuple[int, ...]
    tokens: Tuple[str, ...]
    pairs: Tuple[PairWhy, ...]
    #: one line: the best remaining pair and why it is absent or ranked later
    why_stop: str
    note: str = ""

    def to_json(self) -> Dict[str, Any]:
        """The ``--json`` record of one word (``word``, ``steps``, ``tokens`` plus extra keys)."""
        return {
            "word": self.word, "start": self.start, "end": self.end, "special": self.special,
            "units": list(self.units), "unit_ids": list(self.unit_ids),
            "steps": [{"rank": s.rank, "left": s.left, "right": s.right, "tokens": list(s.tokens),
                       **({"removed": True} if s.removed else {})} for s in self.steps],
            "tokens": list(self.tokens), "ids": list(self.ids), "why_stop": self.why_stop,
            "pairs": [{"left": p.left, "right": p.right, "rank": p.rank, "reason": p.reason} for p in self.pairs],
            **({"note": self.note} if self.note else {})}


@dataclass(frozen=True)
class Explanation:
    algorithm: str
    words: Tuple[WordExplanation, ...]

    @property
    def ids(self) -> List[int]:
        """Every word's final ids in order: equal to ``Encoder(model).encode(text).ids``."""
        return [i for w in self.words for i in w.ids]

    def to_json(self) -> Dict[str, Any]:
        """``{"words": [...]}``: the CLI's ``--json`` (issue 11's shape; extra keys only per word)."""
        return {"words": [w.to_json() for w in self.words]}


def explain(model: BPEModel, text: str, *, merges_limit: Optional[int] = None) -> Explanation:
    """Each word of ``text``: its cut, units, merges as they fire, final tokens and why they stop.

    ``merges_limit`` explains ``Encoder(model, merges_limit=k)`` (pairs past k say so).
    """
    pieces, word = _explainer(model, text, merges_limit)
    return Explanation(model.algorithm, tuple(word(p) for p in pieces))


def explain_at(model: BPEModel, text: str, pos: int, *, merges_limit: Optional[int] = None
               ) -> Optional[WordExplanation]:
    """Only the word of ``text`` that holds character ``pos`` (a clicked token's start): the
    whole text is cut as the encoder cuts it, one word is explained. None outside every word.

    >>> from bpe_core.model import BPEModel
    >>> m = BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)])
    >>> explain_at(m, "ab", 1).tokens
    ('ab',)
    """
    pieces, word = _explainer(model, text, merges_limit)
    inside = [p for p in pieces if p.start <= pos < p.end] or [p for p in pieces if p.start == p.end == pos]
    return word(inside[0]) if inside else None


def _explainer(model: BPEModel, text: str, merges_limit: Optional[int]
               ) -> Tuple[Sequence[Piece], Callable[[Piece], WordExplanation]]:
    """The pieces the encoder encodes, and the function that explains one of them."""
    enc = Encoder(model, merges_limit=merges_limit)
    if model.algorithm == "seed000-greedy":
        from bpe_core.encoding.seed000_greedy import seed000_pieces
        pieces: Sequence[Piece] = list(seed000_pieces(model, text))
        word = _Seed000(model).word
    elif model.algorithm == "tiktoken":
        pieces, word = enc.pieces(text), _Tiktoken(model, enc).word
    elif model.algorithm == "picky":
        pieces, word = enc.pieces(text), _Picky(model, enc).word
    else:
        pieces, word = enc.pieces(text), _Merges(model, enc).word

    def one(p: Piece) -> WordExplanation:
        if p.special is None:
            return word(p)
        shown = model.display(p.special) if 0 <= p.special < len(model.tokens) else p.text
        return WordExplanation(p.text, p.start, p.end, True, (shown,), (p.special,), (), (p.special,),
                               (shown,), (), "a special token: cut out whole, never merged")
    return pieces, one


def _shown_units(model: BPEModel, word: str, ids: Sequence[int], spans: Sequence[Tuple[int, int]]) -> List[str]:
    """Display strings of starting ids; a kept unknown symbol (id -1) shows its own text."""
    data: Any = word.encode() if model.unit == "bytes" else word
    return [display_raw(data[s:e]) if i == UNKNOWN else model.display(i) for i, (s, e) in zip(ids, spans)]


def _replay(model: BPEModel, ids: List[int], shown: List[str], fired: Sequence[Tuple[int, int, int]],
            starts: Optional[List[int]] = None) -> List[Step]:
    """Steps from ``segment``'s log: each ``(rank, start, new)`` merges the token starting at
    ``start`` with its right neighbour (``merge_in_place``, THE pair merge)."""
    cur, names = list(ids), list(shown)
    pos = list(range(len(ids))) if starts is None else list(starts)
    steps = []
    for rank, start, new in fired:
        k = pos.index(start)
        left, right = names[k], names[k + 1]
        merge_in_place(cur, [k], new)
        del pos[k + 1]
        names[k:k + 2] = [model.display(new)]
        steps.append(Step(rank, left, right, names[k], k, tuple(cur), tuple(names)))
    return steps


class _Merges:
    """Ranked merges (HF / GPT-2 / trained here): ``segment``'s heap order, logged."""

    def __init__(self, model: BPEModel, enc: Encoder) -> None:
        self.model, self.enc = model, enc
        self.limit = enc.merges_limit
        limited = self.limit is not None and self.limit < len(model.merges)
        self.full = Encoder(model).merge_table if limited else enc.merge_table

    def word(self, p: Piece) -> WordExplanation:
        m = self.model
        ids, spans, drops = self.enc.start_ids(p.text, p.suffix)
        units = _shown_units(m, p.text, ids, spans)
        if m.ignore_merges:
            tid = m.vocab.get(p.text.encode() if m.unit == "bytes" else p.text)
            if tid is not None:
                why = "the word is itself a token: ignore_merges takes it whole, no merge runs"
                return WordExplanation(p.text, p.start, p.end, False, tuple(units), tuple(ids), (), (tid,),
                                       (m.display(tid),), (), why, why)
        fired: List[Tuple[int, int, int]] = []
        final, _ = segment(ids, self.enc.merge_table, fired)
        steps = _replay(m, ids, units, fired)
        names = list(steps[-1].tokens) if steps else units
        pairs = [self._why(a, b, x, y) for a, b, x, y in zip(final, final[1:], names, names[1:])]
        note = f"dropped {len(drops)} unit(s) with no token and no unk token" if drops else ""
        return WordExplanation(p.text, p.start, p.end, False, tuple(units), tuple(ids), tuple(steps),
                               tuple(final), tuple(names), tuple(pairs), self._best(final, names, pairs), note)

    def _why(self, a: int, b: int, x: str, y: str) -> PairWhy:
        m = self.model
        if a < 0 or b < 0:
            return PairWhy(x, y, None, "not a merge: a symbol outside the vocabulary never merges")
        hit = self.full.get((a, b))
        if hit is not None:
            rank = hit[0]
            if self.limit is not None and rank >= self.limit:
                return PairWhy(x, y, rank,
                               f"merge {rank} is ranked after the limit: only merges 0-{self.limit - 1} apply")
            return PairWhy(x, y, rank, f"merge {rank} (would fire: report this)")
        tid = m.vocab.get(m.merged_raw(a, b))
        if tid is None:
            return PairWhy(x, y, None, f"not a merge, and {x + y!r} is no token of the vocabulary")
        made = m.created_by.get(tid)
        how = f"made by merge {made - 1} from {_parts(m, made)}" if made else "a base token"
        return PairWhy(x, y, None, f"not a merge: {m.display(tid)!r} is a token ({how}), not made from this pair")

    def _best(self, final: Sequence[int], names: Sequence[str], pairs: Sequence[PairWhy]) -> str:
        if len(final) < 2:
            return "one token: nothing left to merge"
        ranked = [p for p in pairs if p.rank is not None]
        if ranked:
            p = min(ranked, key=lambda q: q.rank)  # type: ignore[arg-type,return-value]
            return f"best remaining pair {p.left!r} + {p.right!r}: {p.reason}"
        m = self.model
        made = [(m.created_by.get(m.vocab.get(m.merged_raw(a, b), -1)), x, y)
                for a, b, x, y in zip(final, final[1:], names, names[1:]) if a >= 0 and b >= 0]
        made = [t for t in made if t[0] is not None]
        if made:
            r, x, y = min(made)
            return (f"best remaining pair {x!r} + {y!r}: no merge joins them (their text is made by merge "
                    f"{r - 1} from {_parts(self.model, r)})")
        return "no adjacent pair is a merge, and no two neighbours join into a token"


def _parts(m: BPEModel, rank1: int) -> str:
    a, b = m.merges[rank1 - 1]
    return f"{m.display(a)!r} + {m.display(b)!r}"


class _Picky:
    """PickyBPE's event replay, logged: a merge step, or a removal step (``removed``: ``left`` split into
    ``result``); a word that is a present token is taken whole."""

    def __init__(self, model: BPEModel, enc: Encoder) -> None:
        from bpe_core.encoding.picky import PickyReplay
        self.model, self.enc, self.replay = model, enc, PickyReplay(model, enc.merges_limit)

    def word(self, p: Piece) -> WordExplanation:
        from bpe_core.encoding.picky import replay
        m, r = self.model, self.replay
        ids, spans, drops = self.enc.start_ids(p.text, p.suffix)
        units = _shown_units(m, p.text, ids, spans)
        whole = r.whole(ids) if ids and not drops else None
        if whole is not None:
            why = "the word is itself a present token: PickyBPE's encoder takes it whole, no event runs"
            return WordExplanation(p.text, p.start, p.end, False, tuple(units), tuple(ids), (), (whole,),
                                   (m.display(whole),), (), why, why)
        log: List[Tuple[int, List[int]]] = []
        final = replay(ids, r.merge_at, r.split_at, r.events, log)
        steps, before = [], ids
        for e, after in log:
            kind, what, new = r.events[e]
            names = tuple(_shown_units(m, p.text, after, [(0, 0)] * len(after)))
            if kind == "m":
                at = next(k for k in range(len(before) - 1) if (before[k], before[k + 1]) == what)
                steps.append(Step(r.rank_of[e], m.display(what[0]), m.display(what[1]), m.display(new),  # type: ignore
                                  at, tuple(after), names))
            else:
                steps.append(Step(r.rank_of[e], m.display(what), "", " ".join(m.display(i) for i in new),  # type: ignore
                                  before.index(what), tuple(after), names, removed=True))  # type: ignore[arg-type]
            before = after
        names = list(steps[-1].tokens) if steps else units
        why = "no later merge of two neighbours and no later removal of one of these tokens"
        return WordExplanation(p.text, p.start, p.end, False, tuple(units), tuple(ids), tuple(steps),
                               tuple(final), tuple(names), (), why if len(final) > 1 else "one token")


class _Tiktoken:
    """tiktoken's byte-rank loop (``byte_pair_bounds``), logged; a whole-piece token is taken whole."""

    def __init__(self, model: BPEModel, enc: Encoder) -> None:
        self.model, self.enc = model, enc

    def rank(self, data: bytes, default: int = NO_RANK) -> int:
        r = self.enc.byte_rank(data)
        return default if r is None else r

    def word(self, p: Piece) -> WordExplanation:
        m, vocab = self.model, self.model.vocab
        data = p.text.encode()
        parts = [data[i:i + 1] for i in range(len(data))]
        units = [display_raw(u) for u in parts]
        fired: List[Tuple[int, int]] = []
        byte_pair_bounds(data, self.rank, fired=fired)
        steps = []
        for score, i in fired:
            left, right = parts[i], parts[i + 1]
            parts[i:i + 2] = [left + right]
            ids = tuple(vocab.get(x, UNKNOWN) for x in parts)
            merge = m.created_by.get(score)
            steps.append(Step(None if merge is None else merge - 1, display_raw(left), display_raw(right),
                              display_raw(left + right), i, ids, tuple(display_raw(x) for x in parts), score))
        note = ""
        whole = self.enc.byte_rank(data)
        if whole is not None and parts != [data]:
            note = f"the whole piece is token {whole}: tiktoken takes it whole without merging"
            steps, parts = [], [data]
        known = [x for x in parts if x in vocab]
        if len(known) < len(parts):
            note = f"dropped {len(parts) - len(known)} byte(s) with no rank in this file"
        names = [display_raw(x) for x in known]
        pairs = [self._why(a, b) for a, b in zip(known, known[1:])]
        why = "one token: nothing left to merge" if len(known) < 2 else self._best(pairs)
        return WordExplanation(p.text, p.start, p.end, False, tuple(units),
                               tuple(vocab.get(u, UNKNOWN) for u in (data[i:i + 1] for i in range(len(data)))),
                               tuple(steps), tuple(vocab[x] for x in known), tuple(names), tuple(pairs), why, note)

    def _why(self, a: bytes, b: bytes) -> PairWhy:
        x, y = display_raw(a), display_raw(b)
        tid = self.model.vocab.get(a + b)
        if tid is None:
            return PairWhy(x, y, None, f"no token is {display_raw(a + b)!r}: no rank joins these bytes")
        merge = self.model.created_by.get(tid)
        rank = None if merge is None else merge - 1
        return PairWhy(x, y, rank, f"token {tid} ({display_raw(a + b)!r}) is ranked after the limit")

    def _best(self, pairs: Sequence[PairWhy]) -> str:
        ranked = [p for p in pairs if p.rank is not None]
        if ranked:
            p = min(ranked, key=lambda q: q.rank)  # type: ignore[arg-type,return-value]
            return f"best remaining pair {p.left!r} + {p.right!r}: {p.reason}"
        return "no two adjacent parts join into a token of this file"


class _Seed000:
    """Seed 000's greedy loop (``merge_greedy``): the highest table value, not the lowest rank."""

    NOTE = ("seed 000's encoder merges the adjacent pair whose text has the highest value in its frequency "
            "table, not by merge rank")

    def __init__(self, model: BPEModel) -> None:
        self.model = model
        self.freqs: Dict[str, int] = model.extras["freqs"]
        self.v2i: Dict[str, int] = model.extras["vocab_to_idx"]

    def word(self, p: Piece) -> WordExplanation:
        from bpe_core.encoding.seed000_greedy import EOW, merge_greedy
        m, unk = self.model, self.v2i["<unk>"]
        syms = list(p.text) + [EOW]
        fired: List[Tuple[int, int]] = []
        final = merge_greedy(list(syms), self.freqs, fired)
        steps, cur = [], list(syms)
        for value, i in fired:
            left, right = cur[i], cur[i + 1]
            cur[i:i + 2] = [left + right]
            a, b = m.vocab.get(left), m.vocab.get(right)
            merge = m.merge_rank.get((a, b)) if a is not None and b is not None else None  # type: ignore[arg-type]
            steps.append(Step(None if merge is None else merge - 1, left, right, left + right, i,
                              tuple(self.v2i.get(x, unk) for x in cur), tuple(cur), value))
        note = self.NOTE if m.merges else self.NOTE + "; this vocabulary lists no merges: steps have no rank"
        pairs = tuple(PairWhy(x, y, None, f"{x + y!r} is not in seed 000's table") for x, y in zip(final, final[1:]))
        why = "one token: nothing left to merge" if len(final) < 2 else "no adjacent pair's text is in the table"
        return WordExplanation(p.text, p.start, p.end, False, tuple(syms), tuple(self.v2i.get(x, unk) for x in syms),
                               tuple(steps), tuple(self.v2i.get(x, unk) for x in final), tuple(final), pairs, why, note)


def explain_text(ex: Explanation) -> str:
    """A readable report: one block per word (the CLI's text output)."""
    lines: List[str] = []
    for n, w in enumerate(ex.words, 1):
        lines.append(f"word {n} {w.word!r} [{w.start}:{w.end}]" + (" (special)" if w.special else ""))
        if w.special:
            lines.append(f"  {w.why_stop}")
            continue
        lines.append("  units:  " + " | ".join(w.units))
        for s in w.steps:
            rank = "no rank" if s.rank is None else f"merge {s.rank}"
            lines.append(f"  {rank:>10}: {s.left} + {s.right} -> {s.result}    " + " | ".join(s.tokens))
        lines.append("  tokens: " + " | ".join(w.tokens))
        lines.append(f"  stops:  {w.why_stop}")
        if w.note:
            lines.append(f"  note:   {w.note}")
    return "\n".join(lines)


__all__ = ["Explanation", "WordExplanation", "Step", "PairWhy", "explain", "explain_at", "explain_text"]
