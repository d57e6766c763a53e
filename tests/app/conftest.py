"""pytest-qt setup for the GUI tests: offscreen Qt, isolated QSettings, small corpora."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pytest  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

SMALL_TEXT = (
    "low low low low low lower lower newest newest newest newest newest newest "
    "widest widest widest\n"
    "the cat sat on the mat the cat ate the rat\n"
    "running runner runs run\n"
    + "byte pair encoding merges the most frequent pair of adjacent symbols into a new symbol\n" * 3
    + "then it counts the pairs again and repeats until the vocabulary reaches the target size\n" * 2
    + "a tokenizer trained this way splits rare words into pieces and keeps common words whole\n" * 2
    + "the quick brown fox jumps over the lazy dog while the other dogs watch the foxes\n"
)


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path_factory):
    """QSettings go to a fresh temporary folder for each test, never to the user's real configuration
    (and what one test's window remembers, such as its preset, cannot leak into the next test)."""
    folder = tmp_path_factory.mktemp("settings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    yield


@pytest.fixture(autouse=True)
def _discarding_needs_no_answer(monkeypatch):
    """Closing a window with trained merges asks first; a modal question would hang a test's teardown,
    so tests discard without asking (test_desktop.py drives the real question)."""
    from bpe_lens_app.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)


@pytest.fixture(scope="session", autouse=True)
def _pyqtgraph_options():
    from bpe_lens_app.theme import configure_pyqtgraph

    configure_pyqtgraph()


@pytest.fixture
def small_corpus(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(SMALL_TEXT, encoding="utf-8")
    return path


@pytest.fixture
def session(qtbot):
    from bpe_lens_app.session import Session

    s = Session()
    yield s
    s.shutdown()


@pytest.fixture
def loaded_session(qtbot, session, small_corpus):
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(small_corpus)
    return session


@pytest.fixture
def window(qtbot, session, tmp_path):
    """The real main window on an isolated QSettings file."""
    from bpe_lens_app.main_window import MainWindow

    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    w = MainWindow(session, settings)
    qtbot.addWidget(w)
    w.resize(1440, 900)
    w.show()
    return w


@pytest.fixture
def loaded_window(qtbot, window, small_corpus):
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.session.load_corpus(small_corpus)
    return window
