"""The token biography tab (issue 27): a user opens a corpus and a vocabulary, asks View → Token biography…
(or the inspector's button), computes it on the corpus offered, sorts, filters by the presets and by text,
exports CSV; Cancel leaves the tab usable. Everything is read from the widgets as the user sees them."""
from __future__ import annotations

import csv
import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtGui import QAction  # noqa: E402
from PySide6.QtWidgets import QFileDialog, QMessageBox  # noqa: E402

from bpe_core import write_vocabulary  # noqa: E402
from bpe_core.model import BPEModel  # noqa: E402

TOKENS = ["a", "b", "c", "d", "e", "f", "ab", "bc", "abd", "abc", "def", "ef", " "]
MERGES = [("a", "b"), ("b", "c"), ("ab", "d"), ("a", "bc"), ("d", "ef"), ("e", "f")]
#: "ab" is made 205 times and emitted 5 times (a likely residue), "bc" and "abc" are never emitted on it,
#: "def" is unreachable (its merge needs "ef", made only later), "abd" and "ef" are ok
CORPUS = "abd " * 200 + "\n" + "ab ef\n" * 5


def small_vocabulary(path) -> str:
    ix = {t: i for i, t in enumerate(TOKENS)}
    model = BPEModel(unit="chars", tokens=TOKENS, merges=[(ix[a], ix[b]) for a, b in MERGES], name="small")
    write_vocabulary(model, str(path), "native")
    return str(path)


@pytest.fixture
def files(tmp_path):
    corpus = tmp_path / "reference.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    return corpus, small_vocabulary(tmp_path / "small.json")


def column(pane, col: int) -> list:
    m = pane.table_model
    return [m.data(m.index(r, col)) for r in range(m.rowCount())]


def open_biography(qtbot, user_window, files):
    """The user opens the corpus, then the vocabulary, then View → Token biography…; the tab offers the corpus."""
    corpus, vocab = files
    window = user_window(str(corpus))
    window.open_vocabulary_path(vocab)
    qtbot.waitUntil(lambda: window.session.workbench.current is not None, timeout=20000)
    action = window.findChild(QAction, "action_token_biography")
    assert action is not None and action in window.menus["view"].actions()
    action.trigger()
    pane = window.tabs.currentWidget()
    assert window.tabs.tabText(window.tabs.currentIndex()).startswith("Biography: ")
    assert pane.corpus_label.text() == "reference.txt"
    assert pane.compute_button.isEnabled() and not pane.export_button.isEnabled()
    return window, pane


def compute(qtbot, pane):
    qtbot.mouseClick(pane.compute_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: pane.biography is not None and not pane.is_running, timeout=30000)


def test_biography_of_an_open_vocabulary_on_the_corpus(qtbot, user_window, files) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    B = pane.table_model
    assert B.HEADERS == ("id", "token", "rank", "count at birth", "emitted", "residue ratio", "IoS", "reachable",
                         "bytes", "status")
    assert pane.table_model.rowCount() == len(TOKENS)
    rows = {tok: (rank, birth, emitted, ratio, reach, status) for tok, rank, birth, emitted, ratio, reach, status in
            zip(column(pane, B.COL_TOKEN), column(pane, B.COL_RANK), column(pane, B.COL_BIRTH),
                column(pane, B.COL_EMITTED), column(pane, B.COL_RESIDUE), column(pane, B.COL_REACHABLE),
                column(pane, B.COL_STATUS))}
    assert rows["ab"] == ("1", "205", "5", "0.0244", "yes", "likely residue")  # 5 / 205, to 4 places: GPT-2's are small
    assert rows["abd"] == ("3", "200", "200", "1.0000", "yes", "ok")
    assert rows["def"][-2:] == ("no", "unreachable")
    assert rows["bc"][-1] == rows["abc"][-1] == "never emitted"
    assert rows["a"][:1] == ("—",) and rows["a"][-1] == "base"
    title = pane.title.text()
    for part in ("reference.txt", "13 tokens", "2 ok", "1 likely residue", "2 never emitted", "1 unreachable",
                 "7 base"):
        assert part in title, part
    assert "special" not in title  # none here: not listed
    assert pane.count_label.text() == "13 of 13 tokens shown"
    assert not pane.progress.isVisible() and pane.export_button.isEnabled()


