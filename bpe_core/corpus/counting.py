"""Open corpus files and count their words.

A corpus is UTF-8 text, plain or compressed (.gz/.bz2/.xz, recognised by magic bytes), read like
Python's ``open(encoding="utf-8-sig")``: a leading BOM is dropped and ``\\r\\n``/``\\r`` become
``\\n``. A config with ``file_decoding="tokenizers"`` (the HF-identical presets) reads it as Hugging Face
``tokenizers`` does instead: the bytes as they are, ``\\r`` and a BOM kept, lines cut at ``\\n`` only.
Lines keep their trailing ``"\\n"``. Every problem with the file raises a
:class:`~bpe_core.types.BPELensError` with a one-line message that starts with the file name.
Progress is in bytes of the file on disk (compressed bytes for a compressed file).

Bytes are read in blocks cut after the last ``\\n`` (UTF-8 never has byte 0x0A inside a
character), so each block decodes on its own, a decode error knows its real offset, and blocks can
be counted in other processes and merged in order.
"""
from __future__ import annotations

import bz2
import functools
import gzip
import io
import logging
import lzma
import multiprocessing
import os
import re
import time
import zlib
from collections import Counter, deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Deque, Dict, Iterable, Iterator, Optional, Tuple, Union

from bpe_core.types import BPELensError, Cancelled, Progress, TrainerConfig

if TYPE_CHECKING:
    from bpe_core.pretokenize.pretokenizers import PreTokenizer

PathLike = Union[str, "os.PathLike[str]"]
ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]

BLOCK_BYTES = 1 << 20  # read size; a block grows past it only for a longer line
PARALLEL_MIN_BYTES = 2_000_000  # below this, starting worker processes costs more than it saves
BINARY_SNIFF_BYTES = 8192
_BOM = b"\xef\xbb\xbf"
# gzip, xz, and bzip2 = "BZh" + level + the block or end-of-stream magic (so a text that starts
# with "BZh" stays text).
_MAGIC = ((re.compile(rb"\x1f\x8b"), "gzip"), (re.compile(rb"\xfd7zXZ\x00"), "xz"),
          (re.compile(rb"BZh[1-9](?:\x31\x41\x59\x26\x53\x59|\x17\x72\x45\x38\x50\x90)"), "bzip2"))
_CORRUPT = (OSError, EOFError, zlib.error, lzma.LZMAError)


class _Throttle:
    """Calls ``progress`` at most every 50 ms (~20 times a second), and always at the end."""

    def __init__(self, progress: ProgressFn, total: int) -> None:
        self.progress, self.total, self.last = progress, total, 0.0

    def __call__(self, done: int, final: bool = False) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if final or now - self.last >= 0.05:
            self.last = now
            self.progress(Progress(min(done, self.total), self.total, "bytes"))


