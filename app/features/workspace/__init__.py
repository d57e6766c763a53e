"""Workspaces: save and open the whole window's state, recent workspaces, autosave and crash restore."""
from __future__ import annotations

from .actions import install, start

__all__ = ["install", "start"]
