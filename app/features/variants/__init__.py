"""Variants: continue a run as SuperBPE, and compare the runs."""
from __future__ import annotations

from .actions import add_run_beside, continue_as_superbpe, install
from .pane import run_name

__all__ = ["add_run_beside", "continue_as_superbpe", "install", "run_name"]
