from bpe_core.cli.commands import run_console

run_console()
