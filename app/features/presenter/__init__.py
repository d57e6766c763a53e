"""Presenter mode (F11): full screen, large type, only what a room needs."""
from __future__ import annotations

from .window import PresenterWindow

__all__ = ["PresenterWindow"]
