"""Run to target over merges already known: shown from the timeline's records, never trained again.

A mixin of :class:`~bpe_lens_app.session.session.Session` (kept apart so that the session's commands fit one file).
After Reset the timeline still knows every merge the training reached; Run to target shows them from the
records (:meth:`Timeline.jump <bpe_core.training.timeline.Timeline.jump>`) in :data:`REPLAY_FRAMES` frames, one
event-loop pass each, with the progress bar and Cancel of any run (issue 23, finding 2: on the 17.6 MB corpus
the run waited 9.5 s for the trainer to go back to merge 0, showing nothing, then trained the 29,743 merges
again). The trainer follows afterwards, in the background (a catch-up, as after a seek).

Known merges that end short of the target (a run was cancelled) replay, then the run waits, still a run that
Cancel stops, for the trainer to reach the last of them, and trains on from there. Where a run ended on a stop
rule is remembered (:meth:`_note_end`), so a replay to there ends with the same words, and Run to target
pressed there says so at once instead of waiting for the trainer.
"""
from __future__ import annotations

from typing import Optional, Tuple

from PySide6.QtCore import QTimer

from .payloads import RunEnd, RunProgress
from .run_kinds import AHEAD, CATCH_UP
from .stop_text import STOP_RULES

#: a replay shows the known merges in this many frames (the target after as many event-loop passes)
REPLAY_FRAMES = 8
#: ms between a replay's frames: each is painted, with its progress, before the next
REPLAY_MS = 15


class Replays:
    """Run to target from the records (see the module doc); the session calls the hooks named ``_..._replay``."""

    def _init_replay(self) -> None:
        self._replay: Optional[Tuple[int, int]] = None  # (first merge, last merge) of the replay going on
        self._replay_waits = False  # the replay is done short of the target: the run waits for the trainer
        self._known_end: Optional[tuple] = None  # (timeline, merges known, last pair, stop rule) of a run's end
        self._replay_timer = QTimer(self, singleShot=True, interval=REPLAY_MS)
        self._replay_timer.timeout.connect(self._replay_frame)

    @property
    def _replaying(self) -> bool:
        """A run the user started is on, shown from the records (or waiting for the trainer to train on)."""
        return self._replay is not None or self._replay_waits

    def _known_stop(self) -> Optional[str]:
        """The stop rule where the known merges end, remembered from the run that ended there (None: unknown)."""
        end, tl = self._known_end, self._tl
        if end is None or tl is None or end[0] is not tl or len(tl.steps) != end[1]:
            return None
        last = tl.steps[-1] if tl.steps else None
        return end[3] if (last and (last.left, last.right)) == end[2] else None

    def _note_end(self) -> None:
        """Remember a stop rule reached at the last known merge (after each frame and each run's end)."""
        tl = self._tl
        if tl is not None and tl.stop_reason in STOP_RULES and not tl.is_lagging and tl.merge_count == len(tl.steps):
            last = tl.steps[-1] if tl.steps else None
            self._known_end = (tl, len(tl.steps), last and (last.left, last.right), tl.stop_reason)

    def _replay_to_target(self) -> bool:
        """Run to target from the records when merges past the position are known; False: the trainer must run.
        At the known end it says at once why training stopped there."""
        tl = self._tl
        if tl is None or self._calls.busy:
            return False
        if self._replaying:
            return True  # pressed again: the replay goes on
        at, reason = tl.merge_count, self._known_stop()
        goal = min(tl.target_merges, len(tl.steps))
        if reason is not None and at == len(tl.steps):
            self._stop_run("paused")
            self.run_started.emit("run")
            self.run_finished.emit(RunEnd("run", reason, at))
            return True
        if goal <= at:
            return False
        if self._run is not None and self._run_kind not in (CATCH_UP, AHEAD):
            self._stop_run("paused")  # a run the user started (Play, a long step); a silent move goes on
        self._then = None
        self._replay = (at, goal)
        self._run_goal = goal if reason is not None else tl.target_merges
        self.run_started.emit("run")
        self._replay_timer.start(0)  # the first frame once the run's start (Cancel, the busy bar) is painted
        return True

    def _replay_frame(self) -> None:
        """Show the next frame of known merges; at the last, finish (or train on past the known merges)."""
        if self._replay is None or self._tl is None:
            return
        (first, goal), tl = self._replay, self._tl
        k = min(goal, tl.merge_count + max(1, -(-(goal - first) // REPLAY_FRAMES)))
        self._show(*tl.jump(k))
        if self._run is not None and self._needs_catch_up():
            self._run.requestInterruption()  # a silent move heading elsewhere: the trainer follows at the end
        total = max(self.target_merges, goal) - first
        self.run_progress.emit(RunProgress("run", k - first, total, k))
        if k < goal:
            self._replay_timer.start(REPLAY_MS)
            return
        self._replay = None
        reason = self._known_stop()
        if reason is not None or k >= tl.target_merges:
            self._settle_later.start()  # the trainer follows, once this frame is painted
            self.run_finished.emit(RunEnd("run", reason or "done", k))
        else:
            self._train_on()

    def _train_on(self) -> None:
        """The known merges end short of the target: the run waits for the trainer there, then trains on."""
        self._replay_waits = True
        self._then = self._trained_on
        if self._run is None:  # else a silent move goes on; redirected here, it runs ``_then`` on arrival
            self._settle_later.stop()
            if self._tl.is_lagging or self._needs_catch_up():
                self._catch_up(exact=True)
            else:
                self._trained_on()

    def _trained_on(self) -> None:
        self._replay_waits = False
        self.run_to_target()

    def _end_replay(self, reason: str) -> None:
        """A command, Cancel or a load stops the replay where it is (or the run waiting for the trainer)."""
        if not self._replaying:
            return
        self._replay_timer.stop()
        if self._replay_waits:
            self._then = None
        self._replay, self._replay_waits = None, False
        self._settle_later.start()  # the trainer follows to where it stopped
        self.run_finished.emit(RunEnd("run", reason, self.merge_count))
