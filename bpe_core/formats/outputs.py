"""Check where a result will be written *before* any work starts, and that it replaces no input.

Training for an hour and then failing on ``-o /proc/x`` loses the hour; ``train c.txt -o c.txt``
would replace the corpus with the vocabulary. Both are refused up front, in one line. Links
count: an output that is an input through a symlink or a hard link is refused too.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> corpus = os.path.join(d, "c.txt")
>>> _ = open(corpus, "w").write("a b")
>>> check_output(os.path.join(d, "c.json"), inputs=[corpus])
>>> check_output(corpus, inputs=[corpus])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bpe_core.types.BPELensError: ...c.txt: is an input of this command; an output never replaces an input
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterable, List, Mapping, Optional, Union

from bpe_core.types import BPELensError

PathLike = Union[str, "os.PathLike[str]"]
#: kernel file systems: nothing of ours belongs there (and writes fail only after the work)
SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")
#: names of the terminal or a pipe: an output is written to a temp file renamed in, which they cannot take.
#: Standard output has one spelling, ``-`` (as in cat and git): portable, and never standard error.
STANDARD_STREAMS = ("/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/", "/proc/self/fd/")
#: standard output (the CLI's ``-o -``): not a file, so no file checks; the atomic writer prints it
STDOUT = "-"


def check_output(path: PathLike, *, inputs: Iterable[PathLike] = (), folder: bool = False,
                 outputs: Mapping[str, PathLike] = {}, binary: Optional[str] = None) -> None:
    """Raise :class:`BPELensError` when ``path`` cannot take the output or would replace an input.

    The one gate of every file BPE Lens writes (the CLI's outputs and the app's exports), run before
    any work. ``inputs``: every file this run reads (corpora, ``--from``, vocabularies, tables);
    one of them as ``path`` is refused, also through a symlink or a hard link. ``outputs``: the
    run's other outputs by the option that names them (``{"-o": "v.json"}``); ``path`` may not be one
    of them either. ``folder``: the output is a folder of files (created with its parents when
    missing), else a file whose folder must exist.

    ``-`` is standard output (see :func:`check_stdout`); ``binary`` names the output's binary format
    (``"a GIF"``), which a terminal is spared.
    """
    shown = os.fspath(path)
    if not shown.strip():
        raise BPELensError("the output path is empty")
    if shown == STDOUT:
        if folder:
            raise BPELensError("-: standard output takes one file, and this output is a folder of files: "
                               "give a folder")
        check_stdout(outputs=outputs, binary=binary)
        return
    if shown.startswith(STANDARD_STREAMS):
        raise BPELensError(f"{shown}: is standard output or a terminal, not a file; BPE Lens writes a file "
                           "through a temp file renamed into place (nothing half-written): give a file path, "
                           "or '-' for standard output")
    real = os.path.realpath(shown)
    for root in SYSTEM_FOLDERS:
        if real == root or real.startswith(root + os.sep):
            raise BPELensError(f"{shown}: is under {root}, a system folder; choose a path in your own folders")
    if folder:
        _check_folder_output(shown, Path(real))
    else:
        _check_file_output(shown, Path(real))
    for flag, other in outputs.items():
        if other and same_file(real, other):
            raise BPELensError(f"{shown}: is the same file as {flag}; give each output a path of its own")
    for given in inputs:
        if same_file(real, given):
            raise BPELensError(f"{shown}: is an input of this command; an output never replaces an input")


def check_stdout(*, outputs: Mapping[str, PathLike] = {}, binary: Optional[str] = None) -> None:
    """Raise :class:`BPELensError` when standard output cannot take this output: another output of the run
    goes there already, or the data is binary and standard output is a terminal (as git and curl refuse)."""
    for flag, other in outputs.items():
        if other is not None and os.fspath(other) == STDOUT:
            raise BPELensError(f"-: standard output is {flag} already; give each output a path of its own")
    if binary and _stdout_is_terminal():
        raise BPELensError(f"-: refusing to write binary data ({binary}) to a terminal; redirect standard "
                           "output to a file or a pipe, or give a file path")


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (AttributeError, ValueError):  # replaced by an object without isatty, or closed
        return False


def check_save(path: PathLike, fmt: str, *, inputs: Iterable[PathLike] = ()) -> None:
    """:func:`check_output` for every file that saving as ``fmt`` to ``path`` writes.

    ``vocab-merges`` writes two files and ``seed000`` a folder of three (see
    :func:`bpe_core.formats.detect.write_vocabulary`); their folder may not exist yet.
    """
    inputs = list(inputs)
    if os.fspath(path) == STDOUT:
        if fmt in ("seed000", "vocab-merges"):
            raise BPELensError(f"-: {fmt} writes several files and standard output takes one: give a folder")
        check_output(path)
        return
    if fmt == "seed000":
        from bpe_core.formats.seed000_trio import FILES
        check_output(path, folder=True)
        files = [os.path.join(os.fspath(path), name) for name in FILES]
    elif fmt == "vocab-merges":
        from bpe_core.formats.writers import vocab_merges_paths
        files = [os.fspath(p) for p in vocab_merges_paths(path)]
        check_output(os.path.dirname(files[0]) or ".", folder=True)
    else:
        check_output(path)
        files = [os.fspath(path)]
    for name in files:
        if os.path.isdir(name):
            raise BPELensError(f"{name}: is a folder, expected a file path")
        for given in inputs:
            if same_file(name, given):
                raise BPELensError(f"{name}: is an input of this command; an output never replaces an input")


def same_file(a: PathLike, b: PathLike) -> bool:
    """True when ``a`` and ``b`` are one file (also through symlinks and hard links)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): compare where they point
        return os.path.realpath(a) == os.path.realpath(b)


def _check_file_output(shown: str, real: Path) -> None:
    parent = real.parent
    if real.is_dir():
        raise BPELensError(f"{shown}: is a folder, expected a file path")
    if not parent.is_dir():
        raise BPELensError(f"{shown}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):  # the save renames a temp file in: the folder counts
        raise BPELensError(f"{shown}: folder {parent} is not writable")


def _check_folder_output(shown: str, real: Path) -> None:
    if real.exists() and not real.is_dir():
        raise BPELensError(f"{shown}: exists and is not a folder")
    existing = real
    while not existing.exists():  # the nearest folder that exists is where the new ones go
        existing = existing.parent
    if not existing.is_dir():
        raise BPELensError(f"{shown}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BPELensError(f"{shown}: folder {existing} is not writable")


def vocabulary_inputs(path: PathLike) -> List[str]:
    """The files reading the vocabulary at ``path`` may open: the path, a folder's vocabulary files,
    a ``*vocab.json``'s ``merges.txt``: none of them may be an output of the same run."""
    from bpe_core.formats.seed000_trio import FILES
    from bpe_core.formats.writers import vocab_merges_paths
    found = files_in([path], [*FILES, "tokenizer.json", "vocab.json", "merges.txt", "encoder.json", "vocab.bpe"])
    if os.fspath(path).lower().endswith(".json") and os.path.isfile(path):
        found.append(os.fspath(vocab_merges_paths(path)[1]))
    return found


def files_in(paths: Iterable[PathLike], names: Iterable[str]) -> List[str]:
    """``paths`` plus, for each folder among them, its files called one of ``names``."""
    names = list(names)
    out: List[str] = []
    for p in paths:
        out.append(os.fspath(p))
        if os.path.isdir(p):
            out += [os.path.join(p, n) for n in names if os.path.isfile(os.path.join(p, n))]
    return out
