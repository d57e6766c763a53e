"""The vocabulary health tab (issue 11): opened from View for the inspected vocabulary, computed on
a worker, a sortable/filterable table of token statuses, CSV export, usage and fertility charts."""
from __future__ import annotations

import csv
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QFileDialog  # noqa: E402

from bpe_lens_app.demo import demo_byte_model  # noqa: E402
from bpe_lens_app.features.health import actions as health_feature
from bpe_lens_app.features.health.model import HealthTableModel as H  # noqa: E402
from bpe_lens_app.features.health.pane import HealthPane  # noqa: E402

from tests.core.paths import find

TRAIN = "the cat sat on the mat. the cat ate the rat. the cat sat.\n" * 3


@pytest.fixture(scope="module")
def model():
    return demo_byte_model(TRAIN, merges=30)


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text("the the the\n", encoding="utf-8")
    return path


def shown(pane: HealthPane, col: int) -> list:
    m = pane.table_model
    return [m.data(m.index(r, col)) for r in range(m.rowCount())]


def run_from_view_menu(qtbot, window, model, corpus, monkeypatch) -> HealthPane:
    window.session.workbench.add_vocabulary(model, name="demo")  # its inspector tab opens in front
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(corpus)], ""))
    action = window.findChild(type(window.open_action), "action_vocabulary_health")
    assert action is not None and action in window.menus["view"].actions()
    action.trigger()
    pane = window.tabs.currentWidget()
    assert isinstance(pane, HealthPane)
    qtbot.waitUntil(lambda: pane.report is not None, timeout=20000)
    return pane


def test_health_tab_shows_every_token_with_its_status(qtbot, window, model, corpus, monkeypatch) -> None:
    pane = run_from_view_menu(qtbot, window, model, corpus, monkeypatch)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Health: demo"
    assert pane.table_model.rowCount() == model.vocab_size
    status = dict(zip(shown(pane, H.COL_TOKEN), shown(pane, H.COL_STATUS)))
    usage = dict(zip(shown(pane, H.COL_TOKEN), shown(pane, H.COL_USAGE)))
    # "the the the\n" is the pieces "the", " the", " the", "\n"
    assert (status["Ġthe"], usage["Ġthe"]) == ("used", "2")
    assert (status["the"], usage["the"]) == ("used", "1")
    assert status["Ġcat"] == "dead" and status["Ġsat"] == "dead"  # their merges never fire here
    assert status["z"] == "unused" and usage["z"] == "0"
    assert "dead" in pane.title.text() and "small.txt" in pane.title.text()
    assert not pane.progress.isVisible() and pane.export_button.isEnabled()


def test_filter_sort_and_export(qtbot, window, model, corpus, monkeypatch, tmp_path) -> None:
    pane = run_from_view_menu(qtbot, window, model, corpus, monkeypatch)
    counts = pane.report.status_counts()
    pane.status_box.setCurrentIndex(pane.status_box.findData("dead"))
    assert set(shown(pane, H.COL_STATUS)) == {"dead"}
    assert pane.table_model.rowCount() == counts["dead"] > 0
    assert pane.count_label.text() == f"{counts['dead']} tokens shown"
    pane.status_box.setCurrentIndex(0)
    pane.search.setText("Ġth")
    assert all("Ġth" in t for t in shown(pane, H.COL_TOKEN)) and pane.table_model.rowCount() >= 1
    pane.search.setText("")
    pane.table.sortByColumn(H.COL_USAGE, Qt.DescendingOrder)
    assert shown(pane, H.COL_TOKEN)[0] == "Ġthe"
    out = tmp_path / "health.csv"
    assert pane.export_csv(str(out)) == model.vocab_size
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows[0]["token"] == "Ġthe" and rows[0]["usage"] == "2" and rows[0]["status"] == "used"
    assert [r["status"] for r in rows] == shown(pane, H.COL_STATUS)


def test_charts_and_fertility_are_drawn(qtbot, window, model, corpus, monkeypatch) -> None:
    pane = run_from_view_menu(qtbot, window, model, corpus, monkeypatch)
    xs, _ys = pane.usage_dots.getData()
    used_merged = [r for r in pane.report.rows if r.rank and r.usage]
    assert len(xs) == len(used_merged) >= 1
    t = pane.fertility_table
    groups = [t.item(r, 0).text() for r in range(t.rowCount())]
    assert groups == [f.group for f in pane.report.fertility if f.words] and "Latin" in groups
    latin = groups.index("Latin")
    fert = next(f for f in pane.report.fertility if f.group == "Latin")
    assert t.item(latin, 2).text() == f"{fert.tokens_per_word:.3f}"


