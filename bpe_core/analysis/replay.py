"""Replay a vocabulary's merges on a corpus: what each merge would count there, and what never fires.

The corpus is cut into words by the model's own pipeline; each word starts as its base symbols
(what the trainer would start from). The merges are then applied in rank order to all words at
once, and before merge ``r`` is applied the count of its pair is recorded: the count it would
have had as the next merge if the vocabulary had been trained on this corpus (overlapping
occurrences count, as in the trainer and HF). Pair counts and a pair -> words index are updated
for the changed words only, so GPT-2's 50k merges over a few MB take seconds.

For a vocabulary whose merges are in order (every merge uses tokens made by earlier merges, as
training makes them) the final segmentation is exactly what the encoder produces. Flags:

* ``dead_merges`` - ranks whose pair never occurs on this corpus (count 0), and ranks that never
  fire because a later merge repeats their pair (the one rule: a repeated pair keeps its last rank,
  :func:`~bpe_core.base.merge.pair_ranks`);
* ``consumed_tokens`` - tokens made on this corpus that never survive to the end: every
  occurrence was merged further (only ever consumed as a merge part);
* ``unreachable_tokens`` - tokens no text can produce through the merges (a part is itself
  unreachable, or is made only by a later merge; or no merge makes the token at all);
* ``late_merges`` - ranks that use a token made only by a later merge (out of order).

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc", "bc"], merges=[(0, 1), (3, 2), (1, 2)])
>>> r = replay(m, {"abc": 3, "bb": 1})
>>> r.merge_counts, r.dead_merges, r.consumed_tokens, r.unreachable_tokens
((3, 3, 0), (3,), (3,), ())
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Set, Tuple, Union

from bpe_core.model import BPEModel
from bpe_core.analysis.lineage import static_reachability
from bpe_core.base.merge import MergeTable, merge_pair, merge_table, segment, shadowed_ranks
from bpe_core.types import BPELensError, Cancelled, Progress, Raw

ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]


@dataclass(frozen=True)
class ReplayResult:
    #: count of each merge's pair just before it is applied, by rank - 1
    merge_counts: Tuple[int, ...]
    dead_merges: Tuple[int, ...]
    #: token id -> occurrences in the corpus's final segmentation (word frequency weighted)
    token_counts: Dict[int, int]
    consumed_tokens: Tuple[int, ...]
    unreachable_tokens: Tuple[int, ...]
    late_merges: Tuple[int, ...]
    distinct_words: int
    total_words: int
    #: symbols before the first merge and after the last (word frequency weighted)
    tokens_before: int
    tokens_after: int
    #: corpus units (chars/bytes) with no token (no unk, no byte fallback), weighted
    unknown_units: int


class Segmenter:
    """A word's base symbols and its segmentation under the model.

    ``segment`` is what continuing training starts from: the raw tokens the model makes of a
    word (a unit the vocabulary lacks stays as that raw unit, so a trainer can add it).

    >>> m = BPEModel(unit="chars", tokens=["l", "o", "w", "lo", "low"], merges=[(0, 1), (3, 2)])
    >>> s = Segmenter(m)
    >>> s.segment("lowly"), s.segment_ids("low")
    (('low', 'l', 'y'), (4,))
    """

    CACHE_SIZE = 200_000

    def __init__(self, model: BPEModel) -> None:
        self.model = model
        self._vocab = model.vocab
        self._units = model.units
        self._whole = model.algorithm == "tiktoken" or model.ignore_merges
        self._cache: Dict[Tuple[str, bool], Tuple[Tuple[int, Raw], ...]] = {}
        self._table: Optional[MergeTable] = None  # built on the first word that needs merging

    def initial_raw(self, word: str, suffix: bool = True) -> List[Raw]:
        """The base symbols a trainer would start ``word`` from (the model's unit mapper,
        :attr:`~bpe_core.model.BPEModel.units`)."""
        return self._units.symbols(word, suffix)

    def initial_ids(self, word: str, suffix: bool = True) -> List[int]:
        """Ids of the base symbols; ``<0xNN>`` bytes for a missing char with byte fallback,
        ``-1`` for a unit the vocabulary has no token for (it never merges)."""
        out: List[int] = []
        for raw in self.initial_raw(word, suffix):
            tid = self._vocab.get(raw)
            if tid is None and self.model.byte_fallback and isinstance(raw, str):
                fb = [self._vocab.get(f"<0x{b:02X}>") for b in raw.encode()]
                if all(x is not None for x in fb):
                    out.extend(fb)  # type: ignore[arg-type]
                    continue
            out.append(-1 if tid is None else tid)
        return out

    def _pairs(self, word: str, suffix: bool) -> Tuple[Tuple[int, Raw], ...]:
        key = (word, suffix)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if len(self._cache) >= self.CACHE_SIZE:
            self._cache.clear()
        raws = self.initial_raw(word, suffix)
        whole = self._vocab.get(b"".join(raws) if self.model.unit == "bytes" else "".join(raws)) \
            if self._whole and raws else None  # type: ignore[arg-type]
        if whole is not None:
            hit = ((whole, self.model.tokens[whole]),)  # type: ignore[assignment]
        elif self.model.algorithm == "seed000-greedy" and not self.model.merges:
            from bpe_core.encoding.seed000_greedy import merge_greedy
            subs = merge_greedy([str(r) for r in raws], self.model.extras.get("freqs", {}))
            hit = tuple((self._vocab.get(t, -1), t) for t in subs)
        else:
            ids = self.initial_ids(word, suffix)
            parts: List[Tuple[int, Raw]] = list(zip(ids, raws)) if len(ids) == len(raws) else \
                [(i, self.model.tokens[i] if i >= 0 else "") for i in ids]  # type: ignore[misc]
            hit = tuple(self._merge_all(parts))
        self._cache[key] = hit
        return hit

    def _merge_all(self, parts: List[Tuple[int, Raw]]) -> List[Tuple[int, Raw]]:
        """The encoder's rule (:func:`~bpe_core.base.merge.segment`); raws of merged parts joined."""
        if self._table is None:
            self._table = merge_table(self.model.merges, self.model.merge_result)
        ids, starts = segment([i for i, _ in parts], self._table)
        if len(ids) == len(parts):
            return parts
        ends = starts[1:] + [len(parts)]
        join = b"".join if self.model.unit == "bytes" else "".join
        return [(t, parts[s][1] if e - s == 1 else join(r for _, r in parts[s:e]))  # type: ignore[arg-type]
                for t, s, e in zip(ids, starts, ends)]

    def segment_ids(self, word: str, suffix: bool = True) -> Tuple[int, ...]:
        return tuple(i for i, _ in self._pairs(word, suffix))

    def segment(self, word: str, suffix: bool = True) -> Tuple[Raw, ...]:
        return tuple(r for _, r in self._pairs(word, suffix))


