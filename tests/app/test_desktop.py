"""Desktop conventions: About, the icon and .desktop file, remembered settings, asking before trained
merges are discarded, Ctrl+W, ``bpe-lens FILE`` / ``--version`` / ``--info``."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox

from bpe_core import __version__, resources
from bpe_lens_app import __main__ as entry
from bpe_lens_app.runtime import settings_store
from bpe_lens_app.main_window import MainWindow, is_vocabulary
from bpe_lens_app.features.inspector.pane import InspectorTab
from bpe_lens_app.widgets.theme import set_app_font_size

REAL_ASK = MainWindow.ask_to_discard  # conftest replaces it for every other test


def _answer_discard(window, button) -> None:
    """Click ``button`` in the discard question as soon as it is shown (exec() runs its own loop)."""
    def click() -> None:
        if window.discard_box is None:
            QTimer.singleShot(10, click)
            return
        window.discard_box.button(button).click()
    QTimer.singleShot(0, click)


def _trained(qtbot, window, n=3):
    window.session.step(n)
    qtbot.waitUntil(lambda: window.session.merge_count == n, timeout=10000)
    return window


def test_opening_another_corpus_with_trained_merges_asks_first(qtbot, monkeypatch, loaded_window, tmp_path):
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    w = _trained(qtbot, loaded_window)
    other = tmp_path / "other.txt"
    other.write_text("another corpus with other words\n", encoding="utf-8")
    _answer_discard(w, QMessageBox.No)
    w.load_corpus(str(other))
    assert w.session.merge_count == 3 and w.session.corpus.path != str(other)  # kept
    _answer_discard(w, QMessageBox.Yes)
    with qtbot.waitSignal(w.session.corpus_loaded, timeout=10000):
        w.load_corpus(str(other))
    assert w.session.corpus.path == str(other) and w.session.merge_count == 0


def test_quitting_with_trained_merges_asks_first(qtbot, monkeypatch, loaded_window):
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    w = _trained(qtbot, loaded_window)
    _answer_discard(w, QMessageBox.No)
    assert not w.close() and w.isVisible()
    _answer_discard(w, QMessageBox.Yes)
    assert w.close()


def test_no_question_at_merge_zero(qtbot, monkeypatch, loaded_window):
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    assert loaded_window.session.merge_count == 0
    assert loaded_window.close()  # would block on a modal box if it asked


def test_ctrl_w_closes_an_inspector_tab_but_never_training(qtbot, loaded_window, tmp_path):
    w = loaded_window
    w.tabs.addTab(InspectorTab(w.session.model()), "Inspect: mine")
    w.tabs.setCurrentIndex(1)
    close = w.findChild(type(w.open_action), "action_close_tab")
    assert close.shortcut() == QKeySequence(QKeySequence.Close)
    close.trigger()
    assert w.tabs.count() == 1
    close.trigger()
    assert w.tabs.count() == 1 and w.tabs.tabText(0) == "Training"


def test_about_names_version_licence_and_docs(qtbot, monkeypatch, window):
    shown = []
    monkeypatch.setattr(QMessageBox, "about", lambda parent, title, text: shown.append(text))
    window.findChild(type(window.open_action), "action_about").trigger()
    assert __version__ in shown[0] and "MIT" in shown[0] and "<a href=" in shown[0]


def test_preset_training_settings_font_size_and_vocabularies_are_remembered(qtbot, tmp_path, session):
    from bpe_core.presets import make_config

    settings = QSettings(str(tmp_path / "remember.ini"), QSettings.Format.IniFormat)
    first = MainWindow(session, settings)
    qtbot.addWidget(first)
    config = make_config("char-hf", num_merges=77, lowercase=True, min_frequency=3)
    session.set_config(config)
    size = QApplication.font().pointSize()
    first.change_font_size(+2)
    vocab = tmp_path / "mine.json"
    from bpe_core.formats.native import write_native
    from bpe_core.training.trainer import Trainer
    trainer = Trainer.from_texts(["low lower lowest"], make_config("char-hf", num_merges=2))
    trainer.run()
    write_native(trainer.model(), str(vocab))
    with qtbot.waitSignal(session.vocabulary_opened, timeout=10000):
        first.open_vocabulary_path(str(vocab))
    settings.sync()
    try:
        again = QSettings(str(tmp_path / "remember.ini"), QSettings.Format.IniFormat)
        assert settings_store.saved_config(again) == config
        assert settings_store.saved_font_size(again) == size + 2
        assert settings_store.recent(again, "recent_vocabularies") == [str(vocab)]
    finally:
        set_app_font_size(size)


def test_a_stale_saved_config_is_ignored(tmp_path):
    settings = QSettings(str(tmp_path / "stale.ini"), QSettings.Format.IniFormat)
    settings.setValue(settings_store.CONFIG_KEY, '{"preset": "no-such-preset"}')
    assert settings_store.saved_config(settings) is None
    settings.setValue(settings_store.CONFIG_KEY, "not json")
    assert settings_store.saved_config(settings) is None


def test_the_icon_and_desktop_file_are_package_data():
    assert resources.icon().stat().st_size > 0
    text = resources.desktop_file().read_text(encoding="utf-8")
    assert "Exec=bpe-lens %f" in text and "Icon=bpe-lens" in text


def test_the_application_names_its_version_and_desktop_file(qtbot):
    app = entry.make_app()
    assert app.applicationVersion() == __version__
    assert app.desktopFileName() == entry.APP_ID == resources.desktop_file().stem
    assert not app.windowIcon().isNull()


def test_file_argument_is_sniffed(tmp_path):
    corpus = tmp_path / "two_words.txt"
    corpus.write_text("hello world\nfoo bar\n", encoding="utf-8")  # could pass for a merges.txt
    tik = tmp_path / "ranks.txt"
    tik.write_text("IQ== 0\nIg== 1\n", encoding="utf-8")
    assert not is_vocabulary(str(corpus)) and not is_vocabulary(str(resources.default_corpus()))
    assert is_vocabulary(str(tik)) and is_vocabulary(str(tmp_path))  # a folder: seed 000 / tokenizer.json


def test_file_argument_opens_a_vocabulary_in_the_inspector(qtbot, monkeypatch, tmp_path):
    from bpe_core.formats.native import write_native
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer

    trainer = Trainer.from_texts(["low lower lowest"], make_config("char-hf", num_merges=2))
    trainer.run()
    path = tmp_path / "mine.json"
    write_native(trainer.model(), str(path))
    monkeypatch.setattr(QApplication, "exec", lambda *a: 0)
    before = set(QApplication.topLevelWidgets())
    assert entry.main([str(path), "--preset", "char-hf"]) == 0
    window = next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w not in before)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.tabs.count() == 2, timeout=20000)
    assert isinstance(window.tabs.widget(1), InspectorTab)
    qtbot.waitUntil(lambda: window.session.is_loaded, timeout=20000)
    assert window.session.corpus.path == str(entry.DEFAULT_CORPUS)


def _run(*args, env=None):
    env = {**{k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")},
           **(env or {})}
    return subprocess.run([sys.executable, "-m", "bpe_lens_app", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_a_missing_file_is_one_line_and_exit_2(tmp_path):
    out = _run(str(tmp_path / "nope.txt"))
    assert out.returncode == 2 and out.stderr.strip() == f"bpe-lens: {tmp_path / 'nope.txt'}: no such file or folder"


def test_version_and_info_need_no_display():
    """Both answer without a display; --info then says the app could not start (issue 25: it said "all
    checks passed" where the app then aborted), the offscreen platform passes every check."""
    out = _run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"bpe-lens {__version__}"
    out = _run("--info")
    assert out.returncode == 1, out.stderr
    for needle in ("Python:", "Qt:", "pyqtgraph:", "nltk:", str(resources.root()), "words"):
        assert needle in out.stdout
    assert "display:        FAILED — no display (DISPLAY and WAYLAND_DISPLAY are not set): run it under" in out.stdout
    assert out.stderr.strip() == "bpe-lens: 1 check(s) failed: display"
    out = _run("--info", env={"QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr
    assert "display:        ok — Qt starts on the 'offscreen' platform" in out.stdout
    assert out.stdout.rstrip().endswith("all checks passed")


def test_info_fails_with_a_message_when_a_check_fails(monkeypatch, capsys):
    from bpe_lens_app import info

    def broken() -> str:
        raise FileNotFoundError("default.txt is gone")

    monkeypatch.setattr(info, "CHECKS", info.CHECKS[:1] + [("default corpus", broken)])
    assert info.print_info() == 1
    out, err = capsys.readouterr()
    assert "FAILED — default.txt is gone" in out and "default corpus" in err


@pytest.mark.parametrize("flag", ["--help"])
def test_help_ends_with_examples(flag):
    out = _run(flag)
    assert out.returncode == 0 and out.stdout.rstrip().splitlines()[-1].strip().startswith("bpe-lens")


def test_the_discard_question_counts_every_merge_trained_not_the_position(qtbot, monkeypatch, loaded_window):
    """Seen under Xvfb: 36 merges trained, back at merge 14, the box said "discards the 14 merges"; at merge
    0 after Home it asked nothing although the 36 would be lost."""
    monkeypatch.setattr(MainWindow, "ask_to_discard", REAL_ASK)
    w = _trained(qtbot, loaded_window, n=5)
    for target in (2, 0):
        w.session.seek(target)
        qtbot.waitUntil(lambda: w.session.merge_count == target, timeout=10000)
        shown = []

        def read_and_answer() -> None:
            if w.discard_box is None:
                QTimer.singleShot(10, read_and_answer)
                return
            shown.append(w.discard_box.text())
            w.discard_box.button(QMessageBox.No).click()

        QTimer.singleShot(0, read_and_answer)
        assert not w.close()
        assert shown and "discards the 5 merges trained so far" in shown[0], shown
    _answer_discard(w, QMessageBox.Yes)  # the test's window closes without a question left open
    assert w.close()
