"""Journey (issue 27): under a new user's defaults, View → Measures…, Compute, pick a measure and a group and
see the core's curve (run_curves) drawn point for point; the line at the window's merge follows a step and
an undo; hovering says "merge N (vocab V): value"; CSV/PNG/SVG exports; a SuperBPE branch and a tie branch
each add a curve; Cancel leaves the tab usable."""
from __future__ import annotations

import csv
import io
import time
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QFileDialog, QLabel, QPushButton

from tests.core.paths import ROOT

PARALLEL = ROOT / "tests" / "data" / "parallel"


def _action(window, name):
    from PySide6.QtGui import QAction

    return window.findChild(QAction, f"action_{name}")


def _settle(qtbot, session, k: int) -> None:
    """At merge ``k``, the trainer idle and no more merges read ahead (the runs' reach stays put)."""
    session.seek(k)
    qtbot.waitUntil(lambda: session.merge_count == k and not session.is_running, timeout=60000)
    reached = -1
    while reached != len(session.timeline):
        reached = len(session.timeline)
        qtbot.wait(400)


def _open_measures(window):
    _action(window, "measures").trigger()
    pane = window.tabs.currentWidget()
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Measures"
    return pane


def _compute(qtbot, pane, timeout=120000):
    compute = pane.findChild(QPushButton, "measures_compute")
    assert compute.isEnabled()
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: compute.isEnabled() and not pane.findChild(QPushButton, "measures_cancel").isVisible(),
                    timeout=timeout)


def _pick(combo: QComboBox, data: str) -> None:
    i = combo.findData(data)
    assert i >= 0, (data, [combo.itemData(j) for j in range(combo.count())])
    combo.setCurrentIndex(i)


def _drawn(pane):
    """(name, [(merge, value)]) of every curve the chart draws, as the legend names them; a continuation's
    inherited stretch (drawn dotted, without a legend entry, before its own solid part) counts with it."""
    out, stretch = [], []
    for item in pane.plot.listDataItems():
        xs, ys = item.getData()
        points = [(int(x), float(y)) for x, y in zip(xs, ys)]
        if item.name() is None:
            assert item.opts["pen"].style() == Qt.DotLine
            stretch = points
            continue
        out.append((item.name(), stretch[:-1] + points if stretch else points))
        stretch = []
    return out


