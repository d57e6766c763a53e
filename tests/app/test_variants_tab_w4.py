"""Issue 26 user test (W4): the Variants tab's texts and "Continue as SuperBPE" where it cannot work."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QListWidget, QMessageBox

from bpe_lens_app.features.training.settings_dialog import SettingsDialog


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


def _picky(f) -> None:
    f.rule.setCurrentIndex(f.rule.findText("PickyBPE"))


def test_continue_as_superbpe_is_off_on_a_picky_run_and_says_why(user_window, small_corpus, qtbot, monkeypatch):
    window = user_window(str(small_corpus))
    action = _action(window, "continue_superbpe")
    assert action.isEnabled()
    _settings(window, qtbot, monkeypatch, _picky)
    assert not action.isEnabled()
    assert "PickyBPE" in action.toolTip()
    _settings(window, qtbot, monkeypatch, lambda f: f.rule.setCurrentIndex(f.rule.findText("Plain BPE")))
    assert action.isEnabled()


def test_one_run_is_compared_in_the_singular(user_window, qtbot):
    window = user_window()
    _action(window, "compare_variants").trigger()
    tab = window.tabs.currentWidget()
    assert tab.note.text().startswith("1 run compared")


def test_a_right_to_left_token_does_not_reorder_its_count(user_window, small_corpus, qtbot, tmp_path):
    path = tmp_path / "hebrew.txt"
    path.write_text(("ושלום ושלום ושלום עולם עולם " * 40 + "\n") * 5, encoding="utf-8")
    window = user_window(str(path))
    session = window.session
    session.seek(6)
    qtbot.waitUntil(lambda: session.merge_count == 6 and not session.is_running, timeout=30000)
    _action(window, "compare_variants").trigger()
    merges = window.tabs.currentWidget().findChild(QListWidget, "variant_merges")
    rows = [merges.item(i).text() for i in range(merges.count())]
    assert len(rows) == 6
    for row in rows:  # the token's text is isolated: its direction cannot carry the count along
        token = row.split("\u2068", 1)[1]
        assert "\u2069" in token and token.rsplit("\u2069", 1)[1].strip().startswith("(")


def test_the_chart_legend_sits_under_the_plot_with_a_background_off_the_curves(user_window, qtbot):
    window = user_window()
    session = window.session
    session.seek(150)
    qtbot.waitUntil(lambda: session.merge_count == 150 and not session.is_running, timeout=60000)
    _action(window, "compare_variants").trigger()
    tab = window.tabs.currentWidget()
    tab.resize(1200, 800)
    qtbot.wait(50)
    legend, box = tab.legend, tab.chart.getPlotItem().getViewBox()
    assert legend.opts["brush"].style() != Qt.NoBrush and legend.opts["brush"].color().alpha() > 200
    text = tab.chart.palette().text().color()
    assert all(label.opts["color"] == text for _sample, label in legend.items)  # readable: the palette's text
    rect, area = legend.sceneBoundingRect(), box.sceneBoundingRect()
    # under the plot, off the view box (in its bottom right corner it sat on the curves where branches part:
    # the user test of session 28, tests/app/test_chart_legends_l.py)
    assert rect.top() >= area.bottom() and not rect.intersects(area)
    for item in tab.chart.getPlotItem().listDataItems():
        xs, ys = item.getData()
        for x, y in zip(xs, ys):
            assert not rect.contains(box.mapViewToScene(QPointF(x, y)))
