"""A token biography tab is part of the workspace (user test: File → Save workspace, then File → Open workspace
brought the inspector's tabs back but not the biography, and nothing said so). It comes back on the same
vocabulary and reference corpus, with its filter and sort, computed again on a worker; when its corpus is gone
it is named once in what the restore found."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QAction  # noqa: E402
from PySide6.QtWidgets import QFileDialog  # noqa: E402

from tests.app.test_biography import files  # noqa: E402,F401 - the fixture: a corpus and a small vocabulary


def _biography_tabs(window):
    tabs = window.tabs
    return [(tabs.tabText(i), tabs.widget(i)) for i in range(tabs.count()) if tabs.tabText(i).startswith("Biography")]


def _saved_with_a_biography(qtbot, user_window, files, tmp_path, monkeypatch, other_corpus=None):  # noqa: F811
    corpus, vocab = files
    window = user_window(str(corpus))
    window.open_vocabulary_path(vocab)
    qtbot.waitUntil(lambda: window.session.workbench.current is not None, timeout=20000)
    window.findChild(QAction, "action_token_biography").trigger()
    pane = window.tabs.currentWidget()
    if other_corpus is not None:  # Choose files… picks another reference corpus (and computes)
        monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(other_corpus)], ""))
        qtbot.mouseClick(pane.choose_button, Qt.LeftButton)
    else:
        qtbot.mouseClick(pane.compute_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: pane.biography is not None and not pane.is_running, timeout=30000)
    pane.preset_box.setCurrentIndex(pane.preset_box.findData("likely residues"))
    pane.table.horizontalHeader().setSortIndicator(pane.table_model.COL_EMITTED, Qt.DescendingOrder)
    path = tmp_path / "with_biography.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == f"Saved {path}", timeout=10000)
    return window, pane, path


def _reopened(qtbot, user_window, path):
    again = user_window(str(path), wait=False)
    qtbot.waitUntil(lambda: again.session.corpus is not None and not again.workspace.is_busy(), timeout=60000)
    return again


def test_the_biography_tab_comes_back_computed_with_its_filter_and_sort(qtbot, user_window, files,  # noqa: F811
                                                                       tmp_path, monkeypatch):
    window, before, path = _saved_with_a_biography(qtbot, user_window, files, tmp_path, monkeypatch)
    shown_before = [t.token for t in before.table_model.shown]
    again = _reopened(qtbot, user_window, path)
    tabs = _biography_tabs(again)
    assert [title for title, _pane in tabs] == ["Biography: small"], [again.tabs.tabText(i)
                                                                      for i in range(again.tabs.count())]
    pane = tabs[0][1]
    assert pane.corpus_label.text() == "reference.txt"
    qtbot.waitUntil(lambda: pane.biography is not None and not pane.is_running, timeout=30000)
    assert pane.preset_box.currentData() == "likely residues"
    header = pane.table.horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (pane.table_model.COL_EMITTED,
                                                                            Qt.DescendingOrder)
    assert [t.token for t in pane.table_model.shown] == shown_before and shown_before
    assert "biography" not in again.workspace.report.lower()


def test_a_biography_whose_corpus_is_gone_is_named_once(qtbot, user_window, files, tmp_path, monkeypatch):  # noqa: F811
    other = tmp_path / "elsewhere.txt"
    other.write_text("abd ab ef\n" * 20, encoding="utf-8")
    _window, _pane, path = _saved_with_a_biography(qtbot, user_window, files, tmp_path, monkeypatch, other)
    other.unlink()
    again = _reopened(qtbot, user_window, path)
    assert _biography_tabs(again) == []
    report = again.workspace.report
    assert report.count("token biography") == 1 and "elsewhere.txt" in report, report


def test_a_biography_of_the_training_comes_back_at_its_merge(qtbot, user_window, small_corpus, tmp_path):
    window = user_window(str(small_corpus))
    session = window.session
    session.seek(12)
    qtbot.waitUntil(lambda: session.merge_count == 12 and not session.is_running, timeout=30000)
    window.findChild(QAction, "action_token_biography").trigger()
    title = window.tabs.tabText(window.tabs.currentIndex())
    assert title.startswith("Biography: ") and title.endswith(" at merge 12"), title
    session.seek(15)  # the window's run goes on; the biography stays the vocabulary at merge 12
    qtbot.waitUntil(lambda: session.merge_count == 15 and not session.is_running, timeout=30000)
    path = tmp_path / "training_biography.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == f"Saved {path}", timeout=10000)
    again = _reopened(qtbot, user_window, path)
    assert again.session.merge_count == 15
    tabs = _biography_tabs(again)
    assert [t for t, _pane in tabs] == [title], [again.tabs.tabText(i) for i in range(again.tabs.count())]
    pane = tabs[0][1]
    assert pane.corpus_label.text() == small_corpus.name and len(pane.vocab_model.merges) == 12
    qtbot.waitUntil(lambda: pane.biography is not None and not pane.is_running, timeout=30000)


def test_opening_the_workspace_twice_keeps_one_biography_tab(qtbot, user_window, files, tmp_path,  # noqa: F811
                                                              monkeypatch):
    _window, _pane, path = _saved_with_a_biography(qtbot, user_window, files, tmp_path, monkeypatch)
    again = _reopened(qtbot, user_window, path)
    again.workspace.open(str(path))
    qtbot.waitUntil(lambda: not again.workspace.is_busy() and not again.session.is_loading, timeout=60000)
    qtbot.wait(200)
    assert [t for t, _pane in _biography_tabs(again)] == ["Biography: small"]
