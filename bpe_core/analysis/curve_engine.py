"""The curves over vocabulary size (:mod:`bpe_core.analysis.curves`), kept up to date merge by merge.

How it works. Each evaluation text is cut once by the model's pipeline into pieces (the words the encoder
encodes); equal pieces are kept once, with their count in each file and their script
(:func:`~bpe_core.analysis.scripts.word_script`). Every piece starts as the encoder leaves it at merge 0
(``Encoder(model, merges_limit=0)``). An index maps each adjacent pair of ids to the pieces that have held
it (stale entries are allowed: a piece without the pair is left as it is). Merge ``r`` then changes only
the pieces of its pair:

* a ``merges`` model (pair ranks, as tokenizers and the trainer): every occurrence of the pair is merged,
  left to right. Merging the lowest-ranked pair first (the encoder) and merging in rank order give the same
  pieces when every merge uses tokens made before it; for a list that does not (a *late* merge), a touched
  piece is settled by the encoder's own rule instead (lowest rank first, leftmost on a tie, among the
  first ``r`` merges). A whole word that is a token (``ignore_merges``) stays that token.
* a ``tiktoken`` model (ranks of byte strings): at merge ``r`` the tokens it allows (ids up to the largest
  made by the first ``r`` merges) are looked up by every split of their bytes into two tokens, and each
  piece that holds such a pair is settled by tiktoken's rule; a piece whose bytes are an allowed token is
  that token.
* a PickyBPE model (``picky``): its events in order (:func:`~bpe_core.encoding.picky.model_events`): the
  merge of a pair, then each removal after it splits every occurrence of the removed token; a piece whose
  whole string is a present token is that token (the reference's shortcut), switched on and off as the
  token is made and removed.

Exactness: after merge ``m`` every piece is what ``Encoder(model, merges_limit=m)`` makes of it, so each
sampled value equals encoding the evaluation text from scratch (the tests compare with
:mod:`bpe_core.analysis.curves_encoded` at every sample). A merge list that repeats a pair and seed 000's
greedy encoder are not replayed: those curves are computed by encoding (noted in ``Curves.notes``).

Cost. A merge costs the pieces indexed with its pair (their symbols); each piece it changes adds its
token differences to per-group sums (all, its files, its script), which reach the groups'
:class:`~bpe_core.analysis.measures.RenyiTally` only at a sample (one update per token and group changed
since the last sample). A sample costs O(groups) for the per-text measures and O(distinct tokens emitted)
for used / dead / under-used (counted from the "all" table at the sample, not kept). So a curve costs the
text's pieces once (cut and counted), the merges' changed pieces, and O(groups + distinct tokens) per sample,
never the text again. ``work`` (a dict, optional) receives ``pieces`` (pieces visited), ``symbols``
(symbols scanned), ``samples``, ``sample_tokens`` (table entries read at samples) and ``tally_updates``.

The vocabulary size at merge ``m`` (used / dead): the tokens no merge makes (base units, specials), the
tokens the first ``m`` merges made, less those a PickyBPE removal took out by then and no later merge made
again (:func:`~bpe_core.analysis.curves.vocab_size_at`, kept here as a running set).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Tuple

from bpe_core.analysis.curve_pieces import Pieces, Setup, Tallies, group_states
from bpe_core.analysis.curve_rows import Curves, EvalText, as_read_by, check_texts, sample_merges, sample_rows
from bpe_core.analysis.measures import TextSize, text_size
from bpe_core.base.merge import merge_pair, shadowed_ranks
from bpe_core.types import Cancelled, Progress

Seg = List[int]


def _in_order(model) -> bool:
    """Every merge uses only tokens that exist before it (base units or made by an earlier merge)."""
    made = {t: r for r, t in reversed(list(enumerate(model.merge_result, 1)))}
    return all(made.get(a, 0) < r and made.get(b, 0) < r for r, (a, b) in enumerate(model.merges, 1))


def replayable(model) -> bool:
    """Whether the engine replays ``model`` (else its curves are computed by encoding)."""
    if model.algorithm == "picky":
        return True
    if model.algorithm == "tiktoken":
        return True
    return model.algorithm == "merges" and not shadowed_ranks(model.merges)


class _Replay:
    """Moves the pieces from merge ``m - 1`` to ``m`` (see the module doc for the three kinds of model)."""

    def __init__(self, model, pieces: Pieces, tallies: Tallies, work: Dict[str, int],
                 setup: Optional[Setup] = None) -> None:
        setup = Setup() if setup is None else setup
        self.model, self.p, self.tallies, self.work = model, pieces, tallies, work
        self.kind = model.algorithm
        self.results = model.merge_result
        self.in_order = self.kind != "merges" or _in_order(model)
        self.table: Dict[Tuple[int, int], Tuple[int, int]] = {}  # pair -> (rank, new): the first m merges
        self.index: Dict[Tuple[int, int], Set[int]] = {}
        self.holding: Optional[Dict[int, Set[int]]] = {} if self.kind == "picky" else None  # token -> pieces
        made = set(self.results)
        self.alive = {i for i, t in enumerate(model.tokens) if t is not None and i not in made}
        self.removals: Dict[int, List[Tuple[int, Tuple[int, ...]]]] = {}
        for rank, tid, split in model.removals or ():
            self.removals.setdefault(rank, []).append((tid, tuple(split)))
        self.state: List[Seg] = [list(s) for s in pieces.seg]  # the replay's state (before a whole override)
        self.frozen = [sp for sp in pieces.special]
        self.whole: List[Optional[int]] = [None] * len(pieces.seg)
        self.whole_of: Dict[int, List[int]] = {}
        if self.kind == "picky":
            self._picky_setup()
        elif self.kind == "tiktoken":
            self._tiktoken_setup()
        elif model.ignore_merges:
            self.frozen = [f or len(s) == 1 and len(st) > 1 for f, s, st in zip(self.frozen, pieces.seg, pieces.start)]
        setup.stage("pieces", len(self.state))
        for i, seg in enumerate(self.state):
            setup.step()
            if not self.frozen[i]:
                self._index(i, seg)

    # -- setup -------------------------------------------------------------------------------------
    def _picky_setup(self) -> None:
        from bpe_core.encoding.picky import PickyReplay

        probe = PickyReplay(self.model, merges_limit=0)
        probe.present = set(range(len(self.model.tokens)))  # ask for the whole token whether present or not
        for i, start in enumerate(self.p.start):
            if self.frozen[i] or not start:
                continue
            self.state[i] = list(start)
            w = probe.whole(list(start))
            if w is not None and len(start) > 1:
                self.whole[i] = w
                self.whole_of.setdefault(w, []).append(i)
        for tid, split in self.removals.get(0, ()):  # the encoder at merge 0 has applied these already
            self.alive.discard(tid)
            for i, seg in enumerate(self.state):
                if tid in seg:
                    self.state[i] = [x for s in seg for x in (split if s == tid else (s,))]

    def _tiktoken_setup(self) -> None:
        tokens, vocab = self.model.tokens, self.model.vocab
        self.allowed: Dict[bytes, int] = {}
        self.max_rank = -1
        self.by_rank = sorted((i for i, t in enumerate(tokens) if isinstance(t, bytes) and len(t) > 1))
        self.next_rank = 0  # position in by_rank of the next token to allow
        for i, text in enumerate(self.p.text):
            if not self.frozen[i]:
                w = vocab.get(text.encode("utf-8", "surrogatepass"))
                if w is not None and isinstance(tokens[w], bytes) and len(tokens[w]) > 1:
                    self.whole[i] = w
                    self.whole_of.setdefault(w, []).append(i)

    # -- the index ---------------------------------------------------------------------------------
    def _index(self, i: int, seg: Seg) -> None:
        index = self.index
        for pair in zip(seg, seg[1:]):
            got = index.get(pair)
            if got is None:
                index[pair] = {i}
            else:
                got.add(i)
        holding = self.holding
        if holding is not None:
            for t in seg:
                got = holding.get(t)
                if got is None:
                    holding[t] = {i}
                else:
                    got.add(i)

    def _set(self, i: int, new: Seg) -> None:
        """Piece ``i``'s replay state becomes ``new``; its tables follow what it emits (a PickyBPE piece whose
        whole string is a present token emits that token whatever its replay holds)."""
        old = self.state[i]
        self.state[i] = new
        self._index(i, new)
        w = self.whole[i]
        if w is None or self.kind != "picky" or w not in self.alive:
            self.tallies.change(i, old, new)

    # -- one merge ---------------------------------------------------------------------------------
    def merge(self, rank: int) -> None:
        a, b = self.model.merges[rank - 1]
        new = self.results[rank - 1]
        self.table[(a, b)] = (rank - 1, new)
        newly = new not in self.alive
        if self.kind == "picky":  # the merge first: a piece whose whole is ``new`` emits it once it is present
            self._pieces_merge(a, b, new)
            self.alive.add(new)
            if newly:
                self._whole_switch(new)
            for tid, split in self.removals.get(rank, ()):
                self._split(tid, split)
            return
        self.alive.add(new)
        if self.kind == "tiktoken":
            self._tiktoken_merge(rank)
        elif self.in_order:
            self._pieces_merge(a, b, new)
        else:
            self._settle(self.index.get((a, b), ()), self.table.get)

    def _pieces_merge(self, a: int, b: int, new: int) -> None:
        """Every occurrence of ``a b`` merged, left to right, in the pieces indexed with the pair; only the
        pairs around the new token are indexed (the others were already). A plain list never merges the pair
        again, so its index entry is dropped; a PickyBPE list may (after a removal), so it stays."""
        state, frozen, whole, tallies = self.state, self.frozen, self.whole, self.tallies
        index, holding = self.index, self.holding
        picky = self.kind == "picky"
        got = index.get((a, b)) if picky else index.pop((a, b), None)
        if not got:
            return
        symbols = 0
        merged_in = tallies.merged
        for i in (list(got) if picky else got):
            if frozen[i]:
                continue
            seg = state[i]
            symbols += len(seg)
            merged = merge_pair(seg, a, b, new)
            if merged is None:
                continue
            state[i] = merged
            last = len(merged) - 1
            k = merged.index(new)
            while True:
                if k:
                    hit = index.get((merged[k - 1], new))
                    if hit is None:
                        index[(merged[k - 1], new)] = {i}
                    else:
                        hit.add(i)
                if k < last:
                    hit = index.get((new, merged[k + 1]))
                    if hit is None:
                        index[(new, merged[k + 1])] = {i}
                    else:
                        hit.add(i)
                try:
                    k = merged.index(new, k + 1)
                except ValueError:
                    break
            if holding is not None:
                hit = holding.get(new)
                if hit is None:
                    holding[new] = {i}
                else:
                    hit.add(i)
            if not picky or whole[i] is None or whole[i] not in self.alive:
                merged_in(i, a, b, new, len(seg) - len(merged))
        self.work["pieces"] += len(got)
        self.work["symbols"] += symbols

    def _split(self, tid: int, split: Tuple[int, ...]) -> None:
        """A PickyBPE removal: every occurrence of ``tid`` becomes ``split``."""
        if tid in self.alive:
            self._whole_switch(tid, on=False)
            self.alive.discard(tid)
        for i in list(self.holding.get(tid, ())):  # type: ignore[union-attr]
            self.work["pieces"] += 1
            seg = self.state[i]
            self.work["symbols"] += len(seg)
            if tid in seg:
                self._set(i, [x for s in seg for x in (split if s == tid else (s,))])

    def _whole_switch(self, tid: int, on: bool = True) -> None:
        """Pieces whose whole string is ``tid`` emit it now (it was made) or their replay again (removed)."""
        for i in self.whole_of.get(tid, ()):
            self.work["pieces"] += 1
            state = self.state[i]
            if on:
                self.tallies.change(i, state, [tid])
            else:
                self.tallies.change(i, [tid], state)

    def _settle(self, holders, rank_of) -> None:
        """The encoder's rule on each piece of ``holders``: lowest-ranked pair first, leftmost on a tie."""
        work, state, frozen = self.work, self.state, self.frozen
        for i in list(holders):
            work["pieces"] += 1
            if frozen[i]:
                continue
            seg = state[i]
            out = None
            while len(seg) > 1:
                work["symbols"] += len(seg)
                best = None
                at = -1
                for k in range(len(seg) - 1):
                    hit = rank_of((seg[k], seg[k + 1]))
                    if hit is not None and (best is None or hit[0] < best[0]):
                        best, at = hit, k
                if best is None:
                    break
                seg = out = seg[:at] + [best[1]] + seg[at + 2:]
            if out is not None:
                self._set(i, out)

    def _tiktoken_merge(self, rank: int) -> None:
        model = self.model
        tokens, vocab = model.tokens, model.vocab
        last = rank == len(model.merges)
        top = max(self.max_rank, self.results[rank - 1])
        newly: List[int] = []
        while self.next_rank < len(self.by_rank) and (last or self.by_rank[self.next_rank] <= top):
            tid = self.by_rank[self.next_rank]
            self.next_rank += 1
            newly.append(tid)
            self.allowed[tokens[tid]] = tid  # type: ignore[index]
        self.max_rank = top
        if not newly:
            return
        holders: Set[int] = set()
        for tid in newly:
            data = tokens[tid]
            for cut in range(1, len(data)):  # type: ignore[arg-type]
                x, y = vocab.get(data[:cut]), vocab.get(data[cut:])  # type: ignore[index]
                if x is not None and y is not None:
                    holders |= self.index.get((x, y), set())
        allowed = self.allowed

        def rank_of(pair):
            if pair[0] < 0 or pair[1] < 0:
                return None
            tid = allowed.get(tokens[pair[0]] + tokens[pair[1]])  # type: ignore[operator]
            return None if tid is None else (tid, tid)

        self._settle(holders, rank_of)
        for tid in newly:  # pieces that are this token whole emit it from now on
            for i in self.whole_of.get(tid, ()):
                self.work["pieces"] += 1
                self.tallies.change(i, self.state[i], [tid])
                self.frozen[i] = True


