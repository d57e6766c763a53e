"""View → Vocabulary health on a corpus…: every token's usage and status, in a tab."""
from __future__ import annotations

from .actions import install
from .reopen import reopen as reopen_health

__all__ = ["install", "reopen_health"]
