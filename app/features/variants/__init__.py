"""Variants: continue a run as SuperBPE, and compare the runs."""
from __future__ import annotations

from .actions import continue_as_superbpe, install

__all__ = ["continue_as_superbpe", "install"]
