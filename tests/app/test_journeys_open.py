"""Journeys (issue 23, findings 7 and 8): opening corpora as a new user does — fresh profile, every default,
the real event loop, File → Open corpus… — with several files selected (one corpus, counted as the CLI counts
it), and a Latin-1 file (the message names the byte; its "Decode with replacement" button loads it). Every
assertion is on what the user sees: the status bar, the window title, the message box and its buttons, the
training settings."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.paths import DATA
from PySide6.QtWidgets import QFileDialog, QMessageBox

from bpe_core.corpus.files import count_words_in_files
from bpe_core.presets import make_config

WIKI = DATA / "wikitext-2-raw"


def _files(tmp_path: Path):
    """Two real texts (wikitext's test and valid sets when present, else two small ones), each with words
    the other lacks."""
    if (WIKI / "wiki.valid.raw").is_file() and (WIKI / "wiki.test.raw").is_file():
        return [WIKI / "wiki.valid.raw", WIKI / "wiki.test.raw"]
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("the cat sat on the mat\nthe dog sat too\n" * 50, encoding="utf-8")
    b.write_text("a bird flew over the cat\nthe fish swam\n" * 40, encoding="utf-8")
    return [a, b]


def _open_corpus(qtbot, window, monkeypatch, paths):
    """File → Open corpus… with ``paths`` selected in the file dialog (a one-file dialog would give the first)."""
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *a, **k: ([str(p) for p in paths], "Text (*.txt)")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(paths[0]), "Text (*.txt)")))
    window.findChild(type(window.open_action), "action_open_corpus").trigger()


def _status(window) -> str:
    return window.statusBar().currentMessage()


def test_open_several_files_counts_them_as_one_corpus(qtbot, user_window, monkeypatch, tmp_path):
    window = user_window()
    session = window.session
    paths = _files(tmp_path)
    with qtbot.waitSignal(session.corpus_loaded, timeout=120000):
        _open_corpus(qtbot, window, monkeypatch, paths)
    # the CLI's count of the two files as one corpus (bpe-lens-cli train a b counts them so)
    counts = count_words_in_files(paths, make_config(session.config.preset))
    total, unique = sum(counts.values()), len(counts)
    only_first = count_words_in_files(paths[:1], make_config(session.config.preset))
    assert total > sum(only_first.values())
    qtbot.waitUntil(lambda: f"{total:,} in all" in _status(window), timeout=10000)
    status = _status(window)
    assert all(p.name in status for p in paths), status  # both files named
    assert f"{unique:,} unique words" in status
    assert all(p.name in window.windowTitle() for p in paths)
    assert session.corpus.paths == tuple(str(p) for p in paths)
    # new settings count both files again (not the first alone)
    with qtbot.waitSignal(session.corpus_loaded, timeout=120000):
        session.set_config(make_config(session.config.preset, num_merges=50))
    assert session.corpus.total_words == total


@pytest.fixture
def latin1(tmp_path) -> Path:
    path = tmp_path / "latin1.txt"
    path.write_bytes("café au lait, crème brûlée\nla bête et le château\n".encode("latin-1") * 20)
    return path


def test_a_latin1_file_loads_with_the_replacement_button(qtbot, user_window, monkeypatch, latin1):
    window = user_window()
    session = window.session
    with qtbot.waitSignal(session.error_raised, timeout=30000) as raised:
        _open_corpus(qtbot, window, monkeypatch, [latin1])
    assert "not valid UTF-8 at byte 3 (0xE9)" in raised.args[0]
    box = window.error_box
    qtbot.waitUntil(box.isVisible, timeout=5000)
    assert "not valid UTF-8 at byte 3" in box.text()
    buttons = {b.text(): b for b in box.buttons()}
    assert "Decode with replacement" in buttons
    with qtbot.waitSignal(session.corpus_loaded, timeout=30000):
        buttons["Decode with replacement"].click()
    qtbot.waitUntil(lambda: "latin1.txt" in _status(window), timeout=10000)
    assert session.corpus.name == "latin1.txt" and "latin1.txt" in window.windowTitle()
    assert any("\ufffd" in w for w in session.words)  # é read as U+FFFD, as --errors replace reads it
    # the choice is remembered and shown in the training settings
    from bpe_lens_app.features.training.settings_dialog import SettingsDialog

    dialog = SettingsDialog(session.config, window, decode_errors=session.decode_errors)
    qtbot.addWidget(dialog)
    assert dialog.decode_errors() == "replace" and "replace" in dialog.decode.currentText()
    from bpe_lens_app.session.corpus_files import saved_decode_errors

    assert saved_decode_errors(window.settings) == "replace"


def test_a_utf8_corpus_offers_no_replacement(qtbot, user_window, monkeypatch, tmp_path):
    """Other errors keep their plain message box (no button that could not help)."""
    window = user_window()
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    with qtbot.waitSignal(window.session.error_raised, timeout=30000):
        _open_corpus(qtbot, window, monkeypatch, [empty])
    assert [b.text() for b in window.error_box.buttons()] == [window.error_box.button(QMessageBox.Ok).text()]
