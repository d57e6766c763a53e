"""Corpus stage: read files (plain or compressed, BOM, CRLF) and count their words.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.corpus``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

if TYPE_CHECKING:
    from bpe_core.corpus.counting import count_words
    from bpe_core.corpus.files import count_words_in_files
    from bpe_core.corpus.languages import language_files
    from bpe_core.corpus.table import config_for_table

#: public name -> the module of this folder that is its home (``module:name there`` when it is renamed here)
_HOMES: Dict[str, str] = {
    "count_words": "counting",
    "count_words_in_files": "files",
    "config_for_table": "table",
    "language_files": "languages",
}

__all__ = list(_HOMES)


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
