"""Restoring a workspace goes through the core's restore steps (issue 24): the corpus check covers every file
of a corpus of several files, and the corpus loaded back is all of them, not the first alone."""
from __future__ import annotations

from PySide6.QtWidgets import QPushButton


def _two_file_corpus(tmp_path, small_corpus):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(small_corpus.read_text("utf-8"), "utf-8")
    b.write_text("lower newer lowest newest\n" * 20, "utf-8")
    return a, b


def _saved(qtbot, window, paths, tmp_path, merges=8):
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.session.load_corpus([str(p) for p in paths])
    window.session.seek(merges)
    qtbot.waitUntil(lambda: window.session.merge_count == merges and not window.session.is_running, timeout=20000)
    path = tmp_path / "two.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    return path


def test_a_changed_second_file_is_said(qtbot, session, make_session, window_for, small_corpus, tmp_path):
    a, b = _two_file_corpus(tmp_path, small_corpus)
    path = _saved(qtbot, window_for(session), (a, b), tmp_path)
    b.write_text("zzz zzz\n" * 50, "utf-8")
    other = window_for(make_session())
    other.workspace.open(str(path))
    qtbot.waitUntil(lambda: other.workspace.question is not None and other.workspace.question.isVisible(),
                    timeout=10000)
    box = other.workspace.question
    assert box.windowTitle() == "The corpus has changed" and "b.txt has changed" in box.text()
    assert box.findChild(QPushButton, "open_changed") is not None


def test_a_corpus_of_two_files_comes_back_whole(qtbot, session, make_session, window_for, small_corpus, tmp_path):
    a, b = _two_file_corpus(tmp_path, small_corpus)
    first = window_for(session)
    path = _saved(qtbot, first, (a, b), tmp_path)
    other = window_for(make_session())
    with qtbot.waitSignal(other.workspace.restored, timeout=20000):
        other.workspace.open(str(path))
    assert other.session.corpus.name == first.session.corpus.name
    assert other.session.corpus.total_words == first.session.corpus.total_words
    assert other.session.merge_count == 8
