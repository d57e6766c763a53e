"""How ``bpe-lens-cli`` ends with a problem: one line on stderr that names the program and the command.

Like git (``git commit: error: ...``) the line says which command failed, which matters in a script that
runs several; an argument error (argparse's) ends with where the help is. The program is called
``bpe-lens-cli`` however it was started (``python -m bpe_core`` runs the same program).

>>> error_line("train", "c.txt: no such file or folder")
'bpe-lens-cli train: error: c.txt: no such file or folder'
>>> error_line(None, "the following arguments are required: command", usage=True)
"bpe-lens-cli: error: the following arguments are required: command (see 'bpe-lens-cli --help')"
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from bpe_core.base.file_errors import no_such_file
from bpe_core.types import BPELensError

PROG = "bpe-lens-cli"
EXIT_USAGE = 2
#: a reader that closed the pipe (``| head``): the shell's status of coreutils killed by SIGPIPE (128 + 13)
EXIT_PIPE = 141


class UsageError(BPELensError):
    """An argument the parser refused; ``command`` is the subcommand whose parser refused it (None: the
    program's own parser)."""

    def __init__(self, message: str, command: Optional[str] = None) -> None:
        super().__init__(message)
        self.command = command


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors become one :class:`UsageError` line instead of usage + message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        command = None if self._subparsers is not None else self.prog.rsplit(" ", 1)[-1]
        raise UsageError(message, command)


def error_line(command: Optional[str], message: str, *, usage: bool = False) -> str:
    """``bpe-lens-cli COMMAND: error: MESSAGE``, with the help's command after an argument error."""
    who = f"{PROG} {command}" if command else PROG
    hint = f" (see '{who} --help')" if usage else ""
    return f"{who}: error: {message}{hint}"


def report(command: Optional[str], message: str, *, usage: bool = False) -> None:
    """Print :func:`error_line` on stderr (the copy of standard input named as such)."""
    from bpe_core.cli.streams import plain
    print(error_line(command, plain(message), usage=usage), file=sys.stderr)


def command_of(argv: Sequence[str], commands: Sequence[str]) -> Optional[str]:
    """The subcommand named in ``argv`` (the first word that is one), for errors argparse raises
    from the program's parser (``unrecognized arguments``) after the subcommand was chosen."""
    for word in argv:
        if word in commands:
            return word
        if not word.startswith("-"):
            return None
    return None


def os_error_text(exc: OSError) -> str:
    """An OSError in one line that names its file when it has one (never ``: No space left``)."""
    if isinstance(exc, FileNotFoundError) and exc.filename:
        return no_such_file(exc.filename)
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason
