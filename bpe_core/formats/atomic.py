"""Write files so that a crash or an error never leaves a half-written vocabulary behind.

The data goes to a temporary file in the *same* folder (``os.replace`` is only atomic within
one file system), is flushed and fsync'ed, and then replaces the target in one step. If
anything fails, the old file is untouched and the temporary file is removed.

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
import tempfile
from pathlib import Path
from typing import Union

from bpe_core.types import BPELensError

PathLike = Union[str, "os.PathLike[str]"]


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; raise :class:`BPELensError` on I/O failure."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise BPELensError(f"{target}: folder {folder} does not exist")
    if target.is_dir():
        raise BPELensError(f"{target}: is a folder, expected a file path")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise BPELensError(f"{target}: cannot write in {folder} ({exc.strerror or exc})") from exc
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp creates 0600 files; a vocabulary should get the permissions a normal
        # open() would give it (or keep the old file's mode when replacing one).
        _copy_mode(target, tmp)
        os.replace(tmp, target)
    except BaseException as exc:
        # BaseException: a KeyboardInterrupt mid-write must not leave the temp file either.
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise BPELensError(f"{target}: write failed ({exc.strerror or exc})") from exc
        raise
    _fsync_folder(folder)


def atomic_write_text(path: PathLike, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` encoded as ``encoding``; newlines are written as given."""
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise BPELensError(f"{path}: text cannot be encoded as {encoding} ({exc.reason})") from exc
    atomic_write_bytes(path, data)


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
