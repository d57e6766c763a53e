"""Runs beside the window's run (Variants → "Add a run with another rule…") come back from a workspace and from
the crash autosave as its branches do: made again on a worker, listed in the Variants tab at their saved merge
and compared there (user test of issue 26: the restore said "it is not reopened" and a saved comparison came
back half; the crash offer counted the runs and then left them out). A run whose text is gone is said once,
and the rest comes back."""
from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QTableWidget, QTreeWidget

from bpe_core.formats.workspace import write_workspace
from bpe_lens_app.features.variants.add_rule import AddRuleDialog

PARALLEL = Path(__file__).resolve().parent.parent / "data" / "parallel"


def _action(window, name) -> QAction:
    return window.findChild(QAction, f"action_{name}")


def _add(window, qtbot, monkeypatch, fill, rows: int) -> None:
    """Variants → Add a run with another rule…, the dialog filled by ``fill``; waits for ``rows`` runs."""
    def run(dialog: AddRuleDialog) -> int:
        fill(dialog.rule_fields)
        return 1

    monkeypatch.setattr(AddRuleDialog, "exec", run)
    tab = window.variants_feature.show_tab()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.mouseClick(tab.findChild(QPushButton, "variant_add_run"), Qt.LeftButton)
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == rows, timeout=60000)


def _picky(f) -> None:
    f.rule.setCurrentIndex(f.rule.findText("PickyBPE"))
    f.ios.setValue(0.6)


def _compared(window, qtbot, runs: int):
    """The Variants tab as the user opens it (View → Compare variants) once ``runs`` runs are listed."""
    _action(window, "compare_variants").trigger()
    tab = window.variants_feature.tab
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == runs and not window.variants_feature.busy, timeout=60000)
    table = tab.findChild(QTableWidget, "variant_table")
    rows = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    merges = [table.item(r, 1).text() for r in range(table.rowCount())]
    return tab, rows, merges


def _window_with_picky_beside(user_window, small_corpus, qtbot, monkeypatch):
    """The window's plain run at merge 12 and a PickyBPE τ=0.6 run beside it stepped to merge 20."""
    window = user_window(str(small_corpus))
    session = window.session
    session.seek(12)
    qtbot.waitUntil(lambda: session.merge_count == 12 and not session.is_running, timeout=30000)
    _add(window, qtbot, monkeypatch, _picky, 2)
    tab = window.variants_feature.tab
    step10 = tab.findChild(QPushButton, "variant_step10")
    qtbot.waitUntil(step10.isEnabled, timeout=10000)
    for _ in range(2):
        qtbot.mouseClick(step10, Qt.LeftButton)
    _tab, rows, merges = _compared(window, qtbot, 2)
    assert merges == ["12", "20"] and "PickyBPE τ=0.6" in rows[1], (rows, merges)
    return window


