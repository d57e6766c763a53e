"""The example corpora, each opened with its own reference document's preset."""
from __future__ import annotations

from .catalog import EXAMPLES, EXAMPLES_DIR, Example

__all__ = ["EXAMPLES", "EXAMPLES_DIR", "Example"]