def segment_words(model: BPEModel, words: Iterable[str]) -> Dict[str, Tuple[Raw, ...]]:
    """Each word's segmentation under ``model`` (raw tokens): a trainer continues from these."""
    seg = Segmenter(model)
    return {w: seg.segment(w) for w in words}


def count_words(model: BPEModel, lines: Iterable[str], cancel: CancelFn = None) -> Dict[Tuple[str, bool], int]:
    """(piece text, gets the end-of-word suffix) -> count, over the model's pipeline."""
    counts: Dict[Tuple[str, bool], int] = defaultdict(int)
    pipe = model.pipeline
    # pieces' suffix flags matter only for a separate end-of-word symbol the model adds itself;
    # a pipeline that decides the symbols decides that suffix too
    fast = pipe.split_words if pipe is not None and (not model.end_of_word_suffix or pipe.decides_symbols) \
        else None
    for n, line in enumerate(lines):
        if cancel is not None and n % 1000 == 0 and cancel():
            raise Cancelled()
        if pipe is None:
            if line:
                counts[(line, True)] += 1
        elif fast is not None:
            for w in fast(line):
                if isinstance(w, str):  # ints are specials: never merged
                    counts[(w, True)] += 1
        else:
            for p in pipe.split(line):
                if p.special is None:
                    counts[(p.text, p.suffix)] += 1
    return dict(counts)


def replay(model: BPEModel, lines_or_words: Union[Iterable[str], Mapping[str, int]],
           progress: ProgressFn = None, cancel: CancelFn = None) -> ReplayResult:
    """Apply ``model``'s merges to a corpus (lines of text, or a word -> count mapping)."""
    if isinstance(lines_or_words, Mapping):
        words = {(w, True): int(c) for w, c in lines_or_words.items()}
    else:
        words = count_words(model, lines_or_words, cancel)
    return replay_pieces(model, words, progress, cancel)