def test_selecting_a_row_shows_its_merge_tree(qtbot, user_window, files) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    row = column(pane, pane.table_model.COL_TOKEN).index("abd")
    rect = pane.table.visualRect(pane.table_model.index(row, 1))
    qtbot.mouseClick(pane.table.viewport(), Qt.LeftButton, pos=rect.center())
    root = pane.tree.root()
    assert root is not None and root.display == "abd" and [c.display for c in root.children] == ["ab", "d"]


def click_header(qtbot, pane, col: int) -> None:
    header = pane.table.horizontalHeader()
    x = header.sectionViewportPosition(col) + header.sectionSize(col) // 2
    qtbot.mouseClick(header.viewport(), Qt.LeftButton, pos=QPoint(x, header.height() // 2))


def test_sort_by_a_column_by_clicking_its_header(qtbot, user_window, files) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    B = pane.table_model
    seen = []
    for _ in range(2):  # one order, then the other
        click_header(qtbot, pane, B.COL_EMITTED)
        seen.append(([int(v.replace(",", "")) for v in column(pane, B.COL_EMITTED)], column(pane, B.COL_TOKEN)))
    (up, _), (down, tokens) = sorted(seen, key=lambda s: s[0][0])
    assert up == sorted(up) and down == sorted(up, reverse=True) and up[-1] == 205
    assert tokens[:4] == ["·", "abd", "ab", "ef"]  # 205, 200, then the two 5s by id
    for _ in range(2):  # rows without a ratio come last, whichever the order
        click_header(qtbot, pane, B.COL_RESIDUE)
        ratios = column(pane, B.COL_RESIDUE)
        assert ratios[:3] != ["—"] * 3 and set(ratios[3:]) == {"—"}
        assert ratios[:3] in (["0.0244", "1.0000", "1.0000"], ["1.0000", "1.0000", "0.0244"])


def test_each_preset_filter_and_the_filter_box(qtbot, user_window, files) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    B = pane.table_model
    box = pane.preset_box
    labels = [box.itemText(i) for i in range(box.count())]
    assert labels == ["all (13)", "likely residues (1)", "never emitted (2)", "unreachable (1)"]
    expected = {"likely residues": ["ab"], "never emitted": ["bc", "abc"], "unreachable": ["def"]}
    for name, tokens in expected.items():
        box.setCurrentIndex(box.findData(name))
        assert column(pane, B.COL_TOKEN) == tokens, name
        assert pane.count_label.text() == f"{len(tokens)} of 13 tokens shown"
    box.setCurrentIndex(box.findData("all"))
    qtbot.keyClicks(pane.search, "AB")  # case-insensitive, inside the token
    assert column(pane, B.COL_TOKEN) == ["ab", "abd", "abc"]
    box.setCurrentIndex(box.findData("never emitted"))  # both filters hold
    assert column(pane, B.COL_TOKEN) == ["abc"]
    pane.search.clear()
    qtbot.keyClicks(pane.search, "·")  # whitespace as it is shown
    box.setCurrentIndex(box.findData("all"))
    assert column(pane, B.COL_TOKEN) == ["·"] and column(pane, B.COL_STATUS) == ["base"]


def test_export_csv_of_the_rows_shown_never_over_an_input(qtbot, user_window, files, tmp_path,
                                                          monkeypatch) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    pane.preset_box.setCurrentIndex(pane.preset_box.findData("never emitted"))
    out = tmp_path / "out" / "bio"
    out.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "CSV (*.csv)"))
    qtbot.mouseClick(pane.export_button, Qt.LeftButton)
    with open(str(out) + ".csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["token"] for r in rows] == ["bc", "abc"] and {r["status"] for r in rows} == {"never emitted"}
    assert list(rows[0]) == ["id", "token", "rank", "birth_count", "emitted", "residue_ratio", "ios", "reachable",
                             "n_bytes", "status"]
    corpus, vocab = files
    before = corpus.read_bytes(), open(vocab, "rb").read()
    for target in (str(corpus), vocab):  # the corpus and the vocabulary are refused, unchanged
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, t=target, **k: (t, "CSV (*.csv)"))
        qtbot.mouseClick(pane.export_button, Qt.LeftButton)
    assert (corpus.read_bytes(), open(vocab, "rb").read()) == before
    assert window.statusBar().currentMessage()  # said why


