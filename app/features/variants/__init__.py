"""Variants: continue a run as SuperBPE, and compare the runs."""
from __future__ import annotations

from .actions import add_run_beside, continue_as_superbpe, install

__all__ = ["add_run_beside", "continue_as_superbpe", "install"]
