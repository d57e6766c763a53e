"""The vocabulary inspector: a tab with a vocabulary's token list, the selected token's merge tree and an
encode pane over the same vocabulary."""
from __future__ import annotations

from .pane import InspectorTab
from .token_model import TokenTableModel

__all__ = ["InspectorTab", "TokenTableModel"]
