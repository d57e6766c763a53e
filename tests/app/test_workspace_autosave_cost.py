"""Autosave's capture converts only the merges taken since the last capture (issue 24): the workspace is the
Workbench's saved form, and its run keeps the merges it converted before (``SavedMerges``). Counted, not timed:
the conversions of a capture after a few more merges do not grow with the history."""
from __future__ import annotations

import bpe_core.formats.workspace as workspace_format


def _count_conversions(monkeypatch):
    calls = []
    real = workspace_format.saved_merge

    def counting(step):
        calls.append(1)
        return real(step)

    monkeypatch.setattr(workspace_format, "saved_merge", counting)
    return calls


def test_capture_converts_only_the_new_merges(qtbot, loaded_window, monkeypatch):
    window = loaded_window
    session, workspace = window.session, window.workspace
    calls = _count_conversions(monkeypatch)
    extra = []
    for history in (40, 80):
        session.seek(history)
        qtbot.waitUntil(lambda: not session.is_running and len(session.history) == history, timeout=10000)
        workspace.capture()  # the first capture of this length converts what it has not seen
        calls.clear()
        session.seek(history + 3)
        qtbot.waitUntil(lambda: not session.is_running and len(session.history) == history + 3, timeout=10000)
        ws = workspace.capture()
        assert ws is not None and ws.position == history + 3
        extra.append(len(calls))
    assert extra == [3, 3]  # three merges more: three conversions, whatever the history's length
