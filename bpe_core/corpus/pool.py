"""The worker pool that counts a big corpus: processes that never outlive the one that asked.

Four things the standard ``ProcessPoolExecutor`` does not do on its own:

- **Workers die with their owner.** A worker blocks reading its task pipe, whose write end the
  workers themselves inherit, so a SIGKILLed owner left them (and through them the forkserver and
  the resource tracker) alive for minutes. Each worker now runs a watchdog thread that exits the
  process within ~0.2 s once the owner is gone (or a zombie), or once its own parent changes (the
  forkserver, which leaves when the owner dies). On Linux ``PR_SET_PDEATHSIG`` also kills it the
  moment its parent dies.
- **Ctrl+C is the owner's.** The terminal sends SIGINT to the whole process group; a forkserver or
  worker still starting (importing) printed a KeyboardInterrupt traceback. Tasks are submitted (and
  so every helper process is started) with SIGINT blocked, a mask the children inherit and keep; a
  Ctrl+C meanwhile waits and reaches the owner alone (one line from the CLI) right after.
- **A stop leaves no thread behind.** ``stop_pool`` terminates the workers and then makes sure the
  pool's manager thread ends, even when a worker died half-way through writing its result: the
  interpreter's exit joins that thread, and a CLI stopped by Ctrl+C waited on it forever.
- **A ``__main__`` that cannot be re-imported** (a script read from stdin, ``python -c``, some
  embedded interpreters): forkserver and spawn children re-run the main file by path and fail
  (``FileNotFoundError: '<stdin>'``). There, a single-threaded owner forks its workers (safe
  without threads, and nothing is re-imported); one with threads counts in one process. Both give
  the same counts, silently.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

_PRELOAD = ["bpe_core.corpus.counting", "bpe_core.corpus.pool", "bpe_core.pretokenize.pretokenizers"]
_POLL_SECONDS = 0.2
_STOP_SECONDS = 5.0  # for the manager thread to end once the workers are told to
_PR_SET_PDEATHSIG = 1


def main_is_importable() -> bool:
    """Whether spawn/forkserver children can re-import ``__main__`` (they re-run it by name or path).

    >>> main_is_importable()  # under pytest, __main__ is pytest's own importable module
    True
    """
    main = sys.modules.get("__main__")
    if main is None or getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    if path is None:
        return True  # a REPL or a notebook: children have nothing to re-run
    if not os.path.isabs(path):
        from multiprocessing import process

        path = os.path.join(process.ORIGINAL_DIR or os.getcwd(), path)
    return os.path.isfile(path)


def _context() -> Optional[multiprocessing.context.BaseContext]:
    """The start method for workers, or None to count in one process."""
    if _fork_is_safe():
        # a command-line process with no other thread: forked workers share the owner's pages (modules,
        # tables) instead of importing everything again, and no forkserver process is started
        return multiprocessing.get_context("fork")
    if not main_is_importable():
        # fork copies the owner without re-importing anything; it is unsafe only with other
        # threads (a lock held by one of them stays locked in the child).
        if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
            return multiprocessing.get_context("fork")
        return None
    # Never "fork" otherwise: the caller may be a Qt app with threads. forkserver forks workers
    # from a clean server that has already imported the counting code, so they start fast.
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(_PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


def _fork_is_safe() -> bool:
    """No thread but this one, and no Qt: its threads are not Python's (``threading`` does not see them)."""
    return ("fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
            and not any(name.startswith(("PySide6", "PyQt")) for name in sys.modules))


def make_pool(workers: int) -> Optional[ProcessPoolExecutor]:
    """A pool of ``workers`` processes tied to this one, or None when counting must stay in-process."""
    ctx = _context()
    if ctx is None:
        return None
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                               initargs=(os.getpid(),))


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End ``pool``'s processes now (a cancel), and the pool's threads with them.

    A task inside one long C call, such as a regex that backtracks, would otherwise run on after
    ``shutdown`` until it ends by itself, so the workers are terminated. A worker terminated while it
    wrote its result leaves half a message in the result pipe; the pool's manager thread, reading it,
    would wait for the rest forever (this process holds the pipe's write end too, so no end-of-file
    comes), and the interpreter's exit joins that thread: Ctrl+C said "interrupted" and the process
    never ended. So the write end is closed here: once the workers are gone the manager reads
    end-of-file, takes the pool as broken, closes the task pipe (which frees the feeder thread blocked
    on it) and ends. The feeder is never joined at exit either (``cancel_join_thread``). A second
    Ctrl+C waits for all this (a few milliseconds) instead of interrupting it half-way.
    """
    with _sigint_blocked():
        manager = getattr(pool, "_executor_manager_thread", None)
        processes = list((getattr(pool, "_processes", None) or {}).values())
        calls, results = getattr(pool, "_call_queue", None), getattr(pool, "_result_queue", None)
        for process in processes:
            _signal(process.terminate)
        pool.shutdown(wait=False, cancel_futures=True)  # drops the references read above
        if calls is not None:
            calls.cancel_join_thread()
        writer = getattr(results, "_writer", None)
        if writer is not None:
            writer.close()
        if manager is None:
            return
        manager.join(_STOP_SECONDS)
        if manager.is_alive():  # a worker that did not take SIGTERM in time
            for process in processes:
                _signal(process.kill)
            manager.join(_STOP_SECONDS)


def _signal(send: Callable[[], None]) -> None:
    try:
        send()
    except (OSError, ValueError):
        pass  # gone already


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no process groups to worry about
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)  # a Ctrl+C that came meanwhile raises here


def submit(pool: ProcessPoolExecutor, fn: Callable[..., Any], *args: Any) -> "Future[Any]":
    """``pool.submit`` with SIGINT blocked: the pool starts its processes inside ``submit``."""
    with _sigint_blocked():
        return pool.submit(fn, *args)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs: a killed owner that its own parent has not reaped yet is a zombie,
    which ``kill(pid, 0)`` still finds, so Linux reads its state from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except FileNotFoundError:
        return False
    except (OSError, IndexError):
        pass  # no /proc (macOS): ask the kernel
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # the watchdog thread still catches it


def _watch(owner: int, parent: int) -> None:
    while _alive(owner) and os.getppid() == parent:
        time.sleep(_POLL_SECONDS)
    os._exit(1)  # the owner is gone: nobody will read our result


def _init_worker(owner: int) -> None:
    """Runs first in every worker: ignore Ctrl+C, and exit when the owner or our parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    _die_with_parent()
    threading.Thread(target=_watch, args=(owner, parent), name="bpe-lens-owner-watch", daemon=True).start()
