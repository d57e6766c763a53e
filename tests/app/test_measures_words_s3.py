"""The Measures tab's words (brief S3, findings 1 and 2), seen through the window as a new user opens it.

1. The group picker and the chart's title name a group plainly: "all files", a file by its name ("rus.txt"),
   a script as "Cyrillic script" (were "file: rus", "script: Cyrillic"); the exported CSV keeps its
   machine-readable ``group`` column ("file:rus", "script:Cyrillic"), as the CLI's curves CSV writes it.
2. The footer says "(parity against eng)" only under the parity measures (parity, the Gini of per-language
   cost), not under bytes per token or any other measure."""
from __future__ import annotations

import csv
import io

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFileDialog, QLabel, QPushButton

from tests.core.paths import ROOT

PARALLEL = ROOT / "tests" / "data" / "parallel"


def _pick(combo: QComboBox, data: str) -> None:
    i = combo.findData(data)
    assert i >= 0, (data, [combo.itemData(j) for j in range(combo.count())])
    combo.setCurrentIndex(i)


def test_group_names_and_the_parity_footer(user_window, qtbot, tmp_path, monkeypatch):
    window = user_window(str(PARALLEL / "eng.txt"))
    session = window.session
    session.seek(60)
    qtbot.waitUntil(lambda: session.merge_count == 60 and not session.is_running, timeout=60000)
    window.findChild(type(window.menus["view"].actions()[0]), "action_measures").trigger()
    pane = window.tabs.currentWidget()
    files = [str(PARALLEL / f"{x}.txt") for x in ("eng", "rus")]
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: (files, ""))
    qtbot.mouseClick(pane.findChild(QPushButton, "measures_choose"), Qt.LeftButton)
    pane.every.setValue(20)
    compute = pane.findChild(QPushButton, "measures_compute")
    qtbot.mouseClick(compute, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(pane.curves) and compute.isEnabled()
                    and not pane.findChild(QPushButton, "measures_cancel").isVisible(), timeout=120000)
    measure, group = pane.findChild(QComboBox, "measures_measure"), pane.findChild(QComboBox, "measures_group")
    note = pane.findChild(QLabel, "measures_note")

    # 1. plain names in the picker and the title
    _pick(measure, "bytes_per_token")
    shown = {group.itemData(i): group.itemText(i) for i in range(group.count())}
    assert shown["all"] == "all files"
    assert shown["file:eng"] == "eng.txt" and shown["file:rus"] == "rus.txt"
    assert shown["script:Latin"] == "Latin script" and shown["script:Cyrillic"] == "Cyrillic script"
    assert not any(": " in text for text in shown.values()), shown
    _pick(group, "script:Cyrillic")
    assert pane.plot.titleLabel.text.endswith("(Cyrillic script)"), pane.plot.titleLabel.text
    _pick(group, "file:rus")
    assert pane.plot.titleLabel.text.endswith("(rus.txt)")
    # ... and the CSV keeps its keys (the CLI's curves CSV writes the same)
    path = tmp_path / "m.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    qtbot.mouseClick(pane.findChild(QPushButton, "measures_export_csv"), Qt.LeftButton)
    groups = {row["group"] for row in csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))}
    assert {"all", "file:eng", "file:rus", "script:Latin", "script:Cyrillic"} <= groups

    # 2. the parity footer only under the parity measures
    for m in ("bytes_per_token", "renyi_efficiency", "tokens_per_word", "used"):
        _pick(measure, m)
        assert "parity" not in note.text(), (m, note.text())
        assert note.text().startswith("2 curves") or note.text().startswith("1 curve"), note.text()
    for m in ("parity", "parity_gini"):
        _pick(measure, m)
        assert "(parity against eng)" in note.text(), (m, note.text())
    # a step keeps it right (the note is said again as the window's merge moves)
    _pick(measure, "bytes_per_token")
    qtbot.keyClick(window, Qt.Key_Space)
    qtbot.waitUntil(lambda: session.merge_count == 61 and pane.here.value() == 61, timeout=10000)
    assert "parity" not in note.text()
