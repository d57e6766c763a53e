"""A restore shows one dialog at most (user test of issue 26: the crash offer, then a warning, then another box
in a row). What the restore found - other merges than saved, a tab not reopened, a run beside that could not come
back - is said once when all of it is back: in the one dialog's text when nothing was asked yet (File → Open
workspace…), else in the status bar (after the crash offer, which was the dialog)."""
from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QTreeWidget

from bpe_core.formats.workspace import write_workspace
from tests.app.test_runs_beside_reopen_w import PARALLEL, _add, _picky

SAID = ("From merge 3 on, training took other merges", "gone.json", "r2 (parity-aware BPE in ratio mode), run beside "
        "this one, is not reopened")  # (a parity-aware run names its mode since ad2b997: two such runs read apart)


class Dialogs(QObject):
    """Every modal dialog shown while it watches (the application's event filter)."""

    def __init__(self) -> None:
        super().__init__()
        self.shown = []
        QApplication.instance().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Show and isinstance(obj, QDialog) and (
                obj.isModal() or obj.windowModality() != Qt.NonModal):
            if obj not in [o for o, _t in self.shown]:
                self.shown.append((obj, obj.text() + obj.informativeText() if isinstance(obj, QMessageBox) else ""))
        return False

    def stop(self) -> None:
        QApplication.instance().removeEventFilter(self)


def _workspace_with_differences(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    """A saved workspace whose restore finds three things: its third merge not what training takes, an inspector
    tab whose file is gone, a parity-aware run beside whose languages are gone (a PickyBPE run beside comes back)."""
    langs = tmp_path / "langs"
    langs.mkdir()
    for name in ("eng", "rus", "ell"):
        (langs / f"{name}.txt").write_text((PARALLEL / f"{name}.txt").read_text(encoding="utf-8")[:3000],
                                           encoding="utf-8")
    window = user_window(str(small_corpus))
    session = window.session
    session.seek(8)
    qtbot.waitUntil(lambda: session.merge_count == 8 and not session.is_running, timeout=30000)

    def parity(f) -> None:
        f.rule.setCurrentIndex(f.rule.findText("Parity-aware BPE"))
        f.languages.setText(str(langs))
        f.parity_mode.setCurrentText("ratio")

    _add(window, qtbot, monkeypatch, parity, 2)
    _add(window, qtbot, monkeypatch, _picky, 3)
    ws = window.workspace.capture()
    merges = list(ws.merges)
    a, b, n = merges[2]
    merges[2] = (a, b, n + 1)
    ws = dataclasses.replace(ws, merges=tuple(merges), tabs=(str(tmp_path / "gone.json"),))
    shutil.rmtree(langs)
    return ws


def _all_back(window, qtbot) -> None:
    qtbot.waitUntil(lambda: window.session.corpus is not None and not window.workspace.is_busy(), timeout=60000)
    tab = window.variants_feature.show_tab()
    tree = tab.findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 2 and not window.variants_feature.busy, timeout=60000)
    qtbot.wait(300)


def test_after_the_crash_offer_the_restore_says_what_it_found_without_another_dialog(
        user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    from bpe_lens_app.features.workspace.autosave import autosave_path, data_dir
    from tests.app.test_workspace import _dead_pid

    ws = _workspace_with_differences(user_window, small_corpus, qtbot, monkeypatch, tmp_path)
    write_workspace(ws, str(autosave_path(data_dir(), _dead_pid())))

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or box.objectName() != "restore_box":
            QTimer.singleShot(20, answer)
            return
        box.button(QMessageBox.Yes).click()

    dialogs = Dialogs()
    try:
        QTimer.singleShot(0, answer)
        again = user_window(wait=False)
        _all_back(again, qtbot)
    finally:
        dialogs.stop()
    texts = [t for _o, t in dialogs.shown]
    assert len(texts) == 1 and "did not exit cleanly" in texts[0], texts
    report = again.workspace.report
    assert all(s in report for s in SAID), report
    shown = again.statusBar().currentMessage()
    assert shown.startswith("Workspace restored at merge 8 with 3 differences"), shown


def test_opening_a_workspace_says_what_it_found_in_one_dialog(user_window, small_corpus, qtbot, monkeypatch,
                                                               tmp_path):
    ws = _workspace_with_differences(user_window, small_corpus, qtbot, monkeypatch, tmp_path)
    path = tmp_path / "differs.bpelens"
    write_workspace(ws, str(path))
    dialogs = Dialogs()
    try:
        again = user_window(str(path), wait=False)
        _all_back(again, qtbot)
    finally:
        dialogs.stop()
    texts = [t for _o, t in dialogs.shown]
    assert len(texts) == 1 and all(s in texts[0] for s in SAID), texts