class _Source:
    """An opened corpus: raw blocks of (decompressed) bytes, each ending at a line boundary."""

    def __init__(self, path: PathLike) -> None:
        p = Path(path)
        self.name = p.name or str(p)
        if p.is_dir():
            raise BPELensError(f"{self.name}: is a folder, not a file")
        try:
            self.raw: io.BufferedReader = open(p, "rb")
        except FileNotFoundError:
            raise BPELensError(f"{self.name}: file not found ({p})") from None
        except PermissionError:
            raise BPELensError(f"{self.name}: cannot read the file (permission denied)") from None
        except OSError as e:
            raise BPELensError(f"{self.name}: cannot read the file ({e.strerror or e})") from None
        self.total = os.fstat(self.raw.fileno()).st_size
        try:
            magic = self.raw.read(10)
            self.raw.seek(0)
        except OSError as e:
            self.raw.close()
            raise BPELensError(f"{self.name}: cannot read the file ({e.strerror or e})") from None
        self.kind = next((k for m, k in _MAGIC if m.match(magic)), "text")
        openers: Dict[str, Callable[[io.BufferedReader], io.BufferedIOBase]] = {
            "gzip": lambda f: gzip.GzipFile(fileobj=f), "bzip2": bz2.BZ2File, "xz": lzma.LZMAFile}
        self.stream: io.BufferedIOBase = openers[self.kind](self.raw) if self.kind != "text" else self.raw

    def close(self) -> None:
        if self.stream is not self.raw:
            self.stream.close()
        self.raw.close()

    def _read(self, n: int) -> bytes:
        try:
            return self.stream.read(n)
        except _CORRUPT as e:
            if self.kind == "text":
                raise BPELensError(f"{self.name}: cannot read the file ({e})") from None
            raise BPELensError(f"{self.name}: corrupt {self.kind} data ({e})") from None

    def blocks(self, block: int, cancel: CancelFn, keep_bom: bool = False) -> Iterator[Tuple[bytes, int, int]]:
        """Yield ``(data, offset, raw_position)``: ``data`` starts at byte ``offset`` of the
        decompressed file and ends after a ``\\n`` (or at the end); the BOM is cut off unless kept."""
        carry, offset, sniffed = bytearray(), 0, 0  # bytearray: a very long line grows in O(n)
        while True:
            if cancel is not None and cancel():
                raise Cancelled()
            data = self._read(block)
            if sniffed < BINARY_SNIFF_BYTES and data:
                head = data[: BINARY_SNIFF_BYTES - sniffed]
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
                continue
            out = bytes(carry) + data[:cut] if carry else data[:cut]
            carry = bytearray(data[cut:])
            yield out, offset, self.raw.tell()
            offset += len(out)


def _decode(name: str, data: bytes, offset: int, errors: str, universal: bool = True) -> str:
    try:
        text = data.decode("utf-8", errors)
    except UnicodeDecodeError as e:
        raise BPELensError(
            f"{name}: not valid UTF-8 at byte {offset + e.start} (0x{data[e.start]:02X}); "
            "decode with replacement to continue") from None
    # Universal newlines as Python's open() does them (tokenizers keeps the "\r").
    if universal and "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _check_errors(errors: str) -> None:
    if errors not in ("strict", "replace"):
        raise ValueError(f"errors must be 'strict' or 'replace', not {errors!r}")


def _iter_texts(path: PathLike, errors: str, progress: ProgressFn, cancel: CancelFn,
                as_tokenizers: bool = False) -> Iterator[str]:
    """Decoded text blocks of the corpus, each ending at a line end; checks empty/blank files."""
    _check_errors(errors)
    src = _Source(path)
    try:
        tick = _Throttle(progress, src.total)
        seen_any = seen_text = False
        for data, offset, pos in src.blocks(BLOCK_BYTES, cancel, keep_bom=as_tokenizers):
            text = _decode(src.name, data, offset, errors, not as_tokenizers)
            seen_any = seen_any or bool(text)
            # isspace() stops at the first non-space character: cheap once text was seen.
            seen_text = seen_text or (bool(text) and not text.isspace())
            yield text
            tick(pos)
        if not seen_any:
            raise BPELensError(f"{src.name}: the file is empty")
        if not seen_text:
            raise BPELensError(f"{src.name}: the file contains only whitespace")
        tick(src.total, final=True)
    finally:
        src.close()


def iter_lines(path: PathLike, *, errors: str = "strict", progress: ProgressFn = None,
               cancel: CancelFn = None) -> Iterator[str]:
    """Lines of a corpus file, each with its trailing ``"\\n"`` (the last one may lack it).

    An empty file raises before the first line; a whitespace-only file after its lines.

    >>> import tempfile, os; d = tempfile.mkdtemp(); f = os.path.join(d, "c.txt")
    >>> _ = open(f, "wb").write(b"\\xef\\xbb\\xbfone\\r\\ntwo")
    >>> list(iter_lines(f))
    ['one\\n', 'two']
    """
    for text in _iter_texts(path, errors, progress, cancel):
        lines = text.split("\n")
        last = lines.pop()
        for line in lines:
            yield line + "\n"
        if last:
            yield last


