"""Presenter mode: F11 in, big banner, top-10 pairs, chosen words, keyboard stepping, flash, Esc out."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontInfo
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog, QPushButton

from bpe_lens_app.widgets.chip_text import chip_text
from bpe_lens_app.widgets.theme import PRESENTER_POINT_SIZE, presenter_point_size


def test_presenter_mode(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    w.presenter_action.trigger()
    p = w.presenter
    qtbot.addWidget(p)
    assert p.isVisible() and p.isFullScreen()
    qtbot.waitUntil(lambda: p.size() == p.screen().size())  # (full screen comes with the next events)
    assert p.banner.text().startswith("merge 0:")
    assert p.chart.k == 10 and len(p.chart.labels()) == 10
    # large type, in proportion to the screen (issue 23: not a fixed size a large screen dwarfs)
    assert p.point_size == presenter_point_size(p.width(), p.height()) >= 16
    assert p.showcase.font().pointSizeF() == p.point_size == p.chart.chart_font().pointSizeF()
    assert QFontInfo(p.banner.label.font()).pixelSize() >= 0.05 * p.height()
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


def _answer_words(qtbot, presenter, text):
    """Click "Words…" and answer the dialog with ``text`` (None: OK on what it proposes); returns what it proposed."""
    proposed = []

    def answer() -> None:
        dialogs = [d for d in QApplication.topLevelWidgets() if isinstance(d, QInputDialog) and d.isVisible()]
        if not dialogs:
            QTimer.singleShot(10, answer)
            return
        proposed.append(dialogs[0].textValue())
        if text is not None:
            dialogs[0].setTextValue(text)
        dialogs[0].accept()

    QTimer.singleShot(0, answer)
    button = next(b for b in presenter.findChildren(QPushButton) if b.text() == "Words…")
    button.click()
    return proposed[0]


def test_words_not_in_the_corpus_are_named_not_dropped_silently(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    w.enter_presenter()
    p = w.presenter
    qtbot.addWidget(p)
    shown = list(p.showcase.word_indices)
    # OK on the proposed words keeps them (the words' own leading spaces are not a mismatch)
    proposed = _answer_words(qtbot, p, None)
    assert p.showcase.word_indices == shown and not p.words_note.isVisible()
    assert [t.strip() for t in proposed.split(",")] == [s.words[i].strip() or s.words[i] for i in shown]
    _answer_words(qtbot, p, "newest, zebra, lower,  qqq ")
    assert [s.words[i].strip() for i in p.showcase.word_indices] == ["newest", "lower"]
    assert p.words_note.isVisible()
    assert "zebra" in p.words_note.text() and "qqq" in p.words_note.text()
    assert "newest" not in p.words_note.text()
    note = p.words_note.geometry()
    assert p.showcase.rect().contains(note)  # whole, over the words
    # none found: the words stay, and the note says so
    _answer_words(qtbot, p, "zebra")
    assert [s.words[i].strip() for i in p.showcase.word_indices] == ["newest", "lower"]
    assert "zebra" in p.words_note.text() and "unchanged" in p.words_note.text()
    p.leave()
