"""Word-count tables: a corpus already counted, kept as ``word, count`` in order of first appearance.

The trainer needs only the words and their counts, in the order they first appear in the corpus
(the first-seen tie rule depends on it), so a table can stand in for the corpus itself:
``bpe-lens-cli count`` writes one, ``train`` and the app's File -> Open read it.

Two formats:

- **Parquet** (our own, ``pip install bpe-lens[parquet]``): columns ``word`` (string), ``count``
  (int64), ``file`` (int32) and ``offset`` (int64) of the word's FIRST appearance; rows sorted by
  ``(file, offset)``, the first-seen order. The schema metadata (key ``bpe_lens``) holds the
  config the words were counted with and the source files (names, sizes).
- **TSV** ``word<TAB>count`` (as Spark or DuckDB write it; a ``word<TAB>count`` header is
  optional; a field holding a tab, a quote or a line end is double-quoted, RFC 4180 style). The
  row order is the first-seen order; there is no config, so the one requested is trusted.

A table may also have a **language column** (parity-aware BPE's per-language corpora,
:mod:`bpe_core.corpus.languages`): a TSV ``language<TAB>word<TAB>count`` with that header, or Parquet with a
``language`` column. :func:`read_language_table` reads it per language; :func:`read_table` reads it as the
union of its languages (counts summed, first-seen order), so one table trains plain BPE too.

Only the fields in :data:`COUNT_FIELDS` change which words a corpus gives; a table counted with
other values of them is refused (:func:`check_table_config`).
"""
from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from bpe_core.formats.atomic import atomic_write_bytes, atomic_write_text
from bpe_core.formats.json_text import parse_json
from bpe_core.base.config import config_from_dict, config_to_dict
from bpe_core.base.file_errors import not_utf8, read_error
from bpe_core.types import BPELensError, TrainerConfig

#: the config fields that decide the words (and so the counts); the others only affect training
COUNT_FIELDS = ("pretokenizer", "pattern", "lowercase", "lowercase_words", "file_decoding")
META_KEY = b"bpe_lens"
TABLE_VERSION = 1
_PARQUET_MAGIC = b"PAR1"
_TSV_SUFFIXES = (".tsv", ".tab")
#: the header (TSV) or columns (Parquet) of a table with a language column
LANGUAGE_HEADER = ("language", "word", "count")
Source = Tuple[str, int]  # a counted file's name and size in bytes


@dataclass(frozen=True)
class WordTable:
    """A counted corpus: ``counts`` in first-seen order, the config it was counted with (None for a
    TSV, which does not say) and the files it came from."""

    counts: Dict[str, int]
    config: Optional[TrainerConfig] = None
    sources: Tuple[Source, ...] = ()


def require_pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401  (the submodule is what we use)
    except ImportError:
        raise BPELensError("Parquet word-count tables need pyarrow: pip install bpe-lens[parquet]") from None
    return pyarrow


def is_parquet(path: "str | os.PathLike[str]") -> bool:
    """Whether ``path`` starts with Parquet's magic bytes (a corpus never does: ``PAR1`` + binary)."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == _PARQUET_MAGIC
    except OSError:
        return False


def is_word_table(path: "str | os.PathLike[str]") -> bool:
    """Whether ``path`` is a word-count table: Parquet by its content, TSV by its ``.tsv`` name
    (a text corpus may hold tabs, so the name decides).

    >>> is_word_table("novel.txt")
    False
    """
    p = Path(path)
    return p.is_file() and (is_parquet(p) or p.suffix.lower() in _TSV_SUFFIXES)


# -- writing -------------------------------------------------------------------------------------------
def write_parquet(path: "str | os.PathLike[str]", counts: Dict[str, int], firsts: Sequence[Tuple[int, int]],
                  config: TrainerConfig, sources: Sequence[Source] = ()) -> None:
    """Write ``counts`` (first-seen order) with each word's first appearance ``(file, offset)``."""
    pa = require_pyarrow()
    if len(firsts) != len(counts):
        raise ValueError("one first appearance per word")
    files, offsets = zip(*firsts) if firsts else ((), ())
    meta = {"version": TABLE_VERSION, "config": config_to_dict(config),
            "sources": [{"name": n, "size": s} for n, s in sources]}
    table = pa.table({"word": pa.array(list(counts), pa.string()),
                      "count": pa.array(list(counts.values()), pa.int64()),
                      "file": pa.array(files, pa.int32()), "offset": pa.array(offsets, pa.int64())})
    table = table.replace_schema_metadata({META_KEY: json.dumps(meta).encode("utf-8")})
    sink = pa.BufferOutputStream()
    pa.parquet.write_table(table, sink)
    atomic_write_bytes(path, sink.getvalue().to_pybytes())  # never a half table that train would read