def test_measures_compute_pick_follow_hover_export(user_window, qtbot, tmp_path, monkeypatch):
    from bpe_core.analysis.curves import curves_csv, read_eval_files, run_curves
    from bpe_lens_app.features.measures.subjects import default_every

    eng = str(PARALLEL / "eng.txt")
    window = user_window(eng)
    session = window.session
    _settle(qtbot, session, 400)  # the run reaches merge 400, then goes back to 150
    _settle(qtbot, session, 150)
    pane = _open_measures(window)
    assert pane.findChild(QLabel, "measures_files").text() == "eng.txt"  # the run's own corpus
    reach = len(session.timeline)  # merges reached: past merge 150
    assert reach >= 400 and pane.every.value() == default_every(reach) > 1  # shown before Compute
    # held-out text, one file per language
    files = [str(PARALLEL / f"{x}.txt") for x in ("eng", "rus", "hin")]
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: (files, ""))
    qtbot.mouseClick(pane.findChild(QPushButton, "measures_choose"), Qt.LeftButton)
    assert pane.findChild(QLabel, "measures_files").text() == "eng.txt, rus.txt, hin.txt"
    _compute(qtbot, pane)
    every = pane.every.value()
    reach = len(session.timeline)
    assert 1 <= every and reach // every <= 200  # a default for the run's length
    run = session.workbench.run
    expected = run_curves(run.timeline, read_eval_files(files), every, name="x")
    for measure, group in (("bytes_per_token", "all"), ("renyi_efficiency", "file:rus"), ("parity", "file:hin"),
                           ("tokens_per_word", "script:Cyrillic")):
        _pick(pane.findChild(QComboBox, "measures_measure"), measure)
        _pick(pane.findChild(QComboBox, "measures_group"), group)
        drawn = _drawn(pane)
        assert len(drawn) == 1 and drawn[0][0].startswith("r1: plain BPE")
        want = expected.series(measure, group)
        assert [m for m, _ in drawn[0][1]] == [m for m, _ in want]
        assert [v for _, v in drawn[0][1]] == pytest.approx([v for _, v in want], rel=1e-12)
        assert drawn[0][1][-1][0] == reach  # the last merge reached is always a point

    # the line at the window's merge follows a step and an undo
    assert pane.here.value() == 150
    qtbot.keyClick(window, Qt.Key_Space)
    qtbot.waitUntil(lambda: session.merge_count == 151 and pane.here.value() == 151, timeout=10000)
    qtbot.keyClick(window, Qt.Key_Backspace)
    qtbot.waitUntil(lambda: session.merge_count == 150 and pane.here.value() == 150, timeout=10000)
    window.tabs.setCurrentIndex(0)  # a scrub on the Training tab: a click on merge 40's row in the merges table
    table = window.merges.view
    index = table.model().index(39, 0)
    table.scrollTo(index)
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=table.visualRect(index).center())
    qtbot.waitUntil(lambda: session.merge_count == 40, timeout=10000)
    window.tabs.setCurrentWidget(pane)
    assert pane.here.value() == 40
    assert pane.here.label.toPlainText() == "merge 40"

    # hovering near a point says its merge, vocabulary size and value
    _pick(pane.findChild(QComboBox, "measures_measure"), "bytes_per_token")
    _pick(pane.findChild(QComboBox, "measures_group"), "all")
    qtbot.wait(100)
    i = 3
    at = pane.chart.mapFromScene(pane.point_scene_pos(0, i)) + QPoint(2, -1)  # a mouse near the fourth point
    QTest.mouseMove(pane.chart.viewport(), at)
    merge, value = expected.series("bytes_per_token")[i]
    vocab = next(r.vocab_size for r in expected.rows if r.merge == merge)
    hover = pane.findChild(QLabel, "measures_hover")
    qtbot.waitUntil(lambda: hover.text().endswith(f"merge {merge:,} (vocab {vocab:,}): {value:.4g}"), timeout=5000)
    assert hover.text().startswith("r1: plain BPE")
    assert pane.tip.toPlainText() == hover.text()  # said on the chart too

    # exports: CSV (the core's rows), PNG, SVG
    for kind in ("csv", "png", "svg"):
        path = tmp_path / f"out.{kind}"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, p=path, **k: (str(p), ""))
        qtbot.mouseClick(pane.findChild(QPushButton, f"measures_export_{kind}"), Qt.LeftButton)
        assert path.is_file(), kind
    rows = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text(encoding="utf-8"))))
    assert rows == list(csv.reader(io.StringIO(curves_csv(pane.curves))))
    assert rows[0] == ["run", "merge", "vocab_size", "group", "measure", "value"] and len(rows) > 100
    assert not QImage(str(tmp_path / "out.png")).isNull()
    svg = ET.parse(tmp_path / "out.svg").getroot()
    assert svg.tag.endswith("svg")
    # never over an input: the evaluation file itself is refused, and left as it was
    before = (PARALLEL / "rus.txt").read_bytes()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (files[1], ""))
    errors = []
    session.error_raised.connect(errors.append)
    qtbot.mouseClick(pane.findChild(QPushButton, "measures_export_csv"), Qt.LeftButton)
    assert errors and (PARALLEL / "rus.txt").read_bytes() == before


def test_a_superbpe_branch_and_a_tie_branch_each_add_a_curve(user_window, qtbot):
    window = user_window(str(PARALLEL / "eng.txt"))
    session = window.session
    _settle(qtbot, session, 100)  # the run reaches merge 100, then goes back to 60
    _settle(qtbot, session, 60)
    _action(window, "continue_superbpe").trigger()
    feature = window.variants_feature
    qtbot.waitUntil(lambda: len(feature.runs()) == 2 and not feature.busy, timeout=60000)
    branch = feature.runs()[1]
    branch.timeline.step(20)
    pane = _open_measures(window)
    pane.every.setValue(10)
    _compute(qtbot, pane)
    drawn = _drawn(pane)
    assert drawn, pane.findChild(QLabel, "measures_note").text()
    assert [n for n, _ in drawn] == ["r1: plain BPE (char-hf)", "r2: SuperBPE from merge 60"] or \
        [n.split(" (")[0] for n, _ in drawn] == ["r1: plain BPE", "r2: SuperBPE from merge 60"]
    superbpe, run = dict(drawn[1][1]), dict(drawn[0][1])
    # the branch's merge index counts the run's 60 merges first: its curve spans 0 .. 60 + 20
    assert min(superbpe) == 0 and 60 in superbpe and max(superbpe) == 80
    assert superbpe[0] == pytest.approx(run[0], rel=1e-12)  # no merge: the same units
    # before its transition the branch's curve is its parent's (run_curves given the parent: the contract); at
    # 60 it is the branch's own start, as the Variants tab gives it (tests/core/test_branch_start_figure.py)
    assert all(superbpe[m] == pytest.approx(run[m], rel=1e-12) for m in superbpe if m < 60)
    assert superbpe[80] > run[80]  # superwords: more bytes per token

    # a pair picked by hand at merge 30: a tie branch of the window's run
    _settle(qtbot, session, 30)
    tl = session.core
    k = tl.merge_count
    other = session.top_pairs[1]
    window.ties.commands.pick(other.left, other.right)
    qtbot.waitUntil(lambda: len(window.ties.commands.all()) == 2, timeout=10000)
    _compute(qtbot, pane)
    names = [n for n, _ in _drawn(pane)]
    assert len(names) == 3 and any("pick at merge 31" in n for n in names), names
    assert k == 30


