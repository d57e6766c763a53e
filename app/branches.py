"""The tie and branch commands over the session: what ties where the timeline stands, merge a pair by hand
(a branch when merges follow), switch branches, compare two. The algorithms are the core's
(:mod:`bpe_core.training.ties`, :mod:`bpe_core.training.branches`); this only turns intents into calls
and tells the panes (through the session's own signals) what changed.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from PySide6.QtCore import QObject, Signal

from bpe_core.training.branches import Branch, BranchComparison, Branches, shared_prefix
from bpe_core.training.ties import Ties, find_ties
from bpe_core.types import BPELensError

from .payloads import user_message
from .session import Session


class BranchCommands(QObject):
    """Ties, manual picks and branches of the session's timeline (a new corpus starts one branch, main)."""

    branches_changed = Signal()  # a branch was made or switched to: the list changed
    ties_changed = Signal()  # the position moved (or the trainer arrived there): ask :meth:`ties` again

    def __init__(self, session: Session, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.session = session
        self._branches: Optional[Branches] = None
        for signal in (session.steps_applied, session.steps_undone, session.reset_done, session.caught_up,
                       session.run_finished):
            signal.connect(self.ties_changed)
        session.corpus_loaded.connect(self._on_session_corpus_loaded)

    # -- questions -------------------------------------------------------------------------------------
    @property
    def branches(self) -> Optional[Branches]:
        tl = self.session.core
        if tl is None:
            return None
        if self._branches is None or self._branches.timeline is not tl:
            self._branches = Branches(tl)
        return self._branches

    def ties(self) -> Optional[Ties]:
        """The pairs tied at the position (None while the trainer is elsewhere: a run or a catch-up)."""
        tl, s = self.session.core, self.session
        if tl is None or s.is_running or tl.is_moving or tl.is_lagging:
            return None
        return find_ties(tl.trainer)

    def all(self) -> List[Branch]:
        return self.branches.all() if self.branches is not None else []

    @property
    def current_id(self) -> int:
        return self.branches.current_id if self.branches is not None else 0

    def compare(self, a: int, b: int, words: Tuple[int, ...] = ()) -> Optional[BranchComparison]:
        return self.branches.compare(a, b, words=words) if self.branches is not None else None

    # -- commands --------------------------------------------------------------------------------------
    def pick(self, left: int, right: int) -> None:
        """Merge (left, right) at the position instead of the rule's pair (waits for the trainer)."""
        if self.branches is None or not self.session.when_ready(lambda: self.pick(left, right)):
            return
        try:
            branch, steps = self.branches.pick(left, right)
        except BPELensError as exc:
            self.session.error_raised.emit(user_message(exc))
            return
        self.session.republish([], steps)
        if branch is not None:
            self.branches_changed.emit()

    def switch(self, branch_id: int) -> None:
        """The timeline shows ``branch_id``'s merges, at the position that branch was left at."""
        br = self.branches
        if br is None or branch_id == br.current_id or not self.session.when_ready(lambda: self.switch(branch_id)):
            return
        tl = self.session.core
        old = list(tl.history)
        try:
            br.switch(branch_id)
        except BPELensError as exc:
            self.session.error_raised.emit(user_message(exc))
            return
        new = list(tl.history)
        common = shared_prefix(old, new)
        self.session.republish(old[common:][::-1], new[common:])
        self.branches_changed.emit()

    def restore(self, data: dict) -> None:
        """Rebuild saved branches (:meth:`Branches.to_data`) on a corpus just loaded (a workspace)."""
        tl = self.session.core
        if tl is None or not self.session.when_ready(lambda: self.restore(data)):
            return
        try:
            self._branches = Branches.from_data(tl, data)
        except (BPELensError, KeyError, TypeError, ValueError) as exc:
            self._branches = None
            self.session.error_raised.emit(user_message(BPELensError(f"the branches cannot be restored: {exc}")))
            return
        self.session.republish([], list(tl.history))
        self.branches_changed.emit()

    def _on_session_corpus_loaded(self, *_) -> None:
        self._branches = None
        self.branches_changed.emit()