def test_cancel_leaves_the_tab_usable(qtbot, user_window, files, monkeypatch) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    from bpe_core.types import Cancelled
    import bpe_lens_app.features.inspector.biography_pane as bp

    real = bp.token_biography

    def slow(model, paths, *, progress=None, cancel=None):  # a computation that runs until cancelled
        while not cancel():
            time.sleep(0.01)
        raise Cancelled()

    monkeypatch.setattr(bp, "token_biography", slow)
    qtbot.mouseClick(pane.compute_button, Qt.LeftButton)
    assert pane.cancel_button.isVisible() and not pane.compute_button.isEnabled()
    qtbot.mouseClick(pane.cancel_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not pane.is_running, timeout=10000)
    assert pane.title.text().startswith("Cancelled")
    assert not pane.cancel_button.isVisible() and pane.compute_button.isEnabled()
    assert pane.table_model.rowCount() == 0
    monkeypatch.setattr(bp, "token_biography", real)
    compute(qtbot, pane)  # usable again: computes
    assert pane.table_model.rowCount() == len(TOKENS)


def test_the_inspectors_button_opens_its_vocabulary_biography(qtbot, user_window, files) -> None:
    corpus, vocab = files
    window = user_window(str(corpus))
    window.open_vocabulary_path(vocab)
    qtbot.waitUntil(lambda: window.session.workbench.current is not None, timeout=20000)
    tab = window.tabs.currentWidget()
    qtbot.mouseClick(tab.biography_button, Qt.LeftButton)
    pane = window.tabs.currentWidget()
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Biography: small"
    compute(qtbot, pane)
    assert pane.table_model.rowCount() == len(TOKENS)


def test_with_no_vocabulary_and_no_merges_it_says_what_to_do(qtbot, window, monkeypatch) -> None:
    said = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: said.append(a[2]))
    window.findChild(QAction, "action_token_biography").trigger()
    assert said and "Open a vocabulary" in said[0]


@pytest.mark.parametrize("link", ["symlink", "hard link"])
def test_export_refuses_a_link_to_the_corpus(qtbot, user_window, files, tmp_path, monkeypatch, link) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    corpus, _vocab = files
    out = tmp_path / f"{link.replace(' ', '-')}.csv"
    out.symlink_to(corpus) if link == "symlink" else os.link(corpus, out)
    said = []
    pane.failed.connect(said.append)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "CSV (*.csv)"))
    qtbot.mouseClick(pane.export_button, Qt.LeftButton)
    assert said == [f"{out}: is an input of this command; an output never replaces an input"]
    assert corpus.read_text(encoding="utf-8") == CORPUS


def test_export_on_a_full_disk_keeps_the_old_file(qtbot, user_window, files, tmp_path, monkeypatch) -> None:
    from tests.core.test_writers_gate import DiskFills

    window, pane = open_biography(qtbot, user_window, files)
    compute(qtbot, pane)
    out = tmp_path / "bio.csv"
    out.write_bytes(b"old")
    said, renamed = [], []
    pane.failed.connect(said.append)
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (renamed.append(os.fspath(dst)), real(src, dst))[1])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "CSV (*.csv)"))
    with monkeypatch.context() as m:
        DiskFills(m, room=40)
        qtbot.mouseClick(pane.export_button, Qt.LeftButton)
    assert said == [f"{out}: write failed (No space left on device)"] and out.read_bytes() == b"old"
    qtbot.mouseClick(pane.export_button, Qt.LeftButton)  # room again: written, through a temp file renamed onto it
    assert renamed == [str(out)] and out.read_text(encoding="utf-8").startswith("id,token,rank,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bio.csv", "reference.txt", "small.json"]


def many_lives(n: int):
    from bpe_core.analysis import TokenLife

    return [TokenLife(i, f"t{i}", i or None, 3 * i % 997, i % 13, (i % 13) / 10 if i % 7 else None, None, True,
                      len(str(i)), "ok" if i % 5 else "likely residue") for i in range(n)]


