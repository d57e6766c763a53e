"""Health's progress text reads whole (the user test of the built wheel under Xvfb at 1280x720: View → Vocabulary
health of GPT-2 on wiki.valid.raw; while it computed, the bar's "replaying merges 0%" was wrapped in a bar 95 px
wide and cut at its top and bottom). At 1280x720 and 1024x700 the bar's text fits in it on one line, the title is
not cut, Cancel stays at hand, and once reported the tab still shows its table, and the fertility chart's whole
title."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from tests.core.paths import need


def _text_fits(bar) -> bool:
    """The bar's text (as drawn: its format filled in) fits in the bar on one line, with a little room each side."""
    fm = bar.fontMetrics()
    return fm.horizontalAdvance(bar.text()) + 2 * fm.averageCharWidth() <= bar.contentsRect().width() \
        and fm.height() <= bar.contentsRect().height()


def _label_whole(label) -> bool:
    """A word-wrapped label is as tall as its text needs at its width (no line cut off)."""
    return label.heightForWidth(label.width()) <= label.height()


@pytest.mark.parametrize("size", [(1280, 720), (1024, 700)])
def test_the_progress_text_reads_whole(qtbot, user_window, monkeypatch, size):
    vocab, wiki = need("gpt2/tokenizer.json"), need("wikitext-2-raw/wiki.valid.raw")
    window = user_window()
    window.resize(*size)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(vocab), ""))
    window.open_vocab_action.trigger()
    qtbot.waitUntil(lambda: window.tabs.count() == 2, timeout=60000)
    window.tabs.setCurrentIndex(1)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(wiki), str(wiki)], ""))
    window.findChild(type(window.open_action), "action_vocabulary_health").trigger()
    pane = window.tabs.currentWidget()
    seen = []

    def look(_p=None):  # what the bar shows at each step of the computation, once drawn
        qtbot.wait(1)
        if pane.progress.isVisible() and "%" in pane.progress.text():
            seen.append((pane.progress.text(), _text_fits(pane.progress), _label_whole(pane.title),
                         pane.cancel_button.isVisible() and pane.cancel_button.isEnabled()))

    pane.calls.progressed.connect(look)
    qtbot.waitUntil(lambda: pane.report is not None, timeout=300000)
    assert seen, "the bar showed its progress"
    assert {text.split()[0] for text, *_ in seen} >= {"replaying"}, seen
    cut = [s for s in seen if not all(s[1:])]
    assert not cut, (window.size(), pane.progress.size(), cut[:3])
    qtbot.wait(50)
    assert _label_whole(pane.title), pane.title.text()
    rows = pane.table.viewport().height() // pane.table.verticalHeader().defaultSectionSize()
    assert rows >= 10, rows  # the tab stays usable: the table shows rows
    fertility = pane.fertility_plot.getPlotItem()  # its title was cut too: "tokens per 100 ch" at 1024x700
    title = fertility.titleLabel
    shown = pane.fertility_plot.viewport().width()  # the chart as the pane shows it (the scene may be wider)
    drawn = title.mapRectToScene(title.item.mapRectToParent(title.item.boundingRect()))
    assert 0 <= drawn.left() and drawn.right() <= shown, (title.text, drawn, shown)
    assert "per 100 char" in title.text, title.text  # still says what the bars are
