"""Open a corpus file and read it as blocks of bytes cut at safe places.

A corpus is a regular file of UTF-8 text, plain or compressed (.gz/.bz2/.xz, and .zst with the ``zstd`` extra,
which installs ``zstandard``; recognised by magic bytes). Blocks end after a ``\\n`` (UTF-8 never has byte 0x0A inside a character), so each block
decodes on its own, a decode error knows its real offset, and blocks can be counted in other
processes and merged in order; for pre-tokenizers that allow it, a huge line is also cut before a
space (see :meth:`Source.blocks`). Every problem raises a one-line
:class:`~bpe_core.types.BPELensError` that starts with the file name; UTF-16 or UTF-32 text is named
as such, with the ``iconv`` command that converts it (:func:`wide_text_message`).
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import re
import stat
import zlib
from pathlib import Path
from typing import Callable, Dict, Iterator, Optional, Tuple, Union

import regex

from bpe_core.types import BPELensError, Cancelled

PathLike = Union[str, "os.PathLike[str]"]
CancelFn = Optional[Callable[[], bool]]

BINARY_SNIFF_BYTES = 8192
_BOM = b"\xef\xbb\xbf"
# gzip, xz, and bzip2 = "BZh" + level + the block or end-of-stream magic (so a text that starts
# with "BZh" stays text).
_MAGIC = ((re.compile(rb"\x1f\x8b"), "gzip"), (re.compile(rb"\xfd7zXZ\x00"), "xz"),
          (re.compile(rb"BZh[1-9](?:\x31\x41\x59\x26\x53\x59|\x17\x72\x45\x38\x50\x90)"), "bzip2"),
          (re.compile(rb"\x28\xb5\x2f\xfd"), "zstd"))
_CORRUPT = (OSError, EOFError, zlib.error, lzma.LZMAError)
#: the last place in a long line where a ``cut_at_space`` pre-tokenizer may be cut: a space after
#: an ASCII letter or digit (both single bytes in UTF-8, so both sides decode on their own)
_LAST_SPACE_CUT = regex.compile(rb"[A-Za-z0-9](?= )", regex.REVERSE)

_SPECIAL_FILES = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                  (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _refuse_special(p: Path, name: str) -> None:
    """Refuse a pipe, socket or device before opening it: opening a FIFO blocks until a writer
    comes (forever, past any Cancel), and a device may never end. A corpus is a regular file."""
    try:
        mode = os.stat(p).st_mode
    except OSError:
        return  # open() names the problem
    if stat.S_ISDIR(mode):
        raise BPELensError(f"{name}: is a folder, not a file")
    kind = next((k for test, k in _SPECIAL_FILES if test(mode)), None)
    if kind is not None:
        raise BPELensError(f"{name}: is {kind}, not a regular file; save its text to a file and open that")


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
        return f"{name}: looks like a binary file (NUL byte at byte {head.index(bytes(1))}), not text"
    return None


class _ZstdFrames:
    """Zstandard frames one after another, as ``read(n)``: unlike zstandard's ``stream_reader``, a
    truncated last frame raises (it read as an empty or shorter file, silently)."""

    def __init__(self, raw: io.BufferedReader, zstandard) -> None:  # type: ignore[no-untyped-def]
        self.raw, self.zstd, self.buf = raw, zstandard, bytearray()
        self.obj, self.fed = zstandard.ZstdDecompressor().decompressobj(), False

    def read(self, n: int) -> bytes:
        while len(self.buf) < n:
            data = self.raw.read(1 << 17)
            if not data:
                if self.fed and not self.obj.eof:
                    raise self.zstd.ZstdError("the last frame is truncated")
                break
            while data:
                if self.obj.eof:  # the next frame
                    self.obj, self.fed = self.zstd.ZstdDecompressor().decompressobj(), False
                self.fed = True
                self.buf += self.obj.decompress(data)
                data = self.obj.unused_data if self.obj.eof else b""
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def close(self) -> None:
        pass  # the raw file is closed by its Source


class Source:
    """An opened corpus: raw blocks of (decompressed) bytes, each ending at a line boundary."""

    def __init__(self, path: PathLike) -> None:
        p = Path(path)
        self.name, self.path = p.name or str(p), p
        _refuse_special(p, self.name)
        try:
            self.raw: io.BufferedReader = open(p, "rb")
        except FileNotFoundError:
            raise BPELensError(f"{self.name}: file not found ({p})") from None
        except PermissionError:
            raise BPELensError(f"{self.name}: cannot read the file (permission denied)") from None
        except OSError as e:
            raise BPELensError(f"{self.name}: cannot read the file ({e.strerror or e})") from None
        self.total = os.fstat(self.raw.fileno()).st_size
        self._corrupt: Tuple[type, ...] = _CORRUPT
        try:
            magic = self.raw.read(10)
            self.raw.seek(0)
        except OSError as e:
            self.raw.close()
            raise BPELensError(f"{self.name}: cannot read the file ({e.strerror or e})") from None
        self.kind = next((k for m, k in _MAGIC if m.match(magic)), "text")
        openers: Dict[str, Callable[[io.BufferedReader], io.BufferedIOBase]] = {
            "gzip": lambda f: gzip.GzipFile(fileobj=f), "bzip2": bz2.BZ2File, "xz": lzma.LZMAFile,
            "zstd": self._zstd}
        self.stream: io.BufferedIOBase = openers[self.kind](self.raw) if self.kind != "text" else self.raw

    def _zstd(self, raw: io.BufferedReader) -> io.BufferedIOBase:
        """A Zstandard stream (an optional dependency: the message says how to get it)."""
        try:
            import zstandard
        except ImportError:
            raw.close()
            raise BPELensError(f"{self.name}: Zstandard-compressed; reading it needs the zstd extra: "
                              "pip install 'bpe-lens[zstd]'") from None
        self._corrupt = _CORRUPT + (zstandard.ZstdError,)
        return _ZstdFrames(raw, zstandard)  # type: ignore[return-value]

    def close(self) -> None:
        if self.stream is not self.raw:
            self.stream.close()
        self.raw.close()

    def _read(self, n: int) -> bytes:
        try:
            return self.stream.read(n)
        except self._corrupt as e:
            if self.kind == "text":
                raise BPELensError(f"{self.name}: cannot read the file ({e})") from None
            raise BPELensError(f"{self.name}: corrupt {self.kind} data ({e})") from None

    def blocks(self, block: int, cancel: CancelFn, keep_bom: bool = False,
               cut_at_space: bool = False) -> Iterator[Tuple[bytes, int, int]]:
        """Yield ``(data, offset, raw_position)``: ``data`` starts at byte ``offset`` of the
        decompressed file and ends after a ``\\n`` (or at the end); the BOM is cut off unless kept.
        With ``cut_at_space``, a line longer than ``block`` is also cut before a space that follows
        an ASCII letter or digit, so a corpus on one huge line is read in bounded memory."""
        carry, offset, sniffed = bytearray(), 0, 0  # bytearray: a very long line grows in O(n)
        while True:
            if cancel is not None and cancel():
                raise Cancelled()
            data = self._read(block)
            if sniffed < BINARY_SNIFF_BYTES and data:
                head = data[: BINARY_SNIFF_BYTES - sniffed]
                problem = not_text_message(self.name, head, self.path, self.kind) if sniffed == 0 else None
                if problem is not None:
                    raise BPELensError(problem)
                if b"\0" in head:
                    at = sniffed + head.index(b"\0")
                    raise BPELensError(f"{self.name}: looks like a binary file (NUL byte at byte {at}), not text")
                # buffered reads fill the block: no short read
                if sniffed == 0 and not keep_bom and data.startswith(_BOM):
                    data, offset = data[3:], 3
                sniffed += len(head)
            if not data:
                if carry:
                    yield bytes(carry), offset, self.raw.tell()
                return
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                carry += data
                if cut_at_space and len(carry) >= block:
                    # Only the new bytes (and the one before them) can hold a cut not tried yet.
                    m = _LAST_SPACE_CUT.search(carry, max(len(carry) - len(data) - 1, 0))
                    if m is not None:
                        out = bytes(carry[: m.end()])
                        del carry[: m.end()]
                        yield out, offset, self.raw.tell()
                        offset += len(out)
                continue
            out = bytes(carry) + data[:cut] if carry else data[:cut]
            carry = bytearray(data[cut:])
            yield out, offset, self.raw.tell()
            offset += len(out)


