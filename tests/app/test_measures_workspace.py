"""The Measures tab is part of the workspace (user test, session 7: after File → Save workspace, quit, File → Open
workspace the Measures tab was gone and nothing said so). It comes back with its evaluation files, every k, the
measure and the group picked, and its curves computed again on a worker once the runs are back; an evaluation
file that is gone is named once in what the restore found. The crash autosave brings it back the same way, and
a workspace saved without a Measures tab (by the previous version) still opens."""
from __future__ import annotations

import json
import shutil

import pytest
from PySide6.QtCore import QTimer, Qt
from PySide6.QtWidgets import QComboBox, QFileDialog, QLabel, QMessageBox, QPushButton

from bpe_core.formats import read_workspace
from tests.app.test_biography_workspace_s2 import _reopened
from tests.app.test_measures_journey import PARALLEL, _compute, _drawn, _open_measures, _pick, _settle


def _measures_tabs(window):
    tabs = window.tabs
    return [tabs.widget(i) for i in range(tabs.count()) if tabs.tabText(i) == "Measures"]


def _set_up(qtbot, user_window, monkeypatch, files, *, compute=True):
    """A window on eng.txt at merge 60 whose Measures tab shows ``files`` every 10 merges, Rényi efficiency of
    rus.txt, computed (or not)."""
    window = user_window(str(PARALLEL / "eng.txt"))
    _settle(qtbot, window.session, 60)
    pane = _open_measures(window)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: (files, ""))
    qtbot.mouseClick(pane.findChild(QPushButton, "measures_choose"), Qt.LeftButton)
    pane.every.setValue(10)
    if compute:
        _compute(qtbot, pane)
    _pick(pane.findChild(QComboBox, "measures_measure"), "renyi_efficiency")
    if compute:  # (the groups are the curves')
        _pick(pane.findChild(QComboBox, "measures_group"), "file:rus")
    return window, pane


def _save(qtbot, window, path):
    window.workspace.save_to(str(path))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == f"Saved {path}", timeout=10000)
    return path


def _shown(pane):
    """What the tab shows: its files, every k, measure, group."""
    return (pane.findChild(QLabel, "measures_files").text(), pane.every.value(),
            pane.findChild(QComboBox, "measures_measure").currentData(),
            pane.findChild(QComboBox, "measures_group").currentText())


def _computed(qtbot, pane):
    qtbot.waitUntil(lambda: bool(pane.curves) and not pane.findChild(QPushButton, "measures_cancel").isVisible(),
                    timeout=120000)


def _same_curves(before, after):
    """The same runs drawn, with the same values at the merges both reach (the reopened run may have read ahead
    further or less far than the saved one)."""
    assert [n for n, _ in after] == [n for n, _ in before] and before
    for (_, old), (_, new) in zip(before, after):
        old, new = dict(old), dict(new)
        common = sorted(set(old) & set(new))
        assert len(common) >= 7 and 60 in common  # merges 0, 10, ..., 60 at least
        assert [new[m] for m in common] == pytest.approx([old[m] for m in common], rel=1e-12)


def test_the_measures_tab_comes_back_with_its_choices_and_curves(qtbot, user_window, tmp_path, monkeypatch):
    files = [str(PARALLEL / f"{x}.txt") for x in ("eng", "rus")]
    window, before = _set_up(qtbot, user_window, monkeypatch, files)
    drawn, shown = _drawn(before), _shown(before)
    assert shown == ("eng.txt, rus.txt", 10, "renyi_efficiency", "rus.txt")
    path = _save(qtbot, window, tmp_path / "with_measures.bpelens")
    again = _reopened(qtbot, user_window, path)
    tabs = _measures_tabs(again)
    assert len(tabs) == 1, [again.tabs.tabText(i) for i in range(again.tabs.count())]
    pane = tabs[0]
    assert again.tabs.currentWidget() is pane  # it was the tab in front
    _computed(qtbot, pane)  # computed again on a worker, as Compute does
    assert _shown(pane) == shown
    _same_curves(drawn, _drawn(pane))
    note = pane.findChild(QLabel, "measures_note").text()
    assert note.startswith("1 curve to merge") and "on eng, rus" in note, note
    assert "measures" not in again.workspace.report.lower()


def test_a_measures_tab_not_computed_comes_back_not_computed(qtbot, user_window, tmp_path, monkeypatch):
    files = [str(PARALLEL / f"{x}.txt") for x in ("eng", "rus")]
    window, before = _set_up(qtbot, user_window, monkeypatch, files, compute=False)
    shown = _shown(before)
    assert shown[:3] == ("eng.txt, rus.txt", 10, "renyi_efficiency")
    window.tabs.setCurrentIndex(0)  # the Training tab in front
    path = _save(qtbot, window, tmp_path / "not_computed.bpelens")
    again = _reopened(qtbot, user_window, path)
    pane, = _measures_tabs(again)
    assert again.tabs.currentIndex() == 0
    qtbot.wait(300)
    assert not pane.curves and _shown(pane) == shown
    assert pane.findChild(QPushButton, "measures_compute").isEnabled()


