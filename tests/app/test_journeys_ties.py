"""Journey (issue 23, finding 1): the ties & branches dock under a new user's defaults (read-ahead on, the real event
loop), on the default corpus and on a real corpus of a megabyte: View → Ties and branches, ten presses of Space,
Undo, a click in the merges table, then a pair picked by hand → a branch in the list → Switch to → Compare with
current → Diff in a tab. Every assertion is on what the dock, the tables and the tabs show."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.core.paths import DATA
from PySide6.QtCore import Qt

WIKI = DATA / "wikitext-2-raw" / "wiki.valid.raw"
#: the 17.6 MB corpus of bench/bench_train.py (PTB, WikiText-2, four novels), made by its build_corpus()
BENCH = Path(__file__).resolve().parents[2] / "bench" / "out" / "bench_corpus.txt"
CORPORA = [pytest.param((), id="default-corpus"),
           pytest.param((str(WIKI),), id="wiki.valid.raw",
                        marks=pytest.mark.skipif(not WIKI.is_file(), reason=f"{WIKI} is missing")),
           pytest.param((str(BENCH),), id="bench-17.6MB",
                        marks=[pytest.mark.slow, pytest.mark.skipif(
                            not BENCH.is_file(), reason=f"{BENCH} is missing: python bench/bench_train.py makes it")])]


def _shows_ties_at(pane, k: int) -> bool:
    """The inspector shows the ties of the next merge after ``k`` (a header, rows, the rules' reasons)."""
    return pane.header.text().startswith(f"Merge {k + 1}:") and pane.table.rowCount() > 0 and \
        "first-seen:" in pane.why.text()


def _click(qtbot, widget) -> None:
    assert widget.isEnabled(), widget.objectName()
    qtbot.mouseClick(widget, Qt.LeftButton)


@pytest.mark.parametrize("argv", CORPORA)
def test_ties_dock_through_steps_undo_seek_then_a_branch_switch_compare_diff(qtbot, user_window, argv):
    window = user_window(*argv)
    session, pane = window.session, window.ties.pane
    branches = window.ties.branches_pane
    view_menu = window.menus["view"]
    action = next(a for a in view_menu.actions() if a.text() == "Ties and branches")
    action.trigger()
    assert window.ties.dock.isVisible()
    qtbot.waitUntil(lambda: _shows_ties_at(pane, 0), timeout=10000)

    # ten presses of Space, the event loop running between them: each merge's ties show, read ahead or not
    for k in range(1, 11):
        qtbot.keyClick(window, Qt.Key_Space)
        qtbot.waitUntil(lambda: session.merge_count == k, timeout=10000)
        qtbot.waitUntil(lambda: _shows_ties_at(pane, k), timeout=10000)
        qtbot.wait(50)
    qtbot.wait(1000)  # idle: the read-ahead has gone on meanwhile; the dock still shows merge 11's ties
    assert _shows_ties_at(pane, 10)
    assert branches.branch_texts() == ["★ main — parts at merge 0, 10 merges known"]

    qtbot.keyClick(window, Qt.Key_Backspace)  # Undo
    qtbot.waitUntil(lambda: session.merge_count == 9 and _shows_ties_at(pane, 9), timeout=10000)

    table = window.merges.view  # a seek: click merge 4's row
    index = table.model().index(3, 0)
    table.scrollTo(index)
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=table.visualRect(index).center())
    qtbot.waitUntil(lambda: session.merge_count == 4 and _shows_ties_at(pane, 4), timeout=10000)
    rows = pane.rows()
    assert len(rows) >= 2
    header = pane.header.text()
    assert re.match(r"Merge 5: (\d+ pairs tied at count [\d,]+|no tie — one pair has the top count [\d,]+)", header)

    # pick the second listed pair (tied, or the next pair by count) by hand
    assert not pane.pick_button.isEnabled()
    qtbot.mouseClick(pane.table.viewport(), Qt.LeftButton, pos=pane.table.visualRect(pane.table.model().index(1, 0)).center())
    picked = rows[1][0]
    left, right = re.fullmatch(r'"(.*)" \+ "(.*)"', picked).groups()
    _click(qtbot, pane.pick_button)
    name = f"pick at merge 5: {left} + {right}"
    qtbot.waitUntil(lambda: session.merge_count == 5 and len(branches.branch_texts()) == 2, timeout=10000)
    assert branches.branch_texts() == ["   main — parts at merge 0, 10 merges known",
                                       f"★ {name} — parts at merge 4, 5 merges known"]
    assert window.words.changed_title.text().startswith(f"Merge 5 ({left} + {right} → ")
    qtbot.waitUntil(lambda: _shows_ties_at(pane, 5), timeout=10000)  # the branch's next merge

    # Switch to main: it comes back where it was left (merge 4), its ten merges known
    branches.list.setCurrentRow(1)
    assert not branches.switch_button.isEnabled()  # the current branch is selected: nothing to switch to
    branches.list.setCurrentRow(0)
    _click(qtbot, branches.switch_button)
    qtbot.waitUntil(lambda: branches.branch_texts()[0].startswith("★ main"), timeout=10000)
    assert branches.branch_texts() == ["★ main — parts at merge 0, 10 merges known",
                                       f"   {name} — parts at merge 4, 5 merges known"]
    assert session.merge_count == 4 and window.merges.model.rowCount() == 10
    qtbot.waitUntil(lambda: _shows_ties_at(pane, 4), timeout=10000)

    # Compare the branch with the current one (main): merges side by side from merge 5
    branches.list.setCurrentRow(1)
    assert branches.switch_button.isEnabled() and branches.diff_button.isEnabled()
    _click(qtbot, branches.compare_button)
    assert branches.title.text().startswith(f"A: {name}\nB: main\nThey part after merge 4")
    assert branches.merges.rowCount() == 6  # ranks 5 ... 10: five on A, six on B
    assert branches.merges.item(0, 0).text() == "5"
    assert branches.merges.item(0, 1).text().startswith(picked)
    assert not branches.merges.item(0, 2).text().startswith(picked)
    assert branches.merges.item(5, 1).text() == "" and branches.merges.item(5, 2).text() != ""
    assert branches.words.rowCount() >= 1

    # the whole tokenizer diff in a tab
    tabs = window.tabs.count()
    _click(qtbot, branches.diff_button)
    qtbot.waitUntil(lambda: window.tabs.count() == tabs + 1, timeout=30000)
    title = window.tabs.tabText(window.tabs.currentIndex())
    assert "main" in title
    tab = window.tabs.widget(window.tabs.currentIndex())
    assert tab.diff.first_divergent_merge == 4


