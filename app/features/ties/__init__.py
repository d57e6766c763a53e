"""Ties and branches: the tie inspector and the branch list, in a dock."""
from __future__ import annotations

from .actions import install

__all__ = ["install"]
