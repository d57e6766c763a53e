"""Journey (issue 23): vocabulary health on several files, as a new user gets there — the window as
``bpe-lens`` opens it (fresh profile, every default, the real event loop), Space to train a few merges,
View → "Vocabulary health on a corpus…" with several files picked, and GPT-2's tokenizer.json opened
from the File menu and checked the same way. Every assertion is on what the user sees: the tab, its
title, the table's rows, the per-file chart's labels, the export button."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from tests.core.paths import DATA, need

WIKI = DATA / "wikitext-2-raw"


def _health_of(qtbot, window, monkeypatch, paths):
    """View → Vocabulary health on a corpus…, the files picked in its dialog; the new tab once reported."""
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(p) for p in paths], ""))
    tabs = window.tabs.count()
    window.findChild(type(window.open_action), "action_vocabulary_health").trigger()
    assert window.tabs.count() == tabs + 1
    pane = window.tabs.currentWidget()
    qtbot.waitUntil(lambda: pane.report is not None, timeout=300000)
    return pane


def _shown_file_labels(pane) -> list:
    from PySide6.QtGui import QImage, QPainter

    image = QImage(10, 10, QImage.Format_ARGB32)
    painter = QPainter(image)
    specs = pane.fertility_plot.getPlotItem().getAxis("left").generateDrawSpecs(painter)
    painter.end()
    return [text for _rect, _flags, text in specs[2]] if specs else []


def test_health_of_the_training_on_several_files(qtbot, user_window, monkeypatch, tmp_path):
    window = user_window()
    for _ in range(5):
        qtbot.keyClick(window, Qt.Key_Space)
    qtbot.waitUntil(lambda: window.session.merge_count == 5, timeout=60000)
    window.tabs.setCurrentIndex(0)
    first, second = tmp_path / "first_half.txt", tmp_path / "second_half.txt"
    first.write_text("the cat sat on the mat\n" * 50, encoding="utf-8")
    second.write_text("a rat ate the hat\n" * 50, encoding="utf-8")
    pane = _health_of(qtbot, window, monkeypatch, [window.session.corpus.path, first, second])
    title = pane.title.text()
    assert "first_half.txt" in title and "second_half.txt" in title and "default.txt" in title, title
    assert pane.table_model.rowCount() == window.session.vocab_size
    assert pane.report.by == "file"
    qtbot.waitUntil(lambda: len(_shown_file_labels(pane)) == 3, timeout=10000)  # every file named on the chart
    assert pane.export_button.isEnabled()


def test_health_of_gpt2_on_wikitext_files(qtbot, user_window, monkeypatch):
    vocab = need("gpt2/tokenizer.json")
    files = [need("wikitext-2-raw/wiki.valid.raw"), need("wikitext-2-raw/wiki.test.raw")]
    window = user_window()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(vocab), ""))
    window.open_vocab_action.trigger()
    qtbot.waitUntil(lambda: window.tabs.count() == 2, timeout=60000)
    window.tabs.setCurrentIndex(1)
    pane = _health_of(qtbot, window, monkeypatch, files)
    assert pane.table_model.rowCount() == 50257
    title = pane.title.text()
    assert "wiki.valid.raw" in title and "wiki.test.raw" in title and "50,257 tokens" in title, title
    qtbot.waitUntil(lambda: len(_shown_file_labels(pane)) == 2, timeout=10000)  # drawn in a pass of its own
