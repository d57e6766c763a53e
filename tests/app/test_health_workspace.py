"""A vocabulary health tab is part of the workspace, as the token biography tab is (tests/app/
test_biography_workspace_s2.py): its analysis was saved, but File → Open workspace did not open it again and
said nothing (brief S2's report). It comes back on the same vocabulary and corpus, computed again on a worker;
when its corpus is gone it is named once in what the restore found."""
from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

from tests.app.test_biography import files  # noqa: F401 - the fixture: a corpus and a small vocabulary
from tests.app.test_biography_workspace_s2 import _reopened


def _health_tabs(window):
    tabs = window.tabs
    return [(tabs.tabText(i), tabs.widget(i)) for i in range(tabs.count()) if tabs.tabText(i).startswith("Health")]


def _saved_with_health(qtbot, user_window, files, tmp_path, monkeypatch, corpus_for_health):  # noqa: F811
    corpus, vocab = files
    window = user_window(str(corpus))
    window.open_vocabulary_path(vocab)
    qtbot.waitUntil(lambda: window.session.workbench.current is not None, timeout=20000)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(corpus_for_health)], ""))
    window.findChild(QAction, "action_vocabulary_health").trigger()
    (_title, pane), = _health_tabs(window)
    qtbot.waitUntil(lambda: pane.report is not None and not pane.is_running, timeout=30000)
    path = tmp_path / "with_health.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == f"Saved {path}", timeout=10000)
    return window, pane, path


def test_the_health_tab_comes_back_computed(qtbot, user_window, files, tmp_path, monkeypatch):  # noqa: F811
    corpus, _vocab = files
    _window, before, path = _saved_with_health(qtbot, user_window, files, tmp_path, monkeypatch, corpus)
    rows = before.table_model.rowCount()
    again = _reopened(qtbot, user_window, path)
    tabs = _health_tabs(again)
    assert [title for title, _pane in tabs] == ["Health: small"], [again.tabs.tabText(i)
                                                                   for i in range(again.tabs.count())]
    pane = tabs[0][1]
    qtbot.waitUntil(lambda: pane.report is not None and not pane.is_running, timeout=30000)
    assert pane.table_model.rowCount() == rows > 0
    assert "health" not in again.workspace.report.lower()


def test_a_health_tab_whose_corpus_is_gone_is_named_once(qtbot, user_window, files, tmp_path, monkeypatch):  # noqa: F811
    other = tmp_path / "elsewhere.txt"
    other.write_text("abd ab ef\n" * 20, encoding="utf-8")
    _window, _pane, path = _saved_with_health(qtbot, user_window, files, tmp_path, monkeypatch, other)
    other.unlink()
    again = _reopened(qtbot, user_window, path)
    assert _health_tabs(again) == []
    report = again.workspace.report
    assert report.count("vocabulary health") == 1 and "elsewhere.txt" in report, report
