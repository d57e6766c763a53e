"""BPE-dropout (Provilkov et al. 2020): encode text with merges skipped at random, as ``tokenizers`` does.

Hugging Face ``tokenizers``' ``BPE(dropout=p)`` merges a word with ``Word::merge_all`` (``word.rs``): a heap of
candidate merges ordered by (rank, position). Each entry popped from the heap first draws a number; with
probability ``p`` the entry is set aside, and the heap moves on to the next one. The first entry that is *not*
set aside puts every set-aside entry back into the heap, and only then is it checked (a stale entry, whose
symbols changed, is dropped) and merged. So a skipped merge is tried again after the next kept entry, and a
word is done when the heap is empty, the entries set aside since the last kept one being lost. This module
does exactly that, stale entries drawing too (their draw decides whether the set-aside entries return).

The draw is ``rand``'s ``f32``: 24 random bits, ``k / 2**24 < p`` with ``p`` rounded to ``f32``; here ``k``
comes from ``random.Random(seed).getrandbits(24)``, so a seed gives the same samples on every machine. p = 0
is the plain encoding (:class:`~bpe_core.encoding.encoder.Encoder`, as ``tokenizers`` uses its cached path
there), p = 1 gives the units. As in ``tokenizers``, a dropout encoding never takes a whole word from the
vocabulary (``ignore_merges`` applies without dropout only). A tiktoken file drops merges of its recovered
merge list the same way (tiktoken has no dropout of its own).

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc"], merges=[(0, 1), (3, 2)])
>>> [t.raw for t in DropoutEncoder(m, 0.0, seed=1).encode("abc").tokens]
['abc']
>>> [t.raw for t in DropoutEncoder(m, 1.0, seed=1).encode("abc").tokens]
['a', 'b', 'c']
>>> counts = sample_words(m, ["abc"], 0.5, seed=7, n=1000)["abc"]
>>> sorted([m.tokens[i] for i in seg] for seg in counts)
[['a', 'b', 'c'], ['ab', 'c'], ['abc']]
"""
from __future__ import annotations

import heapq
import math
import random
import struct
from collections import Counter
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from bpe_core.base.merge import MergeTable, merge_table
from bpe_core.encoding.encoder import Encoder, WordResult
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError

#: a segmentation of one word: its token ids in order
Segmentation = Tuple[int, ...]
_NONE = (0, -1)


def check_p(p: float) -> float:
    """``p`` as a float in [0, 1], else BPELensError with a one-line reason."""
    try:
        value = float(p)
    except (TypeError, ValueError):
        raise BPELensError(f"dropout must be a number between 0 and 1, not {p!r}") from None
    if not 0.0 <= value <= 1.0:  # NaN fails too
        raise BPELensError(f"dropout must be between 0 and 1, not {p}")
    return value


def skip_threshold(p: float) -> int:
    """The ``k`` below which a 24-bit draw skips a merge: ``k / 2**24 < f32(p)`` (``rand``'s ``f32``).

    >>> skip_threshold(0.0), skip_threshold(1.0), skip_threshold(0.5)
    (0, 16777216, 8388608)
    """
    as_f32 = struct.unpack("f", struct.pack("f", check_p(p)))[0]
    return math.ceil(as_f32 * (1 << 24))


def dropout_segment(ids: Sequence[int], table: MergeTable, skip: Callable[[], bool]) -> Tuple[List[int], List[int]]:
    """``tokenizers``' ``Word::merge_all`` with dropout: the final ids and the index in ``ids`` where each starts.

    ``skip()`` is called once per entry popped from the heap (stale ones too) and says whether to set it aside.

    >>> dropout_segment([0, 1, 2], {(0, 1): (0, 3), (3, 2): (1, 4)}, lambda: False)
    ([4], [0])
    >>> dropout_segment([0, 1, 2], {(0, 1): (0, 3), (1, 2): (1, 4)}, iter([True, False, False]).__next__)
    ([0, 4], [0, 1])
    """
    n = len(ids)
    get = table.get
    heap = [(hit[0], i, hit[1]) for i in range(n - 1) if (hit := get((ids[i], ids[i + 1]))) is not None]
    if not heap:
        return list(ids), list(range(n))
    heapq.heapify(heap)
    cur = list(ids)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    alive = [True] * n
    aside: List[Tuple[int, int, int]] = []
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        top = pop(heap)
        if skip():
            aside.append(top)
            continue
        for entry in aside:  # the kept entry brings the set-aside ones back first
            push(heap, entry)
        aside.clear()
        _, i, new = top
        j = nxt[i]
        if not alive[i] or j >= n or get((cur[i], cur[j]), _NONE)[1] != new:
            continue  # stale: the left symbol is gone, it is the last, or its pair changed
        cur[i] = new
        alive[j] = False
        k = nxt[i] = nxt[j]
        if k < n:
            prv[k] = i
        a = prv[i]
        if a >= 0 and (hit := get((cur[a], new))) is not None:
            push(heap, (hit[0], a, hit[1]))
        if k < n and (hit := get((new, cur[k]))) is not None:
            push(heap, (hit[0], i, hit[1]))
    starts = [s for s in range(n) if alive[s]]
    return [cur[s] for s in starts], starts


