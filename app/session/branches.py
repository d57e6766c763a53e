"""The tie and branch commands over the session: what ties where the timeline stands, merge a pair by hand
(a branch when merges follow), switch branches, compare two. The algorithms are the core's
(:mod:`bpe_core.training.ties`, :mod:`bpe_core.training.branches`); this only turns intents into calls
and tells the panes (through the session's own signals) what changed.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from PySide6.QtCore import QObject, Signal

from bpe_core import BPELensError
from bpe_core.training import Branch, BranchComparison, Branches, Ties, shared_prefix

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
        self._watching = False  # the tie inspector is shown: the timeline records the ties where its trainer passes
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
        """The pairs tied at the position: read where the trainer passed it while watched (reading ahead, a run),
        or from the trainer standing there. None: not yet (:meth:`fetch_ties` brings the trainer)."""
        tl = self.session.core
        return tl.ties_here() if tl is not None else None

    def watch_ties(self, on: bool) -> None:
        """Record the ties at each position the trainer passes (while the inspector is shown): steps read ahead
        show theirs at once. Off: nothing is computed."""
        self._watching = on
        if self.session.core is not None:
            self.session.core.watch_ties = on

    def fetch_ties(self, then) -> bool:
        """The ties at the position are unknown and the trainer stands idle elsewhere (read ahead, or past a seek
        back): bring it here, then ``then()`` (True: asked). Never while it moves (a step, a catch-up, a run the
        user started: their frames bring the ties, or the next call finds it idle)."""
        tl, s = self.session.core, self.session
        if tl is None or tl.is_moving or s.is_loading or s.is_running or not tl.is_lagging:
            return False
        s.when_ready(then)
        return True

    def all(self) -> List[Branch]:
        return self.branches.all() if self.branches is not None else []

    @property
    def current_id(self) -> int:
        return self.branches.current_id if self.branches is not None else 0

    def compare(self, a: int, b: int, words: Tuple[int, ...] = ()) -> Optional[BranchComparison]:
        return self.branches.compare(a, b, words=words) if self.branches is not None else None

    # -- commands --------------------------------------------------------------------------------------
    def pick(self, left: int, right: int) -> None:
        """Merge (left, right) at the position instead of the rule's pair (waits for the trainer). Where no merge
        was reached after the position yet, the rule's next merge is reached first (shown as the next merge in
        the pair chart all along): picking another pair "instead" keeps it as this branch's and forks, so the
        two can be compared; picking the rule's own pair just steps."""
        if self.branches is None or not self.session.when_ready(lambda: self.pick(left, right)):
            return
        tl = self.session.core
        k = tl.merge_count
        if k == len(tl.reached_steps) and tl.step(1):
            tl.seek(k)
        try:
            branch, steps = self.branches.pick(left, right)
        except BPELensError as exc:
            self.session.error_raised.emit(user_message(exc))
            return
        self.session.republish([], steps)
        self.branches_changed.emit()  # a new branch, or the current one knows other merges now

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
        self.watch_ties(self._watching)  # a new timeline
        self.branches_changed.emit()
