"""An example's settings belong to the example: the next text opened starts from the user's own.

File → Examples opens each example with its own preset and target (seed 002: char-whitespace, vocabulary 17).
A user who then opens a corpus of their own (File → Open, Recent, a drop) gets the settings they had before the
example, and the next launch starts from those too; settings the user picks while the example is open are theirs.
Asserted on what the window shows: the toolbar's preset and the merge counter's target."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from bpe_lens_app.features.examples.catalog import EXAMPLES
from bpe_lens_app.runtime.settings_store import saved_config

SEED002 = next(e for e in EXAMPLES if e.file == "seed002_words.txt")
SEED003 = next(e for e in EXAMPLES if e.file == "seed003_sentences.txt")


@pytest.fixture
def choose(monkeypatch):
    """``choose(path)``: the next File → Open dialog answers with ``path``."""
    def answer(path) -> None:
        monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(path)], ""))
    return answer


def _idle(qtbot, session, path) -> None:
    qtbot.waitUntil(lambda: not session.is_loading and session.corpus is not None
                    and session.corpus.path == str(path), timeout=60000)


def _example(qtbot, window, example) -> None:
    action = next(a for a in window.examples_menu.actions() if a.text() == example.title)
    action.trigger()
    _idle(qtbot, window.session, example.path)
    assert window.preset_box.currentText() == example.preset


def _open(qtbot, window, choose, path) -> str:
    """File → Open ``path``; the merge counter as it then reads."""
    choose(path)
    window.open_action.trigger()
    _idle(qtbot, window.session, path)
    return window.controls.merge_label.text()


def test_the_next_corpus_opens_with_the_users_own_settings(qtbot, user_window, choose, small_corpus):
    window = user_window()
    window.preset_box.textActivated.emit("byte-ascii")  # the user's own pick, before any example
    qtbot.waitUntil(lambda: not window.session.is_loading and window.session.corpus.config.preset == "byte-ascii",
                    timeout=60000)
    own = _open(qtbot, window, choose, small_corpus)
    assert window.preset_box.currentText() == "byte-ascii"
    _example(qtbot, window, SEED002)
    assert window.controls.merge_label.text() != own  # the example's target, not the user's
    _example(qtbot, window, SEED003)  # one example after another: still the settings from before the first
    assert _open(qtbot, window, choose, small_corpus) == own
    assert window.preset_box.currentText() == "byte-ascii"
    assert window.session.config.preset == "byte-ascii"
    assert saved_config(window.settings).preset == "byte-ascii"  # and the next launch starts from them


def test_the_next_launch_does_not_start_with_an_examples_settings(qtbot, user_window):
    window = user_window()
    default = window.session.config
    _example(qtbot, window, SEED002)
    assert saved_config(window.settings) == default


def test_settings_picked_while_an_example_is_open_are_the_users(qtbot, user_window, choose, small_corpus):
    window = user_window()
    _example(qtbot, window, SEED002)
    window.preset_box.textActivated.emit("char-hf")  # the user changes the preset on the example's text
    qtbot.waitUntil(lambda: not window.session.is_loading and window.session.corpus.config.preset == "char-hf",
                    timeout=60000)
    _open(qtbot, window, choose, small_corpus)
    assert window.preset_box.currentText() == "char-hf"
    assert saved_config(window.settings).preset == "char-hf"
