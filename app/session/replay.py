"""Run to target over merges the timeline already knows: shown from its records, never trained again.

After Reset, the timeline still remembers every merge the training reached. When the user then presses
Run to target, training those merges again would waste the user's time: on the 17.6 MB corpus the run
used to wait 9.5 seconds, showing nothing, for the trainer to go back to merge 0, and then trained all
29,743 merges again (issue 23, finding 2). Instead, a :class:`Replay` shows the known merges from the
records (:meth:`Timeline.jump <bpe_core.training.timeline.Timeline.jump>`) in :data:`REPLAY_FRAMES`
frames, one event-loop pass each, with the progress bar and the Cancel button of any run. The trainer
follows afterwards, in the background, as it does after a seek.

When the known merges end before the target (an earlier run was cancelled), the replay shows them, and
then the run, still a run that Cancel stops, waits for the trainer to reach the last of them and trains
on from there. When a run had stopped on a training rule at the last known merge (known_end.py), the
replay ends with the same reason, and Run to target pressed right there says at once why training
stopped, instead of waiting for the trainer to get there and find out again.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Tuple

from PySide6.QtCore import QObject, QTimer

from bpe_core import MergeStep

from .known_end import KnownEnd
from .payloads import RunEnd, RunProgress
from .run_kinds import AHEAD, CATCH_UP

#: A replay shows the known merges in this many frames, so it reaches its goal after as many event-loop passes.
REPLAY_FRAMES = 8
#: Milliseconds between a replay's frames: each frame, with its progress, is painted before the next.
REPLAY_MS = 15


class Replay(QObject):
    """Run to target from the records, for the session (see the module's description).

    It is given the session, whose timeline it reads and whose run signals it emits, the session's
    :class:`~bpe_lens_app.session.runs.Runs` (a run that the user started stops when the replay starts;
    a silent one may go on), the session's :class:`KnownEnd`, and ``show(steps, undone)``, which tells the
    panes what a jump changed. While the replay shows frames, or while its run waits for the trainer to
    train on, the session counts it as a run the user started (:attr:`is_on`).
    """

    def __init__(self, session, runs, known_end: KnownEnd, *,
                 show: Callable[[List[MergeStep], bool], None]) -> None:
        super().__init__(session)
        self._session, self._runs, self._known_end, self._show = session, runs, known_end, show
        self._span: Optional[Tuple[int, int]] = None  # (first merge, goal) while frames are being shown
        self._waits = False  # the frames are shown, and the run waits for the trainer to train on
        self._timer = QTimer(self, singleShot=True, interval=REPLAY_MS)
        self._timer.timeout.connect(self._on_timer_timeout)

    @property
    def is_on(self) -> bool:
        """Frames are being shown, or the run the replay started waits for the trainer."""
        return self._span is not None or self._waits

    @property
    def is_showing(self) -> bool:
        """Frames are still being shown: the trainer should not start following meanwhile."""
        return self._span is not None

    def run_to_target(self) -> bool:
        """Start Run to target from the records when merges past the position are known; at the known end,
        say at once why training stopped there. False: nothing is known ahead, so the trainer must run."""
        s, runs = self._session, self._runs
        tl = s.core
        if tl is None or s.is_loading:
            return False
        if self.is_on:
            return True  # pressed again: the replay goes on
        at, reason = tl.merge_count, self._known_end.stop_rule(tl)
        goal = min(tl.target_merges, len(tl.steps))
        if reason is not None and at == len(tl.steps):
            runs.stop("paused")
            s.run_started.emit("run")
            s.run_finished.emit(RunEnd("run", reason, at))
            return True
        if goal <= at:
            return False
        if runs.worker is not None and not runs.is_a(CATCH_UP, AHEAD):
            runs.stop("paused")  # Play, a long step, a key step; a catch-up or read-ahead goes on
        runs.waiting = None
        runs.goal = goal if reason is not None else tl.target_merges
        s.run_started.emit("run")
        self._span = (at, goal)
        self._timer.start(0)  # the first frame once the run's start (Cancel, the busy bar) is painted
        return True

    def end(self, reason: str) -> None:
        """A command, Cancel or a load stops the replay where it is, or the run that waits after it."""
        if not self.is_on:
            return
        self._timer.stop()
        if self._waits:
            self._runs.waiting = None
        self._span, self._waits = None, False
        self._runs.follow_later.start()  # the trainer follows to where the replay stopped
        self._session.run_finished.emit(RunEnd("run", reason, self._session.merge_count))

    def _on_timer_timeout(self) -> None:
        """Show the next frame of known merges; after the last one, finish or train on."""
        s, runs = self._session, self._runs
        tl = s.core
        if self._span is None or tl is None:
            return
        first, goal = self._span
        k = min(goal, tl.merge_count + max(1, -(-(goal - first) // REPLAY_FRAMES)))
        self._show(*tl.jump(k))
        if runs.worker is not None and runs.needs_catch_up():
            runs.worker.requestInterruption()  # a silent run heading elsewhere: the trainer follows at the end
        s.run_progress.emit(RunProgress("run", k - first, max(s.target_merges, goal) - first, k))
        if k < goal:
            self._timer.start(REPLAY_MS)
            return
        self._span = None
        reason = self._known_end.stop_rule(tl)
        if reason is not None or k >= tl.target_merges:
            runs.follow_later.start()  # the trainer follows, once this frame is painted
            s.run_finished.emit(RunEnd("run", reason or "done", k))
        else:
            self._wait_for_trainer()

    def _wait_for_trainer(self) -> None:
        """The known merges end short of the target: the run waits for the trainer there, then trains on."""
        runs = self._runs
        self._waits = True
        runs.waiting = self._train_on
        if runs.worker is None:  # else a silent run goes on; redirected here, it calls ``waiting`` on arrival
            runs.follow_later.stop()
            if self._session.core.is_lagging or runs.needs_catch_up():
                runs.catch_up(exact=True)
            else:
                self._train_on()

    def _train_on(self) -> None:
        self._waits = False
        self._session.run_to_target()