def write_tsv(path: "str | os.PathLike[str]", counts: Dict[str, int]) -> None:
    """``word<TAB>count`` with a header, in first-seen order (words with a tab or line end quoted)."""
    f = io.StringIO(newline="")
    out = csv.writer(f, delimiter="\t", lineterminator="\n")
    out.writerow(("word", "count"))
    out.writerows(counts.items())
    atomic_write_text(path, f.getvalue())


# -- reading -------------------------------------------------------------------------------------------
def read_table(path: "str | os.PathLike[str]") -> WordTable:
    """A Parquet or TSV table (by content, then by name); every problem is a one-line BPELensError.
    A table with a language column gives the union of its languages (counts summed)."""
    if has_language_column(path):
        counts: Dict[str, int] = {}
        for words in read_language_table(path).values():
            for w, n in words.items():
                counts[w] = counts.get(w, 0) + n
        return WordTable(counts)
    return _read_parquet(Path(path)) if is_parquet(path) else _read_tsv(Path(path))


def has_language_column(path: "str | os.PathLike[str]") -> bool:
    """Whether the table at ``path`` has a language column (Parquet: by its schema; TSV: by its header)."""
    if is_parquet(path):
        pa = require_pyarrow()
        try:
            return "language" in pa.parquet.read_schema(os.fspath(path)).names
        except (OSError, pa.ArrowException):
            return False  # reading it names the problem
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            first = next((line for line in f if line.strip()), "")
    except (OSError, UnicodeDecodeError):
        return False
    return tuple(c.strip().lower() for c in first.rstrip("\r\n").split("\t")) == LANGUAGE_HEADER


def read_language_table(path: "str | os.PathLike[str]") -> Dict[str, Dict[str, int]]:
    """A word-count table with a language column (TSV or Parquet) as language -> word -> count."""
    p = Path(path)
    rows = _parquet_rows(p) if is_parquet(p) else _tsv_rows(p)
    out: Dict[str, Dict[str, int]] = {}
    for where, lang, word, n in rows:
        if not lang:
            raise BPELensError(f"{p.name}: {where}: the language is empty")
        if n < 1:
            raise BPELensError(f"{p.name}: {where}: count {n} of {word!r} is not positive")
        counts = out.setdefault(lang, {})
        if word in counts:
            raise BPELensError(f"{p.name}: {where}: the word {word!r} appears twice in language {lang!r}")
        counts[word] = n
    if not out:
        raise BPELensError(f"{p.name}: the table holds no words")
    return out


