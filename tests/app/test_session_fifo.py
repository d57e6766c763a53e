"""A FIFO as corpus in the app: refused at once with the core's message; nothing hangs (issue 14)."""
from __future__ import annotations

import os

from bpe_lens_app.session.session import Session


def test_loading_a_fifo_reports_it_and_keeps_the_corpus(qtbot, loaded_session: Session, tmp_path) -> None:
    s = loaded_session
    s.step(2)
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with qtbot.waitSignal(s.error_raised, timeout=5000) as err:
        s.load_corpus(str(fifo))
    assert err.args[0].startswith("pipe.txt: is a named pipe (FIFO), not a regular file")
    qtbot.waitUntil(lambda: not s.is_loading, timeout=2000)  # no worker left running at close
    assert s.merge_count == 2 and s.is_loaded


def test_cancel_while_reading_one_huge_line_stops_the_load_and_keeps_the_corpus(
        qtbot, loaded_session: Session, tmp_path) -> None:
    """Issue 14: Cancel works while a corpus is being read, even inside one 40 MB line (the
    reader checks between the blocks it cuts the line into); the loaded corpus stays."""
    path = tmp_path / "one_line.txt"
    path.write_text("lorem ipsum dolor " * 2_300_000, encoding="utf-8")  # ~41 MB, no newline
    before = loaded_session.corpus
    with qtbot.waitSignal(loaded_session.load_progress, timeout=20000):
        loaded_session.load_corpus(str(path))  # the first progress: reading has started
    with qtbot.waitSignal(loaded_session.load_cancelled, timeout=5000):
        loaded_session.cancel()
    assert loaded_session.corpus == before and not loaded_session.is_loading
