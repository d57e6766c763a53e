"""What a chart's axis draws, for tests that check its tick labels (shared by the log-axis tests)."""
from __future__ import annotations

from PySide6.QtGui import QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QApplication


def tick_label_rects(axis):
    """The rectangles of an axis's tick labels as pyqtgraph draws them (scene-independent, in the axis's
    coordinates), with their texts."""
    image = QImage(10, 10, QImage.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [] if specs is None else [(rect, text) for rect, _flags, text in specs[2]]


def drawn_labels(axis):
    """(centre y in pixels, text) of each tick label ``axis`` draws, top to bottom."""
    return sorted((rect.center().y(), text) for rect, text in tick_label_rects(axis) if text)


def labels_a_line_apart(axis, context=None):
    """Check that ``axis`` is logarithmic, draws at least two labels and each is a text line below the one
    above it; return the labels' texts, top to bottom."""
    assert axis.logMode
    line = QFontMetrics(axis.style.get("tickFont") or QApplication.font()).height()
    labels = drawn_labels(axis)
    assert len(labels) >= 2, labels  # the axis still reads
    for (y0, t0), (y1, t1) in zip(labels, labels[1:]):
        assert y1 - y0 >= line, (context, axis.height(), t0, t1, y1 - y0, line)
    return [t for _y, t in labels]
