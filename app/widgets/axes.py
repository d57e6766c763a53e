"""Chart axis helpers shared by the pair chart and the history charts."""
from __future__ import annotations

import math

__all__ = ["nice_ceiling"]


def nice_ceiling(x: float) -> float:
    """A round number at or above ``x``: ``nice_ceiling(730) == 800``, ``nice_ceiling(2883) == 3000``."""
    if x <= 0:
        return 1.0
    exp = 10 ** math.floor(math.log10(x))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * exp >= x:
            return float(m * exp)
    return float(10 * exp)
