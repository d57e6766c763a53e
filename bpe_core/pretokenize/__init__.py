"""Pre-tokenize stage: text -> words (the registry of pre-tokenizers, the checks of a user's pattern,
Punkt sentences).

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.pretokenize``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

if TYPE_CHECKING:
    from bpe_core.pretokenize.pretokenizers import (PRETOKENIZERS, TIKTOKEN_PATTERNS, compile_user_pattern,
                                                    get_pretokenizer)
    from bpe_core.pretokenize.guard import pattern_warnings
    from bpe_core.pretokenize import punkt

#: public name -> the module of this folder that is its home (``module:name there`` when it is renamed here)
_HOMES: Dict[str, str] = {
    "PRETOKENIZERS": "pretokenizers", "TIKTOKEN_PATTERNS": "pretokenizers",
    "compile_user_pattern": "pretokenizers", "get_pretokenizer": "pretokenizers",
    "pattern_warnings": "guard",
    "punkt": "punkt",
}

__all__ = list(_HOMES)


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
