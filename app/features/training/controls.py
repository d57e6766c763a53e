"""Step controls: the training actions (shared by the menus, the toolbar and presenter mode),
the controls pane (buttons, ×N, speed, merge number / vocab size, the timeline slider) and the
status bar's progress bar + Cancel for loads and runs.

Widgets here only emit intents; :func:`bind` connects them to the session's commands. Step/undo
intents and timeline moves are coalesced to one per event-loop pass (:class:`~bpe_lens_app.runtime.coalesce.Throttled`):
a held key or a dragged slider never queues merges. The timeline spans the merges trained so far, so
scrubbing never starts a run (Step, Play and Run to target train further).
"""
from __future__ import annotations

from typing import Dict, Optional

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QProgressBar, QSpinBox, QStatusBar, QStyle,
                               QToolButton, QVBoxLayout, QWidget)

from ...keys import hand_back_after_pick
from ...runtime.coalesce import KeyRepeat, Throttled
from ...session.session import RunEnd, Session
from ...session.stop_text import STOP_RULES, stop_text
from ...session.text_words import run_words_of
from ...widgets.theme import bold_font
from ...widgets.theme_choice import standard_icon
from ...widgets.checked_style import show_checked
from ...widgets.quiet import QuietSlider, live_label

#: stop reasons that end training before the configured target
EARLY_STOPS = ("min_frequency", "no_pairs")
#: what the status line's tokens per word (or piece) counts
TOKENS_PER_TIP = {"word": "tokens/word: the run's tokens over its text's whitespace-separated words, as the "
                          "Measures chart counts them (a pre-tokenizer piece is not a word)",
                  "piece": "tokens/piece: the run's tokens over its pre-tokenizer pieces; the corpus has no text "
                           "to count whitespace-separated words in (a word-count table)"}
#: merges a second offered for Play
SPEEDS = (1, 2, 5, 10, 20, 50, 100, 500, 2000)


