"""The app over the session's Workbench: vocabularies open and close as events that carry their subject,
and the features (compare, health, explain, workspace, exports) find them there, not in the window's tabs."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from dataclasses import replace  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import Qt, QTimer  # noqa: E402
from PySide6.QtGui import QAction  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QFileDialog  # noqa: E402

from bpe_core import write_vocabulary  # noqa: E402
from bpe_lens_app.demo import demo_byte_model  # noqa: E402

TEXT_A = "the theory of the other thing: there, then, these, those. the thermal theatre\n" * 4
TEXT_B = "tokenization tokenizer tokens token; the tokens of a tokenizer\n" * 4


@pytest.fixture
def files(tmp_path):
    """Two vocabulary files, A and B, with their models' names."""
    paths = []
    for name, text in (("alpha", TEXT_A), ("beta", TEXT_B)):
        path = tmp_path / f"{name}.json"
        write_vocabulary(demo_byte_model(text, merges=20), str(path), "native")
        paths.append(str(path))
    return paths


def open_file(qtbot, window, path):
    """Open ``path`` from the window as File → Open vocabulary… does; the record the Workbench emitted."""
    with qtbot.waitSignal(window.session.workbench.vocabulary_opened, timeout=10000) as blocker:
        window.open_vocabulary_path(path)
    return blocker.args[0]


def test_opening_a_vocabulary_emits_its_record_and_the_tab_shows_it(qtbot, window, files):
    vocabulary = open_file(qtbot, window, files[0])
    assert vocabulary.path == files[0] and vocabulary.model.vocab_size > 0
    assert window.session.workbench.vocabularies() == [vocabulary]
    tab = window.tabs.currentWidget()
    assert window.tabs.tabText(window.tabs.currentIndex()) == f"Inspect: {vocabulary.name}"
    assert tab.vocab_model is vocabulary.model
    assert tab.count_label.text() == f"{vocabulary.model.vocab_size:,} tokens"
    assert window.session.workbench.current == vocabulary  # the tab in front is the current vocabulary
    window.tabs.setCurrentIndex(0)
    assert window.session.workbench.current is None  # the Training tab: the training


def test_a_vocabulary_opened_through_the_session_keeps_its_path(qtbot, loaded_window, files, monkeypatch):
    """The path travels with the event: a vocabulary the session opens (not the window's menu) is saved in
    the workspace and no export may replace its file (the window's ``_opening_vocabulary`` knew no path)."""
    w = loaded_window
    with qtbot.waitSignal(w.session.vocabulary_opened, timeout=10000):
        w.session.open_vocabulary(files[1])
    assert w.workspace.capture().tabs == (files[1],)
    before = open(files[1], "rb").read()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (files[1], ""))
    w.findChild(QAction, "action_save_vocabulary").trigger()  # File → Save vocabulary… over that very file
    assert w.error_box is not None and os.path.basename(files[1]) in w.error_box.text()
    assert open(files[1], "rb").read() == before


def test_closing_the_tab_closes_the_vocabulary(qtbot, window, files):
    first, second = (open_file(qtbot, window, path) for path in files)
    closed = []
    window.session.workbench.vocabulary_closed.connect(closed.append)
    bar = window.tabs.tabBar()
    index = window.tabs.indexOf(window.inspector(first.id))
    button = bar.tabButton(index, bar.ButtonPosition.RightSide)
    qtbot.mouseClick(button, Qt.LeftButton)
    assert closed == [first.id]
    assert window.session.workbench.vocabularies() == [second]
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["Training", f"Inspect: {second.name}"]
    window.tabs.setCurrentIndex(1)
    window.findChild(QAction, "action_close_tab").trigger()  # Ctrl+W
    assert closed == [first.id, second.id] and window.session.workbench.vocabularies() == []
    assert window.tabs.count() == 1


def test_compare_offers_the_open_vocabularies_and_compares_two(qtbot, window, files):
    first, second = (open_file(qtbot, window, path) for path in files)
    feature = window.compare_feature

    def choose() -> None:
        a, b = feature.dialog.boxes
        items = [a.itemText(i) for i in range(a.count())]
        assert items[:2] == [f"Inspect: {first.name}", f"Inspect: {second.name}"]
        a.setCurrentIndex(0)
        b.setCurrentIndex(1)
        feature.dialog.accept()

    QTimer.singleShot(0, choose)
    window.findChild(QAction, "action_compare").trigger()
    qtbot.waitUntil(lambda: window.tabs.tabText(window.tabs.currentIndex()).startswith("Compare:"), timeout=15000)
    tab = window.tabs.currentWidget()
    assert (tab.name_a, tab.name_b) == (f"Inspect: {first.name}", f"Inspect: {second.name}")
    assert tab.diff.a.model is first.model and tab.diff.b.model is second.model


