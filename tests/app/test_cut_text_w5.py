"""Text cut in the training panes (issue-26 user test, W5): at 1280x720, and at 1920x1080 with the Why-this-split
dock open, the merges table's headers and numbers are readable (the removal column may elide, its tooltip has the
whole text), the dropout summary is not elided and the dropout distribution shows more than three rows."""
from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt

from bpe_lens_app.features.training.merges_table import MergesModel
from bpe_lens_app.widgets.roles import TOOLTIP

PAD = 8  # a cell's text needs at least this much beside it (the style's margins)


def _picky_window(user_window, small_corpus, qtbot, size, steps=40):
    window = user_window(str(small_corpus))
    session = window.session
    window.resize(*size)
    with qtbot.waitSignal(session.corpus_loaded, timeout=20000):
        session.set_config(dataclasses.replace(session.config, variant="picky", ios_threshold=0.6))
    qtbot.waitUntil(lambda: not session.is_loading, timeout=20000)
    session.step(steps)
    qtbot.waitUntil(lambda: session.merge_count == steps, timeout=20000)
    qtbot.wait(100)
    return window


def _unreadable(window) -> list:
    """The headers, numbers and short tokens (up to 3 characters; longer ones may elide) of the merges table
    (all but "removed") whose text is wider than the column."""
    view, model = window.merges.view, window.merges.model
    header = view.horizontalHeader()
    bad = []
    for col in range(model.columnCount()):
        if col == MergesModel.REMOVED:
            continue
        width = header.sectionSize(col)
        text = model.headerData(col, Qt.Horizontal)
        if header.fontMetrics().horizontalAdvance(text) + PAD > width:
            bad.append(("header", text, width))
        for row in range(model.rowCount()):
            cell = model.index(row, col).data()
            if col in (MergesModel.LEFT, MergesModel.RIGHT, MergesModel.NEW) and len(cell) > 3:
                continue
            if view.fontMetrics().horizontalAdvance(cell) + PAD > width:
                bad.append((row, col, cell, width))
    return bad


def test_merges_table_readable_at_1280x720(user_window, small_corpus, qtbot):
    window = _picky_window(user_window, small_corpus, qtbot, (1280, 720))
    assert window.merges.model.columnCount() == 7
    assert _unreadable(window) == []


def test_merges_table_readable_at_1920_with_a_dock_and_removals_in_tooltips(user_window, small_corpus, qtbot):
    window = _picky_window(user_window, small_corpus, qtbot, (1920, 1080))
    window.explain.dock.show()
    qtbot.waitUntil(lambda: window.explain.dock.isVisible(), timeout=5000)
    qtbot.wait(100)
    assert _unreadable(window) == []
    model = window.merges.model
    cells = [model.index(r, MergesModel.REMOVED) for r in range(model.rowCount())]
    removed = [c for c in cells if c.data()]
    assert removed, "no removal in 40 merges at tau 0.6"
    for cell in removed:  # the whole text is in the tooltip, however narrow the column
        assert all(part in cell.data(TOOLTIP) for part in cell.data().split("; "))


def sampled_dropout(window, qtbot):
    """The encode pane's dropout panel after sampling a sentence at merge 100 in a 1280x720 window."""
    window.resize(1280, 720)
    session = window.session
    session.step(100)
    qtbot.waitUntil(lambda: session.merge_count == 100, timeout=20000)
    pane = window.encode
    pane.set_text("Elizabeth felt something unbelievably strange.")
    panel = pane.dropout
    qtbot.mouseClick(panel.toggle, Qt.LeftButton)
    with qtbot.waitSignal(panel.sampled, timeout=20000):
        qtbot.mouseClick(panel.sample_button, Qt.LeftButton)
    qtbot.wait(100)
    return pane, panel


def test_dropout_summary_not_elided_and_distribution_shows_rows(user_window, qtbot):
    window = user_window()
    pane, panel = sampled_dropout(window, qtbot)
    status = panel.status
    assert "samples of each of" in status.text() and "seed 0" in status.text()
    assert status.isVisible()
    assert status.fontMetrics().horizontalAdvance(status.text()) <= status.width()
    table = panel.table
    rows_shown = (table.viewport().height()) // table.verticalHeader().defaultSectionSize()
    assert rows_shown >= 6, f"the distribution shows {rows_shown} rows"
    pane.dropout.wait()