def _tsv_rows(p: Path) -> List[Tuple[str, str, str, int]]:
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise read_error(p, exc) from None
    except UnicodeDecodeError as exc:
        raise BPELensError(not_utf8(p.name, exc.start)) from None
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", strict=True)
    rows: List[Tuple[str, str, str, int]] = []
    header: Optional[tuple] = None
    try:
        for row in reader:
            if not row:
                continue
            if header is None:
                header = tuple(c.strip().lower() for c in row)
                if header != LANGUAGE_HEADER:
                    raise BPELensError(f"{p.name}: line {reader.line_num}: a table of languages starts with the "
                                       f"header language<TAB>word<TAB>count")
                continue
            if len(row) != 3:
                raise BPELensError(f"{p.name}: line {reader.line_num}: expected language<TAB>word<TAB>count, "
                                   f"found {len(row)} fields")
            if not row[2].strip().isdigit():
                raise BPELensError(f"{p.name}: line {reader.line_num}: the count {row[2]!r} is not a whole number")
            rows.append((f"line {reader.line_num}", row[0], row[1], int(row[2])))
    except csv.Error as exc:
        raise BPELensError(f"{p.name}: line {reader.line_num}: {exc}") from None
    return rows


def _parquet_rows(p: Path) -> List[Tuple[str, str, str, int]]:
    pa = require_pyarrow()
    try:
        table = pa.parquet.read_table(os.fspath(p))
    except (OSError, pa.ArrowException) as exc:
        raise BPELensError(f"{p.name}: not a readable Parquet table ({exc})") from None
    missing = [c for c in LANGUAGE_HEADER if c not in table.column_names]
    if missing:
        raise BPELensError(f"{p.name}: the table has no {' or '.join(missing)} column "
                           f"(columns: {', '.join(table.column_names)})")
    cols = [table.column(c).to_pylist() for c in LANGUAGE_HEADER]
    for name, col in zip(LANGUAGE_HEADER, cols):
        if any(v is None for v in col):
            raise BPELensError(f"{p.name}: the {name} column has empty values")
    return [(f"row {i + 1}", str(lang), str(word), int(n)) for i, (lang, word, n) in enumerate(zip(*cols))]




def _read_parquet(p: Path) -> WordTable:
    pa = require_pyarrow()
    try:
        table = pa.parquet.read_table(os.fspath(p))
    except (OSError, pa.ArrowException) as exc:
        raise BPELensError(f"{p.name}: not a readable Parquet table ({exc})") from None
    missing = [c for c in ("word", "count") if c not in table.column_names]
    if missing:
        raise BPELensError(f"{p.name}: the table has no {' or '.join(missing)} column "
                           f"(columns: {', '.join(table.column_names)})")
    meta = _metadata(p, table.schema.metadata or {})
    cols = {c: table.column(c) for c in ("word", "count", "file", "offset") if c in table.column_names}
    for name, col in cols.items():
        if col.null_count:
            raise BPELensError(f"{p.name}: the {name} column has {col.null_count} empty values")
    if not pa.types.is_string(cols["word"].type) and not pa.types.is_large_string(cols["word"].type):
        raise BPELensError(f"{p.name}: the word column holds {cols['word'].type}, not strings")
    for name in ("count", "file", "offset"):
        if name in cols and not pa.types.is_integer(cols[name].type):
            raise BPELensError(f"{p.name}: the {name} column holds {cols[name].type}, not integers")
    words, counts = cols["word"].to_pylist(), cols["count"].to_pylist()
    if "file" in cols and "offset" in cols:
        keys = list(zip(cols["file"].to_pylist(), cols["offset"].to_pylist()))
        if any(keys[i] > keys[i + 1] for i in range(len(keys) - 1)):  # another tool's row order
            order = sorted(range(len(keys)), key=keys.__getitem__)
            words, counts = [words[i] for i in order], [counts[i] for i in order]
    return WordTable(_checked_counts(p.name, zip(words, counts), lambda i: f"row {i + 1}"), *meta)


def _metadata(p: Path, raw: Dict[bytes, bytes]) -> Tuple[Optional[TrainerConfig], Tuple[Source, ...]]:
    if META_KEY not in raw:
        return None, ()  # written by another tool: no config to check
    try:
        meta = parse_json(raw[META_KEY], p.name)
        config = config_from_dict(meta.get("config") or {}, p.name)
        sources = tuple((str(s["name"]), int(s["size"])) for s in meta.get("sources", ()))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise BPELensError(f"{p.name}: unreadable BPE Lens metadata ({exc})") from None
    return config, sources


