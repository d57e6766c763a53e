"""The biography of every token of a saved vocabulary over a reference corpus (issue 27).

For each token: its *rank* (the 1-based merge that made it first, its birth), its *birth count* (the
count of that merge's pair on the corpus just before the merge applies, when the merges are replayed in
rank order over the corpus: :func:`~bpe_core.analysis.replay.replay_pieces`), how often the encoder
*emits* it on the corpus, its *residue ratio* (emitted / birth count), its *IoS*, whether some text can
reach it, and its length in UTF-8 bytes.

**Residue ratio.** LiteToken (Sun et al. 2026, arXiv 2602.04706) calls a token an *intermediate merge
residue* when it is frequent while merges are learnt but rarely emitted in the end: its final/intermediate
ratio F1 / (F1 + F2) (F1: final occurrences, F2: occurrences consumed by later merges) is low. For a token
made by one merge, F1 + F2 is the number of times that merge fires, which is its birth count (overlapping
pairs such as ``a a a`` aside), so emitted / birth count is that ratio. It can pass 1 when another merge
makes the same token again.

**IoS** (Intersection over Self, PickyBPE, Chizhov et al. 2024): for a merge (x1, x2) made ``m`` times,
IoS(xi) = m / f(xi), with f(xi) the frequency of xi in the corpus's segmentation just before the merge.
The replay counts ``m`` as the reference trainer does (pchizhov/picky_bpe ``bpe_trainer.py``:
``actual_freq``, overlaps once) and tracks every token's frequency along the merges; for x1 == x2 it follows
the reference exactly: the token's frequency drops by 2m and IoS = m / (what is left + m) = m / (f - m),
as :mod:`bpe_core.training.picky` does. A token's IoS is the largest over the merges it is a part of whose
part occurs on the corpus (None: no such merge). PickyBPE removes a token whose IoS passes its threshold
(0.9 in the paper): a high IoS says the token mostly lives inside one longer token.

**Status** (the first that holds): ``special``; ``base`` (a byte/character no merge makes);
``unreachable`` (no text can produce it through the merges:
:func:`~bpe_core.analysis.lineage.static_reachability`, and the encoder does not emit it on the corpus: an
encoder that takes the lowest rank present can still fire a late merge); ``never emitted`` (the corpus
never gets it from the encoder); ``likely residue`` (residue ratio below :data:`RESIDUE_RATIO` = 0.1 while its birth count is
at least :data:`RESIDUE_MIN_BIRTH` = 100: it was formed often enough to judge, and 9 times in 10 a later
merge consumed it: LiteToken's low final/intermediate ratio, with a floor so that a token seen a handful
of times is not judged on noise); ``ok``.

``n_bytes`` is the UTF-8 length of the token as the vocabulary stores it: its bytes for a byte-level
vocabulary (GPT-2, tiktoken); in a character-level one, markers such as ``▁`` or ``</w>`` count too.

Emitted counts come from the replay's final segmentation when the merges apply in rank order (training
order), which is the encoder's output; otherwise (tiktoken's whole-piece rule, late merges, PickyBPE
events, ``ignore_merges``) from the encoder itself (:class:`~bpe_core.analysis.replay.Segmenter`).
The corpus is cut into pieces line by line (as every corpus reader here), so the counts equal tiktoken's
``encode_ordinary`` run on each line.

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc"], merges=[(0, 1), (3, 2)])
>>> bio = token_biography(m, {"abc": 3, "ab": 1})
>>> [(t.token, t.rank, t.birth_count, t.emitted, t.residue_ratio, t.ios, t.status) for t in bio.tokens]
[('a', None, 0, 0, None, 1.0, 'base'), ('b', None, 0, 0, None, 1.0, 'base'), ('c', None, 0, 0, None, 1.0, 'base'), ('ab', 1, 4, 1, 0.25, 0.75, 'ok'), ('abc', 2, 3, 3, 1.0, None, 'ok')]
"""
from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from bpe_core.analysis.lineage import base_symbol_ids, static_reachability
from bpe_core.analysis.replay import ReplayResult, Segmenter, count_words, replay_pieces
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, Progress

ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]
Pieces = Mapping[Tuple[str, bool], int]

STATUSES = ("ok", "likely residue", "never emitted", "unreachable", "base", "special")
RESIDUE_RATIO = 0.1
RESIDUE_MIN_BIRTH = 100
CSV_COLUMNS = ("id", "token", "rank", "birth_count", "emitted", "residue_ratio", "ios", "reachable",
               "n_bytes", "status")


