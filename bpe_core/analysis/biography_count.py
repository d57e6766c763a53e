"""Cut corpus files into a vocabulary's pieces for the token biography: (piece, suffix) -> count.

A saved tokenizer is judged on text as its encoder gets it: the files' bytes as they are (a ``\\r`` and a
BOM kept, no universal newlines), decoded as UTF-8 (compressed files too), and cut into lines at ``\\n``
only, each line keeping its ``\\n``. Each line is cut into pieces by the model's own pipeline
(:func:`~bpe_core.analysis.replay.count_words`), so the counts equal an encoder run on each line
(tiktoken's ``encode_ordinary(line)``). Files are read one after the other (their concatenation).

Big files are counted by forked worker processes (the model's pipeline cannot be pickled; forked
workers share the owner's model): blocks of whole lines, counted in order and merged in order, so the
result, order of first appearance included, equals the count in one process. Where workers cannot be
forked (a process with threads, such as the app), one process counts.
"""
from __future__ import annotations

import os
from collections import deque
from pathlib import Path
from typing import Callable, Deque, Dict, List, Optional, Sequence, Tuple

from bpe_core.corpus.counting import BLOCK_BYTES, PARALLEL_MIN_BYTES, decode_block
from bpe_core.corpus.source import Source
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, Cancelled, Progress

ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]
Counts = Dict[Tuple[str, bool], int]

#: the model forked workers count with (set by the owner just before it forks them)
_WORKER_MODEL: List[BPEModel] = []


def count_pieces(model: BPEModel, paths: Sequence[Path], *, progress: ProgressFn = None, cancel: CancelFn = None,
                 errors: str = "strict", workers: Optional[int] = None) -> Counts:
    """The pieces of ``paths`` as one corpus, first appearance first; progress in bytes of all files."""
    if errors not in ("strict", "replace"):
        raise BPELensError(f"errors must be 'strict' or 'replace', not {errors!r}")
    if not paths:
        raise BPELensError("no corpus file given")
    sizes = [_size(p) for p in paths]
    total: Counts = {}
    for k, path in enumerate(paths):
        before, whole = sum(sizes[:k]), sum(sizes)
        report = None if progress is None else \
            (lambda done, before=before, whole=whole: progress(Progress(min(before + done, whole), whole, "bytes")))
        n = workers if workers is not None else (os.cpu_count() or 1)
        _merge(total, count_file(model, Path(path), report, cancel, errors, n if sizes[k] > PARALLEL_MIN_BYTES else 1))
    return total


def count_lines(model: BPEModel, text: str) -> Counts:
    """The pieces of a text's lines (cut at ``\\n`` only, each keeping it)."""
    from bpe_core.analysis.replay import count_words
    lines = text.split("\n")
    last = lines.pop()
    return count_words(model, [line + "\n" for line in lines] + ([last] if last else []))


def count_file(model: BPEModel, path: Path, report: Optional[Callable[[int], None]], cancel: CancelFn,
               errors: str, workers: int) -> Counts:
    """One file's pieces: block by block, inline or in forked workers (module doc)."""
    src = Source(path)
    pool = _fork_pool(model, workers) if workers > 1 else None
    total: Counts = {}
    pending: Deque = deque()
    seen_any = seen_text = False
    try:
        for data, offset, pos in src.blocks(BLOCK_BYTES * (8 if pool else 1), cancel, keep_bom=True):
            if cancel is not None and cancel():
                raise Cancelled()
            text = decode_block(src.name, data, offset, errors, False)
            seen_any = seen_any or bool(text)
            seen_text = seen_text or (bool(text) and not text.isspace())
            if pool is None:
                _merge(total, count_lines(model, text))
                _report(report, pos)
                continue
            from bpe_core.corpus.pool import submit
            pending.append((submit(pool, _count_in_worker, text), pos))
            while len(pending) > workers + 1:
                _collect(pending, total, report, cancel)
        while pending:
            _collect(pending, total, report, cancel)
    except (Cancelled, KeyboardInterrupt):
        if pool is not None:
            from bpe_core.corpus.pool import stop_pool
            stop_pool(pool)
            pool = None
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        _WORKER_MODEL.clear()  # the workers have their copy; the owner keeps no reference
        src.close()
    if not seen_any:
        raise BPELensError(f"{src.name}: the file is empty")
    if not seen_text:
        raise BPELensError(f"{src.name}: the file contains only whitespace")
    _report(report, src.total)
    return total


def _fork_pool(model: BPEModel, workers: int):
    """A pool whose workers are forked from this process (they see ``model``), or None."""
    from bpe_core.corpus.pool import make_pool
    _WORKER_MODEL[:] = [model]
    pool = make_pool(workers)
    if pool is not None and pool._mp_context.get_start_method() != "fork":
        pool.shutdown(wait=False)
        return None
    return pool


def _count_in_worker(text: str) -> Counts:
    return count_lines(_WORKER_MODEL[0], text)


def _collect(pending: Deque, total: Counts, report, cancel: CancelFn) -> None:
    from concurrent.futures import TimeoutError as FutureTimeout
    fut, pos = pending.popleft()
    while True:
        try:
            part = fut.result(timeout=0.05)
            break
        except FutureTimeout:
            if cancel is not None and cancel():
                raise Cancelled() from None
    _merge(total, part)
    _report(report, pos)


def _merge(total: Counts, part: Counts) -> None:
    get = total.get
    for key, n in part.items():
        total[key] = get(key, 0) + n


def _report(report: Optional[Callable[[int], None]], pos: int) -> None:
    if report is not None:
        report(pos)


def _size(path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0
