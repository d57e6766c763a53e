"""Presenter mode (F11): full screen, large type, high contrast, only what a room needs.

A big "merge k: a + b → ab (count)" banner, the step controls, the top-10 pairs, 8–12 chosen words'
segmentations (default: the most frequent; "Choose words…" or the words pane picks others) and
the encode pane. The training actions (Space/→ step, Backspace/← undo, P play, ...) work here as
in the main window; Esc (or F11) leaves. Chips a merge creates are outlined for ~300 ms.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from PySide6.QtCore import QEvent, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QPainter, QShortcut
from PySide6.QtWidgets import (QApplication, QHBoxLayout, QInputDialog, QLabel, QPushButton, QSplitter, QVBoxLayout,
                               QWidget)

from bpe_core import MergeStep

from ..training import TrainActions, tool_button
from ...panes.encode_pane import EncodePane
from ..training import PairChart
from ...session.session import Session
from ...widgets.theme import (FLASH_MS, PRESENTER_ACCENT, PRESENTER_BAR, PRESENTER_BG, PRESENTER_FG, PRESENTER_POINT_SIZE,
                    font_with_size, presenter_banner_size, presenter_point_size, presenter_stylesheet)
from ...widgets.chip_text import chip_text
from ...widgets.chips import ChipMetrics, paint_chips
from ...widgets.chips_table import TokenChips
from ...widgets.quiet import live_label
from ...widgets.token_view import TokenView

SHOWCASE_WORDS = 10
#: pixels between the showcase's rows of chips
ROW_GAP = 6
#: rows of encode chips the presenter keeps room for (fewer only where the pairs would lose rows)
ENCODE_ROWS = 4
#: how long the note naming the words not in the corpus stays (ms)
NOTE_MS = 8000


def banner_text(session: Session, chips: TokenChips) -> str:
    """``merge 137:  "u" + "n" → "un"  (3,214)`` for the last merge, or what comes next at merge 0."""
    if not session.is_loaded:
        return "Open a corpus to begin"
    if session.merge_count == 0:
        return "merge 0: the words as characters" if session.config.unit == "chars" else \
            "merge 0: the words as bytes"
    st = session.history[-1]
    t = lambda i: chips.chip(i).text  # noqa: E731
    return f'merge {st.rank}:  "{t(st.left)}" + "{t(st.right)}" → "{t(st.new_id)}"  ({st.count:,})'


class Showcase(QWidget):
    """A few words, each with its segmentation as large chips."""

    def __init__(self, session: Session, chips: TokenChips, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        self.token_chips = chips
        self.word_indices: List[int] = []
        self._default = True  # the most frequent words (their number follows the room), not chosen ones
        self.flash_ids: set = set()
        self._metrics: Optional[ChipMetrics] = None
        self._fit_key: tuple = ()
        self._timer = QTimer(self, singleShot=True, interval=FLASH_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        session.corpus_loaded.connect(lambda *_: self.set_words(()))
        session.steps_applied.connect(self._on_session_steps_applied)
        session.steps_undone.connect(lambda *_: self.update())
        session.reset_done.connect(lambda *_: self.update())

    def set_words(self, indices: Sequence[int]) -> None:
        """Show these words; none given: the most frequent ones, as many as have a row (8 to 10)."""
        s = self.session
        self._default = not indices
        if not indices:
            order = sorted(range(len(s.words)), key=lambda i: -s.freqs[i])
            # the most frequent words with 3+ letters show merges best; punctuation never changes
            wordy = [i for i in order if sum(c.isalnum() for c in s.words[i]) >= 3]
            indices = (wordy if len(wordy) >= 8 else order)[:self._default_count()]
        self.word_indices = list(indices)[:12]
        self.update()

    def _default_count(self) -> int:
        """:data:`SHOWCASE_WORDS`, or fewer (8 at the least) where not all have a row at the least chip size."""
        if self.height() <= 0:
            return SHOWCASE_WORDS
        least = QFontMetrics(font_with_size(self.font(), round(self.font().pointSizeF() * 0.8))).height()
        return max(8, min(SHOWCASE_WORDS, self.height() // (least + 2 * ChipMetrics.PAD_Y + ROW_GAP)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._default and self.word_indices and len(self.word_indices) != self._default_count():
            self.set_words(())

    def rows_text(self) -> List[str]:
        """What each row shows: ``word  [a][b]`` (tests)."""
        s = self.session
        return [f"{chip_text(s.words[i])[0]}  " + self.token_chips.text(s.segmentation(i))
                for i in self.word_indices]

    def _on_session_steps_applied(self, steps: List[MergeStep]) -> None:
        self.flash_ids = {steps[-1].new_id}
        self._timer.start()
        self.update()

    def _on_timer_timeout(self) -> None:
        self.flash_ids = set()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(700, 500)

    def minimumSizeHint(self) -> QSize:
        return QSize(200, 100)

    def _fit_metrics(self) -> ChipMetrics:
        """Chips up to 1.6x the presenter's type, as large as lets every chosen word have a row
        (a big screen is filled, not left half empty), down to 0.8x the type (then the rows
        that fit are shown). Sizes change with the widget's height, never per step."""
        base = self.font().pointSizeF()
        rows = max(len(self.word_indices), 1)
        key = (base, rows, self.height(), self.font().family())
        if self._metrics is not None and key == self._fit_key:
            return self._metrics
        self._fit_key = key
        size, least = round(base * 1.6), round(base * 0.8)
        while size > least and QFontMetrics(font_with_size(self.font(), size)).height() + 2 * ChipMetrics.PAD_Y + ROW_GAP > \
                self.height() / rows:
            size -= 1
        font = font_with_size(self.font(), max(size, least))
        if self._metrics is None or self._metrics.font != font:
            self._metrics = ChipMetrics(font)
        return self._metrics

    def shown_rows(self) -> int:
        """How many of the chosen words have a row (tests)."""
        m = self._fit_metrics()
        return max(1, min(len(self.word_indices), self.height() // (m.height() + ROW_GAP)))

    def paintEvent(self, event) -> None:
        s = self.session
        if not self.word_indices or not s.is_loaded:
            return
        painter = QPainter(self)
        m = self._fit_metrics()
        shown = self.shown_rows()
        row_h = max(m.height() + ROW_GAP, self.height() // shown)
        row_h = min(row_h, 2 * m.height() + ROW_GAP)
        label_w = max(m.fm.horizontalAdvance(chip_text(s.words[i])[0]) for i in self.word_indices) + 24
        label_w = min(label_w, self.width() // 3)
        painter.setPen(self.palette().windowText().color())
        for r, i in enumerate(self.word_indices[:shown]):  # whole rows only: none cut at the bottom
            y = r * row_h
            painter.setFont(m.font)
            painter.drawText(QRect(4, y, label_w - 8, row_h), Qt.AlignVCenter | Qt.AlignRight,
                             m.fm.elidedText(chip_text(s.words[i])[0], Qt.ElideRight, label_w - 8))
            paint_chips(painter, QRect(label_w, y + ROW_GAP // 2, self.width() - label_w - 4, row_h - ROW_GAP),
                        self.token_chips.chips(s.segmentation(i)), metrics=m, highlight_ids=self.flash_ids)
        painter.end()


class PresenterWindow(QWidget):
    """Full-screen presenter view; ``left`` is emitted when the user leaves it."""

    left = Signal()

    def __init__(self, session: Session, actions: TrainActions, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent, Qt.Window)
        self.setObjectName("presenter")
        self.setWindowTitle("BPE Lens — presenter")
        self.setStyleSheet(presenter_stylesheet())
        self.session = session
        self.token_chips = TokenChips(session.token)
        session.corpus_loaded.connect(self.token_chips.clear)
        session.tokens_renamed.connect(self.token_chips.clear)  # a branch: ids may name other tokens
        self.point_size = PRESENTER_POINT_SIZE
        self._type_size: tuple = ()
        big = QFont(self.font())
        big.setPointSize(self.point_size)
        self.banner = live_label(self, object_name="banner")
        self.banner.setAlignment(Qt.AlignCenter)
        # the merge number is in the banner; the vocabulary size among the controls
        self.merge_label = live_label(self, min_text="vocab 88,888", font=big)
        self.merge_label.setAlignment(Qt.AlignCenter)
        buttons = QHBoxLayout()
        for name in ("reset", "undo", "step", "step_n", "play"):
            button = tool_button(actions[name], self)
            button.setToolButtonStyle(Qt.ToolButtonTextOnly)  # small dark icons vanish on black
            button.setFocusPolicy(Qt.NoFocus)  # the keyboard stays with the window: Space steps
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.merge_label)
        buttons.addStretch(1)
        choose = QPushButton("Words…", self)
        choose.setToolTip("Choose the words shown (comma separated)")
        choose.setFocusPolicy(Qt.NoFocus)
        choose.clicked.connect(self.choose_words)
        buttons.addWidget(choose)
        leave = QPushButton("Esc", self)
        leave.setToolTip("Leave presenter mode (Esc or F11)")
        leave.setFocusPolicy(Qt.NoFocus)
        leave.clicked.connect(self.leave)
        buttons.addWidget(leave)
        # each bar's count is written beside it: no count axis (its room goes to the rows); the yellow
        # "Next" of the title says what the yellow bar is
        self.chart = PairChart(session, k=10, font=big,
                               title=f'<span style="color: {PRESENTER_ACCENT}">Next</span> pairs (top {{k}})')
        self.chart.follow_palette = False  # the presenter's own black, whatever the desktop
        self.chart.title_scale = 1.0
        self._darken_chart()
        self.showcase = Showcase(session, self.token_chips, self)
        self.encode = EncodePane(self)
        self.encode.observe(session)
        self.encode.dropout.hide()  # the slide keeps its rows of chips; dropout is sampled in the main window
        self.encode.editor.installEventFilter(self)  # Esc in the box: back to stepping
        #: over the encode box's corner while it has the keyboard (Space types there; Esc gives it
        #: back): no layout, so showing it moves nothing
        self.focus_hint = QLabel("typing · Esc: Space steps", self.encode.editor, objectName="focus_hint")
        self.focus_hint.hide()
        #: over the words' bottom after "Words…": the words that are not in the corpus (none is dropped silently)
        self.words_note = QLabel(self.showcase, objectName="words_note", wordWrap=True)
        self.words_note.hide()
        self._note_timer = QTimer(self, singleShot=True, interval=NOTE_MS)
        self._note_timer.timeout.connect(self.words_note.hide)
        for w in (self.chart, self.showcase):
            w.setFocusPolicy(Qt.ClickFocus)  # a click beside the box takes the keyboard back
        middle = QSplitter(Qt.Horizontal, self)
        middle.addWidget(self.chart)
        middle.addWidget(self.showcase)
        middle.setSizes([1200, 800])  # bars, their labels and counts need more room than the words
        middle.setChildrenCollapsible(False)
        self.outer = outer = QSplitter(Qt.Vertical, self)
        outer.addWidget(middle)
        outer.addWidget(self.encode)
        outer.setChildrenCollapsible(False)  # (room shared by _share_room, margins set by _fit_type)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(buttons)
        layout.addWidget(outer, 1)
        self.addActions([actions[n] for n in ("reset", "undo", "step", "step_n", "undo_n", "play", "run")])
        for key in ("Esc", "F11"):
            QShortcut(QKeySequence(key), self, self.leave)
        for signal in (session.corpus_loaded, session.steps_applied, session.steps_undone, session.reset_done):
            signal.connect(self.refresh)
        QApplication.instance().focusChanged.connect(self._on_app_focus_changed)
        self._fit_type()
        self.refresh()

    # -- fitting the screen ------------------------------------------------------------------------------
    def _fit_type(self) -> None:
        """Type in proportion to the screen (:func:`~bpe_lens_app.widgets.theme.presenter_point_size`); set
        only when the size changes (a new style sheet re-lays out everything: never per step)."""
        size = presenter_point_size(self.width(), self.height())
        if (size, self.height()) == self._type_size:
            return
        self._type_size = (size, self.height())
        self.point_size = size
        self.setStyleSheet(presenter_stylesheet(size, presenter_banner_size(size, self.height(), self.logicalDpiY())))
        edge = max(4, size // 3)
        self.layout().setContentsMargins(edge, edge // 2, edge, edge)
        self.layout().setSpacing(edge // 2)
        big = font_with_size(self.font(), size)
        self.merge_label.setFont(big)
        self.chart.set_chart_font(big)
        plot, title = self.chart.plot_item, self.chart.plot_item.titleLabel
        title.setMaximumHeight(int(title.item.boundingRect().height()) + 2)  # (pyqtgraph's is 30 px)
        plot.layout.setRowFixedHeight(0, title.maximumHeight())
        plot.getAxis("bottom").setLabel("count")  # the presenter's own: the chart leaves it hidden
        plot.hideAxis("bottom")

    def _share_room(self) -> None:
        """The encode pane gets its bar, a line of text (the chips show all of it) and :data:`ENCODE_ROWS`
        rows of chips (fewer where the pairs above would keep less than 8 rows), the pairs and words the rest."""
        room = self.outer.height()
        if room <= 0:
            return
        line = QFontMetrics(font_with_size(self.font(), self.point_size)).height()
        editor = self.encode.editor
        bar = line + 4 * max(2, self.point_size // 10) + 8
        text = QFontMetrics(editor.font()).lineSpacing() + 2 * int(editor.document().documentMargin()) + 8
        row = self.encode.view.metrics().height() + TokenView.VGAP + 1
        pairs = int(11 * line)  # 8 rows of pairs and the chart's title
        rows = max(2, min(ENCODE_ROWS, (room - pairs - bar - text) // row))
        encode = bar + text + rows * row + 2 * TokenView.MARGIN + 12
        self.outer.setSizes([room - encode, encode])
        editor.setMinimumHeight(min(text, editor.minimumHeight()))
        self.encode.findChild(QSplitter).setSizes([text, max(1, encode - bar - text)])

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_type()
        self._share_room()

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if obj is self.encode.editor and kind in (QEvent.ShortcutOverride, QEvent.KeyPress) and \
                event.key() == Qt.Key_Escape:
            if kind == QEvent.ShortcutOverride:
                event.accept()  # the box takes this Esc: the window's "leave" shortcut does not fire
            else:
                self.setFocus()  # leave the box, not presenter mode: Space steps again
            return True
        return super().eventFilter(obj, event)

    def _on_app_focus_changed(self, old, new) -> None:
        hint = self.focus_hint
        if new is self.encode.editor:
            hint.adjustSize()
            hint.move(self.encode.editor.width() - hint.width() - 24, 4)
            hint.raise_()
            hint.show()
        else:
            hint.hide()

    def typing(self) -> bool:
        """True while the encode box has the keyboard (Space types there, and the hint says so)."""
        return self.encode.editor.hasFocus()

    def _darken_chart(self) -> None:
        import pyqtgraph as pg

        self.chart.plot_widget.setBackground(PRESENTER_BG)
        plot = self.chart.plot_item
        for name in ("left", "right", "bottom"):
            axis = plot.getAxis(name)
            axis.setPen(pg.mkPen(PRESENTER_FG))
            axis.setTextPen(pg.mkPen(PRESENTER_FG))
        plot.titleLabel.setText(plot.titleLabel.text, color=PRESENTER_FG)
        self.chart.set_bar_colors(PRESENTER_ACCENT, PRESENTER_BAR)

    def enter(self) -> None:
        if not self.showcase.word_indices:
            self.showcase.set_words(())
        self.showFullScreen()
        self.activateWindow()
        self.setFocus()  # the keyboard to the window, not the encode box: Space steps
        self.encode.follow(self.session.model)
        self.refresh()

    def leave(self) -> None:
        self.close()
        self.left.emit()

    def set_words(self, indices: Sequence[int]) -> None:
        self.showcase.set_words(indices)

    def choose_words(self) -> None:
        """Ask for the words to show (comma separated); those not in the corpus are named in a note."""
        s = self.session
        dialog = QInputDialog(self, objectName="choose_words")
        dialog.setWindowTitle("Words to show")
        dialog.setLabelText("Words (comma separated, up to 12):")
        dialog.setTextValue(", ".join(s.words[i].strip() or s.words[i] for i in self.showcase.word_indices))
        if dialog.exec():
            self.show_words(dialog.textValue())

    def show_words(self, text: str) -> List[str]:
        """Show the words of ``text`` (comma separated; a word matches with or without the space
        before it, the more frequent form first); returns and notes those not in the corpus. When
        none is in it, the words shown stay."""
        s = self.session
        lookup = {w: i for i, w in enumerate(s.words)}
        found, missing = [], []
        for word in (w.strip() for w in text.split(",")):
            forms = [lookup[f] for f in (word, " " + word) if word and f in lookup]
            if forms:
                found.append(max(forms, key=lambda i: s.freqs[i]))
            elif word:
                missing.append(word)
        if found:
            self.set_words(list(dict.fromkeys(found)))
        note = ""
        if missing:
            note = ("Not in the corpus: " if found else "None of these is in the corpus: ") + ", ".join(missing)
            note += "" if found else " — the words shown are unchanged"
        self._show_note(note)
        return missing

    def _show_note(self, note: str) -> None:
        self.words_note.setText(note)
        self.words_note.setVisible(bool(note))
        if note:
            width = self.showcase.width() - 8
            self.words_note.setFixedWidth(max(width, 1))
            self.words_note.adjustSize()
            self.words_note.move(4, max(0, self.showcase.height() - self.words_note.height() - 4))
            self.words_note.raise_()
            self._note_timer.start()

    def refresh(self, *_) -> None:
        s = self.session
        self.merge_label.setText(f"vocab {s.vocab_size:,}")
        text = banner_text(s, self.token_chips)
        fm = self.banner.label.fontMetrics()
        if fm.horizontalAdvance(text) > self.banner.width() > 0:  # long tokens: elided, never cut
            self.banner.setToolTip(text)
            text = fm.elidedText(text, Qt.ElideRight, self.banner.width())
        self.banner.setText(text)
