"""Variants: continue a run as SuperBPE, and compare the runs."""
from __future__ import annotations

from .actions import install

__all__ = ["install"]
