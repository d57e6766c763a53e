"""Exports: charts, merges and vocabularies to files, and pictures for slides (animation, word strip, merge
tree). The window's File menu saves through the functions named here; other features propose their output
folders through :func:`default_folder` and :func:`app_inputs`."""
from __future__ import annotations

from .actions import install
from .files import (CHART_FILTER, VOCAB_FORMATS, app_inputs, ask_tiktoken_pattern, default_folder, export_chart,
                    export_merges_csv, format_for, save_vocabulary, saved)

__all__ = ["install", "CHART_FILTER", "VOCAB_FORMATS", "app_inputs", "ask_tiktoken_pattern", "default_folder",
           "export_chart", "export_merges_csv", "format_for", "save_vocabulary", "saved"]
