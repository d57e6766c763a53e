"""The vocabulary inspector: a tab with a vocabulary's token list, the selected token's merge tree and an
encode pane over the same vocabulary; and a vocabulary's token biography on a corpus (View → Token biography…,
or the inspector's button), in a tab of its own."""
from __future__ import annotations

from .biography_actions import install, views as biography_views
from .biography_reopen import analysis_subject, reopen as reopen_biographies
from .pane import InspectorTab
from .token_model import TokenTableModel

__all__ = ["InspectorTab", "TokenTableModel", "analysis_subject", "biography_views", "install", "reopen_biographies"]
