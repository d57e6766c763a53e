"""View → Compare vocabularies…: two vocabularies side by side in a tab, and "Train further on a corpus…"."""
from __future__ import annotations

from .actions import install

__all__ = ["install"]
