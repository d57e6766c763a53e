"""The command line: ``python -m bpe_core {train,encode,inspect,convert,replay}``."""
from bpe_core.cli.commands import main, run_console

__all__ = ["main", "run_console"]