def test_health_checks_the_current_vocabulary(qtbot, loaded_window, files, monkeypatch):
    w = loaded_window
    first, second = (open_file(qtbot, w, path) for path in files)
    w.tabs.setCurrentWidget(w.inspector(first.id))
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([w.session.corpus.path], ""))
    w.findChild(QAction, "action_vocabulary_health").trigger()
    assert w.tabs.tabText(w.tabs.currentIndex()) == f"Health: {first.model.name or 'vocabulary'}"
    pane = w.tabs.currentWidget()
    qtbot.waitUntil(lambda: pane.report is not None, timeout=20000)
    assert pane.table_model.rowCount() == first.model.vocab_size


def test_an_inspector_chip_explains_its_word(qtbot, window, files):
    vocabulary = open_file(qtbot, window, files[0])
    pane = window.inspector(vocabulary.id).encode_pane
    with qtbot.waitSignal(pane.encoding_changed, timeout=5000):
        pane.set_text("the theory")
    view = pane.view
    QTest.mouseClick(view.viewport(), Qt.LeftButton, pos=view.chip_rect(0).center().toPoint())
    assert window.explain.dock.isVisible()
    assert window.explain.pane.story().title.startswith("Why this split: the")


def test_the_workspace_saves_the_workbench_vocabularies(qtbot, loaded_window, files):
    w = loaded_window
    for path in files:
        open_file(qtbot, w, path)
    assert w.workspace.capture().tabs == tuple(w.session.workbench.paths()) == tuple(files)
    w.tabs.tabBar().moveTab(2, 1)  # the order of the tabs is the order saved
    assert w.workspace.capture().tabs == tuple(reversed(files))



def test_the_window_workspace_is_the_workbench_in_its_saved_form(qtbot, loaded_window, files):
    w = loaded_window
    w.session.step(5)
    qtbot.waitUntil(lambda: w.session.merge_count == 5, timeout=10000)
    open_file(qtbot, w, files[0])
    w.encode.set_text("the theory")
    w.tabs.setCurrentIndex(0)
    w.words.select_word(2)
    qtbot.waitUntil(lambda: w.session.workbench.selected_word is not None, timeout=5000)
    ws, bench = w.workspace.capture(), w.session.workbench.to_workspace()
    assert (bench.position, bench.encode_text, bench.tabs) == (5, "the theory", (files[0],))
    assert bench.view == {"selected_word": w.session.words[2]}
    assert ws.view == {**bench.view, "current_tab": 0}  # the window adds the tab in front
    assert replace(ws, corpus=bench.corpus, view=bench.view) == bench  # the corpus: as hashed by the window
    assert ws.corpus.path == bench.corpus.path


def test_closing_a_health_tab_with_ctrl_w_stops_its_report(qtbot, window) -> None:
    """The window says which tab it closed (``tab_closed``), by its close button or Ctrl+W: a health report
    still running stops (Ctrl+W left it running on a worker: only the tab's button was heard)."""
    from bpe_core import open_vocabulary
    from bpe_lens_app.features.health.actions import open_health
    from tests.core.paths import DATA

    gpt2, wiki = DATA / "gpt2/tokenizer.json", DATA / "wikitext-2-raw/wiki.valid.raw"
    if not (gpt2.exists() and wiki.exists()):
        pytest.skip("real data missing: gpt2/tokenizer.json, wikitext-2-raw/wiki.valid.raw")
    pane = open_health(window, open_vocabulary(str(gpt2)), [str(wiki)])
    assert pane.is_running and window.tabs.currentWidget() is pane
    window.findChild(QAction, "action_close_tab").trigger()  # Ctrl+W
    assert window.tabs.count() == 1
    qtbot.waitUntil(lambda: not pane.is_running, timeout=20000)
    assert pane.title.text() == "Cancelled" and pane.report is None
