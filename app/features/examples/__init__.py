"""The examples: corpora opened with their own preset, and guided ones that go on to their measures."""
from __future__ import annotations

from .catalog import EXAMPLES, EXAMPLES_DIR, Example
from .opening import open_example
from .own_settings import own_config

__all__ = ["EXAMPLES", "EXAMPLES_DIR", "Example", "open_example", "own_config"]
