"""Presenter mode on the common projector sizes: nothing clipped, the screen used, and Space
steps unless the encode box has the keyboard (and then the presenter says so)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QFontInfo, QFontMetrics, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from bpe_lens_app.widgets.theme import presenter_point_size

SIZES = [(1024, 768), (1280, 720), (1920, 1080)]


def needed_width(label: QLabel) -> float:
    text = label.text()
    if label.textFormat() == Qt.RichText or (label.textFormat() == Qt.AutoText and "<" in text):
        doc = QTextDocument()
        doc.setDefaultFont(label.font())
        doc.setHtml(text)
        doc.setDocumentMargin(0)
        return doc.idealWidth()
    return QFontMetrics(label.font()).horizontalAdvance(text)


@pytest.fixture
def presenter(qtbot, loaded_window):
    w = loaded_window
    w.session.step(12)
    w.enter_presenter()
    p = w.presenter
    qtbot.addWidget(p)
    p.showNormal()  # (offscreen full screen is the 800x800 virtual screen: sizes are set by hand)
    p.encode.set_text("the lowest newest 世界")
    yield p
    p.leave()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_presenter_fits_unclipped(qtbot, presenter, size):
    p = presenter
    p.resize(QSize(*size))
    p.session.step()
    p.encode.encode_now()
    qtbot.wait(30)
    assert (p.width(), p.height()) == size  # nothing forces the window past the screen
    assert p.minimumSizeHint().width() <= size[0] and p.minimumSizeHint().height() <= size[1]
    labels = [lab for lab in p.findChildren(QLabel) if lab.isVisible() and lab.text()]
    assert len(labels) >= 4  # banner, vocab, "Encode", token stats
    for lab in labels:
        assert needed_width(lab) <= lab.contentsRect().width() + 1, (lab.objectName(), lab.text())
        assert QFontMetrics(lab.font()).height() <= lab.height(), (lab.objectName(), lab.text())
        corner = lab.mapTo(p, QPoint(lab.width(), lab.height()))
        assert corner.x() <= p.width() and corner.y() <= p.height(), lab.text()
    for lab in labels:  # the big type stays big
        assert lab.font().pointSizeF() >= 13
    # the type in proportion to the screen (issue 23): the banner at least 5 % of its height
    assert p.merge_label.font().pointSizeF() == p.point_size == presenter_point_size(*size) >= 19
    assert QFontInfo(p.banner.label.font()).pixelSize() >= 0.05 * size[1]
    # the chart: title, count-axis title and all of the plot inside its view
    chart = p.chart
    plot = chart.plot_item
    assert plot.titleLabel.item.boundingRect().width() <= plot.titleLabel.width() + 1
    view = chart.plot_widget
    item = plot.getAxis("bottom").label  # (may reach past its axis, not past the view)
    margin = item.document().documentMargin()  # empty room around the text
    label = item.sceneBoundingRect().adjusted(margin, margin, -margin, -margin)
    assert label.left() >= -1 and label.right() <= view.width() + 1 and label.bottom() <= view.height() + 1
    assert plot.sceneBoundingRect().right() <= view.width() + 1
    assert plot.sceneBoundingRect().bottom() <= view.height() + 1
    assert chart.rows >= 8  # the top pairs, not two or three
    # every chosen word has its row; the chips fill a good part of the words' half
    assert p.showcase.shown_rows() == len(p.showcase.word_indices)
    assert p.showcase.width() >= 0.35 * size[0] and chart.width() >= 0.35 * size[0]
    assert p.encode.view.height() >= QFontMetrics(p.encode.font()).height() * 1.5


def test_space_steps_unless_typing_and_the_presenter_says_so(qtbot, presenter):
    p = presenter
    s = p.session
    p.resize(QSize(1280, 720))
    p.activateWindow()
    p.setFocus()
    start = s.merge_count
    QTest.keyClick(p, Qt.Key_Space)  # a merge read ahead shows at once, else when the trainer has it
    qtbot.waitUntil(lambda: s.merge_count == start + 1)
    assert not p.focus_hint.isVisible()
    p.encode.editor.setFocus()
    qtbot.waitUntil(lambda: p.typing())
    assert p.focus_hint.isVisible() and "typing" in p.focus_hint.text() and "Esc" in p.focus_hint.text()
    hint = p.focus_hint.geometry()
    assert p.encode.editor.rect().contains(hint)  # whole, over the box's corner
    text = p.encode.text()
    QTest.keyClick(p.encode.editor, Qt.Key_Space)
    assert s.merge_count == start + 1 and p.encode.text() != text  # a space typed, no step
    QTest.keyClick(p.encode.editor, Qt.Key_Escape)  # leaves the box, not presenter mode
    assert p.isVisible() and not p.typing()
    qtbot.waitUntil(lambda: not p.focus_hint.isVisible())
    QTest.keyClick(p, Qt.Key_Space)
    qtbot.waitUntil(lambda: s.merge_count == start + 2)
    p.encode.editor.setFocus()
    qtbot.waitUntil(lambda: p.typing())
    QTest.mouseClick(p.showcase, Qt.LeftButton)  # a click beside the box gives the keyboard back
    assert not p.typing()


def test_entering_presenter_mode_gives_the_keyboard_to_stepping(qtbot, presenter):
    p = presenter
    p.encode.editor.setFocus()
    p.leave()
    p.enter()
    assert not p.typing()
