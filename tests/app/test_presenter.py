"""Presenter mode: F11 in, big banner, top-10 pairs, chosen words, keyboard stepping, flash, Esc out."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from bpe_lens_app.widgets.chip_text import chip_text
from bpe_lens_app.theme import PRESENTER_POINT_SIZE


def test_presenter_mode(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    w.presenter_action.trigger()
    p = w.presenter
    qtbot.addWidget(p)
    assert p.isVisible() and p.isFullScreen()
    assert p.banner.text().startswith("merge 0:")
    assert p.chart.k == 10 and len(p.chart.labels()) == 10
    assert p.showcase.font().pointSizeF() >= 20 and p.chart.chart_font().pointSizeF() >= 20
    assert PRESENTER_POINT_SIZE >= 20
    # default words: the most frequent with 3+ letters, 8-12 of them
    shown = p.showcase.word_indices
    assert 8 <= len(shown) <= 12
    freqs = [s.freqs[i] for i in shown]
    assert freqs == sorted(freqs, reverse=True)
    # keyboard stepping inside the presenter window
    p.activateWindow()
    nxt = s.top_pairs[0]
    with qtbot.waitSignal(s.steps_applied):  # a key step merges on a worker: the GUI thread never waits
        QTest.keyClick(p, Qt.Key_Space)
    assert s.merge_count == 1
    st = s.history[-1]
    assert (st.left, st.right) == (nxt.left, nxt.right)
    t = lambda raw: chip_text(raw)[0]  # noqa: E731
    assert p.banner.text() == (f'merge 1:  "{t(st.left_token)}" + "{t(st.right_token)}" → "{t(st.new_token)}"'
                               f"  ({st.count:,})")
    assert p.showcase.flash_ids == {st.new_id}  # chips of the new token flash ...
    qtbot.waitUntil(lambda: not p.showcase.flash_ids, timeout=2000)  # ... for ~300 ms
    rows = p.showcase.rows_text()
    assert rows == [f"{t(s.words[i])}  " + "".join(f"[{t(s.token(x))}]" for x in s.segmentation(i))
                    for i in shown]
    QTest.keyClick(p, Qt.Key_Backspace)
    assert s.merge_count == 0 and p.banner.text().startswith("merge 0:")
    assert p.chart.labels() == w.pair_chart.labels()[:10]
    # words chosen in the words pane join the presenter's list
    pick = next(i for i in range(len(s.words)) if i not in shown)
    w.words.select_word(pick)
    assert pick in p.showcase.word_indices
    QTest.keyClick(p, Qt.Key_Escape)
    assert not p.isVisible()


def test_presenter_encode_pane_follows_the_training(qtbot, loaded_window):
    w = loaded_window
    w.enter_presenter()
    p = w.presenter
    qtbot.addWidget(p)
    p.encode.set_text("the lowest newest")
    p.encode.encode_now()
    before = len(p.encode.displayed_texts())
    w.session.step(20)
    p.encode.encode_now()
    assert p.encode.model().merges == w.session.model().merges
    assert len(p.encode.displayed_texts()) < before
    p.leave()
