"""The QThread workers on their own: results, progress, cancel, batching."""
from __future__ import annotations

import threading
import time

import pytest

from bpe_lens_app.runtime.worker import FLUSH_INTERVAL, FunctionWorker, GeneratorWorker
from bpe_core.types import Cancelled, Progress


def test_call_worker_returns_on_the_gui_thread(qtbot):
    seen = {}

    def work(*, progress, cancel):
        seen["thread"] = threading.current_thread()
        progress(Progress(1, 1))
        return 42

    worker = FunctionWorker(work)
    with qtbot.waitSignal(worker.returned) as result:
        worker.start()
    worker.wait()
    assert result.args == [42]
    assert seen["thread"] is not threading.main_thread()


def test_call_worker_cancel_and_failure(qtbot):
    def slow(*, progress, cancel):
        while True:
            if cancel():
                raise Cancelled()
            time.sleep(0.005)

    worker = FunctionWorker(slow)
    worker.start()
    with qtbot.waitSignal(worker.aborted, timeout=5000):
        worker.requestInterruption()
    worker.wait()

    def broken(*, progress, cancel):
        raise ValueError("bad input")

    worker = FunctionWorker(broken)
    with qtbot.waitSignal(worker.errored) as failed:
        worker.start()
    worker.wait()
    assert isinstance(failed.args[0], ValueError)


def test_call_worker_throttles_progress(qtbot):
    def chatty(*, progress, cancel):
        for i in range(20000):
            progress(Progress(i, 20000))
        return None

    worker = FunctionWorker(chatty)
    reports = []
    worker.progressed.connect(reports.append)
    with qtbot.waitSignal(worker.returned):
        worker.start()
    worker.wait()
    assert 1 <= len(reports) < 200


def test_step_worker_batches_and_stops_between_items(qtbot):
    def items():
        for i in range(10**9):
            time.sleep(0.001)
            yield i

    worker = GeneratorWorker(items(), lambda batch: list(batch))
    batches = []
    worker.yielded.connect(lambda: batches.extend(worker.take_batches()))
    worker.start()
    qtbot.waitUntil(lambda: len(batches) >= 3, timeout=5000)
    started = time.monotonic()
    worker.requestInterruption()
    assert worker.wait(2000)
    assert time.monotonic() - started < 0.5
    batches.extend(worker.take_batches())
    flat = [i for b in batches for i in b]
    assert flat == list(range(len(flat)))  # nothing lost, nothing twice, in order
    assert worker.count == len(flat)
    # ~20 batches a second at most, each holding many items
    assert max(len(b) for b in batches) > 5


@pytest.mark.parametrize("interval", [0.1])
def test_step_worker_paces_items_for_play(qtbot, interval):
    worker = GeneratorWorker(iter(range(3)), list, interval=interval)
    batches = []
    worker.yielded.connect(lambda: batches.extend(worker.take_batches()))
    started = time.monotonic()
    with qtbot.waitSignal(worker.ended, timeout=5000):
        worker.start()
    worker.wait()
    assert time.monotonic() - started >= 2 * interval
    assert batches == [[0], [1], [2]]  # a slow pace: one merge per batch
    assert FLUSH_INTERVAL <= 0.05
