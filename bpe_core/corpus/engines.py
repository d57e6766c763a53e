"""Count many corpus files into a word-count table: on this machine's cores or on Dask.

Both engines count the blocks of :mod:`bpe_core.corpus.blocks` and return the same thing as
sequential counting (``count_words_in_files``): every word's count, in order of first appearance,
plus each word's first ``(file, offset)`` for the table.

- ``local``: a pool of ``os.cpu_count()`` worker processes (:mod:`bpe_core.corpus.pool`: they die
  with their owner and ignore Ctrl+C). Plain files are cut into ranges the workers read
  themselves; a compressed file is read here and its blocks handed over. At most two blocks per
  worker are in flight and results are merged in corpus order, so memory stays flat whatever the
  corpus' size or line length.
- ``dask``: Dask futures over the same blocks (a compressed file is one block, streamed by its
  worker) -> one part per partition -> a tree reduction on the workers (counts summed, the earliest
  first appearance kept) -> sorted by first appearance; progress follows the finished partitions.
  A ``LocalCluster`` of ``workers`` processes when no scheduler address is given, else
  ``Client(address)``: the address is checked first, the connection given up after
  ``CONNECT_SECONDS``, and the workers get absolute paths (they must see the same files; one that
  cannot read a file says so with its address). Both are closed when counting ends, however it ends.

A whole-text pre-tokenizer (Punkt sentences) cannot be cut into blocks: it counts in one process
(local) or on one worker (dask), and the offsets are then the words' ranks in the one text (file 0).
"""
from __future__ import annotations

import contextlib
import functools
import logging
import os
import re
from collections import deque
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Deque, Dict, List, Optional, Sequence, Tuple

from bpe_core.corpus.blocks import (Block, Part, check_texts, count_block_part, count_partition, merge_parts, ordered,
                                    plan_blocks)
from bpe_core.corpus.counting import BLOCK_BYTES, PARALLEL_MIN_BYTES, ProgressFn, pretokenizer_of
from bpe_core.corpus.pool import make_pool, stop_pool, submit
from bpe_core.corpus.source import CancelFn
from bpe_core.types import BPELensError, Cancelled, Progress, TrainerConfig

ENGINES = ("local", "dask")
LOCAL_CHUNK = 8 * BLOCK_BYTES  # big enough that merging the parts costs little next to counting them
DASK_CHUNK = 32 * BLOCK_BYTES
Counted = Tuple[Dict[str, int], List[Tuple[int, int]]]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # opening it names the problem


def _whole_text(paths: Sequence[Path], config: TrainerConfig, errors: str, progress: ProgressFn,
                cancel: CancelFn) -> Counted:
    from bpe_core.corpus.files import count_words_in_files

    counts = count_words_in_files(paths, config, progress=progress, cancel=cancel, errors=errors)
    return counts, [(0, rank) for rank in range(len(counts))]


def count_local(paths: Sequence[Path], config: TrainerConfig, *, workers: Optional[int] = None,
                text_field: Optional[str] = None, errors: str = "strict", progress: ProgressFn = None,
                cancel: CancelFn = None, chunk: int = LOCAL_CHUNK) -> Counted:
    """Count ``paths`` with ``workers`` processes (default: every core), first appearance first."""
    if not pretokenizer_of(config).per_line and text_field is None:
        return _whole_text(paths, config, errors, progress, cancel)
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
    sizes = [_size(p) for p in paths]
    # a user's pattern counts in a worker even for small inputs: a cancel (or Ctrl+C) can end it there,
    # not inside one long regex call (see counting.count_words)
    isolate = getattr(pretokenizer_of(config), "guarded", False)
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


def _distributed():  # type: ignore[no-untyped-def]
    try:
        import distributed
    except ImportError:
        raise BPELensError("--engine dask needs Dask: pip install bpe-lens[dask]") from None
    return distributed


CONNECT_SECONDS = 5
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)"
                      r":([0-9]{1,5})")