def replay_pieces(model: BPEModel, words: Mapping[Tuple[str, bool], int],
                  progress: ProgressFn = None, cancel: CancelFn = None,
                  made: Optional[List[int]] = None) -> ReplayResult:
    """:func:`replay` on pieces already counted by :func:`count_words` (several files counted
    one by one, then merged in order, replay as their concatenation). ``made``, when given, gets
    each rank's number of merges actually made (weighted; overlaps counted once, as the trainer)."""
    if not model.merges and model.algorithm == "seed000-greedy":
        raise BPELensError("this seed-000 vocabulary has no merge list (its files keep only frequencies); "
                           "replay needs the merges (train it here or open its native file)")
    if not words:
        raise BPELensError("the corpus has no words for this vocabulary's pre-tokenizer")
    seg = Segmenter(model)
    symbols: List[List[int]] = []
    freqs: List[int] = []
    unknown = 0
    for (w, suffix), c in words.items():
        ids = seg.initial_ids(w, suffix)
        unknown += c * ids.count(-1)
        symbols.append(ids)
        freqs.append(c)
    before = sum(f * len(s) for s, f in zip(symbols, freqs))
    counts = _replay(model, symbols, freqs, progress, cancel, made)
    final: Dict[int, int] = defaultdict(int)
    for s, f in zip(symbols, freqs):
        for t in s:
            if t >= 0:
                final[t] += f
    reachable, late = static_reachability(model)
    made = {model.merge_result[r] for r, c in enumerate(counts) if c > 0}
    unreachable = tuple(i for i, t in enumerate(model.tokens)
                        if t is not None and i not in reachable and i not in model.special_ids)
    return ReplayResult(
        merge_counts=tuple(counts), dead_merges=tuple(r + 1 for r, c in enumerate(counts) if c == 0),
        token_counts=dict(final), consumed_tokens=tuple(sorted(t for t in made if not final.get(t))),
        unreachable_tokens=unreachable, late_merges=tuple(late), distinct_words=len(symbols),
        total_words=sum(freqs), tokens_before=before, tokens_after=sum(final.values()) + unknown,
        unknown_units=unknown)


def _replay(model: BPEModel, symbols: List[List[int]], freqs: List[int],
            progress: ProgressFn, cancel: CancelFn, made: Optional[List[int]] = None) -> List[int]:
    # Pairs are ints (left * n + right): no tuples to build and hash. A unit without a token
    # (-1) becomes id ``unk`` and is never paired. The pair -> words index is never pruned: a
    # word that lost a pair is skipped when that pair's merge comes (merge_pair finds nothing).
    n = len(model.tokens) + 1
    unk = n - 1
    count: Dict[int, int] = defaultdict(int)
    index: Dict[int, Set[int]] = defaultdict(set)
    for w, f in enumerate(freqs):
        s = symbols[w] = [unk if t < 0 else t for t in symbols[w]]
        for x, y in zip(s, s[1:]):
            if x != unk and y != unk:
                count[x * n + y] += f
                index[x * n + y].add(w)
    results = model.merge_result
    total = len(model.merges)
    shadowed = shadowed_ranks(model.merges)  # never fire (a later merge repeats the pair): count 0
    out: List[int] = []
    step = max(1, total // 200)
    for r, (a, b) in enumerate(model.merges):
        if r % step == 0:
            if cancel is not None and cancel():
                raise Cancelled()
            if progress is not None:
                progress(Progress(r, total, "merges"))
        if made is not None:
            made.append(0)
        if r in shadowed:
            out.append(0)
            continue
        key = a * n + b
        out.append(count.get(key, 0))
        where = index.pop(key, None)
        if not where:
            continue
        new = results[r]
        for w in where:
            old = symbols[w]
            merged = merge_pair(old, a, b, new)
            if merged is None:
                continue
            f = freqs[w]
            if made is not None:
                made[r] += f * (len(old) - len(merged))
            for x, y in zip(old, old[1:]):
                if x != unk and y != unk:
                    count[x * n + y] -= f
            for x, y in zip(merged, merged[1:]):
                if x != unk and y != unk:
                    count[x * n + y] += f
                    if x == new or y == new:  # only pairs with the new token are new here
                        index[x * n + y].add(w)
            symbols[w] = merged
        if not count.get(key):  # all merged (overlaps included): drop the entry
            count.pop(key, None)
    if progress is not None:
        progress(Progress(total, total, "merges"))
    for s in symbols:  # back to -1 for "no token"
        for k, t in enumerate(s):
            if t == unk:
                s[k] = -1
    return out
