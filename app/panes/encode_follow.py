"""How the encode pane follows a training session: when to re-encode, and when not to.

A merge more or less keeps every token id's meaning (the pane keeps its chips); a new corpus or
new settings do not. The chips of the merge that just fired flash. During a bulk run (Run to
target, a long seek on a worker) the pane is encoded once, when the run ends: encoding per batch
would compete with the trainer for the interpreter and slow it (issue 9: 4x with 3,000 characters).
Play, which shows every merge, is followed as it goes. After a seek, seed 000's vocabulary needs
the trainer's tables, so the pane encodes again once the trainer has caught up. A step or an undo moves
the shown encoding along without encoding again (:meth:`EncodePane.follow_steps`); a branch picked or
switched may give ids other tokens, so the pane's chips are made again (they read the old token before).
"""
from __future__ import annotations

from typing import List, Sequence

from PySide6.QtCore import QEvent, QObject, QTimer

from bpe_core import MergeStep

from ..session.session import Session
from ..widgets.theme import WARM_MS


class SessionFollower(QObject):
    """Connects ``session``'s signals to ``pane.follow`` (the pane's parent owns this object)."""

    def __init__(self, pane, session: Session) -> None:
        super().__init__(pane)
        self.pane, self.session = pane, session
        self.after_run = False  # a bulk run moved the vocabulary: encode when it ends
        self.missed = False  # the vocabulary moved while the pane was hidden (another tab): encode when shown
        pane.installEventFilter(self)
        self._warm = QTimer(self, singleShot=True, interval=WARM_MS)  # the next merge's chips, made ahead
        self._warm.timeout.connect(self._on_warm_timeout)
        session.corpus_loaded.connect(self._on_session_loaded)
        session.tokens_renamed.connect(pane.forget_chips)  # first: a branch's steps follow
        session.reset_done.connect(self._on_session_moved)
        session.steps_undone.connect(self._on_session_steps_undone)
        session.steps_applied.connect(self._on_session_steps_applied)
        session.run_finished.connect(self._on_session_run_finished)
        session.caught_up.connect(self._on_session_caught_up)
        self._on_session_loaded()

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Show and self.missed and self.session.is_loaded:
            self.missed = False
            self.pane.follow(self.session.model)
        return False

    def _on_session_loaded(self, *_) -> None:
        if self.pane.isVisible():
            self.pane.follow(self.session.model)
        else:
            self.missed = True

    def _on_session_moved(self, steps: Sequence[MergeStep] = (), undone: bool = False) -> None:
        s = self.session
        if s.is_running and s.run_kind != "play":
            self.after_run = True
        elif not self.pane.isVisible():
            self.missed = True
        elif steps:
            self.pane.follow_steps(s.model, steps, undone)
            self._warm.start()
        else:
            self.pane.follow(s.model, same_ids=True)

    def _on_warm_timeout(self) -> None:
        step = self.session.next_step()
        if step is not None and not self.session.is_running:
            self.pane.warm_next(step)

    def _on_session_steps_undone(self, steps: List[MergeStep]) -> None:
        self._on_session_moved(steps, True)

    def _on_session_steps_applied(self, steps: List[MergeStep]) -> None:
        self._on_session_moved(steps)
        if not self.after_run:
            self.pane.flash_ids([steps[-1].new_id])

    def _on_session_run_finished(self, *_) -> None:
        if self.after_run:
            self.after_run = False
            self._on_session_moved()

    def _on_session_caught_up(self) -> None:
        model = self.session.model()
        if model is not None and model.algorithm != "merges":  # seed 000's needed the trainer's tables
            self._on_session_moved()
