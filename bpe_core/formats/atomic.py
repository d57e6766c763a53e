"""Write files so that a crash or an error never leaves a half-written vocabulary behind.

The data goes to a temporary file in the *same* folder (``os.replace`` is only atomic within
one file system), is flushed and fsync'ed, and then replaces the target in one step. If
anything fails, the old file is untouched and the temporary file is removed. Temp files are
named ``.NAME.bpe-lens-tmp-PID-XXXXXXXX`` so that a save killed with SIGKILL can be recognised
and cleaned up by the next save of NAME (:mod:`bpe_core.formats.temps`).

The path ``-`` is standard output (the command line's ``-o -``): it is no file, so nothing is renamed;
the whole output is made first and then written in one go, so a failed run prints no half file.

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

import io
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator, List, Mapping, Tuple, Union

from bpe_core.formats.temps import finish_renames, remove_stale_temps, temp_prefix, unlink_quietly, write_journal
from bpe_core.types import BPELensError

PathLike = Union[str, "os.PathLike[str]"]
#: how a temp file is reopened for writing (binary on Windows: no newline translation below Python)
_WRITE_FLAGS = os.O_WRONLY | os.O_TRUNC | getattr(os, "O_BINARY", 0)


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; raise :class:`BPELensError` on I/O failure.

    A symbolic link is written through: its target gets the new data and the link stays.
    """
    atomic_write_files({path: data})


def atomic_write_files(files: Mapping[PathLike, bytes]) -> None:
    """Replace several files as one save (vocab.json + merges.txt, seed 000's three tables).

    Every temp file is written and fsync'ed first, so a full disk or an error leaves all the
    old files as they were. Then a journal lists the renames, the files are renamed, and the
    journal is removed: a kill between two renames leaves the journal, and the next save or
    read of that folder finishes the renames (:func:`~bpe_core.formats.temps.finish_interrupted_saves`),
    so what is read is always the old set or the new one, never a mix.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> atomic_write_files({os.path.join(d, "vocab.json"): b"{}", os.path.join(d, "merges.txt"): b""})
    >>> sorted(os.listdir(d))
    ['merges.txt', 'vocab.json']
    """
    if any(_is_stdout(p) for p in files):
        if len(files) > 1:
            raise BPELensError("-: standard output takes one file, not a set of several")
        write_stdout(next(iter(files.values())))
        return
    plan = [(Path(p), _write_through(Path(p)), data) for p, data in files.items()]
    for shown, target, _ in plan:
        _check_target(shown, target)
    for _, target, _ in plan:
        remove_stale_temps(target)
    written: List[Tuple[str, Path, Path]] = []
    journal = None
    current = plan[0][0] if plan else Path()
    try:
        for current, target, data in plan:
            written.append((_write_temp(current, target, data), target, current))
        if len(written) > 1:
            journal = write_journal([(tmp, str(target)) for tmp, target, _ in written])
        while written:
            tmp, target, current = written[0]
            os.replace(tmp, target)
            written.pop(0)
    except BaseException as exc:
        # BaseException: a KeyboardInterrupt mid-write must not leave temp files either.
        if journal is not None and len(written) < len(plan):  # renaming had begun: finish it
            if finish_renames([(tmp, str(target)) for tmp, target, _ in written]):
                unlink_quietly(journal)
        else:
            for tmp, _, _ in written:
                unlink_quietly(tmp)
            if journal is not None:
                unlink_quietly(journal)
        if isinstance(exc, OSError):
            raise _failed(current, exc) from exc
        raise
    if journal is not None:
        unlink_quietly(journal)
    for folder in {target.parent for _, target, _ in plan}:
        _fsync_folder(folder)