def engine_curves(model, texts: Sequence[EvalText], every: int, *, name: str = "", reference: Optional[str] = None,
                  upto: Optional[int] = None, offset: int = 0, progress=None, cancel=None,
                  work: Optional[Dict[str, int]] = None, samples: Optional[Sequence[int]] = None,
                  shift: int = 0) -> Curves:
    """The curves of ``model``'s merge prefixes, replayed merge by merge (module doc). ``samples``: the merges
    to sample instead of every ``every``-th; each row's merge is the model's merge plus ``shift``. Each text is
    read as the model's corpus reader reads a file (:func:`~bpe_core.analysis.curve_rows.as_read_by`)."""
    texts = as_read_by(model, texts)
    ref = check_texts(texts, reference)
    last = len(model.merges) if upto is None else max(0, min(upto, len(model.merges)))
    if samples is None:
        samples = sample_merges(last, every)
        if 0 < offset < last and offset not in samples:
            samples = sorted(samples + [offset])
    else:
        sample_merges(last, every)  # the same check of ``every``
        last = max(samples, default=0)
    if not replayable(model):
        from bpe_core.analysis.curves_encoded import curves_by_encoding
        c = curves_by_encoding(model, texts, every, name=name, reference=reference, upto=upto, offset=offset,
                               progress=progress, cancel=cancel)
        return Curves(c.run, c.every, c.texts, c.rows, c.reference, c.offset,
                      ("computed by encoding every sample: this merge list is not replayed merge by merge",))
    work = {} if work is None else work
    for key in ("pieces", "symbols", "samples", "sample_tokens", "tally_updates"):
        work.setdefault(key, 0)
    setup = Setup(progress, cancel)  # Cancel and progress while the pieces are cut and indexed
    pieces = Pieces(model, texts, setup)
    tallies = Tallies(pieces, setup)
    replay = _Replay(model, pieces, tallies, work, setup)
    sizes = [text_size(t.text) for t in texts]
    whole = TextSize(sum(s.bytes for s in sizes), sum(s.chars for s in sizes), sum(s.words for s in sizes))
    rows = []
    wanted = set(samples)
    for m in range(0, last + 1):
        if m:
            if cancel is not None and not m % 256 and cancel():
                raise Cancelled()
            replay.merge(m)
        if m in wanted:
            work["tally_updates"] += tallies.flush()
            work["samples"] += 1
            work["sample_tokens"] += len(tallies.all.counts)
            rows.extend(sample_rows(m + shift, len(replay.alive), group_states(tallies, sizes, whole),
                                    tallies.all.counts, pieces.files, ref))
            if progress is not None:
                progress(Progress(m, last, "merges"))
    if cancel is not None and cancel():
        raise Cancelled()
    return Curves(name, every, tuple(pieces.files), tuple(rows), ref, offset)


