"""The main window driven like a user: open (menu, toolbar, drop, recent, examples), progress and
Cancel, settings, errors, closing during a run, saved layout, menus with shortcuts."""
from __future__ import annotations

import time

from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox, QSplitter

from bpe_lens_app.main_window import RESOURCES, MainWindow
from bpe_lens_app.session.session import Session
from bpe_lens_app.features.training.settings_dialog import SettingsDialog
from bpe_core.types import Cancelled, Progress


def _words_shown(window) -> int:
    return window.words.model.rowCount()


def test_open_corpus_from_the_file_menu(qtbot, window, small_corpus, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(small_corpus)], ""))  # several allowed
    file_menu = window.menuBar().actions()[0].menu()
    action = next(a for a in file_menu.actions() if a.text() == "Open corpus…")
    assert action.shortcut().toString() == "Ctrl+O"
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        action.trigger()
    assert _words_shown(window) == len(window.session.words) > 10
    assert window.controls.merge_label.text().startswith("merge 0 /")
    assert "small.txt" in window.windowTitle()
    assert "unique words" in window.statusBar().currentMessage()


def test_open_corpus_from_the_toolbar(qtbot, window, small_corpus, monkeypatch):
    from PySide6.QtWidgets import QToolBar, QToolButton

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(small_corpus)], ""))
    bar = window.findChild(QToolBar, "main_toolbar")
    button = next(b for b in bar.findChildren(QToolButton) if b.defaultAction() is window.open_action)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        button.click()
    assert _words_shown(window) > 10


