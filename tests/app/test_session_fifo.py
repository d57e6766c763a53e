"""A FIFO as corpus in the app: refused at once with the core's message; nothing hangs (issue 14)."""
from __future__ import annotations

import os

from bpe_lens_app.session import Session


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