def model_merge_table(model: BPEModel, encoder: Optional[Encoder] = None) -> MergeTable:
    """The table dropout merges by: the encoder's (``merges`` models) or the recovered merges of a tiktoken file
    (the encoder's merges limit applies). BPELensError for a vocabulary whose encoding is not merges by rank
    (seed 000's greedy, PickyBPE's events)."""
    if model.algorithm == "merges":
        return (encoder or Encoder(model)).merge_table
    if model.algorithm == "tiktoken":
        limit = None if encoder is None else encoder.merges_limit
        return merge_table(model.merges[:limit], model.merge_result[:limit])
    raise BPELensError(f"BPE-dropout needs a vocabulary that encodes by ranked merges; this one encodes by "
                       f"{model.algorithm!r}, where skipping a merge has no meaning")


class DropoutEncoder(Encoder):
    """An :class:`Encoder` that skips each merge with probability ``p``; draws come from ``random.Random(seed)``.

    Each call to :meth:`encode` draws on from where the last one stopped: a new encoder with the same seed
    gives the same samples again; with ``repeat`` each call starts from the seed again (the same text, the same
    sample: what the encode pane shows). :meth:`encode` returns the same records as the plain encoder, spans
    included. ``merges_limit`` encodes as of merge k, as the plain encoder's.
    """

    def __init__(self, model: BPEModel, p: float, seed: Optional[int] = None, *, repeat: bool = False,
                 merges_limit: Optional[int] = None) -> None:
        self.p = check_p(p)
        if model.algorithm not in ("merges", "tiktoken"):
            model_merge_table(model)  # raises with the reason
        super().__init__(model, merges_limit=merges_limit)
        self.seed, self.repeat = seed, repeat
        self.rng = random.Random(seed)
        self._table = model_merge_table(model, self) if self.p > 0 else {}
        bits, limit = self.rng.getrandbits, skip_threshold(self.p)
        self._skip = lambda: bits(24) < limit

    def _encode(self, text: str):
        if self.repeat:
            self.rng.seed(self.seed)
        return super()._encode(text)

    def _word_spans(self, word: str, suffix: bool) -> WordResult:
        if self.p == 0:
            return super()._word_spans(word, suffix)
        return self.sample_word(word, suffix)

    def _ids(self, text: str) -> List[int]:
        return self._encode(text).ids if self.p > 0 else super()._ids(text)

    def sample_word(self, word: str, suffix: bool = True) -> WordResult:
        """One dropout segmentation of one word (a pipeline piece): ids, their unit spans, dropped spans."""
        ids, spans, drops = self._symbols(word, suffix)
        if len(ids) < 2:
            return ids, spans, drops
        merged, starts = dropout_segment(ids, self._table, self._skip)
        ends = starts[1:] + [len(ids)]
        return merged, [(spans[s][0], spans[e - 1][1]) for s, e in zip(starts, ends)], drops


def text_words(model: BPEModel, text: str) -> List[str]:
    """The distinct words (pipeline pieces, specials left out) of ``text``, in order of first appearance."""
    seen: Dict[str, None] = {}
    for piece in Encoder(model).pieces(text):
        if piece.special is None:
            seen.setdefault(piece.text, None)
    return list(seen)


def sample_words(model: BPEModel, words: Iterable[str], p: float, seed: Optional[int] = None, n: int = 100,
                 progress: Optional[Callable[[int, int], None]] = None, *,
                 merges_limit: Optional[int] = None) -> Dict[str, Counter]:
    """For each word (a pipeline piece), how often each segmentation (a tuple of ids) came up in ``n`` samples.

    One ``random.Random(seed)`` draws for all words in the given order. ``progress(done, total)`` is called after
    each word (a worker reports it; raising there stops the sampling).
    """
    if n < 1:
        raise BPELensError(f"the number of samples must be at least 1, not {n}")
    encoder = DropoutEncoder(model, p, seed, merges_limit=merges_limit)
    words = list(dict.fromkeys(words))
    out: Dict[str, Counter] = {}
    for done, word in enumerate(words, 1):
        sample = encoder.sample_word if encoder.p > 0 else encoder._word_spans
        out[word] = Counter(tuple(sample(word, True)[0]) for _ in range(n))
        if progress is not None:
            progress(done, len(words))
    return out


def shares(counts: Counter) -> List[Tuple[Segmentation, int, float]]:
    """(segmentation, count, share) by falling share, ties by segmentation: what a distribution table lists.

    >>> shares(Counter({(1,): 3, (0, 2): 1}))
    [((1,), 3, 0.75), ((0, 2), 1, 0.25)]
    """
    total = sum(counts.values())
    return [(seg, c, c / total) for seg, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
