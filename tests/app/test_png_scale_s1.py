"""File → Export → PNG size: a user exporting a chart for a web page picks 1× (the chart as on screen), for a slide
2× (the default: sharp on a high-DPI projector). Before, every PNG was written at 2× with no choice. The choice is
made where the export starts (the Export menu), kept for the session, and the written PNG follows it: a 1× PNG is
half as wide as a 2× one, its legend too."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QImage
from PySide6.QtWidgets import QFileDialog


def _action(window, name) -> QAction:
    return window.findChild(QAction, f"action_{name}")


def _export_pairs(window, monkeypatch, path) -> QImage:
    """File → Export → Pair chart as PNG/SVG…, saved at ``path``; the PNG as read back."""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    _action(window, "export_pairs").trigger()
    image = QImage(str(path))
    assert not image.isNull(), window.statusBar().currentMessage()
    return image


def test_the_png_size_is_chosen_in_the_export_menu(qtbot, user_window, monkeypatch, tmp_path):
    window = user_window()
    window.resize(1280, 720)
    for _ in range(10):
        qtbot.keyClick(window, Qt.Key_Space)
    qtbot.waitUntil(lambda: window.session.merge_count == 10, timeout=60000)
    one, two = _action(window, "png_scale_1"), _action(window, "png_scale_2")
    assert one is not None and two is not None, "File → Export offers the PNG size"
    shown = [a.text() for a in window.menus["export"].actions()]
    assert any("PNG size" in text for text in shown), shown
    assert two.isChecked() and not one.isChecked()  # 2x by default, as before
    default = _export_pairs(window, monkeypatch, tmp_path / "default.png")
    one.trigger()
    assert one.isChecked() and not two.isChecked()
    small = _export_pairs(window, monkeypatch, tmp_path / "one.png")
    again = _export_pairs(window, monkeypatch, tmp_path / "again.png")  # kept: no need to choose again
    two.trigger()
    large = _export_pairs(window, monkeypatch, tmp_path / "two.png")
    assert default.size() == large.size()
    assert again.size() == small.size()
    assert abs(large.width() - 2 * small.width()) <= 2, (small.size(), large.size())
    assert abs(large.height() - 2 * small.height()) <= 2, (small.size(), large.size())


def _legend_columns(plot, path_with, path_without, legend) -> int:
    """How many columns of the exported PNG the legend covers (where it differs from the picture without it)."""
    from bpe_lens_app.features.exports import export_chart

    def picture(path):
        export_chart(plot, str(path))
        img = QImage(str(path)).convertToFormat(QImage.Format_RGB32)
        return np.frombuffer(img.constBits(), np.uint32).reshape(img.height(), -1)[:, :img.width()].copy()

    with_legend = picture(path_with)
    legend.setVisible(False)
    try:
        without = picture(path_without)
    finally:
        legend.setVisible(True)
    cols = np.nonzero((with_legend != without).any(axis=0))[0]
    return cols.max() - cols.min() + 1


def test_the_legend_follows_the_chosen_size(qtbot, user_window, tmp_path):
    window = user_window()
    session = window.session
    session.seek(60)
    qtbot.waitUntil(lambda: session.merge_count == 60 and not session.is_running, timeout=60000)
    _action(window, "compare_variants").trigger()
    tab = window.variants_feature.tab
    qtbot.wait(50)
    plot = tab.chart.getPlotItem()
    _action(window, "png_scale_1").trigger()
    small = _legend_columns(plot, tmp_path / "a1.png", tmp_path / "b1.png", tab.legend)
    _action(window, "png_scale_2").trigger()
    large = _legend_columns(plot, tmp_path / "a2.png", tmp_path / "b2.png", tab.legend)
    assert 1.8 <= large / small <= 2.2, (small, large)