def test_a_run_beside_comes_back_from_a_workspace(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    window = _window_with_picky_beside(user_window, small_corpus, qtbot, monkeypatch)
    before = _compared(window, qtbot, 2)
    path = tmp_path / "beside.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    again = user_window(str(path))
    tab, rows, merges = _compared(again, qtbot, 2)
    assert rows == before[1] and merges == before[2] == ["12", "20"], (rows, merges)
    assert "at merge 20" in rows[1] and "PickyBPE τ=0.6" in rows[1]
    assert len(tab.chart.getPlotItem().listDataItems()) == 2  # both curves in the chart, as before the save
    box = again.error_box
    assert box is None or "not reopened" not in box.text(), box.text()
    assert again.session.merge_count == 12 and again.session.config.variant == "bpe"


def test_the_crash_offer_names_the_run_beside_and_brings_it_back(user_window, small_corpus, qtbot, monkeypatch):
    from bpe_lens_app.features.workspace.autosave import autosave_path, data_dir

    from tests.app.test_workspace import _dead_pid

    window = _window_with_picky_beside(user_window, small_corpus, qtbot, monkeypatch)
    write_workspace(window.workspace.capture(), str(autosave_path(data_dir(), _dead_pid())))
    offered = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.objectName() != "restore_box":
            QTimer.singleShot(20, answer)
            return
        offered.append(box.informativeText())
        box.button(QMessageBox.Yes).click()

    QTimer.singleShot(0, answer)
    again = user_window(wait=False)  # a start with no file: the crash offer
    assert offered and "1 run beside it (r2 PickyBPE τ=0.6)" in offered[0], offered
    qtbot.waitUntil(lambda: again.session.corpus is not None and not again.workspace.is_busy(), timeout=60000)
    _tab, rows, merges = _compared(again, qtbot, 2)
    assert merges == ["12", "20"] and "PickyBPE τ=0.6" in rows[1], (rows, merges)


def test_a_run_beside_whose_text_is_gone_is_said_once_and_the_rest_comes_back(user_window, small_corpus, qtbot,
                                                                              monkeypatch, tmp_path):
    langs = tmp_path / "langs"
    langs.mkdir()
    for name in ("eng", "rus", "ell"):
        (langs / f"{name}.txt").write_text((PARALLEL / f"{name}.txt").read_text(encoding="utf-8")[:3000],
                                           encoding="utf-8")
    window = user_window(str(small_corpus))

    def parity(f) -> None:
        f.rule.setCurrentIndex(f.rule.findText("Parity-aware BPE"))
        f.languages.setText(str(langs))
        f.parity_mode.setCurrentText("ratio")

    _add(window, qtbot, monkeypatch, parity, 2)
    _add(window, qtbot, monkeypatch, _picky, 3)
    path = tmp_path / "three.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)
    shutil.rmtree(langs)
    again = user_window(str(path), wait=False)
    qtbot.waitUntil(lambda: again.session.corpus is not None and not again.workspace.is_busy(), timeout=60000)
    _tab, rows, _merges = _compared(again, qtbot, 2)
    assert "plain BPE" in rows[0] and "PickyBPE τ=0.6" in rows[1], rows
    qtbot.waitUntil(lambda: again.workspace.report != "", timeout=10000)
    about = [line for line in again.workspace.report.split("\n\n") if "r2" in line]
    assert len(about) == 1 and str(langs) in about[0] and "not reopened" in about[0], again.workspace.report
    assert again.workspace.message is not None and about[0] in again.workspace.message.text()  # said once


def test_cancel_while_runs_beside_are_reopened_names_what_is_left(user_window, small_corpus, qtbot, monkeypatch,
                                                                   tmp_path):
    """Reopening runs beside is long work in the Variants tab (progress, Cancel); Cancel stops it, and the runs
    not reopened (the one under way and those after it) are named once with the restore's other findings."""
    import time

    import bpe_lens_app.features.variants.reopen as reopen_module
    from bpe_core.types import Cancelled, Progress

    window = _window_with_picky_beside(user_window, small_corpus, qtbot, monkeypatch)
    _add(window, qtbot, monkeypatch, lambda f: f.rule.setCurrentIndex(f.rule.findText("Plain BPE")), 3)
    path = tmp_path / "three.bpelens"
    window.workspace.save_to(str(path))
    qtbot.waitUntil(path.exists, timeout=10000)

    def slow(saved, *, progress, cancel):  # a big corpus: counting until Cancel
        while not cancel():
            progress(Progress(1, 100, "bytes"))
            time.sleep(0.01)
        raise Cancelled()

    monkeypatch.setattr(reopen_module, "reopen_run", slow)
    again = user_window(str(path), wait=False)
    qtbot.waitUntil(lambda: again.variants_feature.tab is not None, timeout=60000)
    tab = again.variants_feature.tab
    cancel = tab.findChild(QPushButton, "variant_cancel")
    bar = tab.progress
    qtbot.waitUntil(lambda: cancel.isVisible() and "Reopening r2 (PickyBPE τ=0.6)" in bar.format(), timeout=60000)
    qtbot.mouseClick(cancel, Qt.LeftButton)
    qtbot.waitUntil(lambda: not again.variants_feature.busy and again.workspace.report != "", timeout=10000)
    report = again.workspace.report
    assert "Reopening stopped: r2 (PickyBPE τ=0.6), r3 (plain BPE) not reopened" in report, report
    _tab, rows, _merges = _compared(again, qtbot, 1)
    assert "plain BPE" in rows[0] and again.session.merge_count == 12


def test_a_continuation_of_a_run_beside_is_said_not_dropped(user_window, small_corpus, qtbot, tmp_path):
    """A workspace written by the library may hold a SuperBPE continuation of a run beside (the app makes
    branches of the window's run only): the run beside comes back, the continuation is named once."""
    from bpe_core import TrainingRun, Workbench, make_config
    from bpe_core.workbench import RunCorpus, continue_run, superbpe_config

    wb = Workbench()
    wb.open_run(str(small_corpus), make_config("gpt2"))
    wb.current_run.timeline.seek(10)
    beside = TrainingRun.open(wb.new_run_id(), RunCorpus((str(small_corpus),)), make_config("gpt2", num_merges=40))
    beside.timeline.seek(15)
    wb.add_run(beside, select=False)
    wb.add_run(continue_run(wb.new_run_id(), beside, 10, superbpe_config(beside.config, 10)), select=False)
    path = tmp_path / "library.bpelens"
    write_workspace(wb.to_workspace(), str(path))
    again = user_window(str(path), wait=False)
    qtbot.waitUntil(lambda: again.session.corpus is not None and not again.workspace.is_busy(), timeout=60000)
    _tab, rows, merges = _compared(again, qtbot, 2)
    assert merges == ["10", "15"] and rows[1].startswith("r2: plain BPE"), (rows, merges)
    qtbot.waitUntil(lambda: again.workspace.report != "", timeout=10000)
    assert again.workspace.report.count("r3 continues r2 from its merge 10") == 1, again.workspace.report
