"""What the session's signals carry: small frozen records, and the sentence an error becomes for the user.

The core's own records (``MergeStep``, ``Progress``, ``BPEModel``) travel in the signals as they are;
the records here describe what only the session knows: the corpus loaded, and a run's progress and end.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Tuple

from bpe_core import BPELensError, TrainerConfig
from bpe_core.base import not_utf8, read_error

from .corpus_files import corpus_name

if TYPE_CHECKING:
    from bpe_core import Timeline


def user_message(exc: BaseException) -> str:
    """The sentence the user reads for an exception: our own messages as they are, other errors with
    their kind named. File problems read as the core words them (``bpe_core.base``'s file errors)."""
    if isinstance(exc, BPELensError):
        return str(exc)
    if isinstance(exc, UnicodeDecodeError):
        return not_utf8("The file", exc.start, f" ({exc.reason})")
    if isinstance(exc, OSError):
        return str(read_error(exc.filename or "The file", exc))
    return f"Unexpected error: {type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class CorpusInfo:
    """The corpus just loaded (``corpus_loaded``): its files, its name, and the counts the window shows."""

    path: str
    name: str
    unique_words: int
    total_words: int
    total_units: int
    initial_vocab: int
    config: TrainerConfig
    #: every file of the corpus, in order (several files are one corpus, as the CLI counts them)
    paths: Tuple[str, ...] = ()


@dataclass(frozen=True)
class RunProgress:
    """How far a run the user started has come (``run_progress``): ``done`` of ``total`` merges (None:
    unknown), and the position it has reached."""

    kind: str  # "run" | "play" | "seek" | "reset"
    done: int
    total: Optional[int]
    merge_count: int


@dataclass(frozen=True)
class RunEnd:
    """How a run or a step ended (``run_finished``), and the position it ended at."""

    kind: str
    #: why it ended: the trainer's stop reason, "paused", "cancelled", "done" or an error message
    reason: str
    merge_count: int


def corpus_info(timeline: Timeline, paths: Tuple[str, ...], config: TrainerConfig) -> CorpusInfo:
    """The record ``corpus_loaded`` carries for a timeline just counted from ``paths``."""
    stats = timeline.stats
    return CorpusInfo(path=paths[0], name=corpus_name(paths), unique_words=len(timeline.words),
                      total_words=stats.total_words, total_units=stats.total_units,
                      initial_vocab=timeline.initial_vocab, config=config, paths=paths)