@dataclass(frozen=True)
class TokenLife:
    """One token's biography (see the module doc for each field)."""

    token_id: int
    token: str
    rank: Optional[int]
    birth_count: int
    emitted: int
    residue_ratio: Optional[float]
    ios: Optional[float]
    reachable: bool
    n_bytes: int
    status: str


FILTERS: Dict[str, Callable[[TokenLife], bool]] = {
    "all": lambda t: True,
    "likely residues": lambda t: t.status == "likely residue",
    "never emitted": lambda t: t.status == "never emitted",
    "unreachable": lambda t: t.status == "unreachable",
}


@dataclass(frozen=True)
class Biography:
    tokens: Tuple[TokenLife, ...]
    #: UTF-8 bytes of the pieces the corpus was cut into (what the tokens cover)
    corpus_bytes: int
    #: tokens the encoder emits on the corpus (the sum of ``emitted``)
    corpus_tokens: int
    notes: Tuple[str, ...]

    def status_counts(self) -> Dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for t in self.tokens:
            out[t.status] += 1
        return out


def token_biography(model: BPEModel, paths_or_lines: Union[Sequence[os.PathLike], Iterable[str], Mapping[str, int]],
                    *, progress: ProgressFn = None, cancel: CancelFn = None, errors: str = "strict",
                    workers: Optional[int] = None) -> Biography:
    """Every token's biography over a corpus: files (``Path`` objects, or strings that all name existing
    files and hold no line end; read one after the other), lines of text (``str``), or a word -> count
    mapping. Progress: the corpus in bytes, then the merges."""
    pieces = corpus_pieces(model, paths_or_lines, progress=progress, cancel=cancel, errors=errors, workers=workers)
    return biography_of_pieces(model, pieces, progress=progress, cancel=cancel)


def corpus_pieces(model: BPEModel, source, *, progress: ProgressFn = None, cancel: CancelFn = None,
                  errors: str = "strict", workers: Optional[int] = None) -> Dict[Tuple[str, bool], int]:
    """The corpus as (piece, suffix) -> count under the model's pipeline."""
    if isinstance(source, Mapping):
        return {(w, True): int(c) for w, c in source.items()}
    if isinstance(source, (str, bytes)):
        raise BPELensError("give the corpus as files (paths), lines, or a word -> count mapping, not one string")
    items = list(source)
    if items and all(isinstance(p, str) and "\n" not in p and os.path.isfile(p) for p in items):
        items = [Path(p) for p in items]  # file names given as strings (a line of text ends with "\n")
    if items and all(isinstance(p, os.PathLike) for p in items):
        from bpe_core.analysis.biography_count import count_pieces
        return count_pieces(model, [Path(p) for p in items], progress=progress, cancel=cancel, errors=errors,
                            workers=workers)
    if not all(isinstance(x, str) for x in items):
        raise BPELensError("the corpus mixes paths and lines of text")
    return count_words(model, items, cancel)


def biography_of_pieces(model: BPEModel, pieces: Pieces, *, progress: ProgressFn = None,
                        cancel: CancelFn = None) -> Biography:
    """The biography for a corpus already cut into pieces (see :func:`corpus_pieces`)."""
    made: List[int] = []
    result = replay_pieces(model, pieces, progress, cancel, made)
    notes: List[str] = []
    if replay_is_encoder(model, result):
        emitted = result.token_counts
    else:
        emitted = encoder_counts(model, pieces)
        notes.append("emitted counts from the encoder (merges out of training order or a whole-piece rule)")
    ios = intersection_over_self(model, result, made)
    reach, _late = static_reachability(model)
    rows = life_rows(model, result, emitted, ios, reach)
    if result.unknown_units:
        notes.append(f"{result.unknown_units} corpus units have no token (not counted as emitted)")
    size = sum(len(w.encode("utf-8", "surrogatepass")) * c for (w, _s), c in pieces.items())
    return Biography(rows, size, sum(emitted.get(t.token_id, 0) for t in rows), tuple(notes))


def replay_is_encoder(model: BPEModel, result: ReplayResult) -> bool:
    """True when the replay's final segmentation is what the encoder emits: merges applied in rank
    order with no whole-piece rule, no removals and no late merge."""
    return (model.algorithm not in ("tiktoken", "picky", "seed000-greedy") and not model.ignore_merges
            and not result.late_merges)


