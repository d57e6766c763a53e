"""Training stage: the incremental trainer, its pair index and the timeline over it; branches and ties
of a run, and training continued from a vocabulary.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.training``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict, List

if TYPE_CHECKING:
    from bpe_core.training.timeline import TOP_K, Frame, Move, WordHistory, target_merges
    from bpe_core.training.branches import Branch, BranchComparison, Branches, shared_prefix
    from bpe_core.training.ties import Ties
    from bpe_core.training.continuing import continue_training, continued_config
    from bpe_core.training.records import word_changes as changed_word_examples

#: public name -> the module of this folder that is its home (``module:name there`` when it is renamed here)
_HOMES: Dict[str, str] = {
    "TOP_K": "timeline", "Frame": "timeline", "Move": "timeline", "WordHistory": "timeline",
    "target_merges": "timeline",
    "Branch": "branches", "BranchComparison": "branches", "Branches": "branches", "shared_prefix": "branches",
    "Ties": "ties",
    "continue_training": "continuing", "continued_config": "continuing",
    "changed_word_examples": "records:word_changes",
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