def check_scheduler_address(address: str) -> None:
    """Refuse an address Dask could not even parse (its ValueError is a traceback), before connecting.

    >>> check_scheduler_address("tcp://10.0.0.5:8786")
    >>> check_scheduler_address("tcp:/x")
    Traceback (most recent call last):
    bpe_core.types.BPELensError: --scheduler 'tcp:/x' is not a scheduler address: expected tcp://HOST:PORT \
(for example tcp://10.0.0.5:8786)
    """
    match = _ADDRESS.fullmatch(address)
    if match is None or not 0 < int(match.group(2)) < 65536:
        raise BPELensError(f"--scheduler {address!r} is not a scheduler address: expected tcp://HOST:PORT "
                           "(for example tcp://10.0.0.5:8786)")


def _unreachable(address: str, exc: BaseException) -> BPELensError:
    if not isinstance(exc, OSError):  # (TimeoutError is one)
        return BPELensError(f"{address} does not answer as a Dask scheduler ({type(exc).__name__}: {exc})")
    if not str(exc):  # our own deadline: the connection was accepted, the handshake never came
        why = "it accepted the connection but never answered as a Dask scheduler"
    elif str(exc).startswith("Timed out"):  # distributed's: refused or unknown host, retried until the deadline
        why = "no scheduler answered there"
    else:
        why = str(exc)
    return BPELensError(f"cannot reach the Dask scheduler at {address} within {CONNECT_SECONDS} s ({why})")


def _probe(address: str) -> None:
    """Connect and shake hands within CONNECT_SECONDS: distributed's own handshake has no time limit
    (a socket that accepts and never answers keeps ``Client(address, timeout=...)`` waiting forever)."""
    import asyncio

    from distributed.comm import connect

    async def attempt() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=CONNECT_SECONDS), CONNECT_SECONDS)
        await comm.close()
    try:
        asyncio.get_running_loop()
        return  # inside an event loop (a notebook): the Client's own timeout only
    except RuntimeError:
        pass
    try:
        asyncio.run(attempt())
    except Exception as exc:  # refused, timed out, or a server that speaks another protocol
        raise _unreachable(address, exc) from None


@contextlib.contextmanager
def dask_client(workers: Optional[int], scheduler: Optional[str]):  # type: ignore[no-untyped-def]
    """A Dask client on a fresh ``LocalCluster`` (processes) or on the scheduler at ``scheduler``
    (checked, and given up after CONNECT_SECONDS); both closed on leaving, so no process outlives
    the command."""
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if scheduler:
            check_scheduler_address(scheduler)
            _probe(scheduler)
            try:
                client = stack.enter_context(distributed.Client(scheduler, timeout=CONNECT_SECONDS))
            except OSError as exc:
                raise _unreachable(scheduler, exc) from None
            _await_a_worker(client, scheduler)
        else:
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR))
            client = stack.enter_context(distributed.Client(cluster))
        yield client


def _await_a_worker(client, scheduler: str) -> None:  # type: ignore[no-untyped-def]
    """Say so when the scheduler has no worker after CONNECT_SECONDS: counting then waits for one (an
    adaptive cluster starts workers when work comes), not in silence."""
    if client.scheduler_info().get("workers"):
        return
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        logging.getLogger(__name__).warning("warning: the Dask scheduler at %s has no workers yet; waiting for one "
                                            "(start one with: dask worker %s)", scheduler, scheduler)


# -- on a Dask worker ----------------------------------------------------------------------------------
def _readable_on_worker(path: str) -> None:
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise _worker_cannot_read(path, exc) from None


def _worker_cannot_read(path: str, exc: OSError) -> BPELensError:
    try:
        from distributed import get_worker
        where = get_worker().address
    except (ImportError, ValueError):  # not on a worker (called directly)
        where = "(none)"
    return BPELensError(f"{path}: the Dask worker {where} cannot read it ({exc.strerror or exc}); the workers need "
                        "the files at the same paths")


