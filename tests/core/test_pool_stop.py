"""Stopping the counting pool (a cancel, Ctrl+C) leaves nothing that the process's exit would wait for.

The hang these tests pin down: a worker ended by ``stop_pool`` while it wrote its result left half a
message in the result pipe. The pool's manager thread, reading that message, waited for the rest
forever (the owner itself holds the pipe's write end, so no end-of-file ever came), and the
interpreter's exit (``concurrent.futures.process._python_exit``) joins that thread: ``bpe-lens-cli
train`` said "interrupted" and never ended. Each case runs in its own process group, which the test
kills when it does not end within 30 s (a generous bound: it ends in about a second).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .paths import find

BOUND = 30  # seconds for the process to end; a hang fails the test instead of stopping the suite

# Tasks the workers run. The first worker to get one writes a result that stops half-way (the header
# promises 1 MiB, 4 KiB follow), as a worker killed in the middle of writing it leaves; the others
# wait. Either way the worker says so in a marker file, then sleeps until stop_pool ends it.
_TASKS = '''
import os, struct, sys, time

def _mark(marker):
    tmp = f"{marker}.{os.getpid()}"  # each worker its own: two may mark at once
    open(tmp, "w").close()
    os.replace(tmp, marker)

def torn(marker):
    try:
        os.close(os.open(marker + ".first", os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        time.sleep(3600)  # only one worker tears its result
    frame = sys._getframe(1)
    while "result_queue" not in frame.f_locals:  # concurrent.futures' _process_worker
        frame = frame.f_back
    writer = frame.f_locals["result_queue"]._writer
    os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"\\0" * 4096)
    _mark(marker)
    time.sleep(3600)

def torn_count_block(*args):
    return torn(os.environ["TORN_MARKER"])

def never_reads(owner):
    """A worker that starts and never takes a task: the tasks (1 MB and more each) fill the pipe."""
    _mark(os.environ["TORN_MARKER"])
    time.sleep(3600)
'''

# ``bpe-lens-cli train`` (its console entry point) with a counting task or a worker start replaced.
_CLI = '''
import sys
import tasks
from bpe_core.corpus import counting, pool
if sys.argv[1] == "torn":
    counting.count_block = tasks.torn_count_block
else:
    pool._init_worker = tasks.never_reads
sys.argv = ["bpe-lens-cli", "train", sys.argv[2], "--preset", "gpt2", "-q", "-o", sys.argv[3]]
from bpe_core.cli import run_console
run_console()
'''

# stop_pool as the app and main() use it, in a process that goes on: no thread of the pool is left.
_STOP = '''
import multiprocessing, os, sys, threading, time
import tasks
from bpe_core.corpus import pool as pools
method = sys.argv[1]
pools._context = lambda: multiprocessing.get_context(method)
pool = pools.make_pool(2)
futures = [pools.submit(pool, tasks.torn, os.environ["TORN_MARKER"]) for _ in range(3)]
while not os.path.exists(os.environ["TORN_MARKER"]):
    time.sleep(0.02)
time.sleep(0.2)  # the manager thread reads the torn result
pools.stop_pool(pool)
deadline = time.monotonic() + 20
while time.monotonic() < deadline and threading.active_count() > 1:
    time.sleep(0.05)
left = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
print("left:", left, flush=True)
if left:
    os._exit(3)  # the exit would join them forever: say so instead
'''


def _run(tmp_path: Path, script: str, *args: str, interrupt: bool) -> subprocess.CompletedProcess:
    """Run ``script`` (with the tasks importable) in a new process group; with ``interrupt``, send the
    group SIGINT (a terminal's Ctrl+C) once a worker wrote the marker. Fails the test on a hang."""
    (tmp_path / "tasks.py").write_text(_TASKS, encoding="utf-8")
    marker = tmp_path / "marker"
    env = dict(os.environ, TORN_MARKER=str(marker),
               PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen([sys.executable, "-c", script, *args], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        if interrupt:
            deadline = time.monotonic() + BOUND
            while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            assert marker.exists(), f"no worker started: {proc.communicate()}"
            time.sleep(0.2)  # the manager thread reads what the worker wrote
            os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"the process did not end within {BOUND} s (a hang at exit)\n{out}\n{err}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 MB: over the parallel threshold, several tasks of 1.5 MB for two workers."""
    text = find("tinyshakespeare.txt").read_text(encoding="utf-8")
    path = tmp_path_factory.mktemp("corpus") / "big.txt"
    path.write_text(text * (12_000_000 // len(text) + 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", ["torn", "never_reads"])
def test_ctrl_c_ends_train_whatever_the_workers_left(tmp_path: Path, corpus: Path, case: str) -> None:
    """Ctrl+C while a worker's result is half written (torn), or while no worker reads its tasks and
    the queue's feeder thread is blocked on a full pipe: one line, exit code 130, and the process ends."""
    if os.cpu_count() == 1:
        pytest.skip("train counts in one process on one core")
    done = _run(tmp_path, _CLI, case, str(corpus), str(tmp_path / "out.json"), interrupt=True)
    assert done.returncode == 130, done.stderr
    assert [line for line in done.stderr.splitlines() if line.strip()] == ["interrupted"], done.stderr
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_stop_pool_leaves_no_thread_waiting(tmp_path: Path, method: str) -> None:
    """main() (tests call it in-process) and the app go on after a stop: the pool's manager and feeder
    threads end even though a killed worker left half a result, and the process then exits by itself."""
    import multiprocessing
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} here")
    done = _run(tmp_path, _STOP, method, interrupt=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["left: []"], done.stdout
    assert done.stderr == ""  # no traceback, no leaked-semaphore warning