def test_seed001_pick_at_merge_1_under_the_defaults_makes_a_branch_to_compare(qtbot, user_window):
    """File → Examples → seed 001, the dock, "Merge this instead" on the second tied pair at merge 1 (nothing
    stepped yet): the rule's pair "t" + "h" stays main's merge 1, the pick goes on as a branch, and Switch to,
    Compare with current and Diff in a tab enable (the list said "0 merges known" and they never did)."""
    window = user_window()
    session, pane, branches = window.session, window.ties.pane, window.ties.branches_pane
    entry = next(a for a in window.examples_menu.actions() if a.text().startswith("Seed 001"))
    entry.trigger()
    qtbot.waitUntil(lambda: session.corpus is not None and session.corpus.name == "seed001_sentence.txt"
                    and not session.is_loading, timeout=20000)
    window.findChild(type(window.open_action), "action_ties").trigger()
    qtbot.waitUntil(lambda: "2 pairs tied at count 3" in pane.header.text(), timeout=10000)
    qtbot.wait(500)  # the read-ahead runs ahead meanwhile
    assert pane.rows()[1][0] == '"Ġ" + "l"'
    qtbot.mouseClick(pane.table.viewport(), Qt.LeftButton, pos=pane.table.visualRect(pane.table.model().index(1, 0)).center())
    _click(qtbot, pane.pick_button)
    qtbot.waitUntil(lambda: session.merge_count == 1 and len(branches.branch_texts()) == 2, timeout=10000)
    assert branches.branch_texts() == ["   main — parts at merge 0, 1 merges known",
                                       "★ pick at merge 1: Ġ + l — parts at merge 0, 1 merges known"]
    assert window.words.changed_title.text().startswith("Merge 1 (Ġ + l → Ġl)")
    qtbot.waitUntil(lambda: _shows_ties_at(pane, 1), timeout=10000)
    branches.list.setCurrentRow(0)
    assert branches.switch_button.isEnabled() and branches.compare_button.isEnabled() and branches.diff_button.isEnabled()
    _click(qtbot, branches.compare_button)
    assert branches.merges.item(0, 1).text().startswith('"t" + "h"')  # A: main
    assert branches.merges.item(0, 2).text().startswith('"Ġ" + "l"')  # B: the branch
    _click(qtbot, branches.switch_button)
    qtbot.waitUntil(lambda: branches.branch_texts()[0].startswith("★ main") and session.merge_count == 0,
                    timeout=10000)
    qtbot.waitUntil(lambda: "2 pairs tied at count 3" in pane.header.text(), timeout=10000)
    qtbot.keyClick(window, Qt.Key_Space)  # main's merge 1 is the rule's pair
    qtbot.waitUntil(lambda: window.words.changed_title.text().startswith("Merge 1 (t + h → th)"), timeout=10000)


@pytest.mark.parametrize("argv", CORPORA)
def test_ties_dock_opened_late_home_closed_and_reopened_play_and_pause(qtbot, user_window, argv):
    """The dock opened after ten steps (the trainer read ahead unwatched), Home, the dock closed while stepping
    and opened again, Play then pause: each time it shows the ties of the next merge, never stays waiting."""
    window = user_window(*argv)
    session, pane = window.session, window.ties.pane
    for k in range(1, 11):
        qtbot.keyClick(window, Qt.Key_Space)
        qtbot.waitUntil(lambda: session.merge_count == k, timeout=10000)
    qtbot.wait(1000)
    action = window.findChild(type(window.open_action), "action_ties")
    action.trigger()
    qtbot.waitUntil(lambda: _shows_ties_at(pane, 10), timeout=10000)
    qtbot.keyClick(window, Qt.Key_Home)
    qtbot.waitUntil(lambda: session.merge_count == 0 and _shows_ties_at(pane, 0), timeout=10000)
    action.trigger()
    assert not window.ties.dock.isVisible()
    for k in range(1, 4):
        qtbot.keyClick(window, Qt.Key_Space)
        qtbot.waitUntil(lambda: session.merge_count == k, timeout=10000)
    qtbot.wait(500)
    action.trigger()
    qtbot.waitUntil(lambda: _shows_ties_at(pane, 3), timeout=10000)
    slider = window.controls.timeline  # scrubbed back to merge 1, then left there
    for value in (2, 1):
        slider.setValue(value)
        qtbot.wait(30)
    qtbot.waitUntil(lambda: session.merge_count == 1 and _shows_ties_at(pane, 1), timeout=10000)
    qtbot.keyClick(window, Qt.Key_P)  # Play, 5 merges a second
    qtbot.waitUntil(lambda: session.merge_count >= 6, timeout=10000)
    qtbot.keyClick(window, Qt.Key_P)  # pause
    qtbot.waitUntil(lambda: not session.is_running, timeout=10000)
    qtbot.waitUntil(lambda: _shows_ties_at(pane, session.merge_count), timeout=10000)