class TrainActions(QObject):
    """The training actions with their shortcuts; one set per window tree, shown wherever needed."""

    step_requested = Signal(int, bool)  # merges, whether a held key's repeat asked
    undo_requested = Signal(int, bool)  # merges, whether a held key's repeat asked (undo is quick: unused)
    play_requested = Signal(bool)
    run_requested = Signal()
    cancel_requested = Signal()
    reset_requested = Signal()

    # name: (text, shortcuts, tooltip, standard icon); icons, not ⏮⏵⏭ (missing from common fonts)
    SPEC = {
        "reset": ("Reset", ("Home",), "Back to merge 0", QStyle.SP_MediaSkipBackward),
        "undo": ("Undo", ("Backspace", "Left"), "Undo the last merge", QStyle.SP_MediaSeekBackward),
        "step": ("Step", ("Space", "Right"), "Apply the next merge", QStyle.SP_MediaSeekForward),
        "step_n": ("Step ×N", ("Shift+Right",), "Apply the next N merges", None),
        "undo_n": ("Undo ×N", ("Shift+Left",), "Undo the last N merges", None),
        "play": ("Play", ("P",), "Play / pause: step at the chosen speed", QStyle.SP_MediaPlay),
        "run": ("Run to target", ("End",), "Merge until the target vocab size / merges (on a worker)",
                QStyle.SP_MediaSkipForward),
        "cancel": ("Cancel", ("Esc",), "Cancel loading or stop the run (merges so far are kept)",
                   QStyle.SP_BrowserStop),
    }

    def __init__(self, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.n = 10
        self.actions: Dict[str, QAction] = {}
        self.latest = Throttled(self)  # one step/undo per event-loop pass: auto-repeat never queues
        self.key_repeat = KeyRepeat(parent if isinstance(parent, QWidget) else None, self)
        for name, (text, keys, tip, icon) in self.SPEC.items():
            action = QAction(text, self)
            if icon is not None:
                action.setIcon(standard_icon(icon))  # in the theme's text color
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setToolTip(f"{tip} ({' / '.join(keys)})")
            action.setObjectName(f"action_{name}")
            self.actions[name] = action
        play = self.actions["play"]
        play.setCheckable(True)
        self.actions["cancel"].setEnabled(False)
        self.actions["reset"].triggered.connect(self.reset_requested)

        def once(emit, n: int) -> None:  # a held key's repeat may be dropped (and says so); a press never is
            repeat = self.key_repeat.active
            (self.latest.call if repeat else self.latest.call_now)(emit, n, repeat)

        self.actions["undo"].triggered.connect(lambda: once(self.undo_requested.emit, 1))
        self.actions["step"].triggered.connect(lambda: once(self.step_requested.emit, 1))
        self.actions["step_n"].triggered.connect(lambda: once(self.step_requested.emit, self.n))
        self.actions["undo_n"].triggered.connect(lambda: once(self.undo_requested.emit, self.n))
        self.actions["run"].triggered.connect(self.run_requested)
        self.actions["cancel"].triggered.connect(self.cancel_requested)
        play.triggered.connect(self.play_requested)

    def __getitem__(self, name: str) -> QAction:
        return self.actions[name]

    def set_n(self, n: int) -> None:
        self.n = n
        self.actions["step_n"].setText(f"Step ×{n}")
        self.actions["undo_n"].setText(f"Undo ×{n}")

    def show_running(self, kind: str) -> None:
        """Reflect the session's run state (no intents are emitted)."""
        play = self.actions["play"]
        play.setChecked(kind == "play")
        play.setText("Pause" if kind == "play" else "Play")
        play.setIcon(standard_icon(QStyle.SP_MediaPause if kind == "play" else QStyle.SP_MediaPlay))
        self.actions["cancel"].setEnabled(bool(kind))


def bind(actions: TrainActions, session: Session) -> None:
    """Intents to commands, and the session's run state back to the actions."""
    actions.step_requested.connect(lambda n, repeat: session.request_step(n, repeat=repeat))
    actions.undo_requested.connect(lambda n, _repeat: session.undo(n))
    actions.reset_requested.connect(session.reset)
    actions.run_requested.connect(session.run_to_target)
    actions.cancel_requested.connect(session.cancel)
    actions.play_requested.connect(lambda on: session.play() if on else session.pause())
    session.run_started.connect(actions.show_running)
    session.run_finished.connect(lambda end: actions.show_running(session.run_kind))
    session.loading_started.connect(lambda _: actions.actions["cancel"].setEnabled(True))
    for signal in (session.corpus_loaded, session.vocabulary_opened, session.load_cancelled, session.error_raised):
        signal.connect(lambda *_: actions.show_running(session.run_kind))


def tool_button(action: QAction, parent: QWidget) -> QToolButton:
    button = QToolButton(parent)
    button.setDefaultAction(action)
    button.setToolButtonStyle(Qt.ToolButtonTextBesideIcon)
    return show_checked(button) if action.isCheckable() else button  # Play: filled while it plays


class ControlsPane(QWidget):
    """Buttons, ×N, speed, the always-visible merge number / vocab size, and the timeline."""

    seek_requested = Signal(int)
    speed_changed = Signal(float)

    def __init__(self, session: Session, actions: TrainActions, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        self.train_actions = actions
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for name in ("reset", "undo", "step"):
            row.addWidget(tool_button(actions[name], self))
        self.n_box = QSpinBox(self, minimum=2, maximum=100000, value=actions.n)
        self.n_box.setPrefix("N = ")
        self.n_box.setToolTip("How many merges Step ×N / Undo ×N apply")
        self.n_box.valueChanged.connect(actions.set_n)
        row.addWidget(self.n_box)
        row.addWidget(tool_button(actions["step_n"], self))
        row.addWidget(tool_button(actions["play"], self))
        self.speed_box = QComboBox(self)
        self.speed_box.setToolTip("Play speed")
        for s in SPEEDS:
            self.speed_box.addItem(f"{s} merges/s", s)
        self.speed_box.setCurrentIndex(SPEEDS.index(5))
        self.speed_box.currentIndexChanged.connect(lambda i: self.speed_changed.emit(float(SPEEDS[i])))
        row.addWidget(self.speed_box)
        hand_back_after_pick(self.n_box, self.speed_box)  # once picked, Space steps (it would open the box)
        row.addWidget(tool_button(actions["run"], self))
        row.addWidget(tool_button(actions["cancel"], self))
        row.addStretch(1)
        self.merge_label = live_label(self, object_name="merge_label", min_text="merge 88,888 / 88,888    vocab 88,888",
                                      font=bold_font())  # bold only: the size follows Ctrl +/-
        self.merge_label.setTextFormat(Qt.PlainText)  # rich text costs a document layout per step
        self.stats_label = live_label(self, object_name="stats_label")
        info = QHBoxLayout()
        info.addWidget(self.merge_label, 0)
        info.addSpacing(18)
        info.addWidget(self.stats_label, 1)
        self.timeline = QuietSlider(Qt.Horizontal, self)
        self.timeline.setObjectName("timeline")
        self.timeline.setToolTip("Timeline of the merges trained so far: drag to any of them "
                                 "(Step, Play or Run to target train further)")
        self.timeline.setFocusPolicy(Qt.NoFocus)  # ←/→ step the trainer, not the slider
        self.timeline.valueChanged.connect(self._on_timeline_value_changed)
        self._latest = Throttled(self)  # a drag emits a value per mouse move: seek the newest once per pass
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(row)
        layout.addLayout(info)
        layout.addWidget(self.timeline)
        self.words = run_words_of(session)  # what tokens per word divides by: the text's words (read once)
        self.words.changed.connect(self.refresh)
        for signal in (session.corpus_loaded, session.steps_applied, session.steps_undone, session.reset_done,
                       session.config_changed):
            signal.connect(self.refresh)
        session.run_finished.connect(self._on_session_run_finished)
        self.refresh()

    def _on_timeline_value_changed(self, k: int) -> None:
        if k != self.session.merge_count:
            self._latest.call(self._seek_to_slider)

    def _seek_to_slider(self) -> None:
        k = self.timeline.value()  # the newest value when a pass coalesced several
        if k != self.session.merge_count:
            self.seek_requested.emit(k)

    def _on_session_run_finished(self, end: RunEnd) -> None:
        self.refresh()

    def refresh(self, *_) -> None:
        s = self.session
        # a stop rule that ended training early moves the end to where it stopped (not the target)
        end = len(s.timeline) if s.stop_reason in EARLY_STOPS else s.target_merges
        self.merge_label.setText(f"merge {s.merge_count:,} / {end:,}    vocab {s.vocab_size:,}")
        st = s.stats
        if st is None:
            self.stats_label.setText("no corpus loaded")
        else:
            unit, per, what = "bytes" if s.config.unit == "bytes" else "chars", self.words.per_word(st), self.words.what
            self.stats_label.setText(
                f"tokens {st.total_tokens:,} · {st.units_per_token:.2f} {unit}/token · "
                + ("tokens/word: reading the text…" if per is None else f"{per:.2f} tokens/{what}"))
            self.stats_label.setToolTip(TOKENS_PER_TIP[what])
        slider = self.timeline
        slider.blockSignals(True)
        known = max(len(s.timeline), s.merge_count)  # what is trained: a scrub never trains
        with slider.held():  # range and value together: at the end, a step moves no pixel, so no repaint
            if slider.maximum() != known:
                slider.setRange(0, known)
                slider.setPageStep(max(1, known // 20))
            slider.setValue(s.merge_count)
        slider.blockSignals(False)


class RunStatus(QObject):
    """Progress bar + Cancel in a status bar while a corpus loads or a run goes, and what happened."""

    def __init__(self, session: Session, bar: QStatusBar, cancel: QAction) -> None:
        super().__init__(bar)
        self.bar = bar
        self.session = session
        # a run complete on a stop rule keeps its full bar as long as its message shows
        self._done_timer = QTimer(self, singleShot=True, interval=15000)
        self._done_timer.timeout.connect(lambda: self.progress.hide())
        self.progress = QProgressBar(bar, textVisible=True)
        self.progress.setFixedWidth(260)  # a new text never re-lays out the status bar (and the window)
        self._done = None  # (merge, message) while the full bar of a complete run shows
        self.cancel_button = tool_button(cancel, bar)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        self.idle()
        session.loading_started.connect(self.busy)
        session.load_progress.connect(lambda p: self.show_progress(p.done, p.total, p.unit, p.message))
        session.load_cancelled.connect(lambda: self.idle("Loading cancelled; nothing changed."))
        session.corpus_loaded.connect(lambda info: self.idle(
            f"{info.name}: {info.unique_words:,} unique words, {info.total_words:,} in all."))
        session.vocabulary_opened.connect(lambda m: self.idle(
            f"Opened {m.name or 'a vocabulary'}: {m.vocab_size:,} tokens, {len(m.merges):,} merges."))
        session.error_raised.connect(lambda message: self.idle(message, 15000))
        session.run_started.connect(lambda kind: kind != "play" and self.busy(f"{kind}…"))
        session.run_progress.connect(lambda p: p.total and self.show_progress(p.done, p.total, "merges"))
        session.run_finished.connect(self._on_session_run_finished)
        for signal in (session.steps_applied, session.steps_undone, session.reset_done):
            signal.connect(self._on_moved)

    def busy(self, text: str) -> None:
        self._done_timer.stop()
        self._done = None
        self.bar.showMessage(text)
        self.progress.setRange(0, 0)  # "working" until the first report
        self.progress.show()
        self.cancel_button.show()

    def show_progress(self, done: int, total: int, unit: str, message: str = "") -> None:
        bar = self.progress
        bar.setUpdatesEnabled(False)  # QProgressBar.setValue repaints at once (the whole bar, every call):
        bar.setRange(0, max(total, 1))  # with updates off it only marks it, and it is painted with the frame
        bar.setValue(min(done, total))
        bar.setFormat(f"%p% ({done:,} / {total:,} {unit})")
        bar.setUpdatesEnabled(True)
        if message:
            self.bar.showMessage(message)

    def idle(self, message: str = "", ms: int = 8000) -> None:
        self._done = None
        self.progress.hide()
        self.cancel_button.hide()
        if message:
            self.bar.showMessage(message, ms)
        else:
            self.bar.clearMessage()

    def _on_session_run_finished(self, end: RunEnd) -> None:
        s = self.session
        if end.kind not in ("run", "play", "step"):
            self.idle()
            return
        text = stop_text(end.reason, s.config, end.merge_count, s.vocab_size)
        self.idle(text[:1].upper() + text[1:], 15000)
        if end.reason in STOP_RULES and end.kind == "run":  # the run is complete: its end came early
            self.progress.setRange(0, 1)
            self.progress.setValue(1)
            self.progress.setFormat(f"100 % — done at merge {end.merge_count:,}")
            self.progress.show()
            self._done = (end.merge_count, self.bar.currentMessage())
            self._done_timer.start()

    def _on_moved(self, *_) -> None:
        """The run moved off the merge it was done at: the full bar and its message go (they no longer say where
        the run is; the counter does)."""
        if self._done is None or self.session.merge_count == self._done[0]:
            return
        message, self._done = self._done[1], None
        self._done_timer.stop()
        self.progress.hide()
        if self.bar.currentMessage() == message:  # (a message said since stays)
            self.bar.clearMessage()
