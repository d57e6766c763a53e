"""Export: charts to PNG and SVG, merges to CSV, the vocabulary through bpe_core.formats."""
from __future__ import annotations

import csv
import json

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from bpe_lens_app.features.exports import files as export
from bpe_core.formats.detect import open_vocabulary


def test_export_charts_png_and_svg(qtbot, loaded_window, tmp_path, monkeypatch):
    w = loaded_window
    w.session.step(10)
    png = tmp_path / "pairs.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(png), ""))
    next(a for a in w.findChildren(type(w.open_action)) if a.objectName() == "action_export_pairs").trigger()
    image = QImage(str(png))
    assert not image.isNull() and image.width() >= 1280
    assert "Saved" in w.statusBar().currentMessage()
    svg = tmp_path / "history.svg"
    export.export_chart(w.history_chart.layout_widget.scene(), svg)
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "count of each merge" in text


def test_export_merges_csv_matches_the_table(qtbot, loaded_window, tmp_path, monkeypatch):
    w = loaded_window
    w.session.step(12)
    path = tmp_path / "merges.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    w.export_merges()
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == list(export.MERGES_HEADER)
    table = w.merges.rows_text()
    assert len(rows) == 13
    for row, shown in zip(rows[1:], table):
        assert row[0] == shown[0] and row[4] == shown[4].replace(",", "")
        assert row[3] == shown[3].replace("·", " ") or row[3] == shown[3]


@pytest.mark.parametrize("fmt,name", [("native", "vocab.json"), ("tokenizer.json", "tokenizer.json")])
def test_save_vocabulary_round_trips(qtbot, loaded_window, tmp_path, monkeypatch, fmt, name):
    w = loaded_window
    w.session.step(25)
    path = tmp_path / name
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), export.VOCAB_FORMATS[fmt]))
    w.save_vocabulary()
    assert "Saved" in w.statusBar().currentMessage()
    model = open_vocabulary(path)
    trained = w.session.model()
    assert [(model.tokens[a], model.tokens[b]) for a, b in model.merges] == \
        [(trained.tokens[a], trained.tokens[b]) for a, b in trained.merges]
    if fmt == "native":
        assert json.loads(path.read_text(encoding="utf-8"))["format"] == "bpe-lens"


def test_a_format_that_cannot_hold_the_model_is_an_error_not_a_crash(qtbot, window, small_corpus, tmp_path,
                                                                      monkeypatch):
    from bpe_lens_app.session.session import make_config

    w = window
    with qtbot.waitSignal(w.session.corpus_loaded, timeout=10000):
        w.session.load_corpus(small_corpus, make_config("char-whitespace"))  # separate '</w>' symbol
    w.session.step(5)
    path = tmp_path / "tokenizer.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(path), export.VOCAB_FORMATS["tokenizer.json"]))
    w.save_vocabulary()
    assert w.error_box.isVisible() and "end-of-word" in w.error_box.text()
    assert w.statusBar().currentMessage() == w.error_box.text()
    assert not path.exists()


def test_save_vocabulary_offers_pickybpes_model_file(qtbot, window, small_corpus, tmp_path, monkeypatch):
    """A PickyBPE run on the reference's reading saves as pchizhov/picky_bpe's model file, which reopens as
    the same merges; a run on another reading is refused in one sentence and writes nothing."""
    from bpe_lens_app.session.session import make_config

    w = window
    assert "picky" in export.VOCAB_FORMATS
    with qtbot.waitSignal(w.session.corpus_loaded, timeout=10000):
        w.session.load_corpus(small_corpus, make_config("picky", variant="picky", ios_threshold=0.6))
    w.session.step(40)
    path = tmp_path / "model.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), export.VOCAB_FORMATS["picky"]))
    w.save_vocabulary()
    assert "Saved" in w.statusBar().currentMessage()
    model = open_vocabulary(path)
    trained = w.session.model()
    assert [(model.tokens[a], model.tokens[b]) for a, b in model.merges] == \
        [(trained.tokens[a], trained.tokens[b]) for a, b in trained.merges]

    with qtbot.waitSignal(w.session.corpus_loaded, timeout=10000):
        w.session.load_corpus(small_corpus, make_config("gpt2", variant="picky"))
    w.session.step(5)
    other = tmp_path / "other.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), export.VOCAB_FORMATS["picky"]))
    w.save_vocabulary()
    assert w.error_box.isVisible() and "native" in w.error_box.text()
    assert not other.exists()
