"""Health's usage-by-rank chart (log y) keeps its tick labels apart, as the tokens per word by script chart does
(tests/app/test_script_log_ticks_l.py): pyqtgraph's plain log axis labels every 2..9 of a decade, which run
together at the decade's top ("7", "8", "9" a few pixels apart before the report, in a short chart after it).
The chart now uses the shared :class:`~bpe_lens_app.widgets.axes.SpacedAxis`: its labels are as many decades,
2s, 3s and 5s as keep a line apart, and they read as the values do ("100", not "10²")."""
from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QFileDialog, QSplitter

from tests.app.axis_checks import labels_a_line_apart
from tests.core.paths import need


@pytest.fixture
def health(qtbot, user_window, monkeypatch):
    """GPT-2's health on wiki.valid.raw, opened from the View menu; (pane, a function that sets the usage chart's
    height as dragging its splitter does)."""
    vocab, wiki = need("gpt2/tokenizer.json"), need("wikitext-2-raw/wiki.valid.raw")
    window = user_window()
    window.resize(1280, 720)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(vocab), ""))
    window.open_vocab_action.trigger()
    qtbot.waitUntil(lambda: window.tabs.count() == 2, timeout=60000)
    window.tabs.setCurrentIndex(1)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(wiki)], ""))
    window.findChild(type(window.open_action), "action_vocabulary_health").trigger()
    pane = window.tabs.currentWidget()
    split = pane.usage_plot.parent()
    assert isinstance(split, QSplitter)

    def set_height(height: int) -> None:
        total = sum(split.sizes())
        split.setSizes([height, total - height])
        qtbot.wait(100)

    return pane, set_height


def _check(pane, height):
    return labels_a_line_apart(pane.usage_plot.getPlotItem().getAxis("left"), height)


@pytest.mark.parametrize("height", [520, 300, 160])
def test_the_usage_axis_labels_keep_apart(qtbot, health, height):
    pane, set_height = health
    set_height(height)
    _check(pane, height)  # before the report: an empty log chart
    qtbot.waitUntil(lambda: pane.report is not None, timeout=300000)
    set_height(height)
    texts = _check(pane, height)
    assert all(re.fullmatch(r"\d+(\.\d+)?", text) for text in texts), texts  # "10000", "0.5": not "10⁴", "1e+04"
    if height >= 300:
        assert "10" in texts and "100" in texts and "10000" in texts, texts
