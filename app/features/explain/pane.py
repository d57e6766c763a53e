"""Why this split: a word's merges as a strip of chips to step through (Prev / Next / Play).

The pane shows a :class:`Story`, plain data made by ``app/features/explain/actions.py`` from the core's
explanation (:func:`bpe_core.analysis.explain.explain_at`) or from a training word's history
(``session.word_history``): frame 0 is the starting units, each further frame one merge with
its caption ("merge 37: l + e → le"); the footer says why nothing more merges. The strip is a
:class:`~bpe_lens_app.widgets.token_view.TokenView`, so chips are colored as everywhere else and
the token a step made is outlined.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from ...widgets.theme import bold_font
from ...widgets.checked_style import show_checked
from ...widgets.chips import Chip
from ...widgets.quiet import TallLabel, TallRowsDelegate
from ...widgets.token_view import TokenView

__all__ = ["Frame", "Story", "ExplainPane"]

HINT = "Click a token's chip to see why the word was split that way."


@dataclass(frozen=True)
class Frame:
    """One state of the word: what the step did (caption) and the chips after it."""

    caption: str
    chips: Tuple[Chip, ...]
    #: the token id this step made (outlined in the strip); None for the starting units
    made: Optional[int] = None


@dataclass(frozen=True)
class Story:
    """A word's way from its units to its tokens: title, frames (frame 0: the units), footer."""

    title: str
    frames: Tuple[Frame, ...]
    footer: str = ""


class ExplainPane(QWidget):
    """A steppable, animated strip of one word's merges, the list of steps, and why it stops."""

    #: the frame shown changed (its index)
    frame_shown = Signal(int)

    PLAY_MS = 700

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._story: Optional[Story] = None
        self._k = 0
        self.title_label = TallLabel(HINT)
        self.title_label.setWordWrap(True)
        self.title_label.setTextFormat(Qt.PlainText)
        self.caption_label = TallLabel("")
        self.caption_label.setTextFormat(Qt.PlainText)
        self.caption_label.setWordWrap(True)
        self.caption_label.setFont(bold_font())
        self.strip = TokenView()
        self._size_strip()
        self.steps_list = QListWidget()
        self.steps_list.setItemDelegate(TallRowsDelegate(self.steps_list))  # "merge 2: Ġ + w → Ġw" whole
        self.footer_label = TallLabel("")
        self.footer_label.setWordWrap(True)
        self.footer_label.setTextFormat(Qt.PlainText)
        self.start_button = QPushButton("⏮ Start")
        self.prev_button = QPushButton("◀ Prev")
        self.next_button = QPushButton("Next ▶")
        self.play_button = QPushButton("Play")
        show_checked(self.play_button).setCheckable(True)  # filled while it plays, in every theme
        self._timer = QTimer(self, interval=self.PLAY_MS)
        self._build_layout()
        self.start_button.clicked.connect(lambda: self.show_frame(0))
        self.prev_button.clicked.connect(lambda: self.show_frame(self._k - 1))
        self.next_button.clicked.connect(lambda: self.show_frame(self._k + 1))
        self.play_button.toggled.connect(self._on_play_button_toggled)
        self._timer.timeout.connect(self._on_timer_timeout)
        self.steps_list.currentRowChanged.connect(self._on_steps_list_current_row_changed)
        self._update_buttons()

    def _build_layout(self) -> None:
        buttons = QHBoxLayout()
        for b in (self.start_button, self.prev_button, self.next_button, self.play_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.title_label)
        lay.addLayout(buttons)
        lay.addWidget(self.caption_label)
        lay.addWidget(self.strip)
        lay.addWidget(self.steps_list, 1)
        lay.addWidget(self.footer_label)

    def _size_strip(self) -> None:
        """Chips larger than elsewhere (the strip is what one looks at), room for three rows."""
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.4)
        self.strip.setFont(font)
        rows = 3 * (self.strip.metrics().height() + TokenView.VGAP) + 2 * TokenView.MARGIN
        self.strip.setFixedHeight(rows + 2 * self.strip.frameWidth())

    def changeEvent(self, e) -> None:
        super().changeEvent(e)
        if e.type() == QEvent.FontChange:  # Ctrl +/-: the strip follows the application font
            self._size_strip()

    # -- content ---------------------------------------------------------------------------------
    def show_story(self, story: Story, frame: Optional[int] = None) -> None:
        """Show ``story`` at ``frame`` (default: its last frame, the word's tokens)."""
        self.play_button.setChecked(False)
        self._story = story
        self.title_label.setText(story.title)
        self.footer_label.setText(story.footer)
        self.steps_list.blockSignals(True)
        self.steps_list.clear()
        self.steps_list.addItems([f.caption for f in story.frames])
        self.steps_list.blockSignals(False)
        self._k = -1
        self.show_frame(len(story.frames) - 1 if frame is None else frame)

    def clear(self) -> None:
        """No story: the hint, an empty strip and list (the run it told of is gone)."""
        self.play_button.setChecked(False)
        self._story, self._k = None, -1
        self.title_label.setText(HINT)
        self.caption_label.setText("")
        self.footer_label.setText("")
        self.steps_list.clear()
        self.strip.set_chips([])
        self._update_buttons()

    def story(self) -> Optional[Story]:
        return self._story

    def frame_index(self) -> int:
        return self._k

    def frames(self) -> Sequence[Frame]:
        return self._story.frames if self._story is not None else ()

    def show_frame(self, k: int) -> None:
        """Show frame ``k`` (clamped): its chips, caption and the list's row."""
        frames = self.frames()
        if not frames:
            return
        k = max(0, min(k, len(frames) - 1))
        if k == self._k:
            return
        self._k = k
        f = frames[k]
        self.strip.set_chips(list(f.chips))
        self.strip.set_highlight_ids(() if f.made is None else (f.made,))
        self.caption_label.setText(f"{k}/{len(frames) - 1}  {f.caption}")
        self.steps_list.blockSignals(True)
        self.steps_list.setCurrentRow(k)
        self.steps_list.blockSignals(False)
        self._update_buttons()
        self.frame_shown.emit(k)

    def shown_texts(self) -> list:
        """What the strip's chips read now."""
        return [c.text for c in self.strip.chips()]

    # -- playing ---------------------------------------------------------------------------------
    def _update_buttons(self) -> None:
        n = len(self.frames())
        self.start_button.setEnabled(self._k > 0)
        self.prev_button.setEnabled(self._k > 0)
        self.next_button.setEnabled(0 <= self._k < n - 1)
        self.play_button.setEnabled(n > 1)

    def _on_play_button_toggled(self, on: bool) -> None:
        if on:
            if self._k >= len(self.frames()) - 1:
                self.show_frame(0)  # play from the units
            self._timer.start()
        else:
            self._timer.stop()

    def _on_timer_timeout(self) -> None:
        if self._k >= len(self.frames()) - 1:
            self.play_button.setChecked(False)
        else:
            self.show_frame(self._k + 1)

    def _on_steps_list_current_row_changed(self, row: int) -> None:
        if row >= 0:
            self.show_frame(row)
