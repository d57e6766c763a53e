"""Ties in the open, in the app (issue 11): tied bars outlined → the tie inspector → "Merge this instead"
makes a branch → switch back and forth → compare; driven through the real widgets on seed 001's corpus
(byte-level: "t"+"h" and " "+"l" both 3 times at merge 1)."""
from __future__ import annotations

from bpe_core.presets import make_config

from bpe_lens_app.main_window import RESOURCES
from bpe_lens_app.features.training.pair_chart import TIED_LABEL

SEED001 = RESOURCES / "examples" / "seed001_sentence.txt"


def pairs(session, steps) -> list:
    return [(session.display(s.left), session.display(s.right)) for s in steps]


def test_tie_marker_manual_pick_branch_switch(qtbot, make_session, window_for, drawn):
    session = make_session(config=make_config("byte-ascii"))
    window = window_for(session)
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(SEED001)
    drawn()  # the charts draw the corpus a pass after it is installed
    chart = window.pair_chart
    assert chart.tied_bars() == 2 and chart.labels()[:2] == ['"t" + "h"', '"Ġ" + "l"']
    assert chart.plot_item.getAxis("bottom").labelText == TIED_LABEL
    session.step(3)
    session.seek(0)
    assert chart.tied_bars() == 2
    action = window.findChild(type(window.open_action), "action_ties")
    action.trigger()
    feature = window.ties
    pane = feature.pane
    qtbot.waitUntil(lambda: pane.table.rowCount() >= 2)
    rows = pane.rows()
    assert rows[0][0] == '"t" + "h"' and rows[0][3] == "first-seen (this run)"
    assert rows[1][0] == '"Ġ" + "l"' and rows[1][3] == "hf, lexicographic"
    assert "2 pairs tied at count 3" in pane.header.text()
    assert "first-seen: first seen at word 0 ('the'), unit 0" in pane.why.text()
    assert not pane.pick_button.isEnabled()
    space_l = pane.pairs()[1]
    pane.select_pair(space_l)
    assert pane.pick_button.isEnabled()
    pane.pick_button.click()  # merge " l" instead: merges 2-3 follow, so they are kept as a branch
    assert pairs(session, session.history) == [("Ġ", "l")] and session.merge_count == 1
    # id 257 was "th" on main and is "Ġl" here: the panes show the branch's token
    assert window.words.changed_title.text().startswith("Merge 1 (Ġ + l → Ġl)")
    lowest = session.words.index(" lowest")
    assert window.words.token_chips.text(session.segmentation(lowest)) == "[Ġl][o][w][e][s][t]"
    branches = feature.branches_pane
    assert len(branches.branch_texts()) == 2
    assert branches.branch_texts()[1].startswith("★ pick at merge 1: Ġ + l — parts at merge 0")
    assert window.merges.model.rowCount() == 1  # the old future is no longer listed on this branch
    # back to main: where it was left (merge 0), its three merges known again
    branches.select_branch(0)
    branches.switch_button.click()
    assert session.merge_count == 0 and pairs(session, session.timeline)[0] == ("t", "h")
    assert len(session.timeline) == 3 and window.merges.model.rowCount() == 3
    assert branches.branch_texts()[0].startswith("★ main")
    session.step()
    assert pairs(session, session.history) == [("t", "h")]
    assert window.words.changed_title.text().startswith("Merge 1 (t + h → th)")
    # and to the branch again
    branches.select_branch(1)
    branches.switch_button.click()
    assert pairs(session, session.history) == [("Ġ", "l")] and chart.labels()[0] != '"Ġ" + "l"'
    branches.select_branch(0)
    branches.compare_button.click()
    assert branches.merges.item(0, 1).text().startswith('"t" + "h"')  # A: main
    assert branches.merges.item(0, 2).text().startswith('"Ġ" + "l"')  # B: the branch
    assert branches.words.rowCount() >= 2
    # the whole tokenizer diff of the two branches, in View → Compare's tab (issue 12: "also two branches")
    tabs = window.tabs.count()
    branches.diff_button.click()
    qtbot.waitUntil(lambda: window.tabs.count() == tabs + 1, timeout=10000)
    tab = window.tabs.widget(window.tabs.currentIndex())
    assert tab.diff.first_divergent_merge == 0  # "t h" on main, " l" on the branch: they part at once
    assert "main" in window.tabs.tabText(window.tabs.currentIndex())


def test_branches_saved_as_data_come_back_on_a_new_load(qtbot, make_session, window_for):
    """What a workspace does: Branches.to_data() on one window, BranchCommands.restore() after a load."""
    session = make_session(config=make_config("byte-ascii"))
    window = window_for(session)
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(SEED001)
    session.step(3)
    session.seek(0)
    commands = window.ties.commands
    commands.pick(32, 108)  # bytes " " and "l": ids are the byte values in byte-ascii
    data = commands.branches.to_data()
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(SEED001)  # a fresh timeline: one branch again
    assert len(commands.all()) == 1
    commands.restore(data)  # once the trainer is at the position (it may be reading ahead: then after its catch-up)
    qtbot.waitUntil(lambda: len(commands.all()) == 2, timeout=10000)
    assert commands.branches.to_data() == data
    assert pairs(session, session.history) == [("Ġ", "l")] and len(commands.all()) == 2


