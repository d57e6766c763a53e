"""Ties in the open (issue 11): a "Ties & branches" dock with the tie inspector over the branch list.

View → Ties and branches shows it (hidden at first; the pair chart outlines tied bars either way), and so
does a click on a pair-chart bar, with that pair selected. The inspector follows the position, with
read-ahead on too (the timeline records the ties where its trainer passes while the dock is shown);
"Merge this instead" picks a pair by hand (the rule's merges kept as a branch); the branch list switches
and compares. Commands go through :class:`~bpe_lens_app.session.branches.BranchCommands`.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QSplitter

from ...session.branches import BranchCommands
from .branches_pane import BranchesPane
from .pane import TiesPane
from ...widgets.chip_text import chip_text
from ...side_docks import add_side_dock

#: while the ties at the position are unknown, how often the dock looks again (a dict lookup) and, once the
#: trainer is idle elsewhere, brings it here; the steps' and runs' frames bring the ties in most cases
WAIT_MS = 100


class TiesFeature:
    """The dock's panes wired to the commands (kept on the window as ``window.ties``)."""

    def __init__(self, window) -> None:
        self.window = window
        session = window.session
        self.commands = BranchCommands(session, window)
        self.pane, self.branches_pane = TiesPane(), BranchesPane()
        split = QSplitter(Qt.Vertical, objectName="splitter_ties")
        split.addWidget(self.pane)
        split.addWidget(self.branches_pane)
        split.setSizes([360, 540])  # the inspector's table shows several tied pairs without scrolling
        self.dock = QDockWidget("Ties && branches", window, objectName="dock_ties")
        self.dock.setWidget(split)
        add_side_dock(window, self.dock)
        self.dock.hide()
        toggle = self.dock.toggleViewAction()
        toggle.setText("Ties and branches")
        toggle.setObjectName("action_ties")
        window.menus["view"].addAction(toggle)
        self.pane.pick_requested.connect(lambda pair: self.commands.pick(*pair))
        self.branches_pane.switch_requested.connect(self.commands.switch)
        self.branches_pane.compare_requested.connect(self._on_branches_pane_compare_requested)
        self.branches_pane.diff_requested.connect(self._on_branches_pane_diff_requested)
        self.commands.ties_changed.connect(self.refresh_branches)  # the position moved: merges known changed too
        self.commands.branches_changed.connect(self.refresh_branches)
        self.dock.visibilityChanged.connect(self._on_dock_visibility_changed)
        self._waiting = QTimer(self.dock, interval=WAIT_MS)
        self._waiting.timeout.connect(self._on_waiting_timeout)
        self._tick_at = -1  # the position at the last look: the trainer is fetched once it stays a look long
        self._pointed = None  # (position, pair): a pair-chart bar clicked, selected once the ties show
        window.pair_chart.pair_clicked.connect(self.point_at)

    def refresh_ties(self, *_) -> None:
        """The inspector at the position (only while the dock is shown: nothing is computed otherwise). Ties not
        known yet (the trainer elsewhere): the dock says so and looks again until they are."""
        s = self.commands.session
        if not self.dock.isVisible() or not s.is_loaded:
            self._waiting.stop()
            if self.dock.isVisible():
                self.pane.show_ties(None, waiting="No corpus loaded.")
            return
        ties = self.commands.ties()
        if ties is None:
            self._waiting.start()
        else:
            self._waiting.stop()
        others = [((p.left, p.right), p.count, (self._text(p.left), self._text(p.right))) for p in s.top_pairs]
        self.pane.show_ties(ties, others, waiting=f"Finding the ties at merge {s.merge_count + 1:,}…")
        pointed, self._pointed = self._pointed, None
        if pointed is not None and pointed[0] == s.merge_count:
            if pointed[1] in self.pane.pairs():
                self.pane.select_pair(pointed[1])
            elif ties is None:
                self._pointed = pointed  # selected once the ties show

    def point_at(self, pair) -> None:
        """A pair-chart bar was clicked: show the dock with that pair selected, "Merge this instead" one click
        away (a click never merges by itself: a pick instead of the rule's pair makes a branch)."""
        self.dock.show()  # (shown: the dock refreshes)
        self.dock.raise_()
        self._pointed = (self.commands.session.merge_count, tuple(pair))
        self.refresh_ties()

    def _on_waiting_timeout(self) -> None:
        at, self._tick_at = self._tick_at, self.commands.session.merge_count
        if self.commands.ties() is not None or not self.dock.isVisible():
            self.refresh_ties()
        elif at == self._tick_at:  # the trainer idle elsewhere: brought here, then the ties show (moving: its
            self.commands.fetch_ties(self.refresh_ties)  # frames bring them); not while the user scrubs

    def _text(self, token_id: int) -> str:
        return chip_text(self.commands.session.token(token_id))[0]

    def refresh_branches(self, *_) -> None:
        """The branch list (how many merges each knows) and the inspector, while the dock is shown."""
        if not self.dock.isVisible():
            self._waiting.stop()
            return
        cur = self.commands.current_id
        rows = [(b.id, b.name, b.fork, len(b.steps), b.id == cur) for b in self.commands.all()]
        self.branches_pane.show_branches(rows)
        self.refresh_ties()

    def _on_branches_pane_compare_requested(self, branch_id: int) -> None:
        self.branches_pane.show_comparison(self.commands.compare(branch_id, self.commands.current_id))

    def _on_branches_pane_diff_requested(self, branch_id: int) -> None:
        """Both branches' vocabularies (every merge known on each) in View → Compare's tab."""
        branches, compare = self.commands.branches, getattr(self.window, "compare_feature", None)
        if branches is None or compare is None:
            return
        cur = self.commands.current_id
        names = {b.id: b.name for b in self.commands.all()}
        compare.compare(branches.model_of(branch_id), branches.model_of(cur), names.get(branch_id, "branch"),
                        names.get(cur, "current"))

    def _on_dock_visibility_changed(self, visible: bool) -> None:
        self.commands.watch_ties(visible)
        if visible:
            self.refresh_branches()
        else:
            self._waiting.stop()


def install(window) -> None:
    window.ties = TiesFeature(window)
