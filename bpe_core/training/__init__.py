"""Training stage: the incremental trainer, its pair index and the timeline over it; branches and ties
of a run, and training continued from a vocabulary.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.training``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from bpe_core.base.faces import lazy_names

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


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
