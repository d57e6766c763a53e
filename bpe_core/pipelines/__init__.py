"""Text pipelines: how text is cut into pieces and each piece into its first units. ``Pipeline`` is the
one chain (normalizer → pre-tokenizer → unit mapper) that the corpus counter, the trainer and the encoder of
a model trained here all use; the other families (Hugging Face, tiktoken, SentencePiece) cut text their
own way behind the same protocol.

This ``__init__`` is the folder's face: code outside the folder imports these names from
``bpe_core.pipelines``. Each name loads from its home on first use (PEP 562).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

if TYPE_CHECKING:
    from bpe_core.pipelines.chain import Pipeline

#: public name -> the module of this folder that is its home
_HOMES: Dict[str, str] = {"Pipeline": "chain"}

__all__ = list(_HOMES)

__getattr__, __dir__ = lazy_names(globals(), _HOMES)
