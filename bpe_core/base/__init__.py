"""The base layer every stage stands on: units and how they are shown, the merge routine, the config's
checks and dict form.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.base``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict, List

if TYPE_CHECKING:
    from bpe_core.base.symbols import (decoded_text, display, from_glyphs, is_glyph_string, to_glyphs, to_hex,
                                       visible_whitespace)
    from bpe_core.base.config import check_config, config_to_dict

#: public name -> the module of this folder that is its home (``module:name there`` when it is renamed here)
_HOMES: Dict[str, str] = {
    "decoded_text": "symbols", "display": "symbols", "from_glyphs": "symbols", "is_glyph_string": "symbols",
    "to_glyphs": "symbols", "to_hex": "symbols", "visible_whitespace": "symbols",
    "check_config": "config", "config_to_dict": "config",
}

__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    """Load ``name`` from its home module on first use and keep it here. A home named like the name is the
    module itself; ``"home:original"`` gives the name under which the home defines it."""
    home, _, original = _HOMES.get(name, "").partition(":")
    if not home:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{home}")
    value = module if home == name else getattr(module, original or name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
