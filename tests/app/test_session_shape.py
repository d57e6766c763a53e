"""The session package's shape (issue 24): the Session class lives in one module, with no mixins cut for
size, and its helpers are plain collaborators. The rules for what follows a silent run are plain
functions, checked here without a worker or an event loop."""
from __future__ import annotations

import inspect

from bpe_lens_app.session import ends
from bpe_lens_app.session.ends import Next, after_key_step, after_silent_move
from bpe_lens_app.session.run_kinds import AHEAD, CATCH_UP, needs_catch_up
from bpe_lens_app.session.session import Session


def test_the_session_class_is_defined_in_one_module_without_mixins():
    ours = [cls for cls in Session.__mro__ if cls.__module__.startswith("bpe_lens_app")]
    assert ours == [Session]
    assert inspect.getmodule(Session).__name__ == "bpe_lens_app.session.session"


def test_the_session_keeps_no_trainer_handle_for_tests():
    """SessionViews._trainer was production code kept only for tests (issue 24 lists it as dead)."""
    assert not hasattr(Session, "_trainer")


def test_a_catch_up_that_arrives_runs_the_waiting_command_and_reads_on():
    after = after_silent_move(CATCH_UP, failed=False, stopped=False, arrived=True, waiting=True)
    assert after == Next(caught_up=True, run_waiting=True, read_on=True)


def test_a_read_ahead_that_arrives_is_not_announced_as_caught_up():
    after = after_silent_move(AHEAD, failed=False, stopped=False, arrived=True, waiting=False)
    assert after == Next(read_on=True)


def test_a_stopped_catch_up_says_it_arrived_but_runs_nothing():
    after = after_silent_move(CATCH_UP, failed=False, stopped=True, arrived=True, waiting=True)
    assert after == Next(caught_up=True)


def test_a_redirected_catch_up_follows_later_or_at_once_for_a_waiting_command():
    assert after_silent_move(CATCH_UP, failed=False, stopped=False, arrived=False, waiting=False) == Next(
        follow_later=True)
    assert after_silent_move(CATCH_UP, failed=False, stopped=False, arrived=False, waiting=True) == Next(
        catch_up_again=True)
    assert after_silent_move(CATCH_UP, failed=False, stopped=True, arrived=False, waiting=True) == Next()


def test_a_failed_silent_run_only_reports_its_error():
    for kind in (CATCH_UP, AHEAD):
        assert after_silent_move(kind, failed=True, stopped=False, arrived=True, waiting=True) == Next(
            report_error=True)
    assert after_key_step(failed=True, stopped=False, merged=1, steps_asked=2) == Next(report_error=True)


def test_a_key_step_that_merged_nothing_reports_the_stop_rule():
    assert after_key_step(failed=False, stopped=False, merged=0, steps_asked=2) == Next(step_finished=True)


def test_a_key_step_is_followed_by_the_steps_asked_meanwhile_or_by_the_read_ahead():
    assert after_key_step(failed=False, stopped=False, merged=1, steps_asked=3) == Next(steps_asked=3)
    assert after_key_step(failed=False, stopped=False, merged=1, steps_asked=0) == Next(read_on=True)
    assert after_key_step(failed=False, stopped=True, merged=1, steps_asked=3) == Next()


def test_the_trainer_catches_up_when_behind_unsure_or_too_far_ahead():
    assert needs_catch_up(-1, True, 64)  # behind the position
    assert not needs_catch_up(0, False, 64)  # at the position
    assert not needs_catch_up(128, True, 64)  # reading ahead, within twice the read-ahead
    assert needs_catch_up(129, True, 64)  # too far ahead
    assert needs_catch_up(1, False, 64)  # ahead, but the top pairs shown come from the records


def test_the_end_rules_are_plain_functions_that_import_no_qt_themselves():
    assert "PySide6" not in inspect.getsource(ends)


def test_a_view_method_kept_before_a_corpus_reads_the_corpus_loaded_later(qtbot, session, small_corpus):
    """Panes keep bound views for good (``TokenChips(session.token)`` is made before any corpus): each call
    must read the session's current timeline, never the one that was current when the method was taken."""
    token, display, segmentation = session.token, session.display, session.segmentation
    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(small_corpus)
    first = segmentation(0)
    assert "".join(display(t) for t in first) == "".join(session.display(t) for t in session.segmentation(0))
    assert token(first[0]) == session.token(first[0])
