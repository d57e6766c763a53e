"""Where a run stopped on a training rule, remembered after the trainer has moved elsewhere.

The trainer knows why it stopped (``min_frequency``, ``vocab_size``, ...) only while it stands at that
merge. After a seek back or a Reset it stands elsewhere, yet the session should still say why training
stopped when the user returns to the last known merge, whether by seeking there or by a replay of the
known merges (replay.py). :class:`KnownEnd` keeps that answer, together with what identifies the merges
it belongs to, so that an answer for other merges (a new corpus, another branch) is never given.
"""
from __future__ import annotations

from typing import Optional

from bpe_core import Timeline

from .stop_text import STOP_RULES


class KnownEnd:
    """The stop rule a run met at the last merge the timeline knows, remembered for later."""

    def __init__(self) -> None:
        # (timeline, number of known merges, last merge's pair, stop rule), or None
        self._end: Optional[tuple] = None

    def note(self, tl: Timeline) -> None:
        """Remember the stop rule if the trainer stands at the last known merge and met one there.
        The session calls this after each frame it applies and at the end of each run."""
        if tl.stop_reason in STOP_RULES and not tl.is_lagging and tl.merge_count == len(tl.steps):
            last = tl.steps[-1] if tl.steps else None
            self._end = (tl, len(tl.steps), last and (last.left, last.right), tl.stop_reason)

    def stop_rule(self, tl: Optional[Timeline]) -> Optional[str]:
        """The stop rule at ``tl``'s last known merge, if a run met one there; None when it is unknown
        (another timeline, or the known merges have changed since)."""
        end = self._end
        if end is None or tl is None or end[0] is not tl or len(tl.steps) != end[1]:
            return None
        last = tl.steps[-1] if tl.steps else None
        return end[3] if (last and (last.left, last.right)) == end[2] else None

    def stop_reason(self, tl: Optional[Timeline]) -> Optional[str]:
        """Why training stopped at ``tl``'s position: the trainer's own reason when it stands there, else
        the stop rule remembered for the last known merge when the position is that merge."""
        if tl is None or tl.stop_reason:
            return tl and tl.stop_reason
        return self.stop_rule(tl) if tl.merge_count == len(tl.steps) else None
