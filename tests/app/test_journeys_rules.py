"""Journeys (issue 26): SuperBPE and parity-aware BPE chosen in the training settings under a new user's
defaults. SuperBPE: the run stops at its transition point t and continues there as SuperBPE (a branch of the
run in the Variants tab). Parity-aware: the languages folder is trained, one merge per step, each for a language."""
from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QTreeWidget

from bpe_lens_app.features.training.settings_dialog import SettingsDialog

PARALLEL = Path(__file__).resolve().parent.parent / "data" / "parallel"


def _action(window, name) -> QAction:
    return window.findChild(QAction, f"action_{name}")


def _settings(window, qtbot, monkeypatch, choose) -> None:
    def fill(dialog: SettingsDialog) -> int:
        choose(dialog.rule_fields)
        return 1

    monkeypatch.setattr(SettingsDialog, "exec", fill)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=30000):
        window.settings_action.trigger()


def test_superbpe_from_the_settings_continues_at_its_transition_point(user_window, small_corpus, qtbot,
                                                                     monkeypatch):
    window = user_window(str(small_corpus))
    session = window.session

    def superbpe(f) -> None:
        f.rule.setCurrentIndex(f.rule.findText("SuperBPE"))
        f.transition.setValue(20)

    _settings(window, qtbot, monkeypatch, superbpe)
    window.controls.n_box.setValue(30)
    _action(window, "step_n").trigger()  # past t: the run stops at t and goes on as SuperBPE there
    qtbot.waitUntil(lambda: window.tabs.currentWidget().findChild(QTreeWidget, "variant_branches") is not None,
                    timeout=30000)
    tree = window.tabs.currentWidget().findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() == 1,
                    timeout=60000)
    assert session.merge_count == 20
    assert tree.topLevelItem(0).child(0).text(0).startswith("r2: SuperBPE from merge 20")


def test_superbpe_chosen_twice_makes_one_branch(user_window, small_corpus, qtbot, monkeypatch):
    """The same SuperBPE settings given again (OK twice): one branch at t, not one per time they were given."""
    window = user_window(str(small_corpus))

    def superbpe(f) -> None:
        f.rule.setCurrentIndex(f.rule.findText("SuperBPE"))
        f.transition.setValue(15)

    _settings(window, qtbot, monkeypatch, superbpe)
    _settings(window, qtbot, monkeypatch, lambda f: f.transition.setValue(10))
    _settings(window, qtbot, monkeypatch, lambda f: f.transition.setValue(15))
    window.controls.n_box.setValue(30)
    _action(window, "step_n").trigger()
    qtbot.waitUntil(lambda: window.tabs.currentWidget().findChild(QTreeWidget, "variant_branches") is not None,
                    timeout=30000)
    tree = window.tabs.currentWidget().findChild(QTreeWidget, "variant_branches")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1 and tree.topLevelItem(0).childCount() >= 1, timeout=60000)
    qtbot.wait(1500)  # a second continuation, if any, would have been asked for by now
    assert tree.topLevelItem(0).childCount() == 1 and window.session.merge_count == 15


def test_parity_from_the_settings_trains_the_languages(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    langs = tmp_path / "langs"
    (langs / "dev").mkdir(parents=True)
    for name in ("eng", "rus", "ell", "hin"):  # four scripts, a slice of each; the next lines held out (dev/)
        text = (PARALLEL / f"{name}.txt").read_text(encoding="utf-8")
        (langs / f"{name}.txt").write_text(text[:3000], encoding="utf-8")
        (langs / "dev" / f"{name}.txt").write_text(text[3000:4000], encoding="utf-8")
    window = user_window(str(small_corpus))
    session = window.session

    def parity(f) -> None:
        f.rule.setCurrentIndex(f.rule.findText("Parity-aware BPE"))
        f.languages.setText(str(langs))

    _settings(window, qtbot, monkeypatch, parity)
    assert session.config.variant == "parity"
    for n in (1, 2, 3):
        _action(window, "step").trigger()
        qtbot.waitUntil(lambda: session.merge_count == n, timeout=10000)
    assert window.merges.model.rowCount() == 3
    words = [window.words.model.index(r, 0).data() for r in range(window.words.model.rowCount())]
    assert any("ά" in w or "έ" in w or "ο" in w for w in words) and any("и" in w for w in words)


def test_a_parity_runs_settings_reopen_with_its_languages(user_window, small_corpus, qtbot, monkeypatch, tmp_path):
    """Reopened on a parity run, the settings show its languages: OK as they are is accepted (nothing restarts),
    another folder restarts the run on it."""
    folders = []
    for name in ("one", "two"):
        langs = tmp_path / name
        (langs / "dev").mkdir(parents=True)
        for lang in ("eng", "rus"):
            text = (PARALLEL / f"{lang}.txt").read_text(encoding="utf-8")
            (langs / f"{lang}.txt").write_text(text[:2000], encoding="utf-8")
            (langs / "dev" / f"{lang}.txt").write_text(text[2000:2500], encoding="utf-8")
        folders.append(str(langs))
    window = user_window(str(small_corpus))

    def parity(f) -> None:
        f.rule.setCurrentIndex(f.rule.findText("Parity-aware BPE"))
        f.languages.setText(folders[0])

    _settings(window, qtbot, monkeypatch, parity)
    seen = []

    def look(dialog: SettingsDialog) -> int:
        seen.append((dialog.rule_fields.rule.currentText(), dialog.rule_fields.languages.text()))
        dialog.accept()
        seen.append(dialog.error.text())
        return dialog.result()

    monkeypatch.setattr(SettingsDialog, "exec", look)
    loads = []
    window.session.loading_started.connect(loads.append)
    window.settings_action.trigger()
    assert seen == [("Parity-aware BPE", folders[0]), ""] and loads == []

    def other(f) -> None:
        f.languages.setText(folders[1])

    _settings(window, qtbot, monkeypatch, other)
    assert window.session.corpus.path == folders[1]