def test_cancel_leaves_the_tab_usable(user_window, qtbot, monkeypatch):
    from bpe_core import analysis
    from bpe_core.types import Cancelled

    window = user_window(str(PARALLEL / "eng.txt"))
    session = window.session
    _settle(qtbot, session, 40)
    real = analysis.run_curves
    started = []

    def slow(timeline, texts, every, *, cancel=None, **kw):
        started.append(1)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if cancel is not None and cancel():
                raise Cancelled()
            time.sleep(0.01)
        return real(timeline, texts, every, cancel=cancel, **kw)

    monkeypatch.setattr(analysis, "run_curves", slow)
    pane = _open_measures(window)
    compute, cancel = pane.findChild(QPushButton, "measures_compute"), pane.findChild(QPushButton, "measures_cancel")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(started) and cancel.isVisible(), timeout=10000)
    assert not compute.isEnabled()
    qtbot.mouseClick(cancel, Qt.LeftButton)
    qtbot.waitUntil(lambda: compute.isEnabled() and not cancel.isVisible(), timeout=10000)
    assert pane.findChild(QLabel, "measures_note").text().startswith("Cancelled")
    # closing the tab while it computes stops the work; View → Measures… opens a fresh tab
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: len(started) == 2 and cancel.isVisible(), timeout=10000)
    _action(window, "close_tab").trigger()  # File → Close tab (Ctrl+W), the Measures tab in front
    assert pane not in [window.tabs.widget(i) for i in range(window.tabs.count())]
    qtbot.waitUntil(lambda: not window.measures_feature.calls.busy, timeout=10000)
    monkeypatch.setattr(analysis, "run_curves", real)
    pane = _open_measures(window)
    _compute(qtbot, pane)
    assert len(_drawn(pane)) == 1


def test_show_measures_opens_the_tab_with_files_measure_and_group(user_window, qtbot):
    from bpe_lens_app.features.measures import show_measures

    window = user_window(str(PARALLEL / "eng.txt"))
    _settle(qtbot, window.session, 50)
    files = [str(PARALLEL / f"{x}.txt") for x in ("eng", "kor")]
    show_measures(window, files, measure="parity", group="file:kor", every=5)
    pane = window.tabs.currentWidget()
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Measures"
    qtbot.waitUntil(lambda: bool(pane.curves) and pane.findChild(QPushButton, "measures_compute").isEnabled(),
                    timeout=60000)
    assert pane.measure() == "parity" and pane.group() == "file:kor" and pane.every.value() == 5
    (name, points), = _drawn(pane)
    assert [m for m, _ in points][:3] == [0, 5, 10] and all(v > 0 for _, v in points)


def test_a_run_of_another_rule_is_overlaid(user_window, qtbot, monkeypatch):
    """Variants → Add a run with another rule… (PickyBPE beside the window's plain run): its curve is drawn
    beside the run's, equal to run_curves of its own timeline."""
    from bpe_core.analysis.curves import read_eval_files, run_curves
    from bpe_lens_app.features.variants.add_rule import AddRuleDialog

    window = user_window(str(PARALLEL / "eng.txt"))
    session = window.session
    _settle(qtbot, session, 30)

    def picky(dialog) -> int:
        f = dialog.rule_fields
        f.rule.setCurrentIndex(f.rule.findText("PickyBPE"))
        f.ios.setValue(0.6)
        return 1

    monkeypatch.setattr(AddRuleDialog, "exec", picky)
    _action(window, "compare_variants").trigger()
    tab = window.tabs.currentWidget()
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: len(window.variants_feature.runs()) == 2 and not window.variants_feature.busy,
                    timeout=30000)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_step10"), Qt.LeftButton)
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_step10"), Qt.LeftButton)
    other = window.variants_feature.runs()[1]
    pane = _open_measures(window)
    pane.every.setValue(5)
    _compute(qtbot, pane)
    drawn = _drawn(pane)
    assert [n.split(" (")[0] for n, _ in drawn] == ["r1: plain BPE", "r2: PickyBPE τ=0.6"]
    want = run_curves(other.timeline, read_eval_files([str(PARALLEL / "eng.txt")]), 5).series("bytes_per_token")
    assert [m for m, _ in drawn[1][1]] == [m for m, _ in want] == [0, 5, 10, 15, 20]
    assert [v for _, v in drawn[1][1]] == pytest.approx([v for _, v in want], rel=1e-12)
