"""Curves over vocabulary size from one run: every k merges, the measures of an evaluation text encoded by
the run's tokenizer at that merge (every prefix of a merge list is a tokenizer).

The evaluation text may differ from the training text: one or more files (one per language for a parallel
text, named by the file's stem). At each sampled merge ``m`` (0, k, 2k, ..., and the last merge) a
:class:`CurveRow` holds one value per measure and group:

* group ``"all"``: every file together; ``"file:NAME"``: one file (language); ``"script:NAME"``: the words of
  one main script (:func:`~bpe_core.analysis.scripts.main_scripts`) over all files;
* measures (:data:`MEASURES`; each defined once, in :mod:`bpe_core.analysis.measures`): ``bytes_per_token``,
  ``tokens_per_100_chars``, ``tokens_per_word``, ``renyi_efficiency`` (alpha 2.5, tokenization-scorer's
  definition), ``used``, ``dead``, ``under_used`` (of the tokenizer's vocabulary at that merge); on two or
  more files also ``parity`` per file (its tokens over the reference file's, Petrov et al. 2023) and
  ``parity_gini`` (group ``"all"``, the Gini of the files' token costs).

Exact, not extrapolated: each value equals encoding the evaluation text from scratch with the tokenizer cut
at merge ``m`` (``Encoder(model, merges_limit=m)``: the test oracle), but the values are kept up to date
merge by merge from the evaluation words each merge changes, so a whole curve costs about one training run
(:mod:`bpe_core.analysis.curve_engine`).

This module is the contract the CLI (``bpe-lens-cli curves``), the app's Measures chart and the docs use.
"""
from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

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
    """The evaluation texts of ``paths`` (UTF-8 files; a folder gives its ``.txt`` files, sorted). Names are
    the files' stems; two files with the same stem, an unreadable or empty file are one-line errors."""
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
            text = p.read_bytes().decode("utf-8")
        except OSError as e:
            raise BPELensError(f"{p}: cannot read it ({e.strerror or e})") from None
        except UnicodeDecodeError as e:
            raise BPELensError(f"{p}: not UTF-8 text (byte {e.start})") from None
        if not text.strip():
            raise BPELensError(f"{p}: the evaluation file is empty")
        out.append(EvalText(p.stem, text))
    return tuple(out)


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
    #: the language parity is measured against (the first file unless chosen); None for one file
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
