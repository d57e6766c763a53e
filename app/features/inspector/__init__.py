"""The vocabulary inspector: a tab with a vocabulary's token list, the selected token's merge tree and an
encode pane over the same vocabulary; and a vocabulary's token biography on a corpus (View → Token biography…,
or the inspector's button), in a tab of its own."""
from __future__ import annotations

from .biography_actions import install, views as biography_views
from .biography_reopen import reopen as reopen_biographies, reopenable
from .pane import InspectorTab
from .token_model import TokenTableModel

__all__ = ["InspectorTab", "TokenTableModel", "biography_views", "install", "reopen_biographies", "reopenable"]
