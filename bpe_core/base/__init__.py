"""The base layer every stage stands on: units and how they are shown, the merge routine, the config's
checks and dict form.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.base``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

if TYPE_CHECKING:
    from bpe_core.base.symbols import (decoded_text, display, from_glyphs, is_glyph_string, to_glyphs, to_hex,
                                       visible_whitespace)
    from bpe_core.base.config import check_config, config_to_dict
    from bpe_core.base.file_errors import no_such_file, not_utf8, read_error

#: public name -> the module of this folder that is its home (``module:name there`` when it is renamed here)
_HOMES: Dict[str, str] = {
    "decoded_text": "symbols", "display": "symbols", "from_glyphs": "symbols", "is_glyph_string": "symbols",
    "to_glyphs": "symbols", "to_hex": "symbols", "visible_whitespace": "symbols",
    "check_config": "config", "config_to_dict": "config",
    "no_such_file": "file_errors", "not_utf8": "file_errors", "read_error": "file_errors",
}

__all__ = list(_HOMES)


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
