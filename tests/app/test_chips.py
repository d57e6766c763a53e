"""Token chips: palette, neighbour colors, chip texts, painting."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import given, settings, strategies as st  # noqa: E402
from PySide6.QtCore import QRect  # noqa: E402
from PySide6.QtGui import QColor, QFont, QImage, QPainter  # noqa: E402

from bpe_lens_app.widgets import chip_colors as palette
from bpe_lens_app.widgets import chip_text as texts
from bpe_lens_app.widgets import chips
from bpe_lens_app.widgets.chip_colors import chip_colors, chip_indices, token_color  # noqa: E402
from bpe_lens_app.widgets.chip_text import chip_text  # noqa: E402
from bpe_lens_app.widgets.chips import Chip, ChipMetrics, chips_size_hint, layout_chips, paint_chips  # noqa: E402
from bpe_core.model import BPEModel  # noqa: E402


def _luminance(c: QColor) -> float:
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF())


def test_palette_is_light_with_dark_text_readable():
    assert 12 <= len(palette.PALETTE) <= 16
    assert len({c.name() for c in palette.PALETTE}) == len(palette.PALETTE)
    text = _luminance(palette.TEXT_COLOR)
    for c in palette.PALETTE:
        assert (_luminance(c) + 0.05) / (text + 0.05) >= 7.0, c.name()  # WCAG AAA


def test_every_color_has_enough_distinguishable_partners():
    for i in range(len(palette.PALETTE)):
        assert sum(palette.distinguishable(i, j) for j in range(len(palette.PALETTE))) >= 6


def test_token_color_is_stable_and_spread():
    assert token_color(1234) == token_color(1234)
    assert len({token_color(i).name() for i in range(100)}) == len(palette.PALETTE)
    # consecutive ids (merges learned one after another) rarely share a color
    same = sum(token_color(i) == token_color(i + 1) for i in range(1000))
    assert same < 50


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=300_000), max_size=60))
def test_neighbours_always_differ(ids):
    colors = chip_colors(ids)
    assert len(colors) == len(ids)
    idx = chip_indices(ids)
    for a, b, ka, kb in zip(colors, colors[1:], idx, idx[1:]):
        assert a != b
        assert palette.distinguishable(ka, kb)  # also under simulated protan/deutan/tritan vision


@given(st.lists(st.sampled_from([3, 3, 17, 99]), min_size=1, max_size=30))
def test_repeated_ids_still_alternate(ids):
    colors = chip_colors(ids)
    assert all(a != b for a, b in zip(colors, colors[1:]))


def test_unshifted_token_keeps_its_own_color():
    ids = [5, 6, 7]
    assert chip_colors(ids)[0] == token_color(5)


def test_chip_text_modes():
    assert chip_text(b" the") == ("Ġthe", False)
    assert chip_text(b" the", mode="hex") == ("20 74 68 65", False)
    assert chip_text(b" the", mode="text") == ("·the", False)
    assert chip_text(b" the", mode="text", whitespace=False) == (" the", False)
    assert chip_text("a\tb\n") == ("a→b↵", False)
    assert chip_text("a\tb\n", whitespace=False) == ("a\tb↵", False)
    assert chip_text("中".encode(), mode="text") == ("中", False)
    assert chip_text("中".encode()[:2], mode="text") == ("‹E4 B8›", True)
    assert chip_text("中".encode()[2:], mode="glyphs")[1] is True
    assert chip_text(b" \xe4", mode="text") == ("·‹E4›", True)


def test_tooltip_names_id_rank_bytes():
    m = BPEModel(unit="bytes", tokens=[b"a", b"b", b"ab"], merges=[(0, 1)])
    tip = texts.token_tooltip(m, 2)
    assert "id 2" in tip and "rank 1" in tip and "61 62" in tip
    chip = chips.model_chip(m, 2, show_id=True, tooltip=True)
    assert chip.sub == "2" and "rank 1" in chip.tooltip


def test_readable_text_has_no_tofu(qapp):
    font = QFont()
    shown = texts.readable_text("ok 👍 中文", font)
    assert "中文" in shown
    for ch in shown:
        assert not texts.font_lacks(ch, font), repr(ch)


def test_paint_chips_width_matches_size_hint(qapp):
    font = QFont()
    row = [Chip("Ġthe", 1), Chip("ing", 2, flash=True), Chip("‹E4›", 3, partial=True), Chip("x", 3, sub="3")]
    hint = chips_size_hint(row, font)
    img = QImage(600, 60, QImage.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    used = paint_chips(p, QRect(0, 0, 600, 60), row, font, highlight_ids=[1])
    p.end()
    assert abs(used - (hint.width() - 2)) <= 1
    # something was painted in the chips' colors
    y = 30
    colors = {img.pixelColor(x, y).name() for x in range(used)}
    assert chip_colors([1, 2, 3, 3])[0].name() in colors
    assert img.pixelColor(used + 20, y).name() == "#ffffff"


def test_paint_chips_clips_to_rect(qapp):
    font = QFont()
    row = [Chip("a-long-token", i) for i in range(50)]
    img = QImage(200, 40, QImage.Format_ARGB32)
    p = QPainter(img)
    used = paint_chips(p, QRect(0, 0, 200, 40), row, font)
    p.end()
    assert used <= 200


def test_a_row_too_long_shows_whole_chips_then_an_ellipsis(qapp):
    font = QFont()
    m = ChipMetrics(font)
    row = [Chip("token", i) for i in range(30)]
    rects, cut = layout_chips(QRect(0, 0, 200, 30), row, m)
    assert cut and rects
    assert [r.width() for r in rects] == [m.width(c) for c in row[: len(rects)]]  # no chip is cut
    assert rects[-1].right() + m.GAP + m.ellipsis_width() <= 200
    img = QImage(200, 30, QImage.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setPen(QColor("black"))
    used = paint_chips(p, QRect(0, 0, 200, 30), row, metrics=m)
    p.end()
    assert rects[-1].right() < used <= 200
    after = [img.pixelColor(x, y).lightness() for x in range(int(rects[-1].right()) + 1, used) for y in range(30)]
    assert min(after) < 128  # the "…", in the painter's pen


def test_a_first_chip_wider_than_the_cell_is_narrowed(qapp):
    m = ChipMetrics(QFont())
    rects, cut = layout_chips(QRect(0, 0, 40, 30), [Chip("a-very-long-token", 1), Chip("b", 2)], m)
    assert len(rects) == 1 and rects[0].width() == 40 and cut
    assert layout_chips(QRect(0, 0, 400, 30), [Chip("a", 1), Chip("b", 2)], m)[1] is False


_WORDS = ["the", "Ġcat", "Ġsat", "Ġon", "Ġthe", "Ġmat", ".", "Ġa", "Ġlong", "er", "Ġword", "Ġhere"]
_VIEW_CHIPS = [Chip(t, i) for i, t in enumerate(_WORDS)]


@settings(max_examples=60, deadline=None)
@given(old=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 2)), max_size=120),
       new_tail=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 2)), max_size=120),
       keep=st.integers(0, 120), width=st.integers(120, 700))
def test_a_view_keeps_its_prefix_and_lays_out_the_rest_as_a_fresh_view(qapp, old, new_tail, keep, width):
    """TokenView.set_chips lays out again only from the first chip that changed: every chip's place and
    color equal those of a view given the new chips alone."""
    from bpe_lens_app.widgets.token_view import TokenView

    new = old[:keep] + new_tail
    views = []
    for rows in ([old, new], [new]):
        view = TokenView()
        view.resize(width, 300)
        view.show()
        qapp.processEvents()  # the viewport takes the width
        assert view.viewport().width() == width - 2
        for row in rows:
            view.set_chips([_VIEW_CHIPS[i] for i, _ in row], [nl for _, nl in row])
            qapp.processEvents()  # a scroll bar shown or hidden lays the view out again
        views.append(view)
    moved, fresh = views
    assert [moved.chip_rect(i) for i in range(len(new))] == [fresh.chip_rect(i) for i in range(len(new))]
    assert moved.chip_colors() == fresh.chip_colors()
    assert moved.verticalScrollBar().maximum() == fresh.verticalScrollBar().maximum()


def _greedy_rows(widths, breaks, span, gap, left, row):
    """The plain layout loop wrap_rows replaced (one chip at a time): the reference it must equal."""
    xs, rows, x, right = [], [], left, left + span
    for w, nl in zip(widths, breaks):
        if x + w > right and x > left:
            row += 1
            x = left
        xs.append(x)
        rows.append(row)
        x += w + gap
        if nl:
            row += nl
            x = left
    return xs, rows


@settings(max_examples=80, deadline=None)
@given(old=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 2)), max_size=150),
       new_tail=st.lists(st.tuples(st.integers(0, 11), st.sampled_from([0, 0, 0, 0, 1, 2])), max_size=150),
       keep=st.integers(0, 150), width=st.integers(60, 500), scroll=st.integers(0, 300))
def test_a_step_shows_what_a_plain_layout_places_and_lays_out_the_rest_later(qapp, old, new_tail, keep, width, scroll):
    """set_chips(lazy=True) (a step) lays out the rows down to the viewport's bottom: the viewport's pixels are
    a fresh view's at once; every chip asked for is where the plain loop (one chip at a time) puts it; once the
    rest is laid out, the scroll range is the fresh view's."""
    from bpe_lens_app.widgets.token_view import TokenView

    new = old[:keep] + new_tail
    chips, breaks = [_VIEW_CHIPS[i] for i, _ in new], [nl for _, nl in new]
    views = []
    for _ in range(2):
        view = TokenView()
        view.resize(width, 120)
        view.show()
        qapp.processEvents()
        views.append(view)
    stepped, fresh = views
    stepped.set_chips([_VIEW_CHIPS[i] for i, _ in old], [nl for _, nl in old])
    stepped.verticalScrollBar().setValue(scroll)
    value = stepped.verticalScrollBar().value()
    stepped.set_chips(chips, breaks, lazy=True)
    fresh.set_chips(chips, breaks)
    fresh.verticalScrollBar().setValue(value)
    for where in (value, stepped.verticalScrollBar().maximum()):  # as shown, then scrolled to the bottom
        stepped.verticalScrollBar().setValue(where)
        fresh.verticalScrollBar().setValue(where)
        image = stepped.viewport().grab().toImage()
        if fresh.verticalScrollBar().value() == where:  # (the new chips may not reach that far down)
            assert image == fresh.viewport().grab().toImage()
        for i in range(len(chips)):  # each chip on screen wears its color (in its right padding)
            r = stepped.chip_rect(i).toRect()
            if r.width() > 4 and 0 <= r.top() and r.bottom() < image.height():
                assert image.pixelColor(r.right() - 1, r.center().y()) == stepped.chip_color(i)
    m, margin = stepped.metrics(), TokenView.MARGIN
    span = stepped.viewport().width() - 2 * margin
    xs, rows = _greedy_rows([min(m.width(c), span) for c in chips], breaks, span, m.GAP, margin, 0)
    rh = m.height() + TokenView.VGAP
    rects = [stepped.chip_rect(i) for i in range(len(chips))]
    now = stepped.verticalScrollBar().value()  # (less than before when the chips were all laid out at once)
    assert [(r.x(), r.y() + now) for r in rects] == \
        [(x, margin + row * rh) for x, row in zip(xs, rows)]
    qapp.processEvents()
    stepped._rest.timeout.emit()  # the view has been still: the rest is laid out
    assert stepped.verticalScrollBar().maximum() == fresh.verticalScrollBar().maximum()
    assert stepped.chip_colors() == fresh.chip_colors()


