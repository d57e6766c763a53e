"""Step, undo, scrub, play, run + cancel, filter: drive the real widgets and check what they show."""
from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from bpe_lens_app.features.training.merges_table import MergesModel
from bpe_lens_app.features.training.words_model import IDS_ROLE, WordsModel
from bpe_lens_app.widgets.theme import changed_row_color, future_text_color
from bpe_lens_app.widgets.chip_text import chip_text


def shown_merge(window) -> str:
    return window.controls.merge_label.text()


def pair_label(session, pair) -> str:
    return f'"{chip_text(session.token(pair.left))[0]}" + "{chip_text(session.token(pair.right))[0]}"'


def assert_views_match_session(w):
    """Every pane shows the session's current state."""
    s = w.session
    assert shown_merge(w).startswith(f"merge {s.merge_count:,} /")
    assert f"vocab {s.vocab_size:,}" in shown_merge(w)
    assert f"tokens {s.stats.total_tokens:,}" in w.controls.stats_label.text()
    assert w.controls.timeline.value() == s.merge_count
    top = s.top_pairs[: w.pair_chart.k]
    assert w.pair_chart.bar_lengths()[: len(top)] == [float(p.count) for p in top]
    assert w.pair_chart.labels()[: len(top)] == [pair_label(s, p) for p in top]
    model = w.words.model
    for row in range(min(30, model.rowCount())):
        i = model.word_index(row)
        assert model.index(row, WordsModel.SEGMENTATION).data(IDS_ROLE) == s.segmentation(i)
        assert model.index(row, WordsModel.TOKENS).data() == str(len(s.segmentation(i)))
    assert w.history_chart.values()["count"].tolist() == [float(st.count) for st in s.history]
    assert w.merges.model.rowCount() == len(s.timeline)
    if s.merge_count:  # the last merge's words are listed, also after a run (which merges without examples)
        last = s.history[-1]
        assert last.examples or not last.changed_words
        assert [row[3] for row in w.words.changed_model.rows] == [ex.after for ex in last.examples]