def read_text(path: PathLike, *, errors: str = "strict", progress: ProgressFn = None,
              cancel: CancelFn = None, as_tokenizers: bool = False) -> str:
    """The whole decoded text of a corpus file (for pre-tokenizers that need all of it).

    >>> import tempfile, os, gzip; d = tempfile.mkdtemp(); f = os.path.join(d, "c.txt.gz")
    >>> _ = open(f, "wb").write(gzip.compress(b"a\\r\\nb\\rc"))
    >>> read_text(f)
    'a\\nb\\nc'
    """
    return "".join(_iter_texts(path, errors, progress, cancel, as_tokenizers))


@functools.lru_cache(maxsize=8)
def _pretokenizer(config: TrainerConfig) -> "PreTokenizer":
    from bpe_core.pretokenize.pretokenizers import get_pretokenizer  # worker processes import it once

    return get_pretokenizer(config)


def _count_block(name: str, data: bytes, offset: int, config: TrainerConfig,
                 errors: str) -> Tuple[Dict[str, int], bool]:
    """Decode one block and count its words (runs in a worker process, or inline)."""
    text = _decode(name, data, offset, errors, not reads_as_tokenizers(config))
    if config.lowercase:
        # Lowercasing never makes or removes a "\n", and final-sigma context stops at one.
        text = text.lower()
    counts: Counter[str] = Counter()
    counts.update(_pretokenizer(config).words_in_lines(text))
    return dict(counts), bool(text) and not text.isspace()


def reads_as_tokenizers(config: TrainerConfig) -> bool:
    """Read bytes as they are ("\\r" and a BOM kept), as tokenizers' ``train(files)`` does."""
    return config.file_decoding == "tokenizers"


def _merge(total: Dict[str, int], part: Dict[str, int]) -> None:
    # New words are appended in the part's order: first appearance over the whole file.
    get = total.get
    for word, n in part.items():
        total[word] = get(word, 0) + n


def _context() -> multiprocessing.context.BaseContext:
    # Never "fork": the caller may be a Qt app with threads. forkserver forks workers from a
    # clean server that has already imported this module, so they start fast after the first.
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["bpe_core.corpus.counting", "bpe_core.pretokenize.pretokenizers"])
        return ctx
    return multiprocessing.get_context("spawn")