def run_model(timeline):
    """A run's model at the merge it has reached (its known records, past the position after an undo) and
    how many of its merges it inherited (a continuation's start model: 0 for a run from scratch)."""
    from bpe_core.training.export import records_model

    base = timeline.base_model
    if base.algorithm == "merges":
        model = records_model(base, timeline.reached_steps, timeline.initial_stats.total_tokens)
    else:
        model = timeline.model()
    return model, len(base.merges)


def continuation_curves(timeline, parent, texts: Sequence[EvalText], every: int, **kw) -> Curves:
    """A continuation's curves (SuperBPE's stage 2 from the parent's merge ``t``, ``timeline.config.transition``)
    with the merge index counting the parent's merges first: the rows before ``t`` are the parent's (its model,
    its pre-tokenizer: the evaluation text cut as stage 1 cuts it), the rows from ``t`` on the continuation's
    own (the text cut by the stage-2 pre-tokenizer; its merge ``j`` at ``t + j``), at ``t`` too: the parent's
    vocabulary less the merges its replay drops, over its own units (the Variants tab's figure for the branch
    at ``t``: one figure per run and merge). ``Curves.offset`` is ``t``."""
    t = timeline.config.transition
    parent_model, parent_offset = run_model(parent)
    first = engine_curves(parent_model, texts, every, upto=t, offset=parent_offset, **kw)
    model, kept = run_model(timeline)
    own = len(model.merges) - kept
    wanted = [t] + [g for g in sample_merges(t + own, every) if g > t]
    rest = engine_curves(model, texts, every, samples=[kept + g - t for g in wanted], shift=t - kept, **kw)
    rows = tuple(r for r in first.rows if r.merge < t) + rest.rows
    return Curves(first.run, every, first.texts, rows, first.reference, t, (*dict.fromkeys(first.notes + rest.notes),))
