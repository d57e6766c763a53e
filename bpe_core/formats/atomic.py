"""Write files so that a crash or an error never leaves a half-written vocabulary behind.

The data goes to a temporary file in the *same* folder (``os.replace`` is only atomic within
one file system), is flushed and fsync'ed, and then replaces the target in one step. If
anything fails, the old file is untouched and the temporary file is removed. Temp files are
named ``.NAME.bpe-lens-tmp-PID-XXXXXXXX`` so that a save killed with SIGKILL can be recognised
and cleaned up by the next save of NAME (or :func:`remove_stale_temps_in` at start-up).

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> p = os.path.join(d, "v.txt")
>>> atomic_write_text(p, "héllo\\n")
>>> open(p, encoding="utf-8").read()
'héllo\\n'
>>> sorted(os.listdir(d))
['v.txt']
"""
from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path
from typing import List, Mapping, Tuple, Union

from bpe_core.types import BPELensError

PathLike = Union[str, "os.PathLike[str]"]


#: marks our temporary files: ``.NAME.bpe-lens-tmp-PID-XXXXXXXX`` next to the target NAME
TEMP_MARK = ".bpe-lens-tmp-"
#: temp names of older versions (``.NAME.XXXXXXXX.tmp``), removed when older than this many seconds
LEGACY_TEMP_AGE = 600


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; raise :class:`BPELensError` on I/O failure.

    A symbolic link is written through: its target gets the new data and the link stays.
    """
    atomic_write_files({path: data})


def atomic_write_files(files: Mapping[PathLike, bytes]) -> None:
    """Replace several files as one save: every temp file is written (and fsync'ed) first,
    and only then are they renamed into place, so a full disk or an error at any point leaves
    all the old files as they were. (A kill between two renames, a few microseconds, is the
    one moment a mix can remain.) Stale temp files of the same targets are removed first.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> atomic_write_files({os.path.join(d, "vocab.json"): b"{}", os.path.join(d, "merges.txt"): b""})
    >>> sorted(os.listdir(d))
    ['merges.txt', 'vocab.json']
    """
    plan = [(Path(p), _write_through(Path(p)), data) for p, data in files.items()]
    for shown, target, _ in plan:
        _check_target(shown, target)
    for _, target, _ in plan:
        remove_stale_temps(target)
    written: List[Tuple[str, Path, Path]] = []
    current = plan[0][0] if plan else Path()
    try:
        for current, target, data in plan:
            written.append((_write_temp(current, target, data), target, current))
        while written:
            tmp, target, current = written[0]
            os.replace(tmp, target)
            written.pop(0)
    except BaseException as exc:
        # BaseException: a KeyboardInterrupt mid-write must not leave temp files either.
        for tmp, _, _ in written:
            _unlink(tmp)
        if isinstance(exc, OSError):
            raise BPELensError(f"{current}: write failed ({exc.strerror or exc})") from exc
        raise
    for folder in {target.parent for _, target, _ in plan}:
        _fsync_folder(folder)


def atomic_write_text(path: PathLike, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` encoded as ``encoding``; newlines are written as given."""
    atomic_write_bytes(path, encode_text(path, text, encoding))


def encode_text(path: PathLike, text: str, encoding: str = "utf-8") -> bytes:
    """``text`` as bytes for ``path``; BPELensError naming the file when it cannot be encoded."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise BPELensError(f"{path}: text cannot be encoded as {encoding} ({exc.reason})") from exc


def remove_stale_temps(target: PathLike) -> List[str]:
    """Remove temp files a killed save of ``target`` left beside it; the names removed.

    Ours carry the writer's process id: removed when that process is gone. Older versions'
    ``.NAME.XXXXXXXX.tmp`` files are removed once they are ten minutes old.
    """
    t = Path(target)
    folder = t.parent if str(t.parent) else Path(".")
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    ours, legacy = f".{t.name}{TEMP_MARK}", re.compile(rf"\.{re.escape(t.name)}\.[A-Za-z0-9_]{{8}}\.tmp")
    for name in names:
        stale = (name.startswith(ours) and not _alive(name[len(ours):].split("-")[0])) or \
            (legacy.fullmatch(name) is not None and _age(folder / name) > LEGACY_TEMP_AGE)
        if stale and _unlink(str(folder / name)):
            removed.append(name)
    return removed


def remove_stale_temps_in(folder: PathLike) -> List[str]:
    """:func:`remove_stale_temps` for every target in ``folder`` (for start-up cleaning)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    targets = {n[1:n.index(TEMP_MARK)] for n in names if n.startswith(".") and TEMP_MARK in n}
    return [r for t in sorted(targets) for r in remove_stale_temps(Path(folder) / t)]


def _write_through(path: Path) -> Path:
    # a symlink's target is what gets replaced (os.replace on the link would replace the link)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _check_target(shown: Path, target: Path) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise BPELensError(f"{shown}: folder {folder} does not exist")
    if target.is_dir():
        raise BPELensError(f"{shown}: is a folder, expected a file path")


def _write_temp(shown: Path, target: Path, data: bytes) -> str:
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}{TEMP_MARK}{os.getpid()}-", dir=folder)
    except OSError as exc:
        raise BPELensError(f"{shown}: cannot write in {folder} ({exc.strerror or exc})") from exc
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp creates 0600 files; a vocabulary should get the permissions a normal
        # open() would give it (or keep the old file's mode when replacing one).
        _copy_mode(target, tmp)
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(path: str) -> bool:
    try:
        os.unlink(path)
        return True
    except OSError:
        return False


def _alive(pid_text: str) -> bool:
    if not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False  # our own leftovers: a failed earlier save in this process
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's live process: leave its file alone
    return True


def _age(path: Path) -> float:
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def _copy_mode(target: Path, tmp: str) -> None:
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    os.chmod(tmp, mode)


def _umask() -> int:
    # Reading the umask via os.umask() briefly changes it for every thread; Linux exposes it
    # read-only in /proc, so use that when it is there.
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def _fsync_folder(folder: Path) -> None:
    # Makes the rename itself durable on POSIX; not possible (nor needed) on Windows.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
