"""BPE-dropout in the encode pane: the toggle, p, the seed and "Sample N", driven as a user does, checked on what
the pane shows (the chips, the distribution table)."""
from __future__ import annotations

import os
from collections import defaultdict

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from bpe_core.encoding import DropoutEncoder, text_words  # noqa: E402
from bpe_core.formats.detect import open_vocabulary  # noqa: E402
from bpe_lens_app.panes.dropout_panel import COLUMNS  # noqa: E402
from bpe_lens_app.panes.encode_pane import EncodePane  # noqa: E402
from bpe_lens_app.widgets.chip_text import chip_text  # noqa: E402
from tests.core.paths import need  # noqa: E402

TEXT = ("Homarus gammarus, known as the European lobster or common lobster, is a species of clawed lobster "
        "from the eastern Atlantic Ocean, Mediterranean Sea and parts of the Black Sea.")


@pytest.fixture(scope="module")
def gpt2():
    return open_vocabulary(str(need("gpt2/tokenizer.json")))


@pytest.fixture
def pane(qtbot, gpt2):
    p = EncodePane()
    qtbot.addWidget(p)
    p.resize(1100, 700)
    p.show()
    p.set_model(gpt2)
    yield p
    p.dropout.wait()


def _shown(qtbot, pane, act):
    """Do ``act`` and wait for the encoding it causes; the chips' token ids and texts."""
    with qtbot.waitSignal(pane.encoding_changed, timeout=10000):
        act()
    qtbot.waitUntil(lambda: not pane.encoding_pending(), timeout=10000)
    return [c.token_id for c in pane.view.chips()], pane.displayed_texts()


def _table(pane):
    t = pane.dropout.table
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]


def test_chips_show_the_seeds_sample_and_the_table_each_words_distribution(qtbot, pane, gpt2):
    panel = pane.dropout
    plain_ids, plain = _shown(qtbot, pane, lambda: pane.set_text(TEXT))
    assert not panel.p_spin.isVisible() and not panel.sample_button.isVisible() and panel.table.isHidden()
    assert panel.p_spin.value() == pytest.approx(0.1) and panel.p_spin.singleStep() == pytest.approx(0.05)
    assert panel.sample_button.text() == "Sample 100"

    _, on = _shown(qtbot, pane, lambda: qtbot.mouseClick(panel.toggle, Qt.LeftButton))
    assert panel.p_spin.isVisible() and panel.sample_button.isVisible()
    ids, sampled = _shown(qtbot, pane, lambda: panel.p_spin.setValue(0.3))
    assert sampled != plain  # some merges were skipped: more, shorter chips
    assert len(sampled) > len(plain) and "".join(sampled) == "".join(plain)
    assert ids == DropoutEncoder(gpt2, 0.3, seed=0).encode(TEXT).ids  # the seed's sample (the CLI's first one)
    seed7_ids, seed7 = _shown(qtbot, pane, lambda: panel.seed_spin.setValue(7))
    assert seed7 != sampled
    # back to seed 0: the same sample again; typing keeps the seed's sample of the new text
    assert _shown(qtbot, pane, lambda: panel.seed_spin.setValue(0))[1] == sampled
    pane.editor.moveCursor(pane.editor.textCursor().MoveOperation.End)
    typed_ids, _ = _shown(qtbot, pane, lambda: qtbot.keyClicks(pane.editor, " lobsters"))
    qtbot.waitUntil(lambda: pane.text() == TEXT + " lobsters" and not pane.encoding_pending())
    assert [c.token_id for c in pane.view.chips()] == DropoutEncoder(gpt2, 0.3, seed=0).encode(TEXT + " lobsters").ids
    _shown(qtbot, pane, lambda: pane.set_text(TEXT))
    _, off = _shown(qtbot, pane, lambda: qtbot.mouseClick(panel.toggle, Qt.LeftButton))
    assert off == plain

    _shown(qtbot, pane, lambda: qtbot.mouseClick(panel.toggle, Qt.LeftButton))
    panel.n_spin.setValue(200)
    assert panel.sample_button.text() == "Sample 200"
    with qtbot.waitSignal(panel.sampled, timeout=30000):
        qtbot.mouseClick(panel.sample_button, Qt.LeftButton)
    assert panel.table.isVisible() and panel.table.height() > 100 and pane.view.height() > 100  # room for both
    rows = _table(pane)
    header = [panel.table.horizontalHeaderItem(c).text() for c in range(panel.table.columnCount())]
    assert header == list(COLUMNS)
    by_word = defaultdict(list)
    for word, seg, share, count in rows:
        by_word[word].append((float(share.rstrip("%")), int(count.replace(",", "")), seg))
    words = [chip_text(w, mode="text", whitespace=True)[0] for w in text_words(gpt2, TEXT)]
    assert list(by_word) == list(dict.fromkeys(words))  # every word of the text, in order
    for word, segs in by_word.items():
        assert sum(c for _, c, _ in segs) == 200
        assert sum(s for s, _, _ in segs) == pytest.approx(100, abs=0.05 * len(segs))  # shares sum to 1
        assert [s for s, _, _ in segs] == sorted((s for s, _, _ in segs), reverse=True)
    assert any(len(segs) > 2 for segs in by_word.values())
    lobster = by_word[chip_text(" lobster", mode="text", whitespace=True)[0]]
    assert any(seg.count("|") >= 1 for _, _, seg in lobster)
    assert "200 samples of each of" in panel.status.text()
    # another p: the table is for other settings and goes
    panel.p_spin.setValue(0.5)
    assert panel.table.isHidden()


def test_a_vocabulary_without_merges_says_why_in_the_pane(qtbot, pane):
    from bpe_core.model import BPEModel
    greedy = BPEModel(unit="chars", tokens=["a", "b"], algorithm="seed000-greedy",
                      extras={"vocab_to_idx": {"a": 0, "b": 1, "<unk>": 0}, "freqs": {}})
    _shown(qtbot, pane, lambda: pane.set_model(greedy))
    _shown(qtbot, pane, lambda: pane.set_text("ab"))
    _shown(qtbot, pane, lambda: qtbot.mouseClick(pane.dropout.toggle, Qt.LeftButton))
    assert pane.view.chips() == [] and "BPE-dropout needs a vocabulary that encodes by ranked merges" in \
        pane.view.placeholder()


def test_journey_open_gpt2_and_sample(qtbot, user_window, gpt2):
    """``bpe-lens --vocab gpt2/tokenizer.json``: the inspector's encode pane samples as the pane above."""
    from bpe_lens_app.features.inspector.pane import InspectorTab
    window = user_window("--vocab", str(need("gpt2/tokenizer.json")))
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), InspectorTab), timeout=60000)
    pane = window.tabs.currentWidget().encode_pane
    plain = _shown(qtbot, pane, lambda: pane.editor.setPlainText(TEXT))[1]
    _shown(qtbot, pane, lambda: qtbot.mouseClick(pane.dropout.toggle, Qt.LeftButton))
    pane.dropout.seed_spin.setValue(3)  # p stays at its default, 0.1
    qtbot.waitUntil(lambda: not pane.encoding_pending() and pane.encoding().ids
                    == DropoutEncoder(gpt2, 0.1, seed=3).encode(TEXT).ids, timeout=10000)
    assert pane.displayed_texts() != plain
    with qtbot.waitSignal(pane.dropout.sampled, timeout=60000):
        qtbot.mouseClick(pane.dropout.sample_button, Qt.LeftButton)
    assert pane.dropout.table.isVisible() and pane.dropout.table.rowCount() > len(text_words(gpt2, TEXT))
    pane.dropout.wait()
