"""The Workbench's plain records: what is open (a corpus, a vocabulary, a comparison, an analysis), what is
selected, and the events an operation reports.

Every record is a frozen dataclass, so a reader may keep one as long as it likes: an operation replaces
records, it never changes one. Events carry their subject (the vocabulary opened, the id of the one
closed), so whoever listens needs no other state to act on them.

>>> v = OpenVocabulary("v1", "/srv/gpt2/tokenizer.json", model=None)
>>> VocabularyOpened(v).vocabulary.id, VocabularyClosed("v1")
('v1', VocabularyClosed(vocabulary_id='v1'))
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Optional, Tuple, Union

#: how bytes that are not UTF-8 are read: an error naming the byte, or U+FFFD (the CLI's ``--errors``)
DECODE_ERRORS = ("strict", "replace")


@dataclass(frozen=True)
class RunCorpus:
    """The corpus a training run counts: its files (several are one corpus, their concatenation) and how
    bytes that are not UTF-8 are read.

    >>> RunCorpus(("/srv/a.txt", "/srv/b.txt")).name
    'a.txt + b.txt'
    """

    paths: Tuple[str, ...]
    decode_errors: str = "strict"

    def __post_init__(self) -> None:
        if not self.paths:
            raise ValueError("a corpus has at least one file")
        if self.decode_errors not in DECODE_ERRORS:
            raise ValueError(f"decode errors must be one of {DECODE_ERRORS}, not {self.decode_errors!r}")

    @property
    def name(self) -> str:
        """What a window calls the corpus: ``a.txt``, ``a.txt + b.txt``, ``a.txt + 2 more files``."""
        names = [os.path.basename(p) for p in self.paths]
        return " + ".join(names) if len(names) <= 2 else f"{names[0]} + {len(names) - 1} more files"


@dataclass(frozen=True, eq=False)
class OpenVocabulary:
    """A vocabulary open on the workbench: its id, the file it was read from (None: made here, e.g. the saved
    merges of a workspace), the model, the split ``pattern`` a ``.tiktoken`` file was read with, and the
    name it is shown by.

    Two records are equal when they name the same vocabulary (id, path, pattern, name): the model is what
    the file holds. The encoder is made on first use and kept.
    """

    id: str
    path: Optional[str]
    model: Any = field(repr=False)
    pattern: Optional[str] = None
    name: str = ""

    @property
    def key(self) -> Tuple[str, Optional[str], Optional[str], str]:
        return (self.id, self.path, self.pattern, self.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OpenVocabulary) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def pipeline(self) -> Any:
        """The model's text pipeline (how its text is cut before the merges)."""
        return self.model.pipeline

    @cached_property
    def encoder(self) -> Any:
        from bpe_core.encoding.encoder import Encoder

        return Encoder(self.model)


@dataclass(frozen=True)
class OpenComparison:
    """Two subjects side by side: vocabulary ids or run ids (a run's vocabulary at its position)."""

    a_id: str
    b_id: str


@dataclass(frozen=True)
class OpenAnalysis:
    """An analysis shown: its ``kind`` ("health", "fertility", "replay", ...), the vocabulary or run it asks
    about, and the corpus files it reads (none: the subject's own corpus). ``at``: for a run, the merge whose
    vocabulary it asks about (None: the run's position); ``view``: how its view was set, as pairs of a name and
    a plain value (a filter, a sort), which a workspace keeps."""

    kind: str
    subject_id: str
    corpus: Tuple[str, ...] = ()
    at: Optional[int] = None
    view: Tuple[Tuple[str, Any], ...] = ()


Pair = Tuple[int, int]


@dataclass(frozen=True)
class Selection:
    """What is current and selected: the run, the vocabulary, and in the current view a word, a token id or a
    pair of token ids (None: nothing)."""

    run_id: Optional[str] = None
    vocabulary_id: Optional[str] = None
    word: Optional[str] = None
    token: Optional[int] = None
    pair: Optional[Pair] = None


# -- events: each operation reports one, carrying its subject ------------------------------------------
@dataclass(frozen=True)
class RunOpened:
    run: Any  # a TrainingRun


@dataclass(frozen=True)
class RunClosed:
    run_id: str


@dataclass(frozen=True)
class VocabularyOpened:
    vocabulary: OpenVocabulary


@dataclass(frozen=True)
class VocabularyClosed:
    vocabulary_id: str


@dataclass(frozen=True)
class SelectionChanged:
    selection: Selection


@dataclass(frozen=True)
class EncodeTextChanged:
    text: str


@dataclass(frozen=True)
class ComparisonOpened:
    comparison: OpenComparison


@dataclass(frozen=True)
class ComparisonClosed:
    comparison: OpenComparison


@dataclass(frozen=True)
class AnalysisOpened:
    analysis: OpenAnalysis


@dataclass(frozen=True)
class AnalysisClosed:
    analysis: OpenAnalysis


Event = Union[RunOpened, RunClosed, VocabularyOpened, VocabularyClosed, SelectionChanged, EncodeTextChanged,
              ComparisonOpened, ComparisonClosed, AnalysisOpened, AnalysisClosed]
