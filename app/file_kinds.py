"""What a path opened from the command line, a drop or a chooser is: a vocabulary or a corpus."""
from __future__ import annotations

from pathlib import Path

from bpe_core import BPELensError
from bpe_core.formats import detect_format


def is_vocabulary(path: str) -> bool:
    """Whether ``path`` is a vocabulary rather than a corpus, by sniffing its content.

    A text file is a corpus unless it is clearly a vocabulary: a two-words-per-line text could
    pass for a ``merges.txt``, so that format counts only under a ``.json`` / ``merges.txt`` name.
    """
    p = Path(path)
    if p.is_dir():
        return True
    try:
        fmt = detect_format(p)
    except BPELensError:
        return False
    return fmt != "vocab-merges" or p.suffix.lower() == ".json" or p.name.endswith("merges.txt")
