"""Measures: curves over vocabulary size of every run and branch (View → Measures…), as issue 27 asks:
a measure picker, the runs overlaid, a line at the window's merge, the value under the mouse, CSV/PNG/SVG."""
from __future__ import annotations

from .actions import install, show_measures

__all__ = ["install", "show_measures"]