def test_drop_a_corpus_file(qtbot, window, small_corpus):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(small_corpus))])
    enter = QDragEnterEvent(QPoint(50, 50), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(50, 50), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.dropEvent(drop)
    assert window.session.corpus.path == str(small_corpus)


def test_recent_files_are_remembered_and_reopen(qtbot, loaded_window, small_corpus, tmp_path):
    w = loaded_window
    other = tmp_path / "other.txt"
    other.write_text("aaa bbb aaa bbb ccc\n" * 5, encoding="utf-8")
    with qtbot.waitSignal(w.session.corpus_loaded, timeout=10000):
        w.session.load_corpus(other)
    assert w.recent_files()[:2] == [str(other), str(small_corpus)]
    w.recent_menu.aboutToShow.emit()
    texts = [a.text() for a in w.recent_menu.actions()]
    assert texts[:2] == [str(other), str(small_corpus)]
    with qtbot.waitSignal(w.session.corpus_loaded, timeout=10000):
        w.recent_menu.actions()[1].trigger()
    assert w.session.corpus.path == str(small_corpus)
    # persisted in QSettings: a new window sees them
    again = MainWindow(Session(), w.settings)
    qtbot.addWidget(again)
    assert again.recent_files()[0] == str(small_corpus)


def test_examples_menu_lists_the_example_corpora(qtbot, window):
    from bpe_lens_app.features.examples.catalog import EXAMPLES

    # issue 9: readable names ("Seed 004: Chinese + English (cjk-mixed)"), not file stems; every file listed
    files = sorted(p.name for p in (RESOURCES / "examples").glob("*.txt"))
    titles = {e.title: e.file for e in EXAMPLES if not e.path.is_dir()}  # a folder: a guided example's (its journey:
    actions = [a for a in window.examples_menu.actions() if a.text() in titles]  # tests/app/test_example_fair.py)
    names = [a.text() for a in actions]
    assert sorted(titles[n] for n in names) == files
    if names:
        with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
            actions[-1].trigger()
        assert window.session.corpus.path.endswith(".txt")


def _slow_factory(seconds: float):
    """A corpus load that takes ``seconds``, reports progress and honours cancel."""
    from bpe_lens_app.session.session import default_trainer_factory

    real = default_trainer_factory()

    def load(path, config, *, progress, cancel):
        n = int(seconds / 0.01)
        for i in range(n):
            if cancel():
                raise Cancelled()
            progress(Progress(i, n, "blocks"))
            time.sleep(0.01)
        return real(path, config, progress=progress, cancel=cancel)

    return load


def test_loading_shows_progress_stays_responsive_and_cancels(qtbot, small_corpus, tmp_path):
    session = Session(trainer_factory=_slow_factory(10.0))
    window = MainWindow(session, QSettings(str(tmp_path / "w.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    session.load_corpus(small_corpus)
    assert window.status.progress.isVisible() and window.status.cancel_button.isVisible()
    qtbot.waitUntil(lambda: window.status.progress.value() > 0, timeout=5000)
    # the GUI thread is free: a 10 ms timer fires on time while the worker counts
    ticks = []
    started = time.monotonic()
    QTimer.singleShot(10, lambda: ticks.append(time.monotonic() - started))
    qtbot.waitUntil(lambda: bool(ticks), timeout=1000)
    assert ticks[0] < 0.5
    assert "blocks" in window.status.progress.text()
    with qtbot.waitSignal(session.load_cancelled, timeout=5000):
        window.status.cancel_button.click()
    assert not window.status.progress.isVisible()
    assert "cancelled" in window.statusBar().currentMessage()
    assert not session.is_loaded and not session.is_loading
    session.shutdown()


def test_a_bad_file_shows_a_dialog_and_keeps_the_corpus(qtbot, loaded_window, tmp_path):
    w = loaded_window
    w.session.step(2)
    bad = tmp_path / "binary.txt"
    bad.write_bytes(b"\xff\xfe\x00\x81 not utf-8 \xc3\x28")
    with qtbot.waitSignal(w.session.error_raised, timeout=10000) as raised:
        w.session.load_corpus(bad)
    assert w.error_box.isVisible() and w.error_box.text() == raised.args[0]
    assert "binary.txt" in w.error_box.text() or "UTF-8" in w.error_box.text()
    assert w.statusBar().currentMessage() == w.error_box.text()
    w.error_box.close()
    assert w.session.merge_count == 2 and w.session.corpus.name == "small.txt"
    assert w.controls.merge_label.text().startswith("merge 2 /")


def test_settings_dialog_defaults_from_the_preset(qtbot):
    from bpe_lens_app.session.session import make_config

    dialog = SettingsDialog(make_config("gpt2"))
    qtbot.addWidget(dialog)
    assert dialog.unit.currentText() == "bytes" and dialog.min_frequency.value() == 2
    dialog.preset.setCurrentIndex(dialog.preset.findData("char-whitespace"))
    assert dialog.unit.currentText() == "chars"
    assert dialog.suffix.text() == "</w>"
    assert dialog.tie_break.currentText() == make_config("char-whitespace").tie_break
    dialog.target_kind.setCurrentText("merges")
    dialog.target.setValue(123)
    cfg = dialog.config()
    assert cfg.num_merges == 123 and cfg.vocab_size is None and cfg.preset == "char-whitespace"


def test_a_bad_setting_is_refused_in_the_dialog(qtbot):
    from bpe_lens_app.session.session import make_config

    dialog = SettingsDialog(make_config("gpt2"))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.suffix.setText("</w>")  # a suffix with byte units: the core refuses it
    dialog.accept()
    assert dialog.error.text() == "an end-of-word suffix needs character units, not bytes"
    assert dialog.isVisible() and dialog.result() == 0  # still open: nothing lost
    dialog.unit.setCurrentText("chars")
    dialog.accept()
    assert not dialog.isVisible() and dialog.result() == 1
    assert dialog.config().end_of_word_suffix == "</w>" and dialog.config().unit == "chars"


def test_changing_settings_asks_and_restarts_training(qtbot, loaded_window, monkeypatch):
    from bpe_lens_app.session.session import make_config

    w = loaded_window
    w.session.step(3)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.No)
    w.preset_box.textActivated.emit("char-whitespace")
    assert asked and "3 merges" in asked[0]
    assert w.session.merge_count == 3 and w.preset_box.currentText() == "gpt2"  # declined: unchanged
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    with qtbot.waitSignal(w.session.corpus_loaded, timeout=10000):
        w.preset_box.textActivated.emit("char-whitespace")
    assert w.session.config == make_config("char-whitespace")
    assert w.session.merge_count == 0 and w.preset_box.currentText() == "char-whitespace"
    assert w.session.display(w.session.segmentation(0)[-1]) == "</w>"


def test_closing_during_a_run_stops_the_worker(qtbot, tmp_path, slow_trainer_factory):
    # the real merges, slowed so the run is still going when we close
    session = Session(trainer_factory=slow_trainer_factory(0.005))
    window = MainWindow(session, QSettings(str(tmp_path / "w.ini"), QSettings.Format.IniFormat))
    window.show()
    with qtbot.waitSignal(session.corpus_loaded, timeout=20000):
        session.load_corpus(RESOURCES / "corpus" / "default.txt")
    with qtbot.waitSignal(session.run_progress, timeout=10000):
        window.train_actions["run"].trigger()
    worker = session._runs.worker
    assert session.is_running and worker.isRunning()
    window.close()
    assert not worker.isRunning() and not session.is_running
    assert session.merge_count > 0 and not session._threads


def test_layout_is_saved_and_restored(qtbot, loaded_window):
    w = loaded_window
    top = w.findChild(QSplitter, "splitter_top")
    top.setSizes([300, 1100])
    sizes = top.sizes()
    w.close()
    again = MainWindow(Session(), w.settings)
    qtbot.addWidget(again)
    again.resize(w.size())
    again.show()
    assert again.findChild(QSplitter, "splitter_top").sizes() == sizes


def test_every_action_is_in_a_menu_with_its_shortcut(window):
    in_menus = {}
    for top in window.menuBar().actions():
        stack = [top.menu()]
        while stack:
            menu = stack.pop()
            for a in menu.actions():
                if a.menu():
                    stack.append(a.menu())
                elif a.text():
                    in_menus[a.objectName()] = a
    for name, action in window.train_actions.actions.items():
        assert in_menus.get(f"action_{name}") is action
        assert not action.shortcut().isEmpty()
    expected = {"action_open_corpus": "Ctrl+O", "action_open_vocabulary": "Ctrl+Shift+O",
                "action_save_vocabulary": "Ctrl+S", "action_presenter": "F11", "action_find": "Ctrl+F",
                "action_step": "Space", "action_undo": "Backspace", "action_play": "P", "action_reset": "Home",
                "action_run": "End", "action_step_n": "Shift+Right"}
    for name, key in expected.items():
        assert in_menus[name].shortcut().toString() == key, name


def test_settings_dialog_from_the_menu_restarts_after_confirmation(qtbot, loaded_window, monkeypatch):
    w = loaded_window
    w.session.step(4)

    def fill_and_accept(dialog):
        dialog.min_frequency.setValue(3)
        dialog.target_kind.setCurrentText("merges")
        dialog.target.setValue(50)
        return 1

    monkeypatch.setattr(SettingsDialog, "exec", fill_and_accept)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    assert w.settings_action.shortcut().toString() == "Ctrl+,"
    with qtbot.waitSignal(w.session.corpus_loaded, timeout=10000):
        w.settings_action.trigger()
    assert asked and "4 merges" in asked[0]
    cfg = w.session.config
    assert (cfg.min_frequency, cfg.num_merges, cfg.vocab_size) == (3, 50, None)
    assert w.session.merge_count == 0
    assert w.controls.merge_label.text().startswith("merge 0 / 50")
