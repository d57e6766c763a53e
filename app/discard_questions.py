"""The questions asked before trained merges are thrown away: new settings, another corpus, quitting.

A workspace just saved holds everything the window's runs hold: until the next change nothing is lost, so
nothing is asked (:func:`mark_saved` when File → Save workspace has written, :func:`is_saved` before asking).
So does a workspace just opened (File → Open workspace…) once its runs are back as the file holds them; the
crash autosave restored is not marked (a clean exit deletes it: quitting asks).

Opening a text names it as the user knows it: its file, or "the 8 files of parallel/ (arb.txt, deu.txt, …)"
(:func:`text_name`). Opening the run's own text again with its settings is a request to start the run again
(File → Examples chosen again, File → Open of the same file): still asked, since the merges and the runs beside
go, but as that - "Start the run again?" (:func:`opening_action` gives a :class:`Reopening` action).
"""
from __future__ import annotations

import os
import weakref
from typing import Any, List, Sequence, Tuple

from PySide6.QtWidgets import QMessageBox, QWidget

#: another run that an action discards: what the Variants tab calls it, its own merges, whether it is a branch
Lost = Tuple[str, int, bool]


#: each session's runs as its last saved workspace holds them (:func:`workspace_state`)
_SAVED: "weakref.WeakKeyDictionary[Any, tuple]" = weakref.WeakKeyDictionary()


def workspace_state(session) -> tuple:
    """What a workspace keeps of the session's runs (their text, rule and settings, merge, merges and branches),
    to tell whether the window still shows what was saved."""
    return saved_state(session.workbench.bench.saved())


def saved_state(bench) -> tuple:
    """:func:`workspace_state` of a workspace's runs as the core reads them (``read_bench``), by run id (a restore
    opens them in another order than they were saved)."""
    return tuple(sorted(((r.id, tuple(ref.path for ref in r.corpus), r.config, r.position, tuple(r.merges),
                          r.branches, r.parent, r.transition) for r in bench.runs), key=lambda state: state[0]))


def mark_saved(session, state: tuple) -> None:
    """A workspace holding ``state`` (:func:`workspace_state` when it was captured) has been written."""
    _SAVED[session] = state


def is_saved(session) -> bool:
    """Whether the last saved workspace holds the runs as they are now (then nothing is discarded unsaved)."""
    state = _SAVED.get(session)
    return state is not None and state == workspace_state(session)


class Reopening(str):
    """An action that opens the run's own text again with the same settings: it restarts the run."""


def text_name(paths: Sequence[str]) -> str:
    """A text as the user knows it: ``a.txt``, or ``the 8 files of parallel/ (arb.txt, deu.txt, …)``."""
    names = [os.path.basename(p) for p in paths]
    if len(names) == 1:
        return names[0]
    folders = {os.path.basename(os.path.dirname(os.path.abspath(p))) for p in paths}
    where = f" of {folders.pop()}/" if len(folders) == 1 else ""
    shown = ", ".join(names[:2]) + (", …" if len(names) > 2 else "")
    return f"the {len(names)} files{where} ({shown})"


def opening_action(session, paths: Sequence[str], config=None) -> str:
    """What opening ``paths`` (with ``config``; None: the settings now) is called in the question: a
    :class:`Reopening` when it is the run's own text with its settings."""
    action = f"Opening {text_name(paths)}"
    info = session.corpus
    same = (info is not None and session.is_loaded
            and [os.path.abspath(p) for p in (info.paths or (info.path,))] == [os.path.abspath(p) for p in paths]
            and (config is None or config == session.config))
    return Reopening(action) if same else action


def trained_merges(session) -> int:
    """Every merge trained so far, not only those up to the position (undone merges are lost too)."""
    return max(len(session.timeline), session.merge_count)


def other_runs_lost(session) -> List[Lost]:
    """The Workbench's other runs, which go with the window's run: its branches (SuperBPE from a merge) close
    with it, and the runs beside it (another rule on its text) when the app quits or another text opens (a
    new corpus, a workspace, a vocabulary trained further on a corpus)."""
    from .features.variants import run_name

    current = session.workbench.run
    return [(run_name(r), r.merges_trained, r.parent is not None) for r in session.workbench.bench.runs
            if r is not current]


def discard_text(action: str, trained: int, others: Sequence[Lost] = ()) -> str:
    """The question: the window's run's merges, then each other run lost with its merges (a :class:`Reopening`
    says that the run starts again)."""
    again = isinstance(action, Reopening)
    ask = "Start the run on the same text again?" if again else "Continue?"
    if again:
        action = f"{action} again restarts its run at merge 0 with the same settings: it"
    if not others:
        return (f"{action} discards the {trained:,} merges trained so far (File → Save vocabulary keeps them). "
                f"{ask}")
    listed = "; ".join(f"{name}, {n:,} merge{'' if n == 1 else 's'}{' of its own' if branch else ''}"
                       for name, n, branch in others)
    head = f"the {trained:,} merges trained so far and the runs that go with it" if trained else "the runs open"
    return (f"{action} discards {head}: {listed} (File → Save vocabulary keeps the run's "
            f"merges; File → Save workspace keeps the run, its branches and the runs beside it). {ask}")


def confirm_reset(parent: QWidget, session) -> bool:
    """Ask before settings throw away trained merges (no question at merge 0)."""
    trained = trained_merges(session)
    if trained == 0 or is_saved(session):
        return True
    answer = QMessageBox.question(parent, "Restart training?",
                                  f"New settings restart training at merge 0; the {trained:,} "
                                  "merges so far are discarded. Continue?")
    return answer == QMessageBox.Yes


def discard_box(parent: QWidget, action: str, trained: int, others: Sequence[Lost] = ()) -> QMessageBox:
    """The question whether ``action`` may discard the ``trained`` merges and the ``others`` runs (No is the
    default answer)."""
    title = "Start the run again?" if isinstance(action, Reopening) else "Discard trained merges?"
    box = QMessageBox(QMessageBox.Question, title, discard_text(action, trained, others),
                      QMessageBox.Yes | QMessageBox.No, parent)
    box.setObjectName("discard_box")
    box.setDefaultButton(QMessageBox.No)
    return box
