"""Exports: charts, merges and vocabularies to files, and pictures for slides (animation, word strip, merge
tree). Other features propose their output folders through :func:`default_folder` and :func:`app_inputs`."""
from __future__ import annotations

from .actions import install
from .files import app_inputs, ask_tiktoken_pattern, default_folder

__all__ = ["install", "app_inputs", "ask_tiktoken_pattern", "default_folder"]
