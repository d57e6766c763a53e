"""How the session's silent runs end: a catch-up or read-ahead arriving (or redirected), a key step done.

A mixin of :class:`~bpe_lens_app.session.session.Session` (kept apart so that the session's commands fit one file):
these methods read and set the session's run state and call its commands.
"""
from __future__ import annotations

from typing import Optional

from .payloads import RunEnd, user_message
from .run_kinds import CATCH_UP


class RunEnds:
    """The ends of :data:`~bpe_lens_app.session.run_kinds.SILENT` runs (see the module doc)."""

    def _on_catch_up_ended(self, kind: str, reason: Optional[str], error: Optional[BaseException]) -> None:
        """Arrived: tell the panes, run the command that waited, read on ahead. Redirected by a newer jump:
        go on to the new position. Stopped by a command, Cancel or a load: it stays where it is."""
        then, self._then = self._then, None
        if error is not None:
            self.error_raised.emit(user_message(error))
        elif not self._needs_catch_up() and not (kind == CATCH_UP and self._tl.is_lagging):
            if kind == CATCH_UP:
                self.caught_up.emit()
            if reason is None:
                if then is not None:
                    then()
                self._read_on.start()
        elif reason is None and then is None:
            self._settle_later.start()  # redirected by a jump: go on once the jumps pause
        elif reason is None:
            self._then = then
            self._catch_up()

    def _on_key_step_ended(self, reason: Optional[str], error: Optional[BaseException], merged: int) -> None:
        """As :meth:`step` reports: a stop rule said when nothing merged; then the request that waited, if any."""
        then, self._next_step = self._next_step, 0
        if error is not None:
            self.error_raised.emit(user_message(error))
        elif reason is None and not merged:
            self.run_finished.emit(RunEnd("step", self.stop_reason or "done", self.merge_count))
        elif reason is None and then:
            self.request_step(then)
        elif reason is None:
            self._read_on.start()
