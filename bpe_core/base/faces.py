"""How a folder's ``__init__`` becomes its face: the names callers may import, each loaded from its home
module the first time someone asks for it (PEP 562).

A face lists its names in a dict ``name -> home`` and hands it to :func:`lazy_names`, which returns the
module's ``__getattr__`` and ``__dir__``. A home is a module of the folder (``"merge"``), a module of the
folder under another name (``"merge:pair_ranks"`` gives ``merge.pair_ranks``), the module itself when the home
has the name's own name, or a full module path (``"bpe_core.types"``, which the facade uses). Loading on first
use keeps ``import bpe_core`` and every face cheap (the CLI and the GUI start fast) and means a face never
closes an import loop: the face imports nothing until a caller asks.

>>> import types
>>> space = {"__name__": "bpe_core.base", "__all__": ["merge_pair"]}
>>> getattr_, dir_ = lazy_names(space, {"merge_pair": "merge"})
>>> getattr_("merge_pair").__name__, "merge_pair" in space  # loaded, and kept for the next lookup
('merge_pair', True)
>>> dir_()
['__all__', '__name__', 'merge_pair']
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Dict, List, MutableMapping, Tuple


def lazy_names(namespace: MutableMapping[str, Any], homes: Dict[str, str]
               ) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the module whose globals are ``namespace``."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        home, _, original = homes.get(name, "").partition(":")
        if not home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(home if home.startswith("bpe_core.") else f"{package}.{home}")
        value = module if home == name else getattr(module, original or name)
        namespace[name] = value  # later lookups skip this function
        return value

    def __dir__() -> List[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())))

    return __getattr__, __dir__