def test_step_with_the_keyboard_updates_every_pane(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    w.activateWindow()
    expected = s.top_pairs[0]
    with qtbot.waitSignal(s.steps_applied):
        QTest.keyClick(w, Qt.Key_Space)
    step = s.history[-1]
    assert (step.left, step.right) == (expected.left, expected.right)
    assert_views_match_session(w)
    assert w.merges.rows_text()[0][:5] == ["1", chip_text(step.left_token)[0], chip_text(step.right_token)[0],
                                          chip_text(step.new_token)[0], f"{step.count:,}"]
    # the changed words are listed with before -> after and highlighted in the table
    listed = w.words.changed_model.rows
    assert listed and all(step.new_id in after for _, _, _, after in listed)
    assert w.words.changed_title.text().startswith("Merge 1 (")
    row = w.words.model.row_of(step.changed_words[0])
    assert w.words.model.index(row, 0).data(Qt.BackgroundRole) == changed_row_color()
    assert w.words.flash_ids == {step.new_id}  # the new chips are outlined ...
    qtbot.waitUntil(lambda: not w.words.flash_ids, timeout=2000)  # ... for ~300 ms
    with qtbot.waitSignal(s.steps_applied):
        QTest.keyClick(w, Qt.Key_Right)
    assert s.merge_count == 2
    assert_views_match_session(w)


def test_undo_with_backspace_and_left(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    before_top = list(w.pair_chart.labels())
    s.step(3)
    QTest.keyClick(w, Qt.Key_Backspace)
    assert s.merge_count == 2
    QTest.keyClick(w, Qt.Key_Left)
    QTest.keyClick(w, Qt.Key_Left)
    assert s.merge_count == 0
    assert_views_match_session(w)
    assert w.pair_chart.labels() == before_top
    # undone merges stay in the table, greyed
    assert w.merges.model.rowCount() == 3
    assert w.merges.model.index(0, 0).data(Qt.ForegroundRole) == future_text_color()


def test_step_n_and_undo_n(qtbot, loaded_window):
    w = loaded_window
    w.controls.n_box.setValue(7)
    assert w.train_actions["step_n"].text() == "Step ×7"
    with qtbot.waitSignal(w.session.steps_applied):  # merged on a worker (7 <= SYNC_STEPS: one frame)
        w.train_actions["step_n"].trigger()
    assert w.session.merge_count == 7
    w.train_actions["undo_n"].trigger()
    assert w.session.merge_count == 0


def test_scrub_with_the_timeline_slider(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    # issue 9: the timeline spans the merges trained so far; scrubbing never starts a run
    w.controls.timeline.setValue(40)
    assert s.merge_count == 0 and not s.is_running and w.controls.timeline.value() == 0
    with qtbot.waitSignal(s.run_finished, timeout=20000):
        s.seek(40)  # more than SYNC_STEPS: runs on a worker
    assert s.merge_count == 40 and w.controls.timeline.maximum() == 40
    assert_views_match_session(w)
    w.controls.timeline.setValue(12)  # back: shown at once from the records; the trainer follows on a worker
    assert s.merge_count == 12 and w.controls.timeline.value() == 12
    qtbot.waitUntil(lambda: not s.is_catching_up and not s.is_running, timeout=20000)
    assert_views_match_session(w)
    assert w.merges.model.rowCount() == 40  # the timeline keeps merges 13..40


def test_clicking_a_merge_row_scrubs_there(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    s.step(15)
    view = w.merges.view
    rect = view.visualRect(w.merges.model.index(4, MergesModel.NEW))
    view.scrollTo(w.merges.model.index(4, 0))
    rect = view.visualRect(w.merges.model.index(4, MergesModel.NEW))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, pos=rect.center())
    assert s.merge_count == 5
    assert_views_match_session(w)
    # a greyed (undone) row: click to go forward again
    view.scrollTo(w.merges.model.index(11, 0))
    rect = view.visualRect(w.merges.model.index(11, MergesModel.NEW))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, pos=rect.center())
    assert s.merge_count == 12


def test_play_and_pause(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    w.controls.speed_box.setCurrentIndex(w.controls.speed_box.findData(20))
    play = w.train_actions["play"]
    applied = []
    s.steps_applied.connect(applied.append)
    play.trigger()
    assert play.isChecked() and play.text() == "Pause" and s.run_kind == "play"
    qtbot.waitUntil(lambda: len(applied) >= 3, timeout=10000)
    assert all(len(batch) == 1 for batch in applied[:3])  # 20/s: one merge per batch
    finished = []
    s.run_finished.connect(finished.append)
    worker = s._runs.worker
    w.controls.speed_box.setCurrentIndex(w.controls.speed_box.findData(500))  # faster, same run
    qtbot.waitUntil(lambda: any(len(batch) > 1 for batch in applied), timeout=10000)
    assert s._runs.worker is worker and not finished and play.isChecked()
    with qtbot.waitSignal(s.run_finished) as end:
        play.trigger()
    assert end.args[0].reason == "paused"
    assert not play.isChecked() and play.text() == "Play"
    assert_views_match_session(w)


def test_run_to_target_with_progress_and_cancel(qtbot, make_session, window_for, small_corpus, slow_trainer_factory):
    s = make_session(trainer_factory=slow_trainer_factory(0.02))  # a run still going when we cancel it
    w = window_for(s)
    with qtbot.waitSignal(s.corpus_loaded, timeout=10000):
        s.load_corpus(small_corpus)
    batches = []
    s.steps_applied.connect(batches.append)
    with qtbot.waitSignal(s.run_progress, timeout=10000):
        w.train_actions["run"].trigger()
    assert w.status.progress.isVisible() and w.status.cancel_button.isVisible()
    assert w.train_actions["cancel"].isEnabled()
    qtbot.waitUntil(lambda: s.merge_count >= 5, timeout=10000)
    with qtbot.waitSignal(s.run_finished, timeout=5000) as end:
        w.status.cancel_button.click()
    assert end.args[0].reason == "cancelled"
    assert not w.status.progress.isVisible()
    assert s.merge_count == sum(len(b) for b in batches) > 0
    assert len(batches) < s.merge_count or s.merge_count < 3  # batched, not one signal per merge
    assert_views_match_session(w)


def test_run_to_target_reaches_the_stop_rule(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    with qtbot.waitSignal(s.run_finished, timeout=30000) as end:
        w.train_actions["run"].trigger()
    assert end.args[0].reason == s.stop_reason == "min_frequency"
    # issue 9: the stop rule in words, not the trainer's code "min_frequency"
    message = w.statusBar().currentMessage()
    assert message.startswith(f"No pair occurs twice any more (min frequency 2) — {s.merge_count:,} merges, "
                              f"vocabulary {s.vocab_size:,}")
    assert w.status.progress.isVisible() and w.status.progress.value() == w.status.progress.maximum()
    # the counter's end is where training stopped, not the unreachable target
    assert w.controls.merge_label.text().startswith(f"merge {s.merge_count:,} / {s.merge_count:,} ")
    assert s.merge_count < s.target_merges
    assert_views_match_session(w)


def test_filter_and_sort_words(qtbot, loaded_window):
    w = loaded_window
    pane = w.words
    QTest.keySequence(w, "Ctrl+F")
    pane.filter_edit.setText("new")
    shown = pane.visible_words()
    assert shown and all("new" in word.lower() for word in shown)
    assert pane.count_label.text() == f"{len(shown):,} of {len(w.session.words):,} words"
    pane.filter_edit.clear()
    pane.sort_by("alphabet")
    words = pane.visible_words()
    assert words == sorted(w.session.words)
    pane.sort_by("frequency")
    freqs = [w.session.freqs[w.session.words.index(x)] for x in pane.visible_words()]
    assert freqs == sorted(freqs, reverse=True)
    w.session.step(10)
    pane.sort_by("tokens per word")
    counts = [int(pane.model.index(r, WordsModel.TOKENS).data()) for r in range(pane.model.rowCount())]
    assert counts == sorted(counts, reverse=True)
    w.session.step(5)  # the order follows the merges
    counts = [int(pane.model.index(r, WordsModel.TOKENS).data()) for r in range(pane.model.rowCount())]
    assert counts == sorted(counts, reverse=True)


def test_selecting_a_word_shows_its_segmentation_history(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    s.step(20)
    i = next(i for i, word in enumerate(s.words) if word.endswith("newest"))
    w.words.select_word(i)
    rows = w.words.history_model.rows
    assert rows[0][0] == "start" and rows[-1][2] == s.segmentation(i)
    for (label, pair, seg) in rows[1:]:
        step = s.history[int(label) - 1]
        assert step.new_id in seg
        assert pair == f"{chip_text(step.left_token)[0]} + {chip_text(step.right_token)[0]}"
    assert "newest" in w.words.history_title.text()


def test_words_model_passes_the_model_tester(qtbot, qtmodeltester, loaded_window):
    loaded_window.session.step(5)
    qtmodeltester.check(loaded_window.words.model)
    qtmodeltester.check(loaded_window.merges.model)


def test_history_chart_plots_what_the_merges_did(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    s.step(12)
    values = w.history_chart.values()
    assert values["vocab"].tolist() == [float(s.corpus.initial_vocab)] + [float(st.stats.vocab_size)
                                                                          for st in s.history]
    # tokens per word: over the text's whitespace-separated words, as the Measures chart counts them (issue 26:
    # the trainer's pieces were counted as words), once the text is read on its worker
    words = sum(len(open(p, encoding="utf-8").read().split()) for p in s.corpus.paths)
    qtbot.waitUntil(lambda: w.history_chart.words.total == words, timeout=10000)
    values = w.history_chart.values()
    assert values["tokens_per_word"][-1] == pytest.approx(s.stats.total_tokens / words)
    assert values["units_per_token"][-1] == pytest.approx(s.stats.units_per_token)
    # the count curve is on a log scale, labelled in decades
    x, y = w.history_chart.curves[0].getData()
    assert y.tolist() == pytest.approx([__import__("math").log10(st.count) for st in s.history])
    ticks = w.history_chart.plots[0].getAxis("left")._tickLevels[0]
    assert all(label.startswith("10") for _, label in ticks)
    assert w.history_chart.total_axis.scale == words  # total tokens = tokens/word x words
    s.undo(5)
    assert len(w.history_chart.values()["count"]) == 7


def test_a_workers_frame_is_drawn_a_pass_after_it_is_published(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    chart = w.history_chart
    s.step(60)  # more than SYNC_STEPS: merged on a worker, published in frames
    qtbot.waitUntil(lambda: not s.is_running and s.merge_count == 60)
    assert len(chart.values()["count"]) == 60  # the values at once; the curves and axes in a pass of their own
    qtbot.waitUntil(lambda: len(chart.curves[0].getData()[0]) == 60)
    assert chart.curves[0].getData()[1].tolist() == pytest.approx([__import__("math").log10(st.count)
                                                                   for st in s.history])
    assert chart.plots[0].getViewBox().viewRange()[0][1] >= 60


def _shown_ids(w) -> list:
    return [t.id for t in w.encode.encoding().tokens]


def test_the_encode_pane_shows_each_step_in_the_same_frame(qtbot, loaded_window):
    from bpe_lens_app.panes.encode_pane import make_encoder

    w = loaded_window
    s = w.session
    text = "the lowest newest widest"
    w.encode.set_text(text)
    w.encode.encode_now()
    for _ in range(6):
        s.step()  # no waiting: the encoding is already the new vocabulary's
        assert _shown_ids(w) == make_encoder(s.model()).encode(text).ids
    s.undo(3)
    assert _shown_ids(w) == make_encoder(s.model()).encode(text).ids
    assert w.encode.displayed_texts() == [chip_text(s.token(i), mode="text")[0] for i in _shown_ids(w)]


def test_a_slow_encode_pane_still_follows_held_steps(qtbot, loaded_window, monkeypatch):
    from bpe_lens_app.panes import encode_pane
    from bpe_lens_app.panes.encode_pane import make_encoder

    monkeypatch.setattr(encode_pane, "SAME_FRAME_MS", -1.0)  # every encoding counts as slow
    w = loaded_window
    s = w.session
    text = "the lowest newest widest"
    w.encode.set_text(text)
    w.encode.encode_now()
    seen = []
    w.encode.encoding_changed.connect(lambda enc: seen.append(s.merge_count))
    deadline = time.monotonic() + 0.4
    while time.monotonic() < deadline and s.merge_count < 30:  # a held key: a step every ~15 ms
        s.step()
        qtbot.wait(15)
    assert len(seen) >= 3  # re-encoded while the steps kept coming (a debounce would wait for the end)
    qtbot.waitUntil(lambda: _shown_ids(w) == make_encoder(s.model()).encode(text).ids, timeout=2000)


def _arrow_rows(header, section: int) -> list:
    """Widths of the dark rows of the sort arrow drawn at the right of a header section."""
    img = header.grab().toImage()
    right = header.sectionViewportPosition(section) + header.sectionSize(section)
    rows = []
    for y in range(img.height()):
        n = sum(1 for x in range(right - 22, right - 1) if img.pixelColor(x, y).lightness() < 120)
        if n:
            rows.append(n)
    return rows


def test_the_sort_arrow_points_the_way_the_words_run(qtbot, loaded_window):
    w = loaded_window
    header = w.words.table.horizontalHeader()
    w.words.sort_by("frequency")  # most frequent first: descending, ▼ (widest row on top)
    qtbot.wait(10)
    down = _arrow_rows(header, WordsModel.FREQ)
    assert len(down) >= 2 and down[0] > down[-1]
    w.words.sort_by("alphabet")  # a → z: ascending, ▲
    qtbot.wait(10)
    up = _arrow_rows(header, WordsModel.WORD)
    assert len(up) >= 2 and up[0] < up[-1]


def test_the_words_pane_makes_the_next_merges_changed_words_ahead(qtbot, loaded_window):
    """A while after a step the words pane paints the next merge's changed words offscreen: the step that shows
    them only blits (the same pixmaps, none made)."""
    w = loaded_window
    view = w.words.changed_table
    pixmaps = view.metrics().pixmaps
    warmed = 0
    for _ in range(10):
        w.session.step(1)
        qtbot.wait(150)  # painted; the next merge read ahead and its changed words made
        view.viewport().repaint()
        nxt = w.session.next_step()
        if nxt is None or not nxt.examples:
            continue
        before = set(pixmaps)
        w.session.step(1)
        assert w.words.changed_model.rows[0][3] == nxt.examples[0].after
        view.viewport().repaint()
        warmed += 1
        assert set(pixmaps) == before, f"chips made on the step of merge {nxt.rank}"
    assert warmed >= 5


def test_a_merge_that_changed_one_word_says_word(qtbot, session, window_for, tmp_path):
    """Issue 23, finding 6: "changed 1 words" in the changed-words title and the merges table's tooltip."""
    path = tmp_path / "one.txt"
    path.write_text("ababab\n" * 3, encoding="utf-8")
    w = window_for(session)
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(str(path))
    session.step()
    assert len(session.history[-1].changed_words) == 1
    assert w.words.changed_title.text().endswith("changed 1 word")
    tip = w.merges.view.model().index(0, 0).data(Qt.ToolTipRole)
    assert tip.endswith("occurrences, 1 word"), tip