def encoder_counts(model: BPEModel, pieces: Pieces) -> Dict[int, int]:
    """token id -> occurrences when every piece is encoded (word frequency weighted)."""
    seg = Segmenter(model)
    out: Dict[int, int] = {}
    for (word, suffix), n in pieces.items():
        for t in seg.segment_ids(word, suffix):
            if t >= 0:
                out[t] = out.get(t, 0) + n
    return out


def intersection_over_self(model: BPEModel, result: ReplayResult, made: Sequence[int]) -> Dict[int, float]:
    """token id -> its largest IoS over the merges it is a part of (module doc). The frequencies
    before the first merge are recovered from the end: final = initial + made by merges - consumed."""
    freq: Dict[int, int] = dict(result.token_counts)
    for (a, b), new, m in zip(model.merges, model.merge_result, made):
        freq[new] = freq.get(new, 0) - m
        freq[a] = freq.get(a, 0) + m
        freq[b] = freq.get(b, 0) + m
    best: Dict[int, float] = {}
    for (a, b), new, m in zip(model.merges, model.merge_result, made):
        for part in (a,) if a == b else (a, b):
            f = freq.get(part, 0)
            base = f - m if a == b else f
            if base > 0:
                v = m / base
                if v > best.get(part, -1.0):
                    best[part] = v
        freq[a] = freq.get(a, 0) - m
        freq[b] = freq.get(b, 0) - m
        freq[new] = freq.get(new, 0) + m
    return best


def life_rows(model: BPEModel, result: ReplayResult, emitted: Mapping[int, int], ios: Mapping[int, float],
              reach) -> Tuple[TokenLife, ...]:
    """Every token's row, by id."""
    specials = model.special_ids
    made_by = model.created_by
    base = base_symbol_ids(model)
    rows: List[TokenLife] = []
    for tid, raw in enumerate(model.tokens):
        if raw is None:
            continue
        rank = None if tid in specials else made_by.get(tid)
        birth = result.merge_counts[rank - 1] if rank else 0
        used = emitted.get(tid, 0)
        ratio = used / birth if birth else None
        reachable = tid in reach or tid in specials or used > 0  # an encoder with late merges reaches more
        if tid in specials:
            status = "special"
        elif rank is None and tid in base:
            status = "base"
        elif not reachable:
            status = "unreachable"
        elif not used:
            status = "never emitted"
        elif ratio is not None and ratio < RESIDUE_RATIO and birth >= RESIDUE_MIN_BIRTH:
            status = "likely residue"
        else:
            status = "ok"
        n_bytes = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
        rows.append(TokenLife(tid, model.display(tid), rank, birth, used, ratio, ios.get(tid), reachable,
                              n_bytes, status))
    return tuple(rows)


def select(bio: Biography, name: str = "all", sort: str = "token_id", *, reverse: bool = False) -> List[TokenLife]:
    """The rows one of :data:`FILTERS` keeps, ordered by a :class:`TokenLife` field (ties by id); rows
    without a value (None) come last either way.

    >>> bio = token_biography(BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)]), {"ab": 2, "a": 1})
    >>> [t.token for t in select(bio, "all", "emitted", reverse=True)], [t.token for t in select(bio, "all", "ios")]
    (['ab', 'a', 'b'], ['a', 'b', 'ab'])
    """
    if name not in FILTERS:
        raise BPELensError(f"filter by one of {', '.join(FILTERS)}, not {name!r}")
    if sort not in TokenLife.__dataclass_fields__:
        raise BPELensError(f"sort by one of {', '.join(TokenLife.__dataclass_fields__)}, not {sort!r}")
    keep = FILTERS[name]
    rows = [t for t in bio.tokens if keep(t)]
    have = sorted((t for t in rows if getattr(t, sort) is not None), key=lambda t: t.token_id)
    have.sort(key=lambda t: getattr(t, sort), reverse=reverse)  # stable: ties stay by id
    return have + [t for t in rows if getattr(t, sort) is None]


def biography_csv(bio: Biography, rows: Optional[Sequence[TokenLife]] = None) -> str:
    """The table (``rows``, default every token) as CSV text (UTF-8; tokens as displayed, GPT-2 glyphs for
    byte-level vocabularies; ratios in full precision, empty when there is none)."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    for t in bio.tokens if rows is None else rows:
        out.writerow([t.token_id, t.token, "" if t.rank is None else t.rank, t.birth_count, t.emitted,
                      "" if t.residue_ratio is None else repr(t.residue_ratio),
                      "" if t.ios is None else repr(t.ios), int(t.reachable), t.n_bytes, t.status])
    return buf.getvalue()
