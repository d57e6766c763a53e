"""The Dask engine of ``bpe-lens-cli count`` (see :mod:`bpe_core.corpus.engines`): the same blocks
counted by Dask futures on the workers, one part per partition, reduced in a tree there (counts
summed, the earliest first appearance kept), then sorted by first appearance.

Its conventions: a ``--scheduler`` address is checked before connecting and the connection given up
after ``CONNECT_SECONDS`` (distributed's handshake alone has no time limit); a scheduler with no
workers is said, not waited on in silence; the workers get absolute paths, and one that cannot read
a file names it and itself; a whole-text pre-tokenizer (Punkt) counts on one worker; progress
follows the finished partitions; a lost cluster is one line. A ``LocalCluster`` of ``workers``
processes serves when no address is given; client and cluster are closed however counting ends.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Callable, List, Optional, Sequence

from bpe_core.corpus.blocks import (Block, Counted, Part, check_texts, count_partition, merge_parts, one_text, ordered,
                                    plan_blocks, size_of, whole_text_counts)
from bpe_core.corpus.counting import BLOCK_BYTES, ProgressFn
from bpe_core.types import BPELensError, Progress, TrainerConfig

DASK_CHUNK = 32 * BLOCK_BYTES


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
        stack.enter_context(_quiet("distributed"))  # its reconnect errors and tracebacks: our one line says it
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


@contextlib.contextmanager
def _quiet(name: str):  # type: ignore[no-untyped-def]
    """Silence the handlers of logger ``name`` (its children log through them with levels of their own)."""
    handlers = logging.getLogger(name).handlers
    levels = [h.level for h in handlers]
    for h in handlers:
        h.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for h, level in zip(handlers, levels):
            h.setLevel(level)


def _lost(exc: BaseException, scheduler: Optional[str]) -> Optional[BPELensError]:
    """One line for the ways a running count can lose its cluster (None: not one of them)."""
    import asyncio

    from distributed import KilledWorker
    from distributed.comm import CommClosedError
    where = f"the Dask scheduler at {scheduler}" if scheduler else "the Dask LocalCluster"
    if isinstance(exc, KilledWorker):
        last = getattr(exc.last_worker, "address", exc.last_worker)
        return BPELensError(f"Dask workers died while counting ({exc.allowed_failures + 1} times, the last {last}): "
                            "see the workers' logs (a worker's memory limit is the usual cause)")
    if isinstance(exc, (asyncio.CancelledError, CancelledError, CommClosedError)):
        return BPELensError(f"lost the connection to {where} while counting")
    return None


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
    return whole_text_counts([Path(p) for p in paths], config, errors, None, None)


def count_dask(paths: Sequence[Path], config: TrainerConfig, *, workers: Optional[int] = None,
               scheduler: Optional[str] = None, text_field: Optional[str] = None, errors: str = "strict",
               progress: ProgressFn = None, chunk: int = DASK_CHUNK) -> Counted:
    """Count ``paths`` on Dask: per-block parts reduced to one on the workers, sorted by first appearance.
    A whole-text pre-tokenizer counts on one worker. ``progress`` follows the bytes of finished partitions."""
    _distributed()  # installed, or one line that says how
    if scheduler:
        check_scheduler_address(scheduler)
    paths = [Path(p).absolute() for p in paths]  # the workers' folder is not ours (not resolved: links stay)
    sizes = [size_of(p) for p in paths]
    tick = _ticker(progress, sum(sizes))
    whole = one_text(config, text_field)
    blocks = [] if whole else list(plan_blocks(paths, config, chunk=chunk, jsonl=text_field is not None))
    try:
        return _count_on(whole, blocks, paths, sizes, config, workers, scheduler, text_field, errors, tick)
    except (KeyboardInterrupt, SystemExit, BPELensError):
        raise
    except BaseException as exc:  # distributed's CancelledError is asyncio's: not an Exception
        lost = _lost(exc, scheduler)
        if lost is None:
            raise
        raise lost from None


def _count_on(whole: bool, blocks: List[Block], paths: List[Path], sizes: List[int], config: TrainerConfig,
              workers: Optional[int], scheduler: Optional[str], text_field: Optional[str], errors: str,
              tick: Callable[[int], None]) -> Counted:
    distributed = _distributed()
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


def _ticker(progress: ProgressFn, grand: int) -> Callable[[int], None]:
    def tick(done: int) -> None:
        if progress is not None:
            progress(Progress(min(done, grand), grand, "bytes"))
    return tick
