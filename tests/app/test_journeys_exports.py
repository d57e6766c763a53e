"""Journey (issue 23, finding 9): every export's default path. A new user opens the app (fresh profile, every
default) and picks each File → Save / Export entry in turn: each proposes a file in a writable folder
outside the app's own files (the built-in corpus lives in the installed package: site-packages in a wheel
install), and never one of the files the app reads. With a corpus of their own, its folder is proposed;
after an export, the folder of that export.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import List

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from bpe_core import resources

#: the File menu's saves and exports (tests/app/test_writers_gate_app.py enumerates them)
ENTRIES = ["action_save_vocabulary", "action_export_pairs", "action_export_history", "action_export_merges",
           "action_export_animation", "action_export_word_strip", "action_export_merge_tree",
           "action_save_workspace"]


def proposed_paths(qtbot, window, monkeypatch) -> dict:
    """Each entry -> the path its dialog proposes (the user then cancels)."""
    seen: List[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda parent, title, start, *a, **k: (seen.append(start),
                                                                                              ("", ""))[1])
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (k.get("text") or "the", True))
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: pytest.fail(f"a warning: {a[2]}"))
    found = {}
    for name in ENTRIES:
        seen.clear()
        window.findChild(QAction, name).trigger()
        if name == "action_export_animation":
            dialog = window.slide_exports.dialog
            found[name] = dialog.path.text()
            dialog.close()
        else:
            assert len(seen) == 1, name
            found[name] = seen[0]
    return found


def assert_proposals_are_safe(window, found: dict) -> None:
    own = os.path.realpath(resources.root())
    inputs = {os.path.realpath(window.session.corpus.path)}
    for name, path in found.items():
        folder = os.path.realpath(os.path.dirname(path))
        assert os.path.isabs(path), (name, path)  # not the working folder of whoever started the app
        assert not (folder == own or folder.startswith(own + os.sep)), (name, path)
        assert os.path.isdir(folder) and os.access(folder, os.W_OK), (name, path)
        assert os.path.realpath(path) not in inputs, (name, path)


def step(qtbot, window, n: int) -> None:
    for _ in range(n):
        qtbot.keyClick(window, Qt.Key_Space)
    qtbot.waitUntil(lambda: window.session.merge_count >= n and not window.session.is_running, timeout=20000)


def test_a_new_user_is_never_offered_the_apps_own_folder(qtbot, user_window, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # home: where a new user's exports go
    window = user_window()
    assert Path(window.session.corpus.path).resolve().is_relative_to(resources.root().resolve())
    step(qtbot, window, 3)
    window.slide_exports.selected_word = 0
    found = proposed_paths(qtbot, window, monkeypatch)
    assert_proposals_are_safe(window, found)
    assert {os.path.dirname(p) for p in found.values()} == {str(tmp_path)}


def test_the_corpus_folder_then_the_last_export_folder(qtbot, user_window, monkeypatch, tmp_path) -> None:
    corpus = tmp_path / "mine" / "novel.txt"
    corpus.parent.mkdir()
    corpus.write_text("the lower newest widest low low lower\n" * 30, encoding="utf-8")
    window = user_window(str(corpus))
    step(qtbot, window, 3)
    window.slide_exports.selected_word = 0
    found = proposed_paths(qtbot, window, monkeypatch)
    assert_proposals_are_safe(window, found)
    assert {os.path.dirname(p) for p in found.values()} == {str(corpus.parent)}
    elsewhere = tmp_path / "slides"
    elsewhere.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(elsewhere / "merges.csv"), ""))
    window.findChild(QAction, "action_export_merges").trigger()
    assert (elsewhere / "merges.csv").is_file()
    assert {os.path.dirname(p) for p in proposed_paths(qtbot, window, monkeypatch).values()} == {str(elsewhere)}
