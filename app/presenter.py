"""Presenter mode (F11): full screen, large type, high contrast, only what a room needs.

A big "merge k: a + b → ab (count)" banner, the step controls, the top-10 pairs, 8–12 chosen words'
segmentations (default: the most frequent; "Choose words…" or the words pane picks others) and
the encode pane. The training actions (Space/→ step, Backspace/← undo, P play, ...) work here as
in the main window; Esc (or F11) leaves. Chips a merge creates are outlined for ~300 ms.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from PySide6.QtCore import QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QPainter, QShortcut
from PySide6.QtWidgets import (QHBoxLayout, QInputDialog, QPushButton, QSplitter, QVBoxLayout,
                               QWidget)

from bpe_core.types import MergeStep

from .panes.controls import TrainActions, tool_button
from .panes.encode_pane import EncodePane
from .panes.pair_chart import PairChart
from .session import Session
from .theme import (FLASH_MS, PRESENTER_ACCENT, PRESENTER_BAR, PRESENTER_BG, PRESENTER_FG, PRESENTER_POINT_SIZE, font_with_size,
                    presenter_stylesheet)
from .widgets.chip_text import chip_text
from .widgets.chips import ChipMetrics, paint_chips
from .widgets.chips_table import TokenChips
from .widgets.quiet import live_label

SHOWCASE_WORDS = 10


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
        self.flash_ids: set = set()
        self._metrics: Optional[ChipMetrics] = None
        self._timer = QTimer(self, singleShot=True, interval=FLASH_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        session.corpus_loaded.connect(lambda *_: self.set_words(()))
        session.steps_applied.connect(self._on_session_steps_applied)
        session.steps_undone.connect(lambda *_: self.update())
        session.reset_done.connect(lambda *_: self.update())

    def set_words(self, indices: Sequence[int]) -> None:
        """Show these words; none given: the most frequent ones."""
        s = self.session
        if not indices:
            order = sorted(range(len(s.words)), key=lambda i: -s.freqs[i])
            # the most frequent words with 3+ letters show merges best; punctuation never changes
            wordy = [i for i in order if sum(c.isalnum() for c in s.words[i]) >= 3]
            indices = (wordy if len(wordy) >= 8 else order)[:SHOWCASE_WORDS]
        self.word_indices = list(indices)[:12]
        self.update()

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

    def paintEvent(self, event) -> None:
        s = self.session
        if not self.word_indices or not s.is_loaded:
            return
        painter = QPainter(self)
        font = self.font()
        if self._metrics is None or self._metrics.font != font:
            self._metrics = ChipMetrics(font)
        m = self._metrics
        row_h = max(m.height() + 10, self.height() // max(len(self.word_indices), 1))
        row_h = min(row_h, 2 * m.height() + 10)
        label_w = max(m.fm.horizontalAdvance(chip_text(s.words[i])[0]) for i in self.word_indices) + 24
        label_w = min(label_w, self.width() // 3)
        painter.setPen(self.palette().windowText().color())
        for r, i in enumerate(self.word_indices):
            y = r * row_h
            painter.setFont(font)
            painter.drawText(QRect(4, y, label_w - 8, row_h), Qt.AlignVCenter | Qt.AlignRight,
                             m.fm.elidedText(chip_text(s.words[i])[0], Qt.ElideRight, label_w - 8))
            paint_chips(painter, QRect(label_w, y + 3, self.width() - label_w - 4, row_h - 6),
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
        big = QFont(self.font())
        big.setPointSize(PRESENTER_POINT_SIZE)
        self.banner = live_label(self, object_name="banner")
        self.banner.setAlignment(Qt.AlignCenter)
        self.merge_label = live_label(self, min_text="merge 88,888   vocab 88,888", font=big)
        buttons = QHBoxLayout()
        for name in ("reset", "undo", "step", "step_n", "play"):
            button = tool_button(actions[name], self)
            button.setToolButtonStyle(Qt.ToolButtonTextOnly)  # small dark icons vanish on black
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
        self.chart = PairChart(session, k=10, font=big, title="Next pairs (top 10)")
        self.chart.follow_palette = False  # the presenter's own black, whatever the desktop
        self._darken_chart()
        self.showcase = Showcase(session, self.token_chips, self)
        self.showcase.setFont(font_with_size(big, PRESENTER_POINT_SIZE * 1.25))
        self.encode = EncodePane(self)
        self.encode.setFont(big)
        self.encode.observe(session)
        middle = QSplitter(Qt.Horizontal, self)
        middle.addWidget(self.chart)
        middle.addWidget(self.showcase)
        middle.setSizes([900, 900])
        outer = QSplitter(Qt.Vertical, self)
        outer.addWidget(middle)
        outer.addWidget(self.encode)
        outer.setSizes([700, 300])
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(buttons)
        layout.addWidget(outer, 1)
        self.addActions([actions[n] for n in ("reset", "undo", "step", "step_n", "undo_n", "play", "run")])
        for key in ("Esc", "F11"):
            QShortcut(QKeySequence(key), self, self.leave)
        for signal in (session.corpus_loaded, session.steps_applied, session.steps_undone, session.reset_done):
            signal.connect(self.refresh)
        self.refresh()

    def _darken_chart(self) -> None:
        import pyqtgraph as pg

        self.chart.plot_widget.setBackground(PRESENTER_BG)
        plot = self.chart.plot_item
        for name in ("left", "right", "bottom"):
            axis = plot.getAxis(name)
            axis.setPen(pg.mkPen(PRESENTER_FG))
            axis.setTextPen(pg.mkPen(PRESENTER_FG))
        plot.titleLabel.setText(plot.titleLabel.text, color=PRESENTER_FG, size=f"{PRESENTER_POINT_SIZE}pt")
        plot.setLabel("bottom", "pair count — the yellow bar is the next merge")
        self.chart.set_bar_colors(PRESENTER_ACCENT, PRESENTER_BAR)

    def enter(self) -> None:
        if not self.showcase.word_indices:
            self.showcase.set_words(())
        self.showFullScreen()
        self.activateWindow()
        self.encode.follow(self.session.model)
        self.refresh()

    def leave(self) -> None:
        self.close()
        self.left.emit()

    def set_words(self, indices: Sequence[int]) -> None:
        self.showcase.set_words(indices)

    def choose_words(self) -> None:
        s = self.session
        current = ", ".join(s.words[i] for i in self.showcase.word_indices)
        text, ok = QInputDialog.getText(self, "Words to show", "Words (comma separated, up to 12):", text=current)
        if ok:
            lookup = {w: i for i, w in enumerate(s.words)}
            self.set_words([lookup[w.strip()] for w in text.split(",") if w.strip() in lookup])

    def refresh(self, *_) -> None:
        s = self.session
        self.banner.setText(banner_text(s, self.token_chips))
        self.merge_label.setText(f"merge {s.merge_count:,}   vocab {s.vocab_size:,}")
