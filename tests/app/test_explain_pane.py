"""Why this split in the app: a chip click opens the word's merges as a steppable strip (issue 11)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from bpe_core.formats.detect import open_vocabulary
from bpe_lens_app.features.training.words_model import WORD_INDEX_ROLE
from bpe_lens_app.widgets.chip_text import chip_text
from tests.core.paths import need


def _click_chip(view, i: int) -> None:
    QTest.mouseClick(view.viewport(), Qt.LeftButton, pos=view.chip_rect(i).center().toPoint())


def _captions(pane) -> list:
    return [pane.steps_list.item(k).text() for k in range(pane.steps_list.count())]


def test_clicking_an_encode_chip_shows_the_words_merges(qtbot, loaded_window):
    w = loaded_window
    w.session.step(40)
    qtbot.waitUntil(lambda: w.session.merge_count == 40, timeout=10000)
    pane = w.encode
    with qtbot.waitSignal(pane.encoding_changed, timeout=5000):
        pane.set_text("the newest lower")
    enc = pane.encoding()
    i = max(range(len(enc)), key=lambda k: len(enc.tokens[k].raw))  # a merged token
    tok = enc.tokens[i]
    _click_chip(pane.view, i)
    ex = w.explain.pane
    assert w.explain.dock.isVisible()
    story = ex.story()
    assert "newest" in story.title or "lower" in story.title
    model = pane.model()
    word = next(p for p in model.pipeline.split("the newest lower") if p.start <= tok.start < p.end)
    # the last frame (shown first) is the word's tokens as the encode pane shows them
    in_word = [t for t in enc.tokens if word.start <= t.start < word.end or (t.start == t.end == word.end)]
    assert ex.shown_texts() == [chip_text(t.raw, mode="text")[0] for t in in_word]  # as the pane reads
    captions = _captions(ex)
    assert captions[0].startswith("start:") and len(captions) >= 2
    for cap in captions[1:]:  # "merge 12 (rank 11): l + o → lo", each pair a real merge of that rank
        head, pair = cap.split(": ", 1)
        rank = int(head.split("rank ")[1].rstrip(")"))
        left, right = (chip_text(model.tokens[t], mode="text")[0] for t in model.merges[rank])
        assert head == f"merge {rank + 1} (rank {rank})" and pair.startswith(f"{left} + {right} →")
    assert "Why it stops" in ex.footer_label.text()
    ex.start_button.click()  # back to the units: one chip per character (plus the end symbol)
    units = [bytes([b]) for b in word.text.encode()] if model.unit == "bytes" else list(word.text)
    assert ex.frame_index() == 0 and ex.shown_texts()[:len(units)] == [chip_text(u, mode="text")[0] for u in units]
    ex.next_button.click()
    assert ex.frame_index() == 1 and ex.caption_label.text().startswith("1/")
    ex.play_button.setChecked(True)
    qtbot.waitUntil(lambda: ex.frame_index() == len(captions) - 1 and not ex.play_button.isChecked(),
                    timeout=10000)


def test_clicking_a_word_shows_its_history_during_training(qtbot, loaded_window):
    w = loaded_window
    w.session.step(25)
    qtbot.waitUntil(lambda: w.session.merge_count == 25, timeout=10000)
    table = w.words.table
    index = table.model().index(0, 0)
    word_index = index.data(WORD_INDEX_ROLE)
    table.clicked.emit(index)
    ex = w.explain.pane
    history = w.session.word_history(word_index)
    captions = _captions(ex)
    assert ex.story().title.startswith("History of")
    assert len(captions) == len(history)
    for cap, (step, _seg) in zip(captions[1:], history[1:]):
        assert cap.startswith(f"merge {step.rank} changed it: {w.session.display(step.left)} + ")


def test_inspector_chip_explains_gpt2_unbelievable(qtbot, window):
    model = open_vocabulary(str(need("gpt2/tokenizer.json")))
    tab = window.inspector(window.session.workbench.add_vocabulary(model, name="gpt2").id)
    pane = tab.encode_pane
    with qtbot.waitSignal(pane.encoding_changed, timeout=5000):
        pane.set_text("It was unbelievable.")
    enc = pane.encoding()
    i = [t.display for t in enc.tokens].index("Ġunbelievable")
    _click_chip(pane.view, i)
    ex = window.explain.pane
    captions = _captions(ex)
    assert captions[-1] == "merge 24224 (rank 24223): ·unbeliev + able → ·unbelievable"
    assert captions[1] == "merge 38 (rank 37): l + e → le"
    assert ex.shown_texts() == ["·unbelievable"]
    assert "one token" in ex.footer_label.text()
    assert ex.strip.chips()[0].token_id == ex.frames()[-1].made == 24479  # made by the last merge: outlined
    ex.prev_button.click()
    assert ex.shown_texts() == ["·unbeliev", "able"]
