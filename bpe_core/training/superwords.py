"""SuperBPE's stage-2 filters: which superword tokens the fork refuses to make.

alisawuffles/tokenizers-superbpe, ``do_train_extend`` (trainer.rs, commit a27d8bf "limit to 4-word tokens
and special case colon"): the would-be token (byte-level glyphs there, raw bytes here, where ``Ġ`` is
the space byte) must hold no colon followed by a space, and splitting it at spaces must leave at most
:data:`MAX_WORDS` non-empty parts. A refused pair is skipped: it is not a merge and adds no token.
This module stands apart from :mod:`bpe_core.training.superbpe` so the trainer's rules can ask it
without importing the stage-2 driver, which builds on the trainer.

>>> allows(b" of", b" the"), allows(b"a b c", b" d e"), allows(b"note:", b" x"), allows("a:", "b")
(True, False, False, True)
"""
from __future__ import annotations

from bpe_core.types import Raw

__all__ = ["MAX_WORDS", "allows"]

#: the fork's hard-coded limit (``num_words > 4`` -> skip): "mw4" in the authors' file names
MAX_WORDS = 4


def allows(left: Raw, right: Raw) -> bool:
    """Whether stage 2 may merge ``left`` and ``right``: the new token holds no colon followed by a space,
    and splitting it at spaces leaves at most :data:`MAX_WORDS` non-empty parts (a character-level
    token's space is ``" "``)."""
    token = left + right  # type: ignore[operator]
    space, colon = (b" ", b": ") if isinstance(token, bytes) else (" ", ": ")
    if colon in token:
        return False
    return sum(1 for part in token.split(space) if part) <= MAX_WORDS  # type: ignore[arg-type]