def atomic_write_text(path: PathLike, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` encoded as ``encoding``; newlines are written as given."""
    atomic_write_bytes(path, encode_text(path, text, encoding))


@contextmanager
def atomic_output(path: PathLike, mode: str = "wb", **open_args) -> Iterator[IO]:
    """A file object for writing ``path`` piece by piece (a report written while training, Pillow's
    frames): it is a temp file beside ``path``, fsync'ed and renamed in when the block ends.

    An error inside the block, or while writing, removes the temp file and keeps the old ``path``;
    an ``OSError`` becomes one :class:`BPELensError` line naming ``path``.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with atomic_output(os.path.join(d, "r.jsonl"), "w", encoding="utf-8") as out:
    ...     _ = out.write("{}\\n")
    >>> sorted(os.listdir(d))
    ['r.jsonl']
    """
    if _is_stdout(path):  # made in memory, printed when the block ends
        buf = io.BytesIO()
        out = buf if "b" in mode else io.TextIOWrapper(buf, **open_args)
        yield out
        out.flush()
        write_stdout(buf.getvalue())
        return
    with atomic_output_path(path) as tmp:
        try:
            out = os.fdopen(os.open(tmp, _WRITE_FLAGS), mode, **open_args)
        except OSError as exc:
            raise _failed(path, exc) from exc
        with out:
            yield out
            out.flush()
            os.fsync(out.fileno())


@contextmanager
def atomic_output_path(path: PathLike) -> Iterator[str]:
    """The path of a temp file beside ``path`` for a writer that wants a file name (ffmpeg); when
    the block ends it is fsync'ed and renamed to ``path``. Errors as in :func:`atomic_output`.
    For ``-``, the temp file is in the temp folder, and printed to standard output at the end."""
    if _is_stdout(path):
        fd, tmp = tempfile.mkstemp(prefix="bpe-lens-stdout-")
        os.close(fd)
        try:
            yield tmp
            with open(tmp, "rb") as made:
                write_stdout(made.read())
        finally:
            unlink_quietly(tmp)
        return
    shown = Path(path)
    target = _write_through(shown)
    _check_target(shown, target)
    remove_stale_temps(target)
    tmp = _make_temp(shown, target)
    try:
        yield tmp
        _fsync_file(tmp)
        _copy_mode(target, tmp)
        os.replace(tmp, target)
    except BaseException as exc:
        unlink_quietly(tmp)
        if isinstance(exc, OSError):
            raise _failed(path, exc) from exc
        raise
    _fsync_folder(target.parent if str(target.parent) else Path("."))


def _is_stdout(path: PathLike) -> bool:
    return os.fspath(path) == "-"


def write_stdout(data: bytes) -> None:
    """``data`` to standard output as it is (bytes: no newline or encoding change); a closed pipe
    raises ``BrokenPipeError`` for the command line's entry point to end quietly."""
    sys.stdout.flush()  # what was printed before comes first
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # a text-only replacement (tests, notebooks)
        sys.stdout.write(data.decode("utf-8", "surrogateescape"))
        sys.stdout.flush()
        return
    out.write(data)
    out.flush()


def _failed(path: PathLike, exc: OSError) -> BPELensError:
    return BPELensError(f"{path}: write failed ({exc.strerror or exc})")


def encode_text(path: PathLike, text: str, encoding: str = "utf-8") -> bytes:
    """``text`` as bytes for ``path``; BPELensError naming the file when it cannot be encoded."""
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise BPELensError(f"{path}: text cannot be encoded as {encoding} ({exc.reason})") from exc


def _write_through(path: Path) -> Path:
    # a symlink's target is what gets replaced (os.replace on the link would replace the link)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _check_target(shown: Path, target: Path) -> None:
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise BPELensError(f"{shown}: folder {folder} does not exist")
    if target.is_dir():
        raise BPELensError(f"{shown}: is a folder, expected a file path")


def _make_temp(shown: Path, target: Path) -> str:
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target), dir=folder)
    except OSError as exc:
        raise BPELensError(f"{shown}: cannot write in {folder} ({exc.strerror or exc})") from exc
    os.close(fd)
    return tmp


def _fsync_file(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(shown: Path, target: Path, data: bytes) -> str:
    tmp = _make_temp(shown, target)
    try:
        with os.fdopen(os.open(tmp, _WRITE_FLAGS), "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp creates 0600 files; a vocabulary should get the permissions a normal
        # open() would give it (or keep the old file's mode when replacing one).
        _copy_mode(target, tmp)
    except BaseException:
        unlink_quietly(tmp)
        raise
    return tmp


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
