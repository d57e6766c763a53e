"""The commands for ties and branches, over the session.

At a merge where several pairs are tied for the most frequent, the user may look at the ties, merge
another pair by hand (which starts a new branch when merges were already known after that point),
switch between branches, and compare two of them. The algorithms belong to the core
(:mod:`bpe_core.training.ties`, :mod:`bpe_core.training.branches`). :class:`BranchCommands` only turns
the user's intent into those calls, waits for the trainer when it must, and tells the panes what changed
through the session's own signals (``republish``).

The branches are the Workbench run's (:attr:`TrainingRun.branches <bpe_core.workbench.TrainingRun>`): one owner,
so what a workspace saves (the Workbench's saved form) is the branches the user made here.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from PySide6.QtCore import QObject, Signal

from bpe_core import BPELensError
from bpe_core.training import Branch, BranchComparison, Branches, Ties, shared_prefix

from .payloads import user_message
from .session import Session


class BranchCommands(QObject):
    """Ties, pairs merged by hand, and branches of the session's timeline. A new corpus starts with one
    branch, main."""

    branches_changed = Signal()  # a branch was made or switched to, so the list of branches changed
    ties_changed = Signal()  # the position moved, or the trainer arrived there: ask :meth:`ties` again

    def __init__(self, session: Session, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.session = session
        self._watching = False  # the tie inspector is shown, so the timeline records the ties the trainer passes
        for signal in (session.steps_applied, session.steps_undone, session.reset_done, session.caught_up,
                       session.run_finished):
            signal.connect(self.ties_changed)
        session.corpus_loaded.connect(self._on_session_corpus_loaded)

    # -- questions -------------------------------------------------------------------------------------
    @property
    def branches(self) -> Optional[Branches]:
        """The branches of the Workbench run on the session's timeline; None before a corpus."""
        tl, run = self.session.core, self.session.workbench.run
        return run.branches if tl is not None and run is not None and run.timeline is tl else None

    def ties(self) -> Optional[Ties]:
        """The pairs tied at the position. They are known when the trainer passed this merge while the ties
        were watched (reading ahead, or in a run), or when the trainer stands here. None when they are not
        known yet: :meth:`fetch_ties` brings the trainer."""
        tl = self.session.core
        return tl.ties_here() if tl is not None else None

    def watch_ties(self, on: bool) -> None:
        """Record the ties at each merge the trainer passes, while the tie inspector is shown, so that steps
        read ahead show their ties at once. When off, no ties are computed."""
        self._watching = on
        if self.session.core is not None:
            self.session.core.watch_ties = on

    def fetch_ties(self, then) -> bool:
        """Bring the trainer here and then call ``then()``, when the ties at the position are unknown and the
        trainer stands idle elsewhere (it read ahead, or the user sought back). Returns True when it was asked.
        Nothing is asked while the trainer moves (a step, a catch-up, a run): its frames bring the ties, or
        the next call finds it idle."""
        tl, s = self.session.core, self.session
        if tl is None or tl.is_moving or s.is_loading or s.is_running or not tl.is_lagging:
            return False
        s.when_ready(then)
        return True

    def all(self) -> List[Branch]:
        """Every branch, main first."""
        return self.branches.all() if self.branches is not None else []

    @property
    def current_id(self) -> int:
        return self.branches.current_id if self.branches is not None else 0

    def compare(self, a: int, b: int, words: Tuple[int, ...] = ()) -> Optional[BranchComparison]:
        """How branches ``a`` and ``b`` differ (their merges, and the segmentations of ``words``)."""
        return self.branches.compare(a, b, words=words) if self.branches is not None else None

    # -- commands --------------------------------------------------------------------------------------
    def pick(self, left: int, right: int) -> None:
        """Merge the pair (left, right) at the position instead of the pair the tie rule would take. This waits
        for the trainer. When no merge after the position is known yet, the rule's next merge is made first
        (the pair chart showed it as the next merge all along), so that picking another pair keeps the rule's
        merge on this branch and starts a new branch, and the two can be compared. Picking the rule's own pair
        is just a step."""
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
        """Show the merges of branch ``branch_id``, at the merge where the user left that branch."""
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
        """Rebuild the branches a workspace saved (:meth:`Branches.to_data`) on the corpus just loaded."""
        tl, run = self.session.core, self.session.workbench.run
        if tl is None or run is None or run.timeline is not tl:
            return
        if not self.session.when_ready(lambda: self.restore(data)):
            return
        try:
            run.branches = Branches.from_data(tl, data)
        except (BPELensError, KeyError, TypeError, ValueError) as exc:
            run.branches = Branches(tl)
            self.session.error_raised.emit(user_message(BPELensError(f"the branches cannot be restored: {exc}")))
            return
        self.session.republish([], list(tl.history))
        self.branches_changed.emit()

    def _on_session_corpus_loaded(self, *_) -> None:
        self.watch_ties(self._watching)  # a new timeline
        self.branches_changed.emit()
