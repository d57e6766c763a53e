"""Count many corpus files into a word-count table: on this machine's cores or on Dask.

Both engines count the blocks of :mod:`bpe_core.corpus.blocks` and return the same thing as
sequential counting (``count_words_in_files``): every word's count, in order of first appearance,
plus each word's first ``(file, offset)`` for the table.

- ``local``: a pool of ``os.cpu_count()`` worker processes (:mod:`bpe_core.corpus.pool`: they die
  with their owner and ignore Ctrl+C). Plain files are cut into ranges the workers read
  themselves; a compressed file is read here and its blocks handed over. At most two blocks per
  worker are in flight and results are merged in corpus order, so memory stays flat whatever the
  corpus' size or line length.
- ``dask``: :mod:`bpe_core.corpus.dask_engine`, Dask futures over the same blocks (a compressed
  file is one block, streamed by its worker), on a ``LocalCluster`` or a running scheduler.

A whole-text pre-tokenizer (Punkt sentences) cannot be cut into blocks: it counts in one process
(local) or on one worker (dask), and the offsets are then the words' ranks in the one text (file 0).
"""
from __future__ import annotations

import logging
import os
from collections import deque
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Deque, Dict, List, Optional, Sequence, Tuple

from bpe_core.corpus.blocks import (Counted, Part, check_texts, count_block_part, one_text, plan_blocks, size_of,
                                    whole_text_counts)
from bpe_core.corpus.counting import BLOCK_BYTES, PARALLEL_MIN_BYTES, ProgressFn, pipeline_of
from bpe_core.corpus.pool import make_pool, stop_pool, submit
from bpe_core.corpus.source import CancelFn
from bpe_core.types import BPELensError, Cancelled, Progress, TrainerConfig

ENGINES = ("local", "dask")
LOCAL_CHUNK = 8 * BLOCK_BYTES  # big enough that merging the parts costs little next to counting them


def count_local(paths: Sequence[Path], config: TrainerConfig, *, workers: Optional[int] = None,
                text_field: Optional[str] = None, errors: str = "strict", progress: ProgressFn = None,
                cancel: CancelFn = None, chunk: int = LOCAL_CHUNK) -> Counted:
    """Count ``paths`` with ``workers`` processes (default: every core), first appearance first."""
    if one_text(config, text_field):
        return whole_text_counts(paths, config, errors, progress, cancel)
    workers = workers or os.cpu_count() or 1
    try:
        return _count_local(paths, config, workers, text_field, errors, progress, cancel, chunk)
    except (BrokenProcessPool, OSError) as exc:
        if workers == 1:
            raise
        # Workers could not start (no processes allowed, a __main__ spawn cannot re-import...):
        # one process gives the same counts.
        logging.getLogger(__name__).warning("counting in one process: worker pool failed (%s)", exc)
        return _count_local(paths, config, 1, text_field, errors, progress, cancel, chunk)


def _count_local(paths: Sequence[Path], config: TrainerConfig, workers: int, text_field: Optional[str],
                 errors: str, progress: ProgressFn, cancel: CancelFn, chunk: int) -> Counted:
    sizes = [size_of(p) for p in paths]
    # a user's pattern counts in a worker even for small inputs: a cancel (or Ctrl+C) can end it there,
    # not inside one long regex call (see counting.count_words)
    isolate = pipeline_of(config).guarded
    pool = make_pool(workers) if (workers > 1 and sum(sizes) > PARALLEL_MIN_BYTES) or isolate else None
    total: Dict[str, int] = {}
    firsts: List[Tuple[int, int]] = []
    part = Part()  # only its file flags: the counts go straight into ``total``
    pending: Deque["Future[Part]"] = deque()
    grand = sum(sizes)

    def collect() -> None:
        fut = pending.popleft()
        while True:  # wait in slices so a cancel is noticed while the workers run
            try:
                one = fut.result(timeout=0.05)
                break
            except FutureTimeout:
                if cancel is not None and cancel():
                    raise Cancelled() from None
        _merge_in_order(total, firsts, one)
        part.seen |= one.seen
        part.texts |= one.texts
    try:
        for block in plan_blocks(paths, config, chunk=chunk, jsonl=text_field is not None,
                                 whole_compressed=False, cancel=cancel):
            if cancel is not None and cancel():
                raise Cancelled()
            if pool is None:
                fut: "Future[Part]" = Future()
                fut.set_result(count_block_part(block, config, errors, text_field))
            else:
                fut = submit(pool, count_block_part, block, config, errors, text_field)
            pending.append(fut)
            while len(pending) > (2 * workers if pool is not None else 0):
                collect()
            if progress is not None:
                progress(Progress(min(sum(sizes[:block.file]) + (block.end or 0), grand), grand, "bytes"))
        while pending:
            collect()
    except (Cancelled, KeyboardInterrupt):
        if pool is not None:
            stop_pool(pool)
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    check_texts(paths, part)
    if not total:
        raise BPELensError(f"the pre-tokenizer {config.pretokenizer!r} found no words")
    return total, firsts


def _merge_in_order(total: Dict[str, int], firsts: List[Tuple[int, int]], part: Part) -> None:
    """Parts come in corpus order, and a part's dict is in its own first-seen order (blocks are added
    in order): a word new to ``total`` is first seen here."""
    get = total.get
    for word, (n, f, o) in part.words.items():
        old = get(word)
        if old is None:
            total[word] = n
            firsts.append((f, o))
        else:
            total[word] = old + n


def where_counted(engine: str, config: TrainerConfig, text_field: Optional[str] = None) -> str:
    """The summary's words for where counting ran."""
    if one_text(config, text_field):
        where = "on one worker" if engine == "dask" else "in one process"
        return f"engine {engine} ({where}: Punkt splits sentences over the whole text)"
    return f"engine {engine}"


def count_table(paths: Sequence[Path], config: TrainerConfig, *, engine: str = "local", workers: Optional[int] = None,
                scheduler: Optional[str] = None, text_field: Optional[str] = None, errors: str = "strict",
                progress: ProgressFn = None, cancel: CancelFn = None) -> Counted:
    """Count ``paths`` with ``engine``: the counts in first-seen order and each word's first (file, offset)."""
    if engine == "local":
        if scheduler:
            raise BPELensError("--scheduler needs --engine dask")
        return count_local(paths, config, workers=workers, text_field=text_field, errors=errors,
                           progress=progress, cancel=cancel)
    if engine == "dask":
        from bpe_core.corpus.dask_engine import count_dask
        return count_dask(paths, config, workers=workers, scheduler=scheduler, text_field=text_field, errors=errors,
                          progress=progress)
    raise BPELensError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
