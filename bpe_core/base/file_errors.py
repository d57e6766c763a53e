"""What BPE Lens says about a file it cannot read: one wording for each kind of problem.

Corpus files, vocabulary files, workspaces and word-count tables are read by different stages, and a
user should meet the same sentence for the same problem whichever of them reads the file:

* a path where nothing is: :func:`no_such_file` (``PATH: no such file or folder``);
* a file the system refuses to read: :func:`read_error`, which also turns a missing file into the
  sentence above (the one call for an ``except OSError``);
* bytes that are not UTF-8: :func:`not_utf8` (where the first bad byte is);
* UTF-16 or UTF-32 text where UTF-8 is read: :func:`wide_text_message`, with the ``iconv`` command
  that converts it; a binary file: :func:`binary_file`, and :func:`not_text_message` for either.

>>> no_such_file("corpus/notes.txt")
'corpus/notes.txt: no such file or folder'
>>> str(read_error("v.json", PermissionError(13, "Permission denied")))
'v.json: cannot read (Permission denied)'
>>> not_utf8("latin1.txt", 3), binary_file("image.txt", 8)
('latin1.txt: not valid UTF-8 at byte 3', 'image.txt: looks like a binary file (NUL byte at byte 8), not text')
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Tuple, Union

from bpe_core.types import BPELensError

PathLike = Union[str, "os.PathLike[str]"]


def no_such_file(path: PathLike) -> str:
    """The one line for a path where there is no file (nor folder)."""
    return f"{os.fspath(path)}: no such file or folder"


def read_error(path: PathLike, exc: OSError) -> BPELensError:
    """The error to raise when reading ``path`` failed with ``exc``: no such file, or why it cannot be read."""
    if isinstance(exc, FileNotFoundError):
        return BPELensError(no_such_file(path))
    return BPELensError(f"{os.fspath(path)}: cannot read ({exc.strerror or exc})")


def not_utf8(name: PathLike, at: int, detail: str = "") -> str:
    """The one line for bytes that are not UTF-8 text: the first bad byte's offset, then ``detail`` (what
    the byte is, what to do)."""
    return f"{os.fspath(name)}: not valid UTF-8 at byte {at}{detail}"


def binary_file(name: PathLike, at: int) -> str:
    """The one line for a binary file where text is read: ``at`` is its first NUL byte's offset."""
    return f"{os.fspath(name)}: looks like a binary file (NUL byte at byte {at}), not text"


#: byte-order marks of the wide Unicode encodings (UTF-32's first: it starts like UTF-16's)
_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32", "little-endian"), (b"\x00\x00\xfe\xff", "UTF-32", "big-endian"),
              (b"\xff\xfe", "UTF-16", "little-endian"), (b"\xfe\xff", "UTF-16", "big-endian"))


#: UTF-16 without a byte-order mark is taken for text only with this many NULs on one side at least
#: (``b"abc\0def"`` is binary)
_WIDE_NULS = 4


def wide_encoding(head: bytes) -> Optional[Tuple[str, str]]:
    """``(iconv's name, what was seen)`` when a file's first bytes are UTF-16 or UTF-32 text; else None.

    Seen by a byte-order mark, or (UTF-16 without one) by NULs at every other byte: ASCII characters in
    UTF-16 are a letter and a NUL, on odd bytes (little-endian) or even ones (big-endian), where text
    in UTF-8 has none and binary data has them anywhere.

    >>> wide_encoding("\\ufeffhello".encode("utf-16-le")), wide_encoding("hello world".encode("utf-16-be"))
    (('UTF-16', 'UTF-16 (little-endian, with a byte-order mark)'), ('UTF-16BE', 'UTF-16 (big-endian, no byte-order mark)'))
    >>> wide_encoding(b"hello"), wide_encoding(bytes(range(256))), wide_encoding(b"abc\\0def")
    (None, None, None)
    """
    for bom, name, order in _WIDE_BOMS:
        if head.startswith(bom):
            return name, f"{name} ({order}, with a byte-order mark)"
    pairs = len(head) // 2
    even, odd = head[0:2 * pairs:2].count(0), head[1:2 * pairs:2].count(0)
    for nuls, other, codec, order in ((odd, even, "UTF-16LE", "little-endian"), (even, odd, "UTF-16BE", "big-endian")):
        if nuls >= max(_WIDE_NULS, pairs * 3 / 10) and other * 50 <= pairs and _reads_as(head[:2 * pairs], codec):
            return codec, f"UTF-16 ({order}, no byte-order mark)"
    return None


def _reads_as(head: bytes, codec: str) -> bool:
    """Whether ``head`` decodes as ``codec`` into text (few control characters), its end maybe cut."""
    for cut in (head, head[:-2]):  # the sniffed bytes may end inside a surrogate pair
        try:
            text = cut.decode(codec)
        except UnicodeDecodeError:
            continue
        controls = sum(1 for c in text if c < " " and c not in "\t\n\r\f\v")
        return controls * 100 <= len(text)
    return False


_UNPACK = {"gzip": "zcat", "bzip2": "bzcat", "xz": "xzcat", "zstd": "zstdcat"}


def wide_text_message(name: str, head: bytes, path: Optional[PathLike] = None,
                      packed: str = "text") -> Optional[str]:
    """What to tell about a UTF-16/UTF-32 file (BPE Lens reads UTF-8) and how to convert it; None if
    it is not one. ``path`` (default ``name``) is the file in the ``iconv`` command shown; ``packed``
    its compression (``head`` is then the decompressed start), which the command undoes first.

    BPE Lens does not read these itself: a corpus is counted in blocks cut at newline bytes, in
    parallel, with byte offsets in every message, which all assume UTF-8; converting once is one
    command, and the converted file is then read like any other.

    >>> print(wide_text_message("notes.txt", "\\ufeffhi".encode("utf-16-le")))
    notes.txt: UTF-16 (little-endian, with a byte-order mark) text, not UTF-8; BPE Lens reads UTF-8 text: convert it with  iconv -f UTF-16 -t UTF-8 notes.txt > notes-utf8.txt
    """
    found = wide_encoding(head)
    if found is None:
        return None
    import shlex

    source = Path(path if path is not None else name)
    inner = source.with_suffix("") if packed in _UNPACK else source
    out = inner.with_name(f"{inner.stem}-utf8{inner.suffix}")
    iconv = f"iconv -f {found[0]} -t UTF-8"
    command = (f"{_UNPACK[packed]} {shlex.quote(str(source))} | {iconv}" if packed in _UNPACK
               else f"{iconv} {shlex.quote(str(source))}")
    return (f"{name}: {found[1]} text, not UTF-8; BPE Lens reads UTF-8 text: convert it with  "
            f"{command} > {shlex.quote(str(out))}")


def not_text_message(name: str, head: bytes, path: Optional[PathLike] = None,
                     packed: str = "text") -> Optional[str]:
    """The one line for a corpus whose first bytes are not UTF-8 text: UTF-16/UTF-32 (and how to
    convert), or a binary file (its first NUL byte); None when neither."""
    wide = wide_text_message(name, head, path, packed)
    if wide is not None:
        return wide
    if b"\0" in head:
        return binary_file(name, head.index(bytes(1)))
    return None