def count_on_worker(blocks: Sequence[Block], config: TrainerConfig, errors: str, text_field: Optional[str]) -> Part:
    """A partition's work on a worker: a file it cannot read is named with the worker's address."""
    for path in dict.fromkeys(b.path for b in blocks):
        _readable_on_worker(path)
    try:
        return count_partition(blocks, config, errors, text_field)
    except OSError as exc:
        raise _worker_cannot_read(exc.filename or blocks[0].path, exc) from None


def whole_text_on_worker(paths: Sequence[str], config: TrainerConfig, errors: str) -> Counted:
    """A whole-text pre-tokenizer's count (Punkt), on one worker."""
    for path in paths:
        _readable_on_worker(path)
    return _whole_text([Path(p) for p in paths], config, errors, None, None)


def one_text(config: TrainerConfig, text_field: Optional[str]) -> bool:
    """True when counting cannot be cut into blocks: Punkt splits sentences over the whole text."""
    return not pretokenizer_of(config).per_line and text_field is None


def where_counted(engine: str, config: TrainerConfig, text_field: Optional[str] = None) -> str:
    """The summary's words for where counting ran."""
    if one_text(config, text_field):
        where = "on one worker" if engine == "dask" else "in one process"
        return f"engine {engine} ({where}: Punkt splits sentences over the whole text)"
    return f"engine {engine}"


def count_dask(paths: Sequence[Path], config: TrainerConfig, *, workers: Optional[int] = None,
               scheduler: Optional[str] = None, text_field: Optional[str] = None, errors: str = "strict",
               progress: ProgressFn = None, chunk: int = DASK_CHUNK) -> Counted:
    """Count ``paths`` on Dask: per-block parts reduced to one on the workers, sorted by first appearance.
    A whole-text pre-tokenizer counts on one worker. ``progress`` follows the bytes of finished partitions."""
    distributed = _distributed()
    if scheduler:
        check_scheduler_address(scheduler)
    paths = [Path(p).absolute() for p in paths]  # the workers' folder is not ours (not resolved: links stay)
    sizes = [_size(p) for p in paths]
    tick = _ticker(progress, sum(sizes))
    whole = one_text(config, text_field)
    blocks = [] if whole else list(plan_blocks(paths, config, chunk=chunk, jsonl=text_field is not None))
    with dask_client(workers, scheduler) as client:
        tick(0)
        if whole:
            counted = client.submit(whole_text_on_worker, [str(p) for p in paths], config, errors,
                                    pure=False).result()
            tick(sum(sizes))
            return counted
        n = len(client.scheduler_info().get("workers", {})) or workers or 1
        size = -(-len(blocks) // min(len(blocks), 4 * n))
        groups = [blocks[i:i + size] for i in range(0, len(blocks), size)]
        parts = [client.submit(count_on_worker, g, config, errors, text_field, pure=False) for g in groups]
        weight = {f.key: sum(b.end - b.start if b.end is not None else sizes[b.file] for b in g)
                  for f, g in zip(parts, groups)}
        level = parts
        while len(level) > 1:  # a tree reduction: counts summed, the earliest first appearance kept
            level = [client.submit(merge_parts, level[i:i + 8], pure=False) for i in range(0, len(level), 8)]
        done = 0
        for fut in distributed.as_completed(parts):
            if fut.status == "error":
                fut.result()  # the first failed partition's error, now
            done += weight[fut.key]
            tick(done)
        del parts, fut  # merged partitions can be released
        part = level[0].result()
    check_texts(paths, part)
    if not part.words:
        raise BPELensError(f"the pre-tokenizer {config.pretokenizer!r} found no words")
    return ordered(part)


def _ticker(progress: ProgressFn, grand: int):  # type: ignore[no-untyped-def]
    def tick(done: int) -> None:
        if progress is not None:
            progress(Progress(min(done, grand), grand, "bytes"))
    return tick


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
        return count_dask(paths, config, workers=workers, scheduler=scheduler, text_field=text_field, errors=errors,
                          progress=progress)
    raise BPELensError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