def _count_blocks(path: PathLike, config: TrainerConfig, errors: str, progress: ProgressFn,
                  cancel: CancelFn, workers: int) -> Dict[str, int]:
    """Count block by block, inline (workers == 1) or in a process pool; merge in file order."""
    src = _Source(path)
    total: Dict[str, int] = {}
    seen_any = seen_text = False
    # Pool: ~4 chunks per worker balances the load; bigger chunks leave fewer words to merge.
    chunk = BLOCK_BYTES if workers == 1 else min(max(src.total // (workers * 4), BLOCK_BYTES), 16 * BLOCK_BYTES)
    tick = _Throttle(progress, src.total)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context()) if workers > 1 else None
    pending: Deque[Tuple["Future[Tuple[Dict[str, int], bool]]", int]] = deque()

    def collect() -> None:
        nonlocal seen_text
        fut, pos = pending.popleft()
        while True:  # wait in slices so a cancel is noticed while the workers run
            try:
                part, has_text = fut.result(timeout=0.05)
                break
            except FutureTimeout:
                if cancel is not None and cancel():
                    raise Cancelled() from None
        _merge(total, part)
        seen_text = seen_text or has_text
        tick(pos)

    try:
        for data, offset, pos in src.blocks(chunk, cancel, keep_bom=reads_as_tokenizers(config)):
            seen_any = True
            if pool is None:
                fut: "Future[Tuple[Dict[str, int], bool]]" = Future()
                fut.set_result(_count_block(src.name, data, offset, config, errors))
            else:
                fut = pool.submit(_count_block, src.name, data, offset, config, errors)
            pending.append((fut, pos))
            # Bounded read-ahead keeps memory flat on huge files; one queued chunk more than
            # there are workers means none waits for the main process to read.
            while len(pending) > (workers + 1 if pool is not None else 0):
                collect()
        while pending:
            collect()
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        src.close()
    if not seen_any:
        raise BPELensError(f"{src.name}: the file is empty")
    if not seen_text:
        raise BPELensError(f"{src.name}: the file contains only whitespace")
    tick(src.total, final=True)
    return total


def count_words(path: PathLike, config: TrainerConfig, *, progress: ProgressFn = None, cancel: CancelFn = None,
                workers: Optional[int] = None, errors: str = "strict") -> Dict[str, int]:
    """Count the words of a corpus file, in order of first appearance.

    Lowercases first when ``config.lowercase``. ``min_word_count`` is not applied (the trainer
    does that). Files over ~2 MB are split at line ends and counted in ``workers`` processes
    (default: up to 2); the merged result, order included, equals the sequential count.

    >>> import tempfile, os; d = tempfile.mkdtemp(); f = os.path.join(d, "c.txt")
    >>> _ = open(f, "w").write("the cat\\nthe end\\n")
    >>> count_words(f, TrainerConfig(pretokenizer="whitespace"))
    {'the': 2, 'cat': 1, 'end': 1}
    """
    _check_errors(errors)
    pre = _pretokenizer(config)
    if not pre.per_line:
        # Whole-text pre-tokenizers (Punkt) cannot be cut into chunks without changing results;
        # reading is quick, so progress and cancel follow the (lazy) sentence splitting instead.
        text = read_text(path, errors=errors, cancel=cancel, as_tokenizers=reads_as_tokenizers(config))
        total = count_whole_text(text, config, progress=progress, cancel=cancel, size=Path(path).stat().st_size)
    else:
        workers = min(2, os.cpu_count() or 1) if workers is None else workers
        big = Path(path).is_file() and Path(path).stat().st_size > PARALLEL_MIN_BYTES
        try:
            total = _count_blocks(path, config, errors, progress, cancel, workers if big else 1)
        except (BrokenProcessPool, OSError) as e:
            # Workers could not start (spawn cannot re-import a script read from stdin, no
            # processes allowed...): the sequential count gives the same result.
            logging.getLogger(__name__).warning("counting in one process: worker pool failed (%s)", e)
            total = _count_blocks(path, config, errors, progress, cancel, 1)
    if not total:
        raise BPELensError(f"{Path(path).name}: the pre-tokenizer {config.pretokenizer!r} found no words")
    return total


def count_whole_text(text: str, config: TrainerConfig, *, progress: ProgressFn = None, cancel: CancelFn = None,
                     size: int = 0) -> Dict[str, int]:
    """Count the words of one whole text with any pre-tokenizer (Punkt needs the text in one piece);
    progress runs over ``size`` (the bytes on disk the text came from) as the splitting advances.

    >>> count_whole_text("Mr. Smith left. He came back.", TrainerConfig(pretokenizer="punkt-wordpunct"))
    {'Mr': 1, '.': 3, 'Smith': 1, 'left': 1, 'He': 1, 'came': 1, 'back': 1}
    """
    text = text.lower() if config.lowercase else text
    counts: Counter[str] = Counter()
    tick = _Throttle(progress, size or len(text))
    for end, words in _pretokenizer(config).iter_words(text):
        if cancel is not None and cancel():
            raise Cancelled()
        counts.update(words)
        tick(end * tick.total // max(len(text), 1))
    tick(tick.total, final=True)
    return dict(counts)


def count_words_in_texts(texts: Iterable[str], config: TrainerConfig, *, _name: str = "the texts") -> Dict[str, int]:
    """Count the words of in-memory texts (each one a line or document), first appearance first.

    >>> count_words_in_texts(["Hello world", "hello"], TrainerConfig(pretokenizer="whitespace", lowercase=True))
    {'hello': 2, 'world': 1}
    """
    pre = _pretokenizer(config)
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(pre.words(text.lower() if config.lowercase else text))
    if not counts:
        raise BPELensError(f"{_name}: the pre-tokenizer {config.pretokenizer!r} found no words")
    return dict(counts)
