"""Encoding stage: the encoder with spans, decoding, seed 000's greedy encoder, an encoding advanced a
merge, BPE-dropout's sampled encodings.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.encoding``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

if TYPE_CHECKING:
    from bpe_core.encoding.encoder import LensEncoding
    from bpe_core.encoding.advance import Trail, can_advance
    from bpe_core.encoding.dropout import DropoutEncoder, sample_words, shares, text_words

#: public name -> the module of this folder that is its home (``module:name there`` when it is renamed here)
_HOMES: Dict[str, str] = {
    "LensEncoding": "encoder",
    "Trail": "advance", "can_advance": "advance",
    "DropoutEncoder": "dropout", "sample_words": "dropout", "shares": "dropout", "text_words": "dropout",
}

__all__ = list(_HOMES)


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
