"""The training rules that act inside the Trainer, chosen by ``TrainerConfig.variant``.

:func:`pair_filter` says which pairs a rule lets the trainer merge: SuperBPE's stage 2 refuses a token
of more than 4 words or with a colon before a space; its module imports nothing of the trainer, so the
trainer may ask here at module level (:func:`bpe_core.training.superwords.allows`).

>>> from bpe_core.types import TrainerConfig
>>> pair_filter(TrainerConfig()) is None, pair_filter(TrainerConfig(variant="superbpe", transition=0)).__name__
(True, 'allows')
"""
from __future__ import annotations

from typing import Callable, Optional

from bpe_core.training.superwords import allows
from bpe_core.types import Raw, TrainerConfig

PairFilter = Callable[[Raw, Raw], bool]


def pair_filter(config: TrainerConfig) -> Optional[PairFilter]:
    """The rule's test of a pair (left token, right token) -> may it merge; None when every pair may."""
    if config.variant == "superbpe":
        return allows
    return None
