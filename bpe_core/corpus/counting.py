"""Open corpus files and count their words.

A corpus is UTF-8 text, plain or compressed (.gz/.bz2/.xz, recognised by magic bytes), read like
Python's ``open(encoding="utf-8-sig")``: a leading BOM is dropped and ``\\r\\n``/``\\r`` become
``\\n``. A config with ``file_decoding="tokenizers"`` (the HF-identical presets) reads it as Hugging Face
``tokenizers`` does instead: the bytes as they are, ``\\r`` and a BOM kept, lines cut at ``\\n`` only.
Lines keep their trailing ``"\\n"``. Every problem with the file raises a
:class:`~bpe_core.types.BPELensError` with a one-line message that starts with the file name.
Progress is in bytes of the file on disk (compressed bytes for a compressed file).

The bytes come in blocks from :class:`~bpe_core.corpus.source.Source`, each ending at a line end
(or, in a huge line, before a space where the pre-tokenizer allows it): each decodes on its own,
and blocks are counted in order, inline or in a pool of worker processes, then merged in order.
"""
from __future__ import annotations

import functools
import logging
import os
import time
from collections import Counter, deque
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Deque, Dict, Iterable, Iterator, Optional, Tuple

from bpe_core.base.file_errors import not_utf8
from bpe_core.corpus.pool import make_pool, stop_pool, submit
from bpe_core.corpus.source import CancelFn, PathLike, Source
from bpe_core.pretokenize.guard import PatternTimeout
from bpe_core.types import BPELensError, Cancelled, Progress, TrainerConfig

if TYPE_CHECKING:
    from bpe_core.pipelines.chain import Pipeline

ProgressFn = Optional[Callable[[Progress], None]]

BLOCK_BYTES = 1 << 20  # read size; a block grows past it only for a longer line
PARALLEL_MIN_BYTES = 2_000_000  # below this, starting worker processes costs more than it saves
COUNT_SLICE = 1 << 16  # characters of a block whose words are listed at a time: one C-speed pass each, the GIL
# held for ~2 ms (1 << 18: 7-10 ms, while a GUI thread waited to paint; no slower overall)


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


def decode_block(name: str, data: bytes, offset: int, errors: str, universal: bool = True) -> str:
    """One block's text; a decode error names the byte in the file (``offset``: the block's start)."""
    try:
        text = data.decode("utf-8", errors)
    except UnicodeDecodeError as e:
        raise BPELensError(not_utf8(name, offset + e.start, f" (0x{data[e.start]:02X}); decode with replacement to "
                                             "continue")) from None
    return universal_newlines(text) if universal else text  # (tokenizers keeps the "\r")


def universal_newlines(text: str) -> str:
    """``text`` with its CRLF and CR line ends as ``"\\n"``, as Python's ``open()`` reads text: the one home of
    the corpus readers' newline rule (evaluation texts read the same way)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def as_corpus_text(text: str) -> str:
    """A whole file's decoded text as the corpus readers give it to a config that reads text (not as tokenizers
    does): its UTF-8 BOM cut off, its lines ending in ``"\\n"``.

    >>> as_corpus_text("\\ufeffa\\r\\nb\\rc")
    'a\\nb\\nc'
    """
    return universal_newlines(text.removeprefix("\ufeff"))


def _check_errors(errors: str) -> None:
    if errors not in ("strict", "replace"):
        raise ValueError(f"errors must be 'strict' or 'replace', not {errors!r}")


def _iter_texts(path: PathLike, errors: str, progress: ProgressFn, cancel: CancelFn,
                as_tokenizers: bool = False) -> Iterator[str]:
    """Decoded text blocks of the corpus, each ending at a line end; checks empty/blank files."""
    _check_errors(errors)
    src = Source(path)
    try:
        tick = _Throttle(progress, src.total)
        seen_any = seen_text = False
        for data, offset, pos in src.blocks(BLOCK_BYTES, cancel, keep_bom=as_tokenizers):
            text = decode_block(src.name, data, offset, errors, not as_tokenizers)
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
               cancel: CancelFn = None, as_tokenizers: bool = False) -> Iterator[str]:
    """Lines of a corpus file, each with its trailing ``"\\n"`` (the last one may lack it).

    An empty file raises before the first line; a whitespace-only file after its lines.

    >>> import tempfile, os; d = tempfile.mkdtemp(); f = os.path.join(d, "c.txt")
    >>> _ = open(f, "wb").write(b"\\xef\\xbb\\xbfone\\r\\ntwo")
    >>> list(iter_lines(f))
    ['one\\n', 'two']
    """
    for text in _iter_texts(path, errors, progress, cancel, as_tokenizers):  # (as tokenizers: "\r", a BOM kept)
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
def pipeline_of(config: TrainerConfig) -> "Pipeline":
    """The config's text pipeline (normalizer -> pre-tokenizer -> unit mapper, the trainer's and its
    models' chain), built once per process (worker processes call this per block)."""
    from bpe_core.pipelines.chain import Pipeline  # worker processes import it once

    return Pipeline(config)


def count_block(name: str, data: bytes, offset: int, config: TrainerConfig,
                 errors: str) -> Tuple[Dict[str, int], bool]:
    """Decode one block and count its words (runs in a worker process, or inline)."""
    text = decode_block(name, data, offset, errors, not reads_as_tokenizers(config))
    counts: Counter[str] = Counter()
    # the chain lowercases each slice when the config says so: lowercasing never makes or removes
    # a "\n", and final-sigma context stops at one, so slices of whole lines lowercase as the whole
    words_in_lines = pipeline_of(config).words_in_lines
    start = 0
    while start < len(text):  # in slices of whole lines: a block's words, each a new str, took 25 MB at once
        end = text.find("\n", start + COUNT_SLICE) + 1 or len(text)
        try:
            counts.update(words_in_lines(text[start:end]))
        except PatternTimeout as e:  # a user pattern that backtracks without end: say in which file, where
            at = offset + len(text[:start].encode("utf-8"))
            raise PatternTimeout(f"{name} (the lines from byte {at}): {e}") from None
        start = end
    return dict(counts), bool(text) and not text.isspace()