def _checked_counts(name: str, rows: Any, where: Any) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for i, (word, n) in enumerate(rows):
        if n < 1:
            raise BPELensError(f"{name}: {where(i)}: count {n} of {word!r} is not positive")
        if word in counts:
            raise BPELensError(f"{name}: {where(i)}: the word {word!r} appears twice")
        counts[word] = n
    if not counts:
        raise BPELensError(f"{name}: the table holds no words")
    return counts


def _read_tsv(p: Path) -> WordTable:
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise read_error(p, exc) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BPELensError(not_utf8(p.name, exc.start)) from None
    rows: List[Tuple[str, int]] = []
    lines: List[int] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", strict=True)
    try:
        for row in reader:
            line = reader.line_num
            if not row:
                continue  # a blank line (csv gives [])
            if len(row) != 2:
                raise BPELensError(f"{p.name}: line {line}: expected word<TAB>count, found {len(row)} fields")
            word, n = row
            if not n.strip().isdigit():
                if not rows and n.strip().lower() == "count":
                    continue  # the header
                raise BPELensError(f"{p.name}: line {line}: the count {n!r} is not a whole number")
            rows.append((word, int(n)))
            lines.append(line)
    except csv.Error as exc:
        raise BPELensError(f"{p.name}: line {reader.line_num}: {exc}") from None
    return WordTable(_checked_counts(p.name, rows, lambda i: f"line {lines[i]}"))


# -- using a table -------------------------------------------------------------------------------------
def counting_fields(config: TrainerConfig) -> Dict[str, Any]:
    """The fields of ``config`` that decide the words."""
    return {name: getattr(config, name) for name in COUNT_FIELDS}


def check_table_config(name: str, table: WordTable, requested: TrainerConfig) -> None:
    """Refuse a table counted with other word settings than ``requested`` (a TSV cannot say: trusted)."""
    if table.config is None:
        return
    have, want = counting_fields(table.config), counting_fields(requested)
    diff = [k for k in COUNT_FIELDS if have[k] != want[k]]
    if diff:
        was = ", ".join(f"{k}={have[k]!r}" for k in diff)
        now = ", ".join(f"{k}={want[k]!r}" for k in diff)
        raise BPELensError(f"{name}: the words were counted with {was} (preset {table.config.preset!r}), "
                           f"but these settings say {now}; train with the table's preset or count again")


def adopt_table_config(table: WordTable, current: TrainerConfig) -> TrainerConfig:
    """The settings the app trains a table with: ``current`` when it counts words the same way, else
    the whole config the table was counted with (its preset: word settings and merging alike)."""
    if table.config is None or counting_fields(table.config) == counting_fields(current):
        return current
    return table.config


def table_config(path: "str | os.PathLike[str]") -> Optional[TrainerConfig]:
    """The config a table at ``path`` was counted with, from its schema alone (cheap: the app asks
    before counting); None when ``path`` is no table or does not say."""
    if not is_parquet(path):
        return None
    pa = require_pyarrow()
    try:
        raw = pa.parquet.read_schema(os.fspath(path)).metadata or {}
    except (OSError, pa.ArrowException):
        return None  # reading it later names the problem
    return _metadata(Path(path), raw)[0]


def config_for_table(path: "str | os.PathLike[str]", current: TrainerConfig) -> Optional[TrainerConfig]:
    """What the app trains the table at ``path`` with (see :func:`adopt_table_config`); None for a corpus."""
    if not is_parquet(path):
        return None
    config = table_config(path)
    return adopt_table_config(WordTable({}, config), current)


def table_counts(path: "str | os.PathLike[str]", config: TrainerConfig) -> Dict[str, int]:
    """The counts of the table at ``path``, after checking they were counted as ``config`` says."""
    table = read_table(path)
    check_table_config(Path(path).name, table, config)
    return table.counts
