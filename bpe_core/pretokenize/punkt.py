"""Offline Punkt sentence splitting, identical to ``nltk.sent_tokenize(text, "english")``.

NLTK's ``sent_tokenize`` needs the ``punkt_tab`` tables in the user's ``nltk_data`` and
``nltk.download`` is often impossible (no network, locked-down machines). We ship NLTK's own
English tables in ``resources/punkt_tab/english`` (see the README there for their origin; installed
as package data, found through :mod:`bpe_core.resources`) and read them here.

Why we parse the four small files ourselves instead of calling ``nltk.tokenize.punkt.
load_punkt_params(dir)`` or appending to ``nltk.data.path``: NLTK >= 3.9.3 refuses to open model
files outside its data roots (``nltk.pathsec``), and our folder layout is not
``tokenizers/punkt_tab/<lang>``; mutating the global ``nltk.data.path`` from a library would also
change what the rest of the process finds. The parsing below mirrors ``nltk.tabdata.PunktDecoder``
line for line, and the splitting itself is NLTK's ``PunktSentenceTokenizer`` with those parameters,
which is exactly what ``nltk.tokenize.PunktTokenizer("english")`` builds.
"""
from __future__ import annotations

import functools
from collections import defaultdict
from pathlib import Path
from typing import Iterable

from nltk import redos
from nltk.tokenize.punkt import PunktLanguageVars, PunktParameters, PunktSentenceTokenizer

from bpe_core.resources import punkt_dir
from bpe_core.types import BPELensError

#: ``resources/punkt_tab/english`` of the checkout or of the installed package data
PUNKT_DIR: Path = punkt_dir("english")
_FILES = ("collocations.tab", "sent_starters.txt", "abbrev_types.txt", "ortho_context.tab")


def _lines(path: Path) -> list[str]:
    # Text mode with universal newlines and one trailing "\n" removed per line: what
    # NLTK's ``open(encoding="utf-8")`` + ``rm_nl`` do.
    with open(path, encoding="utf-8") as f:
        return [line[:-1] if line.endswith("\n") else line for line in f]


def _tuples(lines: Iterable[str]) -> list[tuple[str, ...]]:
    return [tuple(line.split("\t")) for line in lines]


def load_params(directory: Path = PUNKT_DIR) -> PunktParameters:
    """Read Punkt parameters from a ``punkt_tab/<language>`` folder.

    >>> len(load_params().abbrev_types) > 100
    True
    """
    missing = [name for name in _FILES if not (directory / name).is_file()]
    if missing:
        raise BPELensError(f"Punkt tables missing in {directory}: {', '.join(missing)}")
    params = PunktParameters()
    params.collocations = set(_tuples(_lines(directory / "collocations.tab")))
    params.sent_starters = set(_lines(directory / "sent_starters.txt"))
    params.abbrev_types = set(_lines(directory / "abbrev_types.txt"))
    params.ortho_context = defaultdict(
        int, {a: int(b) for a, b in _tuples(_lines(directory / "ortho_context.tab"))}
    )
    return params


def _untimed(pattern):  # type: ignore[no-untyped-def]
    """NLTK's own pattern without a time limit. NLTK >= 3.10.4 compiles Punkt's patterns with
    ``nltk.redos`` (a 5 s limit): the same pattern again with none. NLTK 3.10.3, our lowest, compiles
    them with ``re`` (no limit): kept as they are — re-compiling their source through ``redos`` would
    drop their flags (VERBOSE, MULTILINE) and change the sentences."""
    return redos.compile(pattern, timeout=None) if isinstance(pattern, redos.TimedPattern) else pattern


class UntimedLanguageVars(PunktLanguageVars):
    """NLTK's English language variables with the same patterns, minus the 5 s time limit.

    NLTK >= 3.9 runs every regex under ``nltk.redos.DEFAULT_TIMEOUT`` (5 s of wall clock for a
    whole ``finditer``); the period-context scan runs over the whole corpus, so a text of a few MB
    fails with a TimeoutError that depends on machine load. The patterns are NLTK's own, which
    are linear (no ReDoS to guard against), so the sentences are exactly NLTK's, on any size.
    """

    re_boundary_realignment = _untimed(PunktLanguageVars.re_boundary_realignment)

    def __init__(self) -> None:
        super().__init__()
        # Built once: word_tokenize runs for every potential sentence end.
        self._untimed_period = _untimed(super().period_context_re())
        self._untimed_words = _untimed(super()._word_tokenizer_re())

    def period_context_re(self):  # type: ignore[no-untyped-def]
        return self._untimed_period

    def _word_tokenizer_re(self):  # type: ignore[no-untyped-def]
        return self._untimed_words


@functools.lru_cache(maxsize=1)
def tokenizer() -> PunktSentenceTokenizer:
    """The shared English Punkt tokenizer (read once; it is not modified by tokenizing)."""
    tok = PunktSentenceTokenizer(lang_vars=UntimedLanguageVars())
    # Same assignment nltk's PunktTokenizer.load_lang() does after reading the tables.
    tok._params = load_params()
    return tok


def sentences(text: str) -> list[str]:
    """Split ``text`` into sentences exactly like ``nltk.sent_tokenize(text, "english")``.

    >>> sentences("Mr. Smith went to Washington. He said hi!")
    ['Mr. Smith went to Washington.', 'He said hi!']
    """
    return tokenizer().tokenize(text)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of :func:`sentences` in ``text``.

    >>> text = "Mr. Smith left.  Then he came back."
    >>> [text[s:e] for s, e in sentence_spans(text)]
    ['Mr. Smith left.', 'Then he came back.']
    """
    return list(tokenizer().span_tokenize(text))