def test_the_run_corpus_followed_comes_back_following_it(qtbot, user_window, tmp_path):
    window = user_window(str(PARALLEL / "eng.txt"))
    _settle(qtbot, window.session, 30)
    pane = _open_measures(window)
    _compute(qtbot, pane)
    path = _save(qtbot, window, tmp_path / "own_corpus.bpelens")
    again = _reopened(qtbot, user_window, path)
    pane, = _measures_tabs(again)
    _computed(qtbot, pane)
    assert pane.findChild(QLabel, "measures_files").text() == "eng.txt"
    assert again.measures_feature.chosen is False  # still the run's own corpus: it follows another corpus


def test_an_evaluation_file_that_is_gone_is_named_once(qtbot, user_window, tmp_path, monkeypatch):
    gone = tmp_path / "held_out" / "rus.txt"
    gone.parent.mkdir()
    shutil.copy(PARALLEL / "rus.txt", gone)
    files = [str(PARALLEL / "eng.txt"), str(gone)]
    window, _before = _set_up(qtbot, user_window, monkeypatch, files)
    path = _save(qtbot, window, tmp_path / "gone.bpelens")
    gone.unlink()
    again = _reopened(qtbot, user_window, path)
    report = again.workspace.report
    assert report.count("rus.txt") == 1 and "Measures" in report, report
    pane, = _measures_tabs(again)
    qtbot.wait(500)
    assert not pane.curves  # not computed on what is left: the curves would not be the saved ones
    assert pane.findChild(QLabel, "measures_files").text() == "eng.txt"
    assert "rus.txt" in pane.findChild(QLabel, "measures_note").text()


def test_a_workspace_of_the_previous_version_without_measures_still_opens(qtbot, user_window, tmp_path, monkeypatch):
    files = [str(PARALLEL / f"{x}.txt") for x in ("eng", "rus")]
    window, _before = _set_up(qtbot, user_window, monkeypatch, files, compute=False)
    path = _save(qtbot, window, tmp_path / "new.bpelens")
    data = json.loads(path.read_text(encoding="utf-8"))
    kinds = [a["kind"] for a in data["bench"]["analyses"]]
    assert kinds == ["measures"], kinds
    data["bench"]["analyses"] = []  # as the previous version wrote it
    old = tmp_path / "old.bpelens"
    old.write_text(json.dumps(data), encoding="utf-8")
    again = _reopened(qtbot, user_window, old)
    qtbot.waitUntil(lambda: again.session.merge_count == 60, timeout=30000)
    assert _measures_tabs(again) == [] and again.workspace.report == ""


def test_the_crash_autosave_brings_the_measures_tab_back(qtbot, user_window, tmp_path, monkeypatch):
    from tests.app.test_workspace import _crashed_path

    files = [str(PARALLEL / f"{x}.txt") for x in ("eng", "rus")]
    window, before = _set_up(qtbot, user_window, monkeypatch, files)
    drawn = _drawn(before)
    saver = window.workspace.autosaver

    def autosaved():  # the autosave holds the tab as it is now (the group picked last)
        if not saver.path.exists():
            return False
        analyses = read_workspace(str(saver.path)).bench.get("analyses", [])
        return any(a["kind"] == "measures" and a.get("view", {}).get("group") == "file:rus" for a in analyses)

    qtbot.waitUntil(autosaved, timeout=15000)
    crashed = _crashed_path()
    shutil.copy(saver.path, crashed)  # what a crash leaves: the autosave of a process that is gone
    answered = []

    def answer() -> None:
        box = next((w for w in qtbot_top_levels() if isinstance(w, QMessageBox) and w.objectName() == "restore_box"
                    and w.isVisible()), None)
        if box is None:
            QTimer.singleShot(100, answer)
            return
        answered.append(box.text())
        box.button(QMessageBox.Yes).click()

    QTimer.singleShot(100, answer)
    again = user_window(wait=False)  # no argument: the offer to restore the last session
    assert answered
    qtbot.waitUntil(lambda: again.session.corpus is not None and not again.workspace.is_busy(), timeout=60000)
    pane, = _measures_tabs(again)
    _computed(qtbot, pane)
    assert _shown(pane) == ("eng.txt, rus.txt", 10, "renyi_efficiency", "rus.txt")
    _same_curves(drawn, _drawn(pane))


def qtbot_top_levels():
    from PySide6.QtWidgets import QApplication

    return QApplication.topLevelWidgets()


def test_the_curves_come_back_for_every_run_reopened(qtbot, user_window, tmp_path):
    """A SuperBPE continuation is reopened on a worker after the window's run: the curves wait for it (computed
    at once, they had the window's run alone)."""
    from tests.app.test_measures_journey import _action

    window = user_window(str(PARALLEL / "eng.txt"))
    _settle(qtbot, window.session, 60)
    _action(window, "continue_superbpe").trigger()
    feature = window.variants_feature
    qtbot.waitUntil(lambda: len(feature.runs()) == 2 and not feature.busy, timeout=60000)
    pane = _open_measures(window)
    pane.every.setValue(10)
    _compute(qtbot, pane)
    drawn = _drawn(pane)
    assert len(drawn) == 2, [n for n, _ in drawn]
    path = _save(qtbot, window, tmp_path / "two_runs.bpelens")
    again = _reopened(qtbot, user_window, path)
    pane, = _measures_tabs(again)
    _computed(qtbot, pane)
    assert [n for n, _ in _drawn(pane)] == [n for n, _ in drawn]
    assert len(again.variants_feature.runs()) == 2