def test_no_vocabulary_tells_why(qtbot, window, monkeypatch) -> None:
    told = []
    monkeypatch.setattr(health_feature.QMessageBox, "information", lambda *a: told.append(a[2]))
    assert health_feature.ask_health(window) is None
    assert told and "Open a vocabulary" in told[0]


def test_cancel_on_a_large_corpus(qtbot, window) -> None:
    gpt2, wiki = find("gpt2/tokenizer.json"), find("wikitext-2-raw/wiki.valid.raw")
    if not (gpt2.exists() and wiki.exists()):
        pytest.skip("real data missing: gpt2/tokenizer.json, wikitext-2-raw/wiki.valid.raw")
    from bpe_core.formats.detect import open_vocabulary
    pane = health_feature.open_health(window, open_vocabulary(str(gpt2)), [str(wiki)])
    assert pane.is_running and pane.cancel_button.isVisible()
    with qtbot.waitSignal(pane.calls.aborted, timeout=20000):
        pane.cancel_button.click()
    assert pane.title.text() == "Cancelled" and not pane.progress.isVisible() and pane.report is None


def test_table_model_contract(qtmodeltester, model, corpus) -> None:
    from bpe_core.analysis.health import vocabulary_health
    m = H()
    m.set_rows(vocabulary_health(model, [corpus]).rows)
    qtmodeltester.check(m)


def test_health_of_the_current_training(qtbot, loaded_window, small_corpus, monkeypatch) -> None:
    session = loaded_window.session
    session.step(5)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(small_corpus)], ""))
    loaded_window.tabs.setCurrentIndex(0)
    pane = health_feature.ask_health(loaded_window)
    qtbot.waitUntil(lambda: pane.report is not None, timeout=20000)
    assert pane.table_model.rowCount() == session.vocab_size
    made = [r for r in pane.report.rows if r.rank]
    assert len(made) == 5 and all(r.status in ("used", "consumed") for r in made)  # trained on this corpus
    assert [r.merge_count for r in made] == [s.count for s in session.history]


def test_fertility_by_file_names_every_file_apart(qtbot, window, model, tmp_path, monkeypatch) -> None:
    """Issue 23, finding 6: health on four files labelled two of them (the others' labels overlapped and
    pyqtgraph dropped them). Every file's label is drawn, none overlapping another."""
    from PySide6.QtGui import QImage, QPainter

    paths = []
    for k, text in enumerate(("the cat sat.\n", "the mat.\n", "a rat ate.\n", "the end.\n")):
        path = tmp_path / f"wikipedia_articles_part_{k + 1}_of_four.txt"
        path.write_text(text * 20, encoding="utf-8")
        paths.append(path)
    window.session.workbench.add_vocabulary(model, name="demo")  # its inspector tab opens in front
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(p) for p in paths], ""))
    window.findChild(type(window.open_action), "action_vocabulary_health").trigger()
    pane = window.tabs.currentWidget()
    qtbot.waitUntil(lambda: pane.report is not None, timeout=20000)
    assert pane.report.by == "file"
    qtbot.wait(20)
    plot = pane.fertility_plot.getPlotItem()
    texts: list = []
    for name in ("left", "bottom"):
        image = QImage(10, 10, QImage.Format_ARGB32)
        painter = QPainter(image)
        specs = plot.getAxis(name).generateDrawSpecs(painter)
        painter.end()
        labels = [(rect, text) for rect, _f, text in specs[2]] if specs else []
        for i, (a, _ta) in enumerate(labels):
            for b, _tb in labels[i + 1:]:
                assert not a.intersects(b), (_ta, _tb)
        if name == "left":  # the groups' names (the bottom axis: the counts), inside the chart
            texts = [t for _r, t in labels]
            assert all(r.left() >= 0 for r, _t in labels), labels
    named = [p.name for p in paths]
    assert len(texts) == len(named) == len(set(texts)), texts  # every file labelled, each label its own
    for name, text in zip(named, texts):  # in the table's order, each a whole name or pieces of it around "…"
        assert text == name or ("…" in text and all(piece in name for piece in text.split("…"))), (name, text)
