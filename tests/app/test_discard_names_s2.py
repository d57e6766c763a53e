"""The discard question names the text as the user knows it, and says when it is the run's own text again.

User tests: File → Examples → "How fair is this tokenizer?" opens 8 files; the question then named only
"arb.txt" (the first of them). Opening the very same text again with the same settings asked to "discard" the
run as if another text came: it restarts the run at merge 0, and the question says so."""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from bpe_core import make_config
from bpe_lens_app.main_window import MainWindow
from tests.app.test_desktop import REAL_ASK

TITLE = "How fair is this tokenizer?"


def _asked(window, act, answer=QMessageBox.No):
    """Do ``act()`` with the real question; the discard question it asks is read (title, text) and answered
    ``answer``. The question is the conftest's silent one again afterwards (closing the window asks nothing)."""
    saved = MainWindow.ask_to_discard
    MainWindow.ask_to_discard = REAL_ASK
    try:
        return _answered(window, act, answer)
    finally:
        MainWindow.ask_to_discard = saved


def _answered(window, act, answer):
    shown, done = [], []

    def reply() -> None:
        if window.discard_box is None:
            if not done:
                QTimer.singleShot(10, reply)
            return
        shown.append((window.discard_box.windowTitle(), window.discard_box.text()))
        window.discard_box.button(answer).click()

    QTimer.singleShot(0, reply)
    act()
    done.append(True)
    return shown


def _trained(window, qtbot, merges: int = 5) -> None:
    session = window.session
    qtbot.waitUntil(lambda: session.corpus is not None and not session.is_loading, timeout=60000)
    session.seek(merges)
    qtbot.waitUntil(lambda: session.merge_count == merges and not session.is_running, timeout=60000)


def _example(window):
    from bpe_lens_app.features.examples import EXAMPLES

    entry = next(a for a in window.examples_menu.actions() if a.text() == TITLE)
    return entry, next(e for e in EXAMPLES if e.title == TITLE)


def test_the_examples_files_are_named_as_its_folder_of_8_files(user_window, qtbot):
    window = user_window()
    entry, example = _example(window)
    window.load_corpus([str(p) for p in example.files()], make_config("gpt2", num_merges=50))  # other settings
    _trained(window, qtbot)
    shown = _asked(window, entry.trigger)
    assert len(shown) == 1, shown
    title, text = shown[0]
    assert title == "Discard trained merges?"
    assert text.startswith("Opening the 8 files of parallel/ (arb.txt, deu.txt, …) discards the 5 merges"), text
    assert window.session.merge_count == 5  # No: the run stays


def test_the_same_text_with_the_same_settings_is_asked_as_starting_again(user_window, small_corpus, qtbot):
    window = user_window(str(small_corpus))
    _trained(window, qtbot)
    shown = _asked(window, lambda: window.load_corpus(str(small_corpus)))
    assert len(shown) == 1, shown
    title, text = shown[0]
    assert title == "Start the run again?", title
    assert text.startswith(f"Opening {small_corpus.name} again restarts its run at merge 0 with the same settings: "
                           "it discards the 5 merges trained so far"), text
    assert text.endswith("Start the run on the same text again?"), text
    assert window.session.merge_count == 5  # No: nothing changed
    shown = _asked(window, lambda: window.load_corpus(str(small_corpus)), QMessageBox.Yes)
    assert shown and shown[0][0] == "Start the run again?"
    qtbot.waitUntil(lambda: not window.session.is_loading and window.session.merge_count == 0, timeout=60000)


def test_the_example_opened_again_is_asked_as_starting_again(user_window, qtbot):
    window = user_window()
    entry, example = _example(window)
    window.load_corpus([str(p) for p in example.files()], example.config())  # what the example opens
    _trained(window, qtbot)
    shown = _asked(window, entry.trigger)
    assert len(shown) == 1, shown
    title, text = shown[0]
    assert title == "Start the run again?"
    assert text.startswith("Opening the 8 files of parallel/ (arb.txt, deu.txt, …) again restarts its run"), text


def test_another_text_is_still_a_discard_question(user_window, small_corpus, qtbot, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text(small_corpus.read_text(encoding="utf-8"), encoding="utf-8")
    window = user_window(str(small_corpus))
    _trained(window, qtbot)
    shown = _asked(window, lambda: window.load_corpus(str(other)))
    assert shown == [("Discard trained merges?", "Opening other.txt discards the 5 merges trained so far "
                                                 "(File → Save vocabulary keeps them). Continue?")], shown
