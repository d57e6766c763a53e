"""The health feature records its analysis in the Workbench (issue 24): a health tab of the training is an open
analysis of the run on the chosen corpus until the tab closes."""
from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog

from bpe_lens_app.features.health import actions as health_feature


def test_a_health_tab_is_an_open_analysis_until_it_closes(qtbot, loaded_window, small_corpus, monkeypatch):
    window = loaded_window
    window.session.step(5)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(small_corpus)], ""))
    window.tabs.setCurrentIndex(0)
    pane = health_feature.ask_health(window)
    qtbot.waitUntil(lambda: pane.report is not None, timeout=20000)
    bench = window.session.workbench.bench
    assert [(a.kind, a.subject_id, a.corpus) for a in bench.analyses] == [
        ("health", window.session.workbench.run.id, (os.path.abspath(small_corpus),))]
    window.close_tab(window.tabs.indexOf(pane))
    assert bench.analyses == ()