def test_the_encode_pane_reads_a_branchs_tokens(qtbot, make_session, window_for):
    """A pick gives id 257 another token ("Ġl" instead of "th"): the encode pane's chips read the branch's
    tokens, as a fresh encoding's do, on the branch and back on main."""
    from bpe_core.encoding.encoder import Encoder
    from bpe_lens_app.widgets.encode_chips import chip_for

    session = make_session(config=make_config("byte-ascii"))
    window = window_for(session)
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(SEED001)
    pane = window.encode
    pane.set_text("the lowest")
    qtbot.waitUntil(lambda: pane.encoding() is not None and not pane.encoding_pending(), timeout=10000)

    def shown_as_fresh() -> bool:
        fresh = Encoder(session.model()).encode(pane.text())
        return pane.displayed_texts() == [chip_for(t, pane.text(), "text", True, False)[0].text for t in fresh.tokens]

    session.step()
    assert "th" in pane.displayed_texts() and shown_as_fresh()
    session.seek(0)
    window.findChild(type(window.open_action), "action_ties").trigger()
    ties = window.ties.pane
    qtbot.waitUntil(lambda: ties.table.rowCount() >= 2)
    ties.select_pair(ties.pairs()[1])
    ties.pick_button.click()  # " l" at merge 1: id 257 is "Ġl" now
    qtbot.waitUntil(lambda: not pane.encoding_pending(), timeout=10000)
    assert "th" not in pane.displayed_texts() and shown_as_fresh()
    branches = window.ties.branches_pane
    branches.select_branch(0)
    branches.switch_button.click()
    session.step()
    qtbot.waitUntil(lambda: not pane.encoding_pending(), timeout=10000)
    assert "th" in pane.displayed_texts() and shown_as_fresh()


def _bar_point(chart, row: int):
    """Where bar ``row`` is drawn, in the chart view's viewport (the middle of the bar)."""
    from PySide6.QtCore import QPointF

    width = chart.bar_lengths()[row]
    scene = chart.plot_item.getViewBox().mapViewToScene(QPointF(width / 2, row))
    return chart.plot_widget.mapFromScene(scene)


def test_hovering_a_pair_bar_tells_the_pair_its_ids_bytes_and_count(qtbot, make_session, window_for, drawn):
    """Issue 23, finding 10: a user hovers a bar to see the pair, its token ids, their bytes and its count."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    session = make_session(config=make_config("byte-ascii"))
    window = window_for(session)
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(SEED001)
    drawn()
    chart = window.pair_chart
    viewport = chart.plot_widget.viewport()
    for row, expected in ((0, ('"t" + "h" → "th"', "ids 116 + 104", "bytes 74 + 68", "count 3", "tied")),
                          (1, ('"Ġ" + "l" → "Ġl"', "ids 32 + 108", "bytes 20 + 6C", "count 3", "tied"))):
        pos = _bar_point(chart, row)
        QApplication.sendEvent(viewport, QHelpEvent(QEvent.ToolTip, pos, viewport.mapToGlobal(pos)))
        text = QToolTip.text()
        assert all(part in text for part in expected), (row, text)
    QToolTip.hideText()


def test_clicking_a_pair_bar_selects_that_pair_in_the_tie_inspector(qtbot, make_session, window_for, drawn):
    """Issue 23, finding 1: a click on a bar points at that pair: the ties dock opens with its row selected, so
    "Merge this instead" is one click away (a click never merges by itself: that would branch the run)."""
    from PySide6.QtCore import Qt

    session = make_session(config=make_config("byte-ascii"))
    window = window_for(session)
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(SEED001)
    drawn()
    chart, pane = window.pair_chart, window.ties.pane
    assert not window.ties.dock.isVisible()
    qtbot.mouseClick(chart.plot_widget.viewport(), Qt.LeftButton, pos=_bar_point(chart, 1))
    qtbot.waitUntil(lambda: window.ties.dock.isVisible() and pane.table.rowCount() >= 2, timeout=5000)
    qtbot.waitUntil(lambda: bool(pane.table.selectionModel().selectedRows()), timeout=5000)
    row = pane.table.selectionModel().selectedRows()[0].row()
    assert pane.rows()[row][0] == '"Ġ" + "l"' and pane.pick_button.isEnabled()
    assert session.merge_count == 0  # nothing merged by the click
    qtbot.mouseClick(chart.plot_widget.viewport(), Qt.LeftButton, pos=_bar_point(chart, 4))  # a greyed next pair
    qtbot.waitUntil(lambda: pane.table.selectionModel().selectedRows()[0].row() == 4, timeout=5000)
    assert pane.rows()[4][0] == chart.labels()[4] and pane.pick_button.isEnabled()
    bar = pane.table.verticalScrollBar()
    bar.setValue(bar.maximum())  # the user scrolled down to the greyed pairs
    assert bar.value() > 0
    session.step()
    qtbot.waitUntil(lambda: pane.header.text().startswith("Merge 2:"), timeout=5000)
    assert bar.value() == 0  # the next merge's tied pairs are in view, not the old scroll position
