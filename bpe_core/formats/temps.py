"""The temp files and journals a save leaves while it runs, and cleaning up after a killed one.

A save (:mod:`bpe_core.formats.atomic`) writes ``.NAME.bpe-lens-tmp-PID-XXXXXXXX`` beside each
target NAME; a save of several files also writes a journal ``.NAME.bpe-lens-tmp-PID-XXXXXXXX.pair``
listing its renames before it starts them. Killed with SIGKILL, it leaves these behind. The
next save of the same target (or a read of a multi-file vocabulary) first finishes the renames
of any journal whose writer is gone, then removes that writer's temp files: the files end up
as the new set, complete, and nothing of ours stays in the folder. Files of a writer that is
still running are left alone (its process id is in the name).

>>> temp_prefix(__import__("pathlib").Path("out/v.json")).startswith(".v.json.bpe-lens-tmp-")
True
"""
from __future__ import annotations

import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import List, Sequence, Tuple, Union

from bpe_core.formats.json_text import parse_json
from bpe_core.types import BPELensError

PathLike = Union[str, "os.PathLike[str]"]
#: marks our temporary files: ``.NAME.bpe-lens-tmp-PID-XXXXXXXX`` next to the target NAME
TEMP_MARK = ".bpe-lens-tmp-"
JOURNAL_SUFFIX = ".pair"
#: temp names of older versions (``.NAME.XXXXXXXX.tmp``), removed when older than this many seconds
LEGACY_TEMP_AGE = 600


def temp_prefix(target: Path) -> str:
    """The start of a temp file's name for ``target``: names the target and this process."""
    return f".{target.name}{TEMP_MARK}{os.getpid()}-"


def write_journal(renames: Sequence[Tuple[str, str]]) -> str:
    """Record ``(temp, target)`` renames durably before the first one is made; the journal's path."""
    first = Path(renames[0][1])
    fd, path = tempfile.mkstemp(prefix=temp_prefix(first), suffix=JOURNAL_SUFFIX, dir=first.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump([[os.path.abspath(t), os.path.abspath(d)] for t, d in renames], out)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        unlink_quietly(path)
        raise
    return path


def finish_renames(renames: Sequence[Tuple[str, str]]) -> bool:
    """Make the renames whose temp file is still there; True when none failed."""
    ok = True
    for tmp, target in renames:
        if os.path.exists(tmp):
            try:
                os.replace(tmp, target)
            except OSError:
                ok = False
    return ok


def finish_interrupted_saves(folder: PathLike) -> List[str]:
    """Finish the renames of every journal in ``folder`` whose writer is gone; the journals done.

    A journal that cannot be read was cut short while being written, before any rename: the
    old files are intact and the journal is just removed (its temp files go with the rest).
    """
    done = []
    for name in _names(folder):
        if TEMP_MARK not in name or not name.endswith(JOURNAL_SUFFIX) or _writer_alive(name):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as f:
                renames = [(str(t), str(d)) for t, d in parse_json(f.read(), path)]
        except (OSError, ValueError, TypeError, BPELensError):
            renames = []
        if finish_renames(renames) and unlink_quietly(path):
            done.append(name)
    return done


def remove_stale_temps(target: PathLike) -> List[str]:
    """Remove what killed saves of ``target`` left beside it (journals finished first); the names.

    Older versions' ``.NAME.XXXXXXXX.tmp`` files are removed once they are ten minutes old.
    """
    t = Path(target)
    folder = t.parent if str(t.parent) else Path(".")
    finish_interrupted_saves(folder)
    ours = f".{t.name}{TEMP_MARK}"
    legacy = re.compile(rf"\.{re.escape(t.name)}\.[A-Za-z0-9_]{{8}}\.tmp")
    removed = []
    for name in _names(folder):
        stale = (name.startswith(ours) and not _writer_alive(name)) or \
            (legacy.fullmatch(name) is not None and _age(folder / name) > LEGACY_TEMP_AGE)
        if stale and unlink_quietly(str(folder / name)):
            removed.append(name)
    return removed


def remove_stale_temps_in(folder: PathLike) -> List[str]:
    """:func:`remove_stale_temps` for every target in ``folder`` (start-up cleaning)."""
    targets = {n[1:n.index(TEMP_MARK)] for n in _names(folder) if n.startswith(".") and TEMP_MARK in n}
    return [r for t in sorted(targets) for r in remove_stale_temps(Path(folder) / t)]


def unlink_quietly(path: str) -> bool:
    """Remove ``path``; False when it could not be (already gone, or no permission)."""
    try:
        os.unlink(path)
        return True
    except OSError:
        return False


def _names(folder: PathLike) -> List[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _writer_alive(name: str) -> bool:
    pid_text = name.split(TEMP_MARK, 1)[-1].split("-", 1)[0]
    if not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True  # another thread's save may be running (a failed save of ours cleans up itself)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's live process: leave its files alone
    return True


def _age(path: Path) -> float:
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0