def reads_as_tokenizers(config: TrainerConfig) -> bool:
    """Read bytes as they are ("\\r" and a BOM kept), as tokenizers' ``train(files)`` does."""
    return config.file_decoding == "tokenizers"


def _merge(total: Dict[str, int], part: Dict[str, int]) -> None:
    # New words are appended in the part's order: first appearance over the whole file.
    get = total.get
    for word, n in part.items():
        total[word] = get(word, 0) + n


def _count_blocks(path: PathLike, config: TrainerConfig, errors: str, progress: ProgressFn,
                  cancel: CancelFn, workers: int, isolate: bool = False) -> Dict[str, int]:
    """Count block by block, inline (workers == 1 and not ``isolate``) or in a process pool; merge
    in file order. A cancel ends the pool's processes (a block may be inside one long regex call)."""
    src = Source(path)
    total: Dict[str, int] = {}
    seen_any = seen_text = False
    try:
        pool = make_pool(workers) if workers > 1 or isolate else None
    except BaseException:
        src.close()
        raise
    # Pool: ~4 chunks per worker balances the load; bigger chunks leave fewer words to merge.
    chunk = BLOCK_BYTES if pool is None else min(max(src.total // (workers * 4), BLOCK_BYTES), 16 * BLOCK_BYTES)
    tick = _Throttle(progress, src.total)
    pending: Deque[Tuple["Future[Tuple[Dict[str, int], bool]]", int]] = deque()

    done = 0

    def collect() -> None:
        nonlocal seen_text, done
        fut, pos = pending.popleft()
        while True:  # wait in slices so a cancel is noticed while the workers run
            try:
                part, has_text = fut.result(timeout=0.05)
                break
            except FutureTimeout:
                if cancel is not None and cancel():
                    raise Cancelled() from None
                if isolate:
                    tick(done)  # still at it: a progress bar's clock keeps running
        _merge(total, part)
        seen_text = seen_text or has_text
        tick(pos)
        done = pos

    try:
        blocks = src.blocks(chunk, cancel, keep_bom=reads_as_tokenizers(config),
                            cut_at_space=pipeline_of(config).cut_at_space)
        for data, offset, pos in blocks:
            seen_any = True
            if pool is None:
                fut: "Future[Tuple[Dict[str, int], bool]]" = Future()
                fut.set_result(count_block(src.name, data, offset, config, errors))
            else:
                fut = submit(pool, count_block, src.name, data, offset, config, errors)
            pending.append((fut, pos))
            # Bounded read-ahead keeps memory flat on huge files; one queued chunk more than
            # there are workers means none waits for the main process to read.
            while len(pending) > (workers + 1 if pool is not None else 0):
                collect()
        while pending:
            collect()
    except (Cancelled, KeyboardInterrupt):
        if pool is not None:
            stop_pool(pool)
        raise
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
    does that). A word-count table (:mod:`bpe_core.corpus.table`) gives its counts, when it was
    counted with ``config``'s word settings. Files over ~2 MB are split at line ends and counted in ``workers`` processes
    (default: every core); the merged result, order included, equals the sequential count.

    >>> import tempfile, os; d = tempfile.mkdtemp(); f = os.path.join(d, "c.txt")
    >>> _ = open(f, "w").write("the cat\\nthe end\\n")
    >>> count_words(f, TrainerConfig(pretokenizer="whitespace"))
    {'the': 2, 'cat': 1, 'end': 1}
    """
    _check_errors(errors)
    from bpe_core.corpus.table import is_word_table, table_counts
    if is_word_table(path):  # counted already (``bpe-lens-cli count``, Spark, DuckDB)
        return table_counts(path, config)
    pre = pipeline_of(config)
    if not pre.per_line:
        # Whole-text pre-tokenizers (Punkt) cannot be cut into chunks without changing results;
        # reading is quick, so progress and cancel follow the (lazy) sentence splitting instead.
        text = read_text(path, errors=errors, cancel=cancel, as_tokenizers=reads_as_tokenizers(config))
        total = count_whole_text(text, config, progress=progress, cancel=cancel, size=Path(path).stat().st_size)
    else:
        workers = (os.cpu_count() or 1) if workers is None else workers
        big = Path(path).is_file() and Path(path).stat().st_size > PARALLEL_MIN_BYTES
        # a user's pattern may backtrack for long inside one regex call, which no cancel (nor Ctrl+C)
        # can enter: it counts in a worker process (even a small file), which a cancel ends (stop_pool)
        isolate = getattr(pre, "guarded", False)
        try:
            total = _count_blocks(path, config, errors, progress, cancel, workers if big else 1, isolate)
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
    chain = pipeline_of(config)
    text = chain.normalize(text)
    counts: Counter[str] = Counter()
    tick = _Throttle(progress, size or len(text))
    for end, words in chain.pretokenizer.iter_words(text):
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
    from bpe_core.base.units import check_text
    pre = pipeline_of(config)
    counts: Counter[str] = Counter()
    for k, text in enumerate(texts):
        check_text(text, f"text {k}")  # a lone surrogate: named here, not a UnicodeEncodeError later
        counts.update(pre.words(text))
    if not counts:
        raise BPELensError(f"{_name}: the pre-tokenizer {config.pretokenizer!r} found no words")
    return dict(counts)
