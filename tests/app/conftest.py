"""pytest-qt setup for the GUI tests: offscreen Qt, isolated QSettings, small corpora."""
from __future__ import annotations

import os
import time

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
def _isolated_data_folder(tmp_path_factory, monkeypatch):
    """Autosaves go to a fresh folder for each test, never to the user's data folder."""
    monkeypatch.setenv("BPE_LENS_APP_DATA", str(tmp_path_factory.mktemp("appdata")))


@pytest.fixture(autouse=True)
def _discarding_needs_no_answer(monkeypatch):
    """Closing a window with trained merges asks first; a modal question would hang a test's teardown,
    so tests discard without asking (test_desktop.py drives the real question)."""
    from bpe_lens_app.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "ask_to_discard", lambda self, action: True)


@pytest.fixture(scope="session", autouse=True)
def _pyqtgraph_options():
    from bpe_lens_app.widgets.theme import configure_pyqtgraph

    configure_pyqtgraph()


@pytest.fixture
def small_corpus(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(SMALL_TEXT, encoding="utf-8")
    return path


@pytest.fixture
def session(qtbot):
    from bpe_lens_app.session.session import Session

    s = Session()
    yield s
    s.shutdown()


@pytest.fixture
def make_session(qtbot):
    """``make_session(**kw)`` -> a Session (e.g. with a ``trainer_factory``), shut down after the test."""
    from bpe_lens_app.session.session import Session

    made = []

    def make(**kw):
        made.append(Session(**kw))
        return made[-1]

    yield make
    for s in made:
        s.shutdown()


@pytest.fixture
def loaded_session(qtbot, session, small_corpus):
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(small_corpus)
    return session


@pytest.fixture
def slow_trainer_factory():
    """``slow_trainer_factory(delay)`` -> a ``Session(trainer_factory=...)`` whose trainer is real but
    takes ``delay`` seconds longer per merge, so a run is still going when the test acts on it."""
    from bpe_core.training.trainer import Trainer

    def make(delay: float):
        class SlowTrainer(Trainer):
            def step(self, **kw):
                time.sleep(delay)
                return super().step(**kw)

        return SlowTrainer.from_corpus

    return make


@pytest.fixture
def window_for(qtbot, tmp_path):
    """``window_for(session)`` -> the real main window on that session and an isolated QSettings file."""
    from bpe_lens_app.main_window import MainWindow

    def make(session):
        settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
        w = MainWindow(session, settings)
        qtbot.addWidget(w)
        w.resize(1440, 900)
        w.show()
        return w

    return make


@pytest.fixture
def window(session, window_for):
    """The real main window on an isolated QSettings file."""
    return window_for(session)


@pytest.fixture
def drawn(qtbot):
    """``drawn()`` waits until every pane has drawn what it was asked to (a load's charts draw in passes
    after it: ``coalesce.PassQueue``)."""
    from bpe_lens_app.runtime.coalesce import pass_queue

    return lambda: qtbot.waitUntil(lambda: pass_queue().idle, timeout=5000)


@pytest.fixture
def loaded_window(qtbot, window, small_corpus, drawn):
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.session.load_corpus(small_corpus)
    drawn()
    return window


@pytest.fixture
def user_window(qtbot):
    """``user_window(*argv)`` -> the window and session exactly as ``bpe-lens ARGV`` opens them for a new
    user: a fresh profile (isolated settings and data folder), every default on (read-ahead included), the
    app's theme and first size, the real event loop (tests wait with ``qtbot``, never call panes directly).
    With no argument it opens the embedded default corpus. Returns ``window`` once the corpus has loaded
    and every pane has drawn it. The journeys (tests/app/test_journeys*.py) start here."""
    from bpe_lens_app.__main__ import open_window, parse_args
    from bpe_lens_app.runtime.coalesce import pass_queue

    opened = []

    def start(*argv: str, wait: bool = True):
        window, session = open_window(parse_args(list(argv)))
        qtbot.addWidget(window)
        opened.append(session)
        if wait:
            qtbot.waitUntil(lambda: session.corpus is not None and not session.is_loading, timeout=120000)
            qtbot.waitUntil(lambda: pass_queue().idle, timeout=10000)
        return window

    yield start
    for s in opened:
        s.shutdown()


@pytest.fixture
def system_palette_back(qapp):
    """Whatever a test picks (View → Theme), the next test starts under the palette the app started with."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from bpe_lens_app.widgets import theme_choice

    old = QPalette(QApplication.palette())
    yield
    theme_choice.forget_choice()
    QApplication.setPalette(old)
