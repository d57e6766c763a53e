"""The curves' rows and texts: evaluation files, a curve row, a run's curves, their CSV, and one sample's rows
from the groups' token totals (each value from :mod:`bpe_core.analysis.measures`). Its face is
:mod:`bpe_core.analysis.curves` (with the functions that compute the curves); the engine and the encoding
path build on this module, so none of them imports the other's face.
"""
from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from bpe_core.types import BPELensError

#: every measure a curve can show, in the order pickers list them
MEASURES: Tuple[str, ...] = ("bytes_per_token", "tokens_per_100_chars", "tokens_per_word", "renyi_efficiency",
                             "parity", "parity_gini", "used", "dead", "under_used")
#: how each measure is named to a reader (picker entries, CSV headers stay the keys above)
MEASURE_LABELS: Dict[str, str] = {
    "bytes_per_token": "bytes per token", "tokens_per_100_chars": "tokens per 100 characters",
    "tokens_per_word": "tokens per word", "renyi_efficiency": "Rényi efficiency (α = 2.5)",
    "parity": "parity (tokens vs reference language)", "parity_gini": "Gini of per-language cost",
    "used": "vocabulary used", "dead": "vocabulary dead", "under_used": "vocabulary under-used"}
ALL = "all"
CSV_HEADER = ("run", "merge", "vocab_size", "group", "measure", "value")


@dataclass(frozen=True)
class EvalText:
    """One evaluation text: ``name`` (a file's stem: the language of a parallel text) and its contents."""

    name: str
    text: str


