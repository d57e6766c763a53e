"""Measures: curves over vocabulary size of every run and branch (View → Measures…), as issue 27 asks:
a measure picker, the runs overlaid, a line at the window's merge, the value under the mouse, CSV/PNG/SVG.
The tab is part of the workspace (:mod:`.reopen`)."""
from __future__ import annotations

from .actions import install, show_measures
from .reopen import reopen as reopen_measures, saved_analysis as saved_measures

__all__ = ["install", "reopen_measures", "saved_measures", "show_measures"]
