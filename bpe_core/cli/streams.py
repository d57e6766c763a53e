"""``-`` on the command line: standard input for a file argument, standard output for an output.

Tools users know (cat, git, tokenizers' scripts) read standard input and write standard output when a
file argument is ``-``. Each file argument of ``bpe-lens-cli`` is marked when its parser is built
(:func:`mark_input`, :func:`mark_output`); before a command runs, :func:`take_stdin` copies standard
input into a temp file named ``standard input`` for the one argument that is ``-`` (the readers check
sizes, sniff formats and read a corpus twice: a pipe allows none of that), and the temp file is
removed when the command ends. An output ``-`` is written by the atomic writer to standard output
(:mod:`bpe_core.formats.atomic`), after the whole output was made: a failed run prints no half file.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from typing import Iterable, List, Optional

from bpe_core.types import BPELensError

STDIO = "-"
#: the spooled copy's file name: messages that name the file read "standard input: ..."
STDIN_NAME = "standard input"


def mark_input(action: argparse.Action) -> argparse.Action:
    """Mark an argument that names a file (or files) read: ``-`` there is standard input."""
    action.stdio = "in"  # type: ignore[attr-defined]
    return action


def mark_output(action: argparse.Action) -> argparse.Action:
    """Mark an argument that names a file written: ``-`` there is standard output."""
    action.stdio = "out"  # type: ignore[attr-defined]
    return action


def file_actions(parser: argparse.ArgumentParser, kind: str) -> List[argparse.Action]:
    """The arguments of ``parser`` marked ``kind`` ("in" or "out")."""
    return [a for a in parser._actions if getattr(a, "stdio", None) == kind]


class _Spool:
    """The temp copy of standard input of this command (at most one)."""

    folder: Optional[str] = None
    path: Optional[str] = None


def take_stdin(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Replace the input argument of ``args`` that is ``-`` by a temp copy of standard input.

    Standard input can be read once: ``-`` for two inputs (``diff - -``) is refused before reading.
    """
    given = [(a, i) for a in file_actions(parser, "in") for i, v in enumerate(_values(getattr(args, a.dest, None)))
             if v == STDIO]
    if not given:
        return
    if len(given) > 1:
        names = ", ".join(_flag(a) for a, _ in given)
        raise BPELensError(f"'-' is standard input, which can be read once: give '-' for one input only ({names})")
    action, index = given[0]
    path = spool_stdin()
    value = getattr(args, action.dest)
    if isinstance(value, list):
        value = list(value)
        value[index] = path
        setattr(args, action.dest, value)
    else:
        setattr(args, action.dest, path)


def _values(value) -> Iterable[object]:
    return value if isinstance(value, list) else [value]


def _flag(action: argparse.Action) -> str:
    return "/".join(action.option_strings) or (action.metavar or action.dest)  # type: ignore[return-value]


def spool_stdin() -> str:
    """Copy standard input into a temp file and return its path (removed by :func:`release`)."""
    if _Spool.path is not None:
        raise BPELensError("standard input was read already: give '-' for one input only")
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise BPELensError("'-' is standard input, and this process has none")
    folder = tempfile.mkdtemp(prefix="bpe-lens-stdin-")
    path = os.path.join(folder, STDIN_NAME)
    _Spool.folder, _Spool.path = folder, path
    try:
        with open(path, "wb") as out:
            shutil.copyfileobj(stream, out, 1 << 20)
    except OSError as exc:
        release()
        raise BPELensError(f"standard input: cannot copy it to {folder} ({exc.strerror or exc})") from None
    return path


def stdin_taken() -> bool:
    """Whether an input argument ``-`` has read standard input already."""
    return _Spool.path is not None


def shown(path) -> str:
    """``path`` as the user gave it: ``-`` for the copy of standard input."""
    text = os.fspath(path) if path is not None else ""
    return STDIO if _Spool.path is not None and text == _Spool.path else text


def plain(message: str) -> str:
    """``message`` with the temp copy's path said as ``standard input``."""
    if _Spool.path is not None:
        message = message.replace(_Spool.path, STDIN_NAME)
    return message


def release() -> None:
    """Remove the copy of standard input (at the end of the command)."""
    if _Spool.folder is not None:
        shutil.rmtree(_Spool.folder, ignore_errors=True)
    _Spool.folder = _Spool.path = None


def output_name(path) -> str:
    """How a status line names an output: ``standard output`` for ``-``."""
    text = os.fspath(path)
    return "standard output" if text == STDIO else text


def silence_closed_pipes() -> None:
    """Point stdout and stderr at os.devnull (the Python docs' recipe for a closed pipe): what is still
    buffered for the closed pipe is dropped instead of failing again at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass


class StatusStream:
    """stderr for status only: when its reader is gone (``2>&1 | head``, a closed log pipe), the lines are
    dropped and the command goes on. Losing a progress line must never lose the training it reports on;
    the data on stdout (or in the files) is what the command is for."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self.closed_pipe = False

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._drop()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._drop()

    def _drop(self) -> None:
        self.closed_pipe = True
        try:  # what is still buffered for the pipe goes to os.devnull, not to a failing flush at exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