def test_the_table_asks_only_for_the_rows_on_screen(qtbot) -> None:
    """GPT-2's 50,257 rows: sorting and filtering run on the records, and the view then asks data() for the
    rows it shows only: as many calls for 50,000 rows as for 5,000 (no per-row widget, no proxy model)."""
    from PySide6.QtWidgets import QTableView

    from bpe_lens_app.features.inspector.biography_model import BiographyTableModel

    class Counting(BiographyTableModel):
        asked = 0

        def data(self, index, role=0):
            Counting.asked += 1
            return super().data(index, role)

    calls = []
    for n in (5_000, 50_000):
        model = Counting()
        view = QTableView()
        qtbot.addWidget(view)
        view.resize(900, 400)
        view.setModel(model)
        view.setSortingEnabled(True)
        model.set_rows(many_lives(n))
        view.show()
        qtbot.waitExposed(view)
        Counting.asked = 0
        view.sortByColumn(model.COL_BIRTH, Qt.DescendingOrder)
        model.set_filter(preset="likely residues", text="t1")
        qtbot.wait(20)
        view.grab()  # paints what is on screen
        calls.append(Counting.asked)
        assert model.rowCount() == sum(1 for t in many_lives(n) if t.status == "likely residue" and "t1" in t.token)
        births = [int(model.data(model.index(r, model.COL_BIRTH)).replace(",", "")) for r in range(50)]
        assert births == sorted(births, reverse=True)
    assert calls[0] == calls[1] > 0


def test_the_training_runs_model_at_its_merge(qtbot, user_window, files) -> None:
    """No vocabulary open: View → Token biography… takes the training's model at the window's merge."""
    corpus, _vocab = files
    window = user_window(str(corpus))
    session = window.session
    session.seek(3)
    qtbot.waitUntil(lambda: session.merge_count == 3 and not session.is_running, timeout=20000)
    window.findChild(QAction, "action_token_biography").trigger()
    pane = window.tabs.currentWidget()
    assert window.tabs.tabText(window.tabs.currentIndex()).endswith("at merge 3")
    assert pane.corpus_label.text() == "reference.txt"
    compute(qtbot, pane)
    ranks = [r for r in column(pane, pane.table_model.COL_RANK) if r != "—"]
    assert sorted(ranks) == ["1", "2", "3"]  # the three merges made so far, each a token
    assert "reference.txt" in pane.title.text()


def test_closing_the_tab_stops_the_computation(qtbot, user_window, files, monkeypatch) -> None:
    window, pane = open_biography(qtbot, user_window, files)
    from bpe_core.types import Cancelled
    import bpe_lens_app.features.inspector.biography_pane as bp

    stopped = []

    def slow(model, paths, *, progress=None, cancel=None):  # runs until cancelled
        while not cancel():
            time.sleep(0.01)
        stopped.append(True)
        raise Cancelled()

    monkeypatch.setattr(bp, "token_biography", slow)
    qtbot.mouseClick(pane.compute_button, Qt.LeftButton)
    assert pane.is_running
    window.tabs.tabCloseRequested.emit(window.tabs.currentIndex())
    qtbot.waitUntil(lambda: stopped == [True], timeout=10000)
    assert not window.tabs.tabText(window.tabs.currentIndex()).startswith("Biography")


def test_gpt2_on_wikitext_the_emitted_column_is_tiktokens_count(qtbot, user_window, tmp_path) -> None:
    """GPT-2's tokenizer.json opened over WikiText lines: the table's emitted counts are tiktoken's (r50k_base,
    each line encoded as it is), row for row; the likely residues listed are the rows of that status."""
    from collections import Counter

    from tests.core.paths import need
    from tests.core.test_exact_encoding import tiktoken_reference

    lines = need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8").splitlines(keepends=True)[:400]
    corpus = tmp_path / "wiki400.txt"
    corpus.write_text("".join(lines), encoding="utf-8")
    enc = tiktoken_reference("r50k_base")
    expected = Counter(t for line in lines for t in enc.encode_ordinary(line))
    window = user_window(str(corpus))
    window.open_vocabulary_path(str(need("gpt2/tokenizer.json")))
    qtbot.waitUntil(lambda: window.session.workbench.current is not None, timeout=60000)
    qtbot.mouseClick(window.tabs.currentWidget().biography_button, Qt.LeftButton)
    pane = window.tabs.currentWidget()
    compute(qtbot, pane)
    B = pane.table_model
    assert B.rowCount() == 50257 and pane.count_label.text() == "50,257 of 50,257 tokens shown"
    shown = {int(i): int(e.replace(",", "")) for i, e in zip(column(pane, B.COL_ID), column(pane, B.COL_EMITTED))}
    assert {i: e for i, e in shown.items() if e} == dict(expected)
    assert f"→ {sum(expected.values()):,} tokens" in pane.title.text()
    pane.preset_box.setCurrentIndex(pane.preset_box.findData("likely residues"))
    assert B.rowCount() > 0 and set(column(pane, B.COL_STATUS)) == {"likely residue"}
