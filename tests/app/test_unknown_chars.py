"""Symbols outside the vocabulary (id -1, kept by the seed presets) are shown as what they are:
the character, marked "not in vocabulary" — never as ``tokens[-1]``, the newest vocabulary token."""
from __future__ import annotations

from pathlib import Path

import pytest

from bpe_lens_app.session.session import make_config

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
TEXT = "Hello 世界! 🤖 ok"


@pytest.fixture
def cjk_session(qtbot, make_session):
    s = make_session(config=make_config("cjk-mixed"))
    with qtbot.waitSignal(s.corpus_loaded, timeout=20000):
        s.load_corpus(EXAMPLES / "seed004_mixed.txt")
    s.step(10)
    return s


def test_encode_pane_shows_unknown_characters_as_themselves(qtbot, cjk_session):
    from bpe_lens_app.panes.encode_pane import EncodePane

    pane = EncodePane()
    qtbot.addWidget(pane)
    pane.show()
    pane.observe(cjk_session)
    pane.follow(cjk_session.model)
    pane.set_text(TEXT)
    pane.encode_now()
    tokens = pane.encoding().tokens
    unknown = [i for i, t in enumerate(tokens) if t.id == -1]
    chips = pane.view.chips()
    assert [chips[i].text for i in unknown] == [TEXT[tokens[i].start:tokens[i].end] for i in unknown]
    assert {"世", "界", "!", "🤖"} <= {chips[i].text for i in unknown}
    assert all(chips[i].unknown for i in unknown) and not any(c.unknown for c in chips if c.token_id >= 0)
    newest = cjk_session.display(cjk_session.vocab_size - 1)
    for i in unknown:
        tip = pane._tooltip(i)
        assert "not in vocabulary" in tip and "id −1" in tip
        assert repr(newest) not in tip
    assert f"{len(unknown)} not in vocabulary (id −1)" in pane.stats_label.toolTip()


def test_token_chips_and_tooltips_never_index_minus_one(cjk_session):
    from bpe_lens_app.widgets.chip_text import token_tooltip
    from bpe_lens_app.widgets.chips import model_chip
    from bpe_lens_app.widgets.chips_table import TokenChips

    chips = TokenChips(cjk_session.token)
    newest = chips.chip(cjk_session.vocab_size - 1)
    unknown = chips.chip(-1)
    assert unknown.unknown and unknown.text != newest.text
    model = cjk_session.model()
    assert "not in vocabulary" in token_tooltip(model, -1)
    assert model_chip(model, -1).unknown


def test_unknown_chip_paints_differently(qtbot):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFont, QImage, QPainter

    from bpe_lens_app.widgets.chips import Chip, ChipMetrics, paint_chip
    from bpe_lens_app.widgets.chip_colors import PALETTE

    m = ChipMetrics(QFont())
    images = []
    for chip in (Chip("世", 5), Chip("世", -1, unknown=True)):
        img = QImage(40, 30, QImage.Format_ARGB32)
        img.fill(0)
        p = QPainter(img)
        paint_chip(p, QRectF(0, 0, 40, 30), chip, PALETTE[0], m)
        p.end()
        images.append(img)
    assert images[0].pixelColor(20, 3) != images[1].pixelColor(20, 3) or \
        images[0].pixelColor(6, 15) != images[1].pixelColor(6, 15)
