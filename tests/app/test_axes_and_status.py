"""Issue 9 (look): chart ranges at merge 0 and after reset / scrubbing, whole-number ticks, a
window usable at 1024x700, Ctrl +/- reaching charts and counters, stops in words, Cancel, keys."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from tests.app.axis_checks import tick_label_rects


def x_range(plot):
    return plot.getViewBox().viewRange()[0]


def test_history_axes_at_merge_0_and_after_reset(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    for plot in w.history_chart.plots:
        lo, hi = x_range(plot)
        assert -5 <= lo <= 0 and 90 <= hi <= 120  # 0 .. 100 merges, not ±50,000
    vocab_lo, vocab_hi = w.history_chart.plots[1].getViewBox().viewRange()[1]
    assert vocab_lo > 0 and vocab_hi < 10 * s.vocab_size  # around the alphabet, not ±5e7
    with qtbot.waitSignal(s.run_finished, timeout=30000):
        s.seek(150)
    assert x_range(w.history_chart.plots[0])[1] >= 150
    with qtbot.waitSignal(s.reset_done, timeout=30000):
        s.reset()
    assert 90 <= x_range(w.history_chart.plots[0])[1] <= 120  # rescaled for merge 0


def test_history_x_range_follows_scrubbing_back(qtbot, loaded_window):
    s = loaded_window.session
    chart = loaded_window.history_chart
    with qtbot.waitSignal(s.run_finished, timeout=30000):
        s.seek(300)
    wide = x_range(chart.plots[0])[1]
    assert wide >= 200
    s.seek(2)  # a trained merge: shown at once (a jump; the trainer catches up behind)
    qtbot.waitUntil(lambda: s.merge_count == 2, timeout=30000)
    assert x_range(chart.plots[0])[1] < wide / 2


def test_pair_count_ticks_are_whole_and_never_repeat(qtbot, loaded_window, tmp_path):
    w = loaded_window
    s = w.session
    with qtbot.waitSignal(s.run_finished, timeout=30000):
        s.run_to_target()  # the last pairs counted: small counts, a range of a few units
    assert w.pair_chart.x_max() <= 10
    w.pair_chart.plot_widget.grab()  # paints the axis
    drawn = w.pair_chart.plot_item.getAxis("bottom").drawn
    assert drawn and len(drawn) == len(set(drawn))
    assert all(t.replace(",", "").isdigit() for t in drawn)


def one_history_chart_at_1024x700(w, qtbot):
    """``w`` at 1024x700 after 5 steps: the window within the screen, the history charts collapsed to one (with
    its picker), which fits its view (nothing cut off at the right or bottom). Returns the chart."""
    w.resize(1024, 700)
    w.session.step(5)
    qtbot.wait(50)
    assert w.width() <= 1024 and w.height() <= 700  # no minimum size pushes the window past the screen
    chart = w.history_chart
    assert chart.single_chart() and chart.picker.isVisible()
    shown = [p for p in chart.plots if p.isVisible()]
    assert len(shown) == 1
    view = chart.layout_widget
    assert shown[0].sceneBoundingRect().right() <= view.width() + 1
    assert shown[0].sceneBoundingRect().bottom() <= view.height() + 1
    return chart


def test_usable_at_1024x700(qtbot, loaded_window):
    w = loaded_window
    chart = one_history_chart_at_1024x700(w, qtbot)
    chart.picker.setCurrentIndex(2)
    assert [p for p in chart.plots if p.isVisible()] == [chart.plots[2]]
    # pair labels have a line each: as many rows as fit
    pair = w.pair_chart
    line = QFontMetrics(pair.chart_font()).height()
    assert 1 <= pair.rows <= pair.k and pair.rows * line <= pair.plot_item.getViewBox().height()
    assert pair.plot_item.titleLabel.text == f"Next pairs (top {pair.rows})"
    w.resize(1440, 900)
    qtbot.wait(50)
    assert not chart.single_chart() and all(p.isVisible() for p in chart.plots)


def test_font_size_reaches_charts_and_counters(qtbot, loaded_window):
    from bpe_lens_app.widgets.theme import change_app_font_size

    w = loaded_window
    before = QApplication.font().pointSizeF()
    try:
        change_app_font_size(+3)
        qtbot.wait(20)  # (font changes reach widgets through posted events)
        size = QApplication.font().pointSizeF()
        assert size > before
        assert w.controls.merge_label.label.font().pointSizeF() == size
        assert w.controls.merge_label.label.font().bold()
        assert w.pair_chart.chart_font().pointSizeF() == size
        axis = w.history_chart.plots[0].getAxis("left")
        assert axis.style["tickFont"].pointSizeF() == size
    finally:
        change_app_font_size(round(before) - round(QApplication.font().pointSizeF()))
        qtbot.wait(20)
    assert QApplication.font().pointSizeF() == before


def test_cancel_is_disabled_after_opening_a_vocabulary(qtbot, loaded_window, tmp_path):
    from bpe_core.formats import native  # noqa: F401  (the format the app saves by default)
    from bpe_lens_app.features.exports import files as export

    w = loaded_window
    s = w.session
    s.step(5)
    path = tmp_path / "vocab.json"
    export.save_vocabulary(s.model(), str(path), export.format_for(str(path), ""))
    cancel = w.train_actions["cancel"]
    with qtbot.waitSignal(s.vocabulary_opened, timeout=20000):
        s.open_vocabulary(str(path))
    assert not cancel.isEnabled()


def test_help_keys_lists_every_shortcut_of_every_action(window):
    from PySide6.QtGui import QAction

    from bpe_lens_app.keys import key_lines

    lines = key_lines(window)
    text = "\n".join(lines)
    for action in window.findChildren(QAction):
        for key in action.shortcuts():
            if key.toString():
                assert key.toString() in text
    step = next(line for line in lines if line.startswith("Step:"))
    assert "Space" in step and "Right" in step  # both keys, not only the first


@pytest.mark.parametrize("reason, expected", [
    ("min_frequency", "no pair occurs twice any more (min frequency 2) — 8,105 merges, vocabulary 8,362"),
    ("no_pairs", "every word is a single token: no pairs left to merge — 8,105 merges, vocabulary 8,362"),
    ("vocab_size", "the vocabulary reached its target size (30,000) — 8,105 merges, vocabulary 8,362"),
])
def test_stop_text(reason, expected):
    from bpe_core.presets import make_config
    from bpe_lens_app.session.stop_text import stop_text

    assert stop_text(reason, make_config("gpt2"), 8105, 8362) == expected




def test_history_x_axis_ends_near_the_target_with_ticks_apart(qtbot, loaded_window):
    """Issue 23, finding 6: Run to target heads for 29,743 merges; the x axes ran to 50,000 and their
    labels ran together ("1000020000 30000")."""
    from bpe_lens_app.session.session import make_config

    w = loaded_window
    s = w.session
    target = 29_743
    with qtbot.waitSignal(s.corpus_loaded, timeout=10000):
        s.set_config(make_config("gpt2", num_merges=target))
    assert s.target_merges == target
    with qtbot.waitSignal(s.run_started, timeout=10000):
        w.train_actions["run"].trigger()
    s.cancel()
    qtbot.wait(50)
    for plot in w.history_chart.plots:
        lo, hi = x_range(plot)
        assert target <= hi <= target * 1.05, (lo, hi)
        labels = tick_label_rects(plot.getAxis("bottom"))
        assert len(labels) >= 2
        for (a, ta), (b, tb) in zip(labels, labels[1:]):
            assert a.right() + 4 <= b.left() or b.right() + 4 <= a.left(), (ta, tb)  # a gap between labels
        for rect, text in labels:
            assert QFontMetrics(plot.getAxis("bottom").style["tickFont"] or QApplication.font()
                                ).horizontalAdvance(text) <= rect.width() + 1


def test_history_charts_are_clean_before_a_corpus(qtbot, window):
    """Issue 23, finding 6: while the first corpus loads the charts showed −4000..4000 and "count (x0.001)"."""
    w = window
    w.resize(1024, 768)
    qtbot.wait(20)
    for plot in w.history_chart.plots:
        lo, hi = x_range(plot)
        assert -5 <= lo <= 0 and 90 <= hi <= 120
        ylo, yhi = plot.getViewBox().viewRange()[1]
        assert ylo >= -0.1 and yhi <= 10, plot.titleLabel.text  # no negative counts, sizes or ratios
        assert "(x" not in plot.getAxis("left").labelString(), plot.getAxis("left").labelString()
