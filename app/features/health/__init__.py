"""View → Vocabulary health on a corpus…: every token's usage and status, in a tab."""
from __future__ import annotations

from .actions import install

__all__ = ["install"]
