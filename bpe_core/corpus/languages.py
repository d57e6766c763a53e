"""Per-language corpora for parity-aware BPE: a folder of one text file per language, or a word-count table
with a language column.

A folder: every ``.txt`` file in it (hidden files skipped) is one language, named by the file's stem
(``eng.txt`` is ``eng``), in the order of their names; other files (a README, a MANIFEST.tsv, notes) are not
languages. A ``dev/`` subfolder with ``.txt`` files of the same stems holds the held-out (dev) text.
A table: a TSV ``language<TAB>word<TAB>count`` (the header naming the three
columns is required: it tells the table from a plain ``word<TAB>count`` one) or a Parquet table with a
``language`` column beside ``word`` and ``count``. Languages come in the order they first appear; words in
each language in the order of their rows (the readers live with the other tables, in
:mod:`bpe_core.corpus.table`, whose ``read_table`` reads such a table as the union of its languages). A plain
table (no language column) is refused here with a one-line message.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> _ = open(os.path.join(d, "t.tsv"), "w").write("language\\tword\\tcount\\nen\\tthe\\t3\\nde\\tdie\\t2\\nen\\ta\\t1\\n")
>>> read_language_table(os.path.join(d, "t.tsv"))
{'en': {'the': 3, 'a': 1}, 'de': {'die': 2}}
"""
from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from bpe_core.base.file_errors import not_utf8, read_error
from bpe_core.corpus.table import LANGUAGE_HEADER, read_language_table, require_pyarrow
from bpe_core.types import BPELensError, Cancelled, Progress

Counts = Dict[str, Dict[str, int]]  # language -> word -> count (first-seen order)


def language_files(folder: "str | os.PathLike[str]") -> Tuple[List[str], Dict[str, Path], Dict[str, Path]]:
    """The languages of a folder (sorted by name), their training files and their dev files (may be empty)."""
    root = Path(folder)
    if not root.is_dir():
        raise BPELensError(f"{root}: not a folder of one text file per language")
    train = {p.stem: p for p in _text_files(root)}
    if not train:
        raise BPELensError(f"{root.name}: the folder holds no language files (one .txt file per language, "
                           "e.g. eng.txt)")
    if len(train) != len(_text_files(root)):
        raise BPELensError(f"{root.name}: two files name the same language (the same name before the suffix)")
    dev_root = root / "dev"
    dev = {p.stem: p for p in _text_files(dev_root)} if dev_root.is_dir() else {}
    if dev and set(dev) != set(train):
        missing = sorted(set(train) ^ set(dev))
        raise BPELensError(f"{root.name}/dev: the dev files must name the same languages as the training files "
                           f"(not both: {', '.join(missing)})")
    return list(train), train, dev


def _text_files(folder: Path) -> List[Path]:
    """A folder's language files: its ``.txt`` files (any case), not hidden, sorted by name."""
    return [p for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.startswith(".") and p.suffix.lower() == ".txt"]


def read_languages(source: "str | os.PathLike[str]", count: Callable[[str], Dict[str, int]], *,
                   dev_folder: bool = False, progress: Optional[Callable[[Progress], None]] = None,
                   cancel: Optional[Callable[[], bool]] = None) -> Counts:
    """Language -> word counts of a folder (``count`` reads each file's text; ``dev_folder``: its ``dev/``
    files) or of a table with a language column."""
    p = Path(source)
    if not p.is_dir():
        if not p.is_file():
            raise BPELensError(f"{p}: no such folder or word-count table")
        return read_language_table(p)
    langs, train, dev = language_files(p)
    files = dev if dev_folder else train
    out: Counts = {}
    for i, lang in enumerate(langs):
        if cancel is not None and cancel():
            raise Cancelled()
        out[lang] = count(read_text_file(files[lang]))
        if progress is not None:
            progress(Progress(i + 1, len(langs), "languages", lang))
    return out


def read_text_file(path: Path) -> str:
    """A language file's text (UTF-8; a bad byte or an unreadable file is a one-line error)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise read_error(path, exc) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BPELensError(not_utf8(path.name, exc.start)) from None


def write_language_tsv(path: "str | os.PathLike[str]", counts: Counts) -> None:
    """``language<TAB>word<TAB>count`` with its header, languages in order, words in first-seen order."""
    from bpe_core.formats.atomic import atomic_write_text
    f = io.StringIO(newline="")
    out = csv.writer(f, delimiter="\t", lineterminator="\n")
    out.writerow(LANGUAGE_HEADER)
    out.writerows((lang, w, n) for lang, words in counts.items() for w, n in words.items())
    atomic_write_text(path, f.getvalue())


def write_language_parquet(path: "str | os.PathLike[str]", counts: Counts) -> None:
    """The same rows as Parquet (columns language, word, count)."""
    from bpe_core.formats.atomic import atomic_write_bytes
    pa = require_pyarrow()
    rows = [(lang, w, n) for lang, words in counts.items() for w, n in words.items()]
    langs, words, ns = zip(*rows) if rows else ((), (), ())
    table = pa.table({"language": pa.array(langs, pa.string()), "word": pa.array(words, pa.string()),
                      "count": pa.array(ns, pa.int64())})
    sink = pa.BufferOutputStream()
    pa.parquet.write_table(table, sink)
    atomic_write_bytes(path, sink.getvalue().to_pybytes())
