"""What the session's signals carry: frozen records, and the text an error becomes for the user.

(The core's own records, ``MergeStep``, ``Progress``, ``BPEModel``, travel as they are.)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from bpe_core import BPELensError, TrainerConfig


def user_message(exc: BaseException) -> str:
    """What the user reads for an exception: our own messages as they are, others named."""
    if isinstance(exc, BPELensError):
        return str(exc)
    if isinstance(exc, UnicodeDecodeError):
        return f"The file is not UTF-8 text ({exc.reason} at byte {exc.start})."
    if isinstance(exc, OSError):
        return f"Cannot open {exc.filename or 'the file'}: {exc.strerror or exc}"
    return f"Unexpected error: {type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class CorpusInfo:
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
    kind: str  # "run" | "play" | "seek" | "reset"
    done: int
    total: Optional[int]
    merge_count: int


@dataclass(frozen=True)
class RunEnd:
    kind: str
    #: why it ended: the trainer's stop reason, "paused", "cancelled", "done" or an error message
    reason: str
    merge_count: int
