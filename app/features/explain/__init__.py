"""Why this split: click a chip, see the word's merges step by step in a dock."""
from __future__ import annotations

from .actions import install

__all__ = ["install"]