def read_eval_files(paths: Sequence["str | os.PathLike[str]"]) -> Tuple[EvalText, ...]:
    """The evaluation texts of ``paths`` (UTF-8 files; a folder gives its ``.txt`` files, sorted), as the files
    hold them (a BOM and CRLF lines kept: each model reads them as its own corpus reader would,
    :func:`as_read_by`). Names are the files' stems; two files with the same stem, an unreadable, binary, not
    UTF-8 or empty file are one-line errors, worded as the corpus readers word them
    (:mod:`bpe_core.base.file_errors`)."""
    from bpe_core.base.file_errors import not_text_message, not_utf8, read_error
    from bpe_core.corpus.source import BINARY_SNIFF_BYTES
    files: List[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            inside = sorted(q for q in p.iterdir() if q.suffix.lower() == ".txt" and not q.name.startswith("."))
            if not inside:
                raise BPELensError(f"{p.name}: the folder holds no .txt evaluation files")
            files.extend(inside)
        else:
            files.append(p)
    if not files:
        raise BPELensError("no evaluation files given")
    out: List[EvalText] = []
    seen: Dict[str, Path] = {}
    for p in files:
        if p.stem in seen:
            raise BPELensError(f"two evaluation files are named {p.stem!r}: {seen[p.stem]} and {p}")
        seen[p.stem] = p
        try:
            data = p.read_bytes()
        except OSError as e:
            raise read_error(p, e) from None  # the corpus readers' lines: one wording per fault
        problem = not_text_message(p.name, data[:BINARY_SNIFF_BYTES], p)
        if problem is not None:
            raise BPELensError(problem)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BPELensError(not_utf8(p.name, e.start, f" (0x{data[e.start]:02X})")) from None
        if not text.strip():
            raise BPELensError(f"{p}: the evaluation file is empty")
        out.append(EvalText(p.stem, text))
    return tuple(out)


def as_read_by(model, texts: Sequence[EvalText]) -> Tuple[EvalText, ...]:
    """``texts`` as ``model``'s corpus reader reads a file (:func:`~bpe_core.corpus.counting.as_corpus_text`: the
    BOM cut and CRLF/CR lines as ``"\\n"``, unless its settings read files as tokenizers does), so a file gives
    a model the same text as evaluation text as it gave its run as a corpus: the Measures chart's figures are
    those of the run's own text (the Variants tab, the status line)."""
    from bpe_core.corpus.counting import as_corpus_text
    raw = (getattr(model, "config", None) or {}).get("file_decoding") == "tokenizers"
    return tuple(t if raw else EvalText(t.name, as_corpus_text(t.text)) for t in texts)


@dataclass(frozen=True)
class CurveRow:
    """One value: ``measure`` of ``group`` after ``merge`` merges (a vocabulary of ``vocab_size`` tokens)."""

    merge: int
    vocab_size: int
    group: str
    measure: str
    value: float


@dataclass(frozen=True)
class Curves:
    """A run's curves on one evaluation text: rows in merge order (then group, then measure)."""

    run: str
    every: int
    texts: Tuple[str, ...]
    rows: Tuple[CurveRow, ...]
    #: the language parity is measured against (English if a text is, else the first, unless chosen); None for one file
    reference: Optional[str] = None
    #: where the run's merge index starts counting (a continuation: its parent's merges are included)
    offset: int = 0
    notes: Tuple[str, ...] = field(default_factory=tuple)

    def measures(self) -> Tuple[str, ...]:
        have = {r.measure for r in self.rows}
        return tuple(m for m in MEASURES if m in have)

    def groups(self, measure: Optional[str] = None) -> Tuple[str, ...]:
        out: Dict[str, None] = {}
        for r in self.rows:
            if measure is None or r.measure == measure:
                out.setdefault(r.group, None)
        return tuple(out)

    def series(self, measure: str, group: str = ALL) -> List[Tuple[int, float]]:
        """(merge, value) of one measure and group, in merge order."""
        return [(r.merge, r.value) for r in self.rows if r.measure == measure and r.group == group]

    def value_at(self, measure: str, merge: int, group: str = ALL) -> Optional[float]:
        """The value at the last sampled merge at or before ``merge`` (None before the first)."""
        best: Optional[float] = None
        for m, v in self.series(measure, group):
            if m > merge:
                break
            best = v
        return best


def curves_csv(curves: Iterable[Curves]) -> str:
    """The rows of one or more runs' curves as CSV text (:data:`CSV_HEADER`), long format."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for c in curves:
        for r in c.rows:
            w.writerow((c.run, r.merge, r.vocab_size, r.group, r.measure, repr(float(r.value))))
    return buf.getvalue()


ProgressFn = Optional[Callable[[object], None]]
CancelFn = Optional[Callable[[], bool]]


def sample_merges(upto: int, every: int, start: int = 0) -> List[int]:
    """The merges a curve samples: ``start`` (0), then every multiple of ``every`` up to ``upto``, and ``upto``."""
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise BPELensError(f"every must be a whole number of merges >= 1, not {every!r}")
    out = [start] + [m for m in range(every * (start // every + 1), upto + 1, every)]
    if out[-1] != upto:
        out.append(upto)
    return out


def check_texts(texts: Sequence[EvalText], reference: Optional[str]) -> Optional[str]:
    """The reference language for parity: ``reference`` when named, else English (a text named "eng", else the
    first whose name starts with "en") when one of the texts is, else the first text; None for one text. Bad
    input is one line."""
    if not texts:
        raise BPELensError("no evaluation text given")
    names = [t.name for t in texts]
    if len(set(names)) != len(names):
        raise BPELensError(f"two evaluation texts share a name: {names}")
    if reference is not None and reference not in names:
        raise BPELensError(f"the reference language {reference!r} is not among the evaluation texts {names}")
    if len(texts) < 2:
        return None
    if reference is not None:
        return reference
    english = [n for n in names if n.lower() == "eng"] or [n for n in names if n.lower().startswith("en")]
    return (english or names)[0]


@dataclass
class GroupState:
    """What one group's values are computed from at a sample: its tokens, its size and its Rényi efficiency."""

    tokens: int
    size: "object"  # measures.TextSize
    renyi: float


def sample_rows(merge: int, vocab_size: int, groups: Mapping[str, GroupState], all_counts: Mapping[int, int],
                files: Sequence[str], reference: Optional[str]) -> List[CurveRow]:
    """The rows of one sample, each value from :mod:`bpe_core.analysis.measures` (the measures' one home).

    ``groups`` maps "all", "file:NAME" and "script:NAME" to their state; ``all_counts`` is the whole text's
    token table (for used/dead/under-used of the ``vocab_size`` tokens of the vocabulary at ``merge``)."""
    from bpe_core.analysis import measures as ms

    rows: List[CurveRow] = []

    def row(group: str, measure: str, value: float) -> None:
        rows.append(CurveRow(merge, vocab_size, group, measure, float(value)))

    for name, g in groups.items():
        if g.tokens <= 0:
            continue
        total = {0: g.tokens}  # the per-text measures depend on the total only
        row(name, "bytes_per_token", ms.bytes_per_token(total, g.size))
        if g.size.chars:
            row(name, "tokens_per_100_chars", ms.tokens_per_100_chars(total, g.size))
        if g.size.words:
            row(name, "tokens_per_word", ms.tokens_per_word(total, g.size))
        row(name, "renyi_efficiency", g.renyi)
    if reference is not None:
        costs = {f: groups["file:" + f].tokens for f in files}
        if costs[reference] > 0:
            for f, p in ms.parity(costs, reference).items():
                row("file:" + f, "parity", p)
        if sum(costs.values()) > 0:
            row(ALL, "parity_gini", ms.parity_gini(costs))
    # an emitted id outside the vocabulary (a unit without a token) makes the size at least the tokens used
    size = vocab_size if vocab_size >= len(all_counts) else max(vocab_size, sum(1 for n in all_counts.values() if n))
    use = ms.vocabulary_use(all_counts, size)
    row(ALL, "used", use.used)
    row(ALL, "dead", use.dead)
    row(ALL, "under_used", use.under_used)
    order = {m: i for i, m in enumerate(MEASURES)}
    place = {g: i for i, g in enumerate([ALL] + [g for g in groups if g != ALL])}
    rows.sort(key=lambda r: (place[r.group], order[r.measure]))
    return rows


def vocab_size_at(model, merge: int) -> int:
    """The vocabulary's size after ``merge`` merges: the tokens no merge makes (base units, specials), the
    tokens made by the first ``merge`` merges, less those a PickyBPE removal took out by then and no later
    merge (up to ``merge``) made again."""
    made = model.merge_result
    by_merge = set(made)
    alive = {i for i, t in enumerate(model.tokens) if t is not None and i not in by_merge}
    removals: Dict[int, List[int]] = {}
    for rank, token_id, _split in getattr(model, "removals", ()) or ():
        removals.setdefault(rank, []).append(token_id)
    for r in range(1, merge + 1):
        alive.add(made[r - 1])
        for t in removals.get(r, ()):
            alive.discard(t)
    return len(alive)
