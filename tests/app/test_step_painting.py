"""Panes repaint only what a step changed; what is on screen must equal a full repaint.

The window's pixels are read back from the platform (``QScreen.grabWindow``: the offscreen
backing store, or the X server under xvfb), after the event loop has painted a step, and compared
with the same region after ``repaint()`` of the whole pane. A view that moves pixels by blitting
(the merges table scrolls to the newest merge) or skips a repaint would leave stale rows behind.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget


def on_screen(widget: QWidget) -> QImage:
    top = widget.window()
    pos = widget.mapTo(top, QPoint(0, 0))
    return top.screen().grabWindow(top.winId(), pos.x(), pos.y(), widget.width(), widget.height()).toImage()


def panes(w) -> dict:
    return {"merges": w.merges.view.viewport(), "merges scroll bar": w.merges.view.verticalScrollBar(),
            "words scroll bar": w.words.table.verticalScrollBar(), "words": w.words.table.viewport(),
            "changed": w.words.changed_table.viewport(), "history": w.words.history_table.viewport(),
            "pairs": w.pair_chart, "charts": w.history_chart, "controls": w.controls, "encode": w.encode}


def assert_screen_matches_a_full_repaint(w) -> None:
    QApplication.processEvents()
    # every pane read back before any is repainted: a repaint() also paints whatever else in the window
    # is marked dirty, which would hide a pane that is painted only in a later pass of the event loop
    shown = {name: on_screen(widget) for name, widget in panes(w).items()}
    for name, widget in panes(w).items():
        widget.repaint()
        assert shown[name] == on_screen(widget), f"{name} shows stale pixels at merge {w.session.merge_count}"


def test_steps_undos_and_seeks_leave_no_stale_pixels(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    w.encode.set_text("the lowest newest widest")
    w.words.select_word(w.words.model.word_index(3))
    for _ in range(14):  # more merges than the merges table has rows on screen: it scrolls
        s.step()
        assert_screen_matches_a_full_repaint(w)
    for _ in range(3):
        s.undo()
        assert_screen_matches_a_full_repaint(w)
    s.step(2)
    assert_screen_matches_a_full_repaint(w)
    s.seek(4)
    qtbot.waitUntil(lambda: not s.is_running and s.merge_count == 4)
    assert_screen_matches_a_full_repaint(w)
    s.step()  # stepping forward along the known timeline: no rows appended, only restyled
    assert_screen_matches_a_full_repaint(w)
    s.reset()
    assert_screen_matches_a_full_repaint(w)
    bar = w.words.table.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)  # rows off the top and the bottom change too
    for _ in range(3):
        s.step()
        assert_screen_matches_a_full_repaint(w)
    w.words.sort_by("tokens per word")  # a sort that moves rows at every merge
    for _ in range(2):
        s.step()
        assert_screen_matches_a_full_repaint(w)


class _PaintedRegions(QObject):
    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.heights: list = []
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Paint:
            self.heights.append(event.region().boundingRect().height())
        return False


def test_a_step_paints_a_few_merge_rows_not_the_table(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    view = w.merges.view
    for _ in range(15):  # the table fills and scrolls
        s.step()
        QApplication.processEvents()
    painted = _PaintedRegions(view.viewport())
    s.step()
    QApplication.processEvents()
    assert view.rowAt(view.viewport().height() - 1) == s.merge_count - 1  # the newest merge is in view
    assert painted.heights and max(painted.heights) <= 3 * view.rowHeight(0)


def _points(curve) -> list:
    return curve.points()


def test_a_history_curve_grows_in_place_like_a_rebuilt_one(qapp):
    import numpy as np
    import pyqtgraph as pg

    from bpe_lens_app.features.training.history_chart import HistoryCurve

    x = np.arange(12.0)
    y = x ** 0.5
    grown, fresh = HistoryCurve(pg.mkPen("k")), HistoryCurve(pg.mkPen("k"))
    grown.set_data(x[:5], y[:5])
    poly = grown._poly
    grown.set_data(x[:9], y[:9])  # appended
    fresh.set_data(x[:9], y[:9])
    assert grown._poly is poly and _points(grown) == _points(fresh)
    # a thinned line: every 2nd merge, then the current one; the tail point moves on
    grown.set_data(x[[0, 2, 4, 6, 7]], y[[0, 2, 4, 6, 7]])
    grown.set_data(x[[0, 2, 4, 6, 8, 9]], y[[0, 2, 4, 6, 8, 9]])
    fresh.set_data(x[[0, 2, 4, 6, 8, 9]], y[[0, 2, 4, 6, 8, 9]])
    assert _points(grown) == _points(fresh)
    grown.set_data(x[:3], y[:3])  # undone: rebuilt
    fresh.set_data(x[:3], y[:3])
    assert _points(grown) == _points(fresh)


def test_long_runs_are_thinned_and_end_at_the_current_merge(qtbot, loaded_window, monkeypatch):
    from bpe_lens_app.features.training import history_chart

    monkeypatch.setattr(history_chart, "MAX_POINTS", 8)
    w = loaded_window
    s = w.session
    for _ in range(19):
        s.step()
        for curve in w.history_chart.curves:
            x, _ = curve.getData()
            assert len(x) <= 8 + 2 and x[-1] == s.merge_count
    assert_screen_matches_a_full_repaint(w)


def test_history_lines_are_rebuilt_for_another_corpus(qtbot, loaded_window, tmp_path):
    w = loaded_window
    s = w.session
    s.step(6)
    other = tmp_path / "other.txt"
    other.write_text("abab abab abab cdcd cdcd efef\n" * 5, encoding="utf-8")
    with qtbot.waitSignal(s.corpus_loaded, timeout=10000):
        s.load_corpus(other)
    s.step(2)
    for curve in w.history_chart.curves:
        x, y = curve.getData()
        assert _points(curve) == list(zip(x.tolist(), y.tolist()))
    assert w.history_chart.values()["count"].tolist() == [float(st.count) for st in s.history]
