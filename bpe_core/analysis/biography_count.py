"""Cut corpus files into a vocabulary's pieces for the token biography: (piece, suffix) -> count.

Files are read one after the other (their concatenation) and counted line by line under the model's own
pipeline (:func:`~bpe_core.analysis.replay.count_words`), so the pieces are those of every other corpus
reader here.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict, Optional, Sequence, Tuple

from bpe_core.model import BPEModel
from bpe_core.types import Progress

ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]


def count_pieces(model: BPEModel, paths: Sequence[Path], *, progress: ProgressFn = None, cancel: CancelFn = None,
                 errors: str = "strict", workers: Optional[int] = None) -> Dict[Tuple[str, bool], int]:
    """The pieces of ``paths`` as one corpus, first appearance first."""
    from bpe_core.analysis.health import count_files, merge_pieces
    return merge_pieces(count_files(model, paths, errors=errors, progress=progress, cancel=cancel))
