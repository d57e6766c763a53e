"""Open a corpus file and read it as blocks of bytes cut at safe places.

A corpus is a regular file of UTF-8 text, plain or compressed (.gz/.bz2/.xz, and .zst with the ``zstd`` extra,
which installs ``zstandard``; recognised by magic bytes). Blocks end after a ``\\n`` (UTF-8 never has byte 0x0A inside a character), so each block
decodes on its own, a decode error knows its real offset, and blocks can be counted in other
processes and merged in order; for pre-tokenizers that allow it, a huge line is also cut before a
space (see :meth:`Source.blocks`). Every problem raises a one-line
:class:`~bpe_core.types.BPELensError` that starts with the file name (its path when it cannot be
read); UTF-16 or UTF-32 text is named as such, with the ``iconv`` command that converts it
(:func:`bpe_core.base.file_errors.wide_text_message`).
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
from typing import Callable, Dict, Iterator, Optional, Tuple

import regex

from bpe_core.base.file_errors import PathLike, binary_file, not_text_message, read_error
from bpe_core.types import BPELensError, Cancelled

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
        except OSError as e:
            raise read_error(p, e) from None
        self.total = os.fstat(self.raw.fileno()).st_size
        self._corrupt: Tuple[type, ...] = _CORRUPT
        try:
            magic = self.raw.read(10)
            self.raw.seek(0)
        except OSError as e:
            self.raw.close()
            raise read_error(p, e) from None
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
                    raise BPELensError(binary_file(self.name, at))
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


