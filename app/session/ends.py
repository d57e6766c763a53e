"""What the session does next when one of its silent runs ends.

Besides the runs the user starts (Play, Run to target, a long step), the session starts runs of its own
that the user never sees as runs (:data:`~bpe_lens_app.session.run_kinds.SILENT`): a *catch-up* brings the
trainer to the merge a seek jumped to, a *read-ahead* lets the trainer merge a little past the position so
that the next step can be shown at once, and a *key step* merges the steps asked from the keyboard on a
worker. When such a run ends, what happens next depends on a few plain facts: did it fail, was it stopped
by a command, has the trainer arrived where the position needs it, and is a command waiting for it.

The functions here take those facts and return a :class:`Next`, the list of things the session then does.
They hold no state and call nothing (no signal, no worker), so each rule can be read, and tested, on its own.
"""
from __future__ import annotations

from dataclasses import dataclass

from .run_kinds import CATCH_UP


@dataclass(frozen=True)
class Next:
    """What the session does after a silent run ended. The session performs the actions in the order
    the fields are listed; a field left at its default means "not this"."""

    #: tell the user about the error the run raised
    report_error: bool = False
    #: emit ``caught_up``: the trainer reached the position a seek jumped to
    caught_up: bool = False
    #: emit ``run_finished`` for a step that merged nothing because a stop rule was met
    step_finished: bool = False
    #: run the command that was waiting for the trainer
    run_waiting: bool = False
    #: merge this many more steps, asked from the keyboard while the run was on its way
    steps_asked: int = 0
    #: the trainer is not there yet: keep the waiting command waiting and catch up again now
    catch_up_again: bool = False
    #: let the trainer read ahead of the position once the current frame has been painted
    read_on: bool = False
    #: let the trainer follow the position once the user stops scrubbing (a newer seek redirected the run)
    follow_later: bool = False


def after_silent_move(kind: str, *, failed: bool, stopped: bool, arrived: bool, waiting: bool) -> Next:
    """What follows a catch-up or a read-ahead.

    ``kind`` is :data:`CATCH_UP` or the read-ahead's kind. ``failed``: the run raised an error. ``stopped``:
    a command, Cancel or a new load stopped it. ``arrived``: the trainer now stands where the position needs
    it. ``waiting``: a command was waiting for the trainer.

    A failed run only reports its error, and the waiting command is dropped. A run that arrived says so
    (a catch-up), then, unless it was stopped, runs the waiting command and reads on ahead. A run that has
    not arrived was redirected by a newer seek: with nothing waiting, the trainer follows once the seeks
    pause; with a command waiting, it catches up again at once and the command keeps waiting. A run that
    was stopped before it arrived stays where it is.

    >>> after = after_silent_move(CATCH_UP, failed=False, stopped=False, arrived=True, waiting=True)
    >>> after.caught_up, after.run_waiting, after.read_on
    (True, True, True)
    """
    if failed:
        return Next(report_error=True)
    if arrived:
        return Next(caught_up=kind == CATCH_UP, run_waiting=waiting and not stopped, read_on=not stopped)
    if stopped:
        return Next()
    return Next(catch_up_again=True) if waiting else Next(follow_later=True)


def after_key_step(*, failed: bool, stopped: bool, merged: int, steps_asked: int) -> Next:
    """What follows a step asked from the keyboard, as :meth:`Session.step` would report it.

    ``merged``: how many merges the run made. ``steps_asked``: the steps asked while it was on its way.

    A failed run reports its error. A run that merged nothing met a stop rule, and says so as a step's end.
    Otherwise the steps asked meanwhile follow, or, when none were asked, the trainer reads on ahead.
    A stopped run does nothing more: the command that stopped it has taken over.

    >>> after_key_step(failed=False, stopped=False, merged=1, steps_asked=3).steps_asked
    3
    """
    if failed:
        return Next(report_error=True)
    if stopped:
        return Next()
    if not merged:
        return Next(step_finished=True)
    return Next(steps_asked=steps_asked) if steps_asked else Next(read_on=True)
