"""Issue 23, finding 6: what labels and charts show is whole — tall glyphs (the dot of Ġ) are not cut at
the top, a text too long for its label ends in "…" (the whole text in its tooltip), a counter never shows
a text cut on the left."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo, QImage
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

MERGE_TEXT = "Merge 5 (Ġ + w → Ġw) changed 187 words"


def ink(widget: QWidget) -> int:
    """How many of ``widget``'s pixels are dark (the text drawn), as the user sees it."""
    image = widget.grab().toImage().convertToFormat(QImage.Format_Grayscale8)
    return sum(1 for y in range(image.height()) for x in range(image.width()) if image.pixelColor(x, y).value() < 140)


def roomy_ink(qtbot, text: str, font) -> int:
    """The ink of ``text`` in a QLabel with plenty of room above and below (nothing can be cut)."""
    label = QLabel(text)
    label.setFont(font)
    label.setTextFormat(Qt.PlainText)
    label.setAlignment(Qt.AlignLeft | Qt.AlignVCenter)
    qtbot.addWidget(label)
    label.resize(label.sizeHint().width() + 20, label.sizeHint().height() + 20)
    return ink(label)


def shown_in_layout(qtbot, make_label, width: int = 600):
    """A window ``width`` wide whose layout holds ``make_label(window)`` at the top, as the panes do."""
    holder = QWidget()
    qtbot.addWidget(holder)
    label = make_label(holder)
    lay = QVBoxLayout(holder)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(label)
    lay.addStretch(1)
    holder.resize(width, 100)
    holder.show()
    qtbot.waitExposed(holder)
    return holder, label


def test_a_live_label_draws_the_dot_of_G_whole(qtbot):
    from bpe_lens_app.widgets.quiet import live_label

    holder, label = shown_in_layout(qtbot, live_label)
    label.setText(MERGE_TEXT)
    qtbot.wait(10)
    fm = label.label.fontMetrics()
    assert label.height() >= fm.tightBoundingRect("Ġ").height() + fm.descent()
    assert ink(label) == roomy_ink(qtbot, MERGE_TEXT, label.label.font())  # no pixel of the dot is cut


def test_a_long_live_label_ends_in_an_ellipsis_and_tells_the_whole_text(qtbot):
    from bpe_lens_app.widgets.quiet import live_label

    holder, label = shown_in_layout(qtbot, live_label, width=160)
    long = "Merge 26,771 (ĠWal + ker → ĠWalker) changed 1 word"
    label.setText(long)
    qtbot.wait(10)
    shown = label.label.text()
    assert shown.endswith("…") and shown != long
    assert label.label.fontMetrics().horizontalAdvance(shown) <= label.width()
    assert label.toolTip() == long and label.text() == long  # the pane's text is kept whole
    holder.resize(800, 100)
    qtbot.wait(10)
    assert label.label.text() == long and label.toolTip() == ""


def test_the_encode_counter_is_never_cut_on_the_left(qtbot):
    """At every pane width the counter reads its long text, its short one, or the short one's start and
    "…" — never the end of a text cut on the left ("!4 tok")."""
    from bpe_lens_app.demo import demo_byte_model
    from bpe_lens_app.panes.encode_pane import EncodePane

    pane = EncodePane()
    qtbot.addWidget(pane)
    pane.resize(900, 400)
    pane.show()
    pane.set_model(demo_byte_model("the cat sat on the mat. the cat ate the rat.\n" * 3, merges=20))
    with qtbot.waitSignal(pane.encoding_changed, timeout=3000):
        pane.editor.setPlainText("the cat sat on the mat, then the rat sat on the cat " * 3)
    label = pane.stats_label
    long, short = label._long, label._short
    seen = set()
    for width in range(900, 150, -25):
        pane.resize(width, 400)
        qtbot.wait(5)
        shown = label.label.text()
        room = label.label.contentsRect().width()
        assert label.label.fontMetrics().horizontalAdvance(shown) <= max(room, 0), (width, shown)
        assert shown in (long, short, "") or (shown.endswith("…") and short.startswith(shown[:-1])), (width, shown)
        seen.add("long" if shown == long else "short" if shown == short else "cut")
    assert {"long", "short"} <= seen


def test_why_this_split_draws_the_dot_of_G_whole(qtbot):
    """The explain pane's title, caption and list of merges ("merge 2: Ġ + w → Ġw"): each line whole."""
    from bpe_lens_app.features.explain.pane import ExplainPane, Frame, Story
    from bpe_lens_app.widgets.chips import Chip

    pane = ExplainPane()
    qtbot.addWidget(pane)
    pane.resize(600, 500)
    pane.show()
    qtbot.waitExposed(pane)
    chips = (Chip("Ġ", 1), Chip("w", 2))
    frames = (Frame("start: Ġ w", chips), Frame("merge 2: Ġ + w → Ġw", (Chip("Ġw", 3),), 3),
              Frame("merge 3: Ġw + as → Ġwas", (Chip("Ġwas", 4),), 4))
    pane.show_story(Story("Ġwas: 2 merges", frames, "Ġwas is one token"), frame=2)
    qtbot.wait(10)
    for label in (pane.title_label, pane.footer_label):
        assert ink(label) == roomy_ink(qtbot, label.text(), label.font()), label.text()
    rows = pane.steps_list
    fm = rows.fontMetrics()
    above = max(0, -fm.tightBoundingRect("Ġ").top() - fm.ascent())  # the dot's pixels above the ascent
    if QFontInfo(rows.font()).family() == "DejaVu Sans":  # the font this was found in (Noto Sans: none above)
        assert above > 0
    for k in range(rows.count()):  # the text is centred in its row: room for the dot above it
        assert rows.visualItemRect(rows.item(k)).height() >= fm.height() + 2 * above, rows.item(k).text()


class _Painted(QWidget):
    """Records the rectangles of the paint events another widget receives."""

    def __init__(self, target: QWidget) -> None:
        super().__init__()
        self.rects = []
        target.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Paint:
            self.rects.append(event.rect())
        return False


def _repaints_whole_after_new_text(qtbot, holder, label: QLabel, set_text) -> None:
    set_text("Merge 5 (Ġ + w → Ġw) changed 187 words")
    qtbot.wait(20)
    painted = _Painted(label)
    set_text("Merge 6 (o + n → on) changed 3 words")
    qtbot.waitUntil(lambda: bool(painted.rects), timeout=2000)
    qtbot.wait(20)
    covered = painted.rects[0]
    for rect in painted.rects[1:]:
        covered = covered.united(rect)
    # the dot of Ġ is drawn in the label's top margin: a repaint of the contents alone left it on screen
    assert covered.contains(label.rect()), (covered, label.rect(), label.contentsRect())


def test_a_live_labels_new_text_repaints_the_room_for_tall_glyphs(qtbot):
    """Seen under Xvfb: "Merge 6 (ȯ + n → oṅ)" — the dots of the previous text's Ġ stayed, because a
    QLabel repaints only its contents rectangle on a new text, and the room for tall glyphs is a margin."""
    from bpe_lens_app.widgets.quiet import live_label

    holder, label = shown_in_layout(qtbot, live_label)
    _repaints_whole_after_new_text(qtbot, holder, label.label, label.setText)


def test_a_tall_labels_new_text_repaints_the_room_for_tall_glyphs(qtbot):
    from bpe_lens_app.widgets.quiet import TallLabel

    holder, label = shown_in_layout(qtbot, lambda parent: TallLabel(parent))
    _repaints_whole_after_new_text(qtbot, holder, label, label.setText)
