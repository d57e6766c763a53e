"""View → Theme: System, Light or Dark, applied at once and remembered."""
from __future__ import annotations

from .actions import install

__all__ = ["install"]
