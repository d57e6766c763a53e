"""File → Export for slides: the animation dialog (a worker, progress, Cancel), the word strip and
merge tree as SVG, and charts at 2x for high-DPI slides."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QFileDialog, QInputDialog

from bpe_core.render.frames import find_word
from bpe_core.render.labels import chip_text
from bpe_core.types import Cancelled
from bpe_lens_app.features.exports import files as export
from bpe_lens_app.features.exports.animation_dialog import AnimationJob

Image = pytest.importorskip("PIL.Image")
SVG = "{http://www.w3.org/2000/svg}"


def _action(w, name):
    return next(a for a in w.findChildren(type(w.open_action)) if a.objectName() == f"action_{name}")


def _svg_texts(path):
    return [t.text for t in ET.parse(path).getroot().iter(SVG + "text")]


def test_export_menu_lists_the_slide_exports(loaded_window):
    texts = [a.text() for a in loaded_window.menus["export"].actions()]
    assert {"Animation of merges…", "Word strip as SVG…", "Merge tree as SVG…"} <= set(texts)


def test_animation_dialog_writes_a_gif_on_a_worker(qtbot, loaded_window, tmp_path):
    w = loaded_window
    _action(w, "export_animation").trigger()
    dialog = w.slide_exports.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.first.setValue(2)
    dialog.last.setValue(6)
    dialog.words.setText("low, newest")
    dialog.format.setCurrentText("Animated GIF (.gif)")
    dialog.path.setText(str(tmp_path / "talk.gif"))
    with qtbot.waitSignal(dialog.exported, timeout=60_000) as signal:
        qtbot.mouseClick(dialog.export_button, Qt.LeftButton)
        assert dialog.busy and not dialog.export_button.isEnabled() and dialog.cancel_button.isEnabled()
    assert signal.args == [str(tmp_path / "talk.gif")]
    with Image.open(tmp_path / "talk.gif") as im:
        assert im.n_frames == 5 and im.size == (1280, 720)
    assert [f.merge for f in dialog.frames] == [2, 3, 4, 5, 6]
    assert [r.word for r in dialog.frames[0].words] == ["low", "newest"]
    assert dialog.status.text().startswith("Saved") and "5 frames" in dialog.status.text()
    assert dialog.export_button.isEnabled() and not dialog.progress.isVisible()
    # the session's own trainer was not moved by the export
    assert w.session.merge_count == 0


def test_animation_dialog_apng_follows_the_format(qtbot, loaded_window, tmp_path):
    dialog = loaded_window.slide_exports.animate()
    dialog.path.setText(str(tmp_path / "talk.gif"))
    dialog.format.setCurrentText("Animated PNG (.png, APNG)")
    assert dialog.path.text().endswith("talk.png")
    dialog.last.setValue(3)
    with qtbot.waitSignal(dialog.exported, timeout=60_000):
        dialog.start()
    with Image.open(tmp_path / "talk.png") as im:
        assert im.format == "PNG" and im.n_frames == 4


def test_animation_dialog_cancel_stops_the_worker(qtbot, loaded_window, tmp_path, monkeypatch):
    def slow(self, *, progress, cancel):
        from bpe_core.types import Progress
        progress(Progress(1, 100, "frames", "capturing"))
        while not cancel():
            QImage(8, 8, QImage.Format_RGB32)  # busy, yet checking cancel as the renderer does
        raise Cancelled()

    monkeypatch.setattr(AnimationJob, "__call__", slow)
    dialog = loaded_window.slide_exports.animate()
    dialog.path.setText(str(tmp_path / "never.gif"))
    dialog.start()
    qtbot.waitUntil(lambda: dialog.progress.maximum() == 100, timeout=10_000)
    with qtbot.waitSignal(dialog.calls.aborted, timeout=10_000):
        qtbot.mouseClick(dialog.cancel_button, Qt.LeftButton)
    assert dialog.status.text() == "Cancelled." and dialog.export_button.isEnabled()
    assert not (tmp_path / "never.gif").exists()


def test_word_strip_svg_of_the_selected_word(qtbot, loaded_window, tmp_path, monkeypatch):
    w = loaded_window
    w.session.step(12)
    words = w.session.words
    i = find_word({word: k for k, word in enumerate(words)}, w.session.freqs, "newest")
    assert i is not None and words[i].endswith("newest")
    w.words.select_word(i)
    path = tmp_path / "strip.svg"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    _action(w, "export_word_strip").trigger()
    texts = _svg_texts(path)
    final = [chip_text(w.session.token(t), mode="text")[0] for t in w.session.segmentation(i)]
    assert texts[-len(final):] == final
    history = w.session.word_history(i)
    assert sum(1 for t in texts if t.startswith("merge ")) == len(history) - 1 >= 1
    assert "Saved" in w.statusBar().currentMessage()


def test_merge_tree_svg_of_the_newest_token(qtbot, loaded_window, tmp_path, monkeypatch):
    w = loaded_window
    w.session.step(15)
    newest = w.session.history[-1]
    path = tmp_path / "tree.svg"
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (asked.append(k.get("text")) or k["text"], True))
    _action(w, "export_merge_tree").trigger()
    texts = _svg_texts(path)
    new_text = chip_text(newest.new_token, mode="text")[0]
    assert asked == [chip_text(newest.new_token, mode="text", whitespace=False)[0]]
    assert new_text in texts and f"merge {newest.rank}" in texts
    for part in (newest.left_token, newest.right_token):
        assert chip_text(part, mode="text")[0] in texts


def test_charts_export_at_twice_their_size(qtbot, loaded_window, tmp_path):
    w = loaded_window
    w.session.step(10)
    item = w.pair_chart.plot_item
    png = tmp_path / "pairs.png"
    export.export_chart(item, png)
    on_screen = export.chart_width(item)
    assert on_screen > 100
    assert QImage(str(png)).width() == max(export.MIN_CHART_WIDTH, round(2 * on_screen))
    big = tmp_path / "big.png"
    export.export_chart(item, big, scale=4)
    assert QImage(str(big)).width() == max(export.MIN_CHART_WIDTH, round(4 * on_screen))
    # the SVG scales: a viewBox, and rendered at 2x its size it fills the larger picture
    svg = tmp_path / "pairs.svg"
    export.export_chart(item, svg)
    root = ET.parse(svg).getroot()
    assert root.get("viewBox")
    renderer = QSvgRenderer(str(svg))
    size = renderer.defaultSize()
    image = QImage(size.width() * 2, size.height() * 2, QImage.Format_ARGB32)
    image.fill(Qt.transparent)
    painter = QPainter(image)
    renderer.render(painter, QRectF(0, 0, image.width(), image.height()))
    painter.end()
    corner = image.pixelColor(image.width() - 3, image.height() - 3)
    assert corner.alpha() == 255  # the chart's background reaches the far corner of the 2x picture