def test_a_carriage_return_reads_as_a_symbol_not_a_tofu_box(qtbot, window, tmp_path):
    """Issue 23, finding 6: a CRLF corpus under the default preset showed ``\\r`` as a tofu box in the Words
    column (its control picture ␍ is in no installed font): every word reads in glyphs a font draws."""
    from bpe_lens_app.widgets.chip_text import font_lacks

    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(b"the cat sat\r\non the mat\r\n\r\nthe end\r\n" * 5)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.session.load_corpus(crlf)
    model, view = window.words.model, window.words.table
    shown = [model.data(model.index(r, model.WORD)) for r in range(model.rowCount())]
    assert any("\r" in w for w in window.session.words)  # the words keep it (the preset reads as tokenizers)
    assert any("\\r" in t or "␍" in t for t in shown), shown  # and say so
    for text in shown:
        assert not any(font_lacks(c, view.font()) for c in text), text


def _hover(qtbot, view, pos):
    """What the user reads on hovering ``pos`` of ``view``'s viewport (the real tooltip event)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    QToolTip.hideText()
    vp = view.viewport()
    view.viewportEvent(QHelpEvent(QEvent.ToolTip, pos, vp.mapToGlobal(pos)))
    qtbot.waitUntil(QToolTip.isVisible, timeout=2000)
    text = QToolTip.text()
    QToolTip.hideText()
    return text


def test_hovering_a_words_chip_tells_its_id_bytes_and_count(qtbot, loaded_window):
    """Issue 23, finding 10: a user hovers a chip to see the token id, its bytes and its count."""
    from PySide6.QtCore import QPoint

    from bpe_lens_app.widgets.chips_table import CELL_MARGINS

    w = loaded_window
    s = w.session
    s.step(3)
    qtbot.waitUntil(lambda: s.merge_count == 3, timeout=10000)
    step = s.history[0]
    view, model = w.words.table, w.words.model
    row = next(r for r in range(model.rowCount()) if step.new_id in model.chip_ids(r, model.SEGMENTATION))
    view.scrollTo(model.index(row, model.SEGMENTATION))
    ids = model.chip_ids(row, model.SEGMENTATION)
    cell = view.visualRect(model.index(row, model.SEGMENTATION)).adjusted(*CELL_MARGINS)
    rects, _ = chips.layout_chips(cell, view.token_chips.chips(ids), view.metrics())
    k = ids.index(step.new_id)
    tip = _hover(qtbot, view, rects[k].center().toPoint())
    raw = s.token(step.new_id)
    data = raw if isinstance(raw, bytes) else raw.encode("utf-8")
    assert f"id {step.new_id}" in tip
    assert " ".join(f"{b:02X}" for b in data) in tip
    assert f"count when merged: {step.count:,}" in tip
    # a base symbol (no merge made it): id and bytes, no count
    base = next(i for i in ids if i < s.core.initial_vocab) if any(i < s.core.initial_vocab for i in ids) else None
    if base is not None:
        tip = _hover(qtbot, view, rects[ids.index(base)].center().toPoint())
        assert f"id {base}" in tip and "count" not in tip
    assert view.chip_at(QPoint(1, 1)) is None  # the word column: no chip


def test_hovering_an_encode_chip_tells_its_count(qtbot, loaded_window):
    w = loaded_window
    s = w.session
    s.step(3)
    qtbot.waitUntil(lambda: s.merge_count == 3, timeout=10000)
    step = s.history[0]
    text = chip_text(s.token(step.new_id), mode="text", whitespace=False)[0]
    with qtbot.waitSignal(w.encode.encoding_changed, timeout=5000):
        w.encode.set_text(f"{text} {text}")
    enc = w.encode.encoding()
    i = next(k for k, t in enumerate(enc.tokens) if t.id == step.new_id)
    tip = _hover(qtbot, w.encode.view, w.encode.view.chip_rect(i).center().toPoint())
    assert f"id {step.new_id}" in tip and f"count when merged: {step.count:,}" in tip
