"""Restoring a workspace: the corpus checked, counted again, trained to the saved merge, the merges
compared, the view put back.

The corpus is hashed on a worker and compared with the saved size and sha256. A changed or missing
corpus is said in a non-modal question offering what is possible: open with the changed corpus,
choose another one, or the saved merges alone as a vocabulary in an inspector tab. Training then
goes to the saved merge (a seek run on a worker when it is far) and the merges taken are compared
with the saved ones: a difference is said with the first merge that differs. The encode text, the
inspector tabs (read on a worker), the tab in front and the selected word come back.

A restore shows one dialog at most: what asks (the crash offer, or the corpus question). What it found - other
merges, a tab not reopened, and what other features add while they bring their part back (:meth:`Restorer.hold`,
:meth:`Restorer.note`, :meth:`Restorer.release`: the Variants tab's runs) - is said once, when all is back: in the
status bar, and in one box when nothing was asked in this restore (``report`` keeps the text).

The restore logic is the core's (``bpe_core.workbench``'s restore steps, tested without Qt): which corpus
cannot be read (:func:`corpus_problem_of`), how it changed (:func:`check_corpus`, on a worker) and where the
merges part (:func:`merges_difference`). This module keeps the Qt parts: asking the user and putting the view
back. The session trains the restored run itself (its timeline, its seek runs on a worker), so the core's
``restore_run``, which builds a timeline of its own, is not used here.
"""
from __future__ import annotations

import os
from typing import Any, Callable, List, Optional, Tuple, Union

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox

from bpe_core import open_vocabulary, resources
from bpe_core import BPELensError
from bpe_core.formats import CorpusRef, Workspace, merges_vocabulary
from bpe_core.workbench import NO_CORPUS, CorpusCheck, SavedRun, check_corpus, corpus_problem_of, merges_difference
from bpe_core.workbench import read_bench

from ...discard_questions import mark_saved, saved_state
from ...session.payloads import user_message
from ...runtime.worker import LatestWorker
from .state import select_word


class Restorer(QObject):
    """Brings one workspace back at a time; ``restored`` follows (also when the merges differ)."""

    restored = Signal(object)  # Workspace: its corpus is loaded, trained to its merge and checked
    branches_loaded = Signal(list)  # the saved branches, for the feature that owns them
    loaded = Signal(object)  # Workspace: its corpus is the window's now; the window's runs before it are discarded
    settled = Signal()  # every part of the restore is back (other features' too) and what it found was said

    def __init__(self, window, *, tell: Callable[[str, str], None], track: Callable[[Any], None],
                 remember_ref: Callable[[CorpusRef], None]) -> None:
        super().__init__(window)
        self.window, self.session = window, window.session
        self.question: Optional[QMessageBox] = None  # open while it asks about the corpus (tests answer it)
        self.pending: Optional[Workspace] = None  # being restored
        self._tell, self._remember_ref = tell, remember_ref
        self._restored_tab: Any = None  # the tab that was current, once the tabs are back
        self._waiting: set = set()  # what the restore still waits for: "merges" (the seek), "tabs" (read)
        self._notes: List[str] = []  # what this restore found, said once when all of it is back
        self._holds = 0  # parts still coming back (this restore's own, and other features')
        self._asked = False  # a dialog was shown in this restore (the crash offer, the corpus question)
        self._file_state: Optional[tuple] = None  # the runs the opened file holds (not the crash offer's)
        self.report = ""  # what the last restore found, as it was said
        self._position = 0  # the merge the restore went to
        self._generation = 0  # which restore this is: a part of an earlier one, coming back late, is not counted
        self._hashes = LatestWorker(track, self)
        self._tabs = LatestWorker(track, self)
        for slot in (self._hashes, self._tabs):
            slot.errored.connect(lambda exc: tell("BPE Lens", user_message(exc)))
        self._tabs.errored.connect(lambda _exc: self._arrived("tabs"))

    @property
    def busy(self) -> bool:
        return self.pending is not None

    def cancel(self) -> None:
        self._hashes.cancel()
        self._tabs.cancel()

    def restore(self, ws: Workspace, *, asked: bool = False) -> None:
        """Check the corpus (hashed on a worker), then load, train to the position and check the merges.
        ``asked``: the user was asked already (the crash offer): what the restore finds is not another box."""
        self._notes, self._holds, self._asked = [], 1, asked
        self._file_state = None if asked else _file_state(ws)  # File → Open: the window then holds the file
        self._generation += 1
        run = _current_run(ws)
        problem = corpus_problem_of(run)
        if problem is not None:  # missing, a folder, a pipe, a device: never opened
            self._ask_corpus(ws, problem)
            return
        path = ws.corpus.path
        self._hashes.start(lambda *, progress, cancel: check_corpus(run, cancel=cancel, progress=progress),
                           lambda check: self._on_corpus_checked(ws, check))
        self.window.statusBar().showMessage(f"Checking {os.path.basename(path)}…")

    def _on_corpus_checked(self, ws: Workspace, check: CorpusCheck) -> None:
        if check.refs:
            self._remember_ref(check.refs[0])
        if check.change is None:
            self._load(ws, _corpus_paths(ws))
        else:
            self._ask_corpus(ws, check.change)

    def _ask_corpus(self, ws: Workspace, change: str) -> None:
        """Say what happened to the corpus and offer what is possible (non-modal: the window stays live)."""
        problem = corpus_problem_of(_current_run(ws))
        there = problem is None
        title = ("The corpus has changed" if there else
                 "The corpus is missing" if problem == NO_CORPUS or problem.endswith("missing")
                 else "The corpus cannot be read")
        box = self.question = QMessageBox(QMessageBox.Warning, title, change + ".", QMessageBox.Cancel, self.window,
                                          objectName="corpus_box")
        if there:
            self._button(box, "Open with the changed corpus", "open_changed", lambda: self._load(ws, _corpus_paths(ws)))
        self._button(box, "Choose another corpus…", "choose_corpus", lambda: self._choose_corpus(ws))
        if ws.position:
            self._button(box, f"Open the {ws.position:,} merges as a vocabulary", "open_merges",
                         lambda: self._open_merges(ws))
        box.setInformativeText("The merges trained on another corpus may differ from the saved ones; "
                               "they are checked, and any difference is shown.")
        self._asked = True
        box.button(QMessageBox.Cancel).clicked.connect(self._on_corpus_question_cancelled)
        box.finished.connect(lambda *_: setattr(self, "question", None))
        box.open()
        self.window.statusBar().showMessage(change, 15000)

    def _on_corpus_question_cancelled(self) -> None:
        if not self.session.is_loaded and not self.session.is_loading:  # a start-up restore: show something
            self.session.load_corpus(str(resources.default_corpus()))

    def _button(self, box: QMessageBox, text: str, name: str, then: Callable[[], None]) -> None:
        button = box.addButton(text, QMessageBox.AcceptRole)
        button.setObjectName(name)
        button.clicked.connect(lambda *_: then())

    def _choose_corpus(self, ws: Workspace) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Corpus for the workspace", "",
                                              "Text (*.txt *.raw *.gz *.bz2 *.xz);;All files (*)")
        if path:
            self._load(ws, path)

    def _open_merges(self, ws: Workspace) -> None:
        name = f"workspace merges ({ws.config.preset})"
        vocabulary = self.session.workbench.add_vocabulary(merges_vocabulary(ws, name), name=name)
        self.window.inspector(vocabulary.id).encode_pane.set_text(ws.encode_text)  # its tab, made and in front

    def _load(self, ws: Workspace, corpus: Union[str, List[str]]) -> None:
        self.pending = ws
        self.session.corpus_loaded.connect(self._on_pending_loaded)
        self.session.error_raised.connect(self._on_pending_failed)
        self.session.load_cancelled.connect(self._on_pending_failed)
        self.session.load_corpus(corpus, ws.config)

    def _disconnect_pending(self) -> None:
        for signal, slot in ((self.session.corpus_loaded, self._on_pending_loaded),
                             (self.session.error_raised, self._on_pending_failed),
                             (self.session.load_cancelled, self._on_pending_failed)):
            signal.disconnect(slot)

    def _on_pending_failed(self, *_args) -> None:
        self._disconnect_pending()
        self.pending = None
        self._notes, self._holds = [], 0  # the failure was said; nothing more comes back

    def _on_pending_loaded(self, _info) -> None:
        self._disconnect_pending()
        ws = self.pending
        self.loaded.emit(ws)  # the runs the discard question named go, whatever the text (other features' too)
        self.window.encode.set_text(ws.encode_text)
        self.branches_loaded.emit(list(ws.branches))
        self._waiting = {"merges", "tabs"} if ws.tabs else {"merges"}
        self._reopen_tabs(ws)
        self.session.seek(ws.position)
        if self.session.is_running:  # more than a few merges: a seek run on a worker
            self.session.run_finished.connect(self._on_seek_finished)
        else:  # there already, or training stopped short
            self._arrived("merges")

    def _on_seek_finished(self, _end) -> None:
        self.session.run_finished.disconnect(self._on_seek_finished)
        self._arrived("merges")

    def _arrived(self, part: str) -> None:
        """``part`` is back; the restore ends when the seek and the tabs both are, whichever comes last (the
        tabs are read on a worker: ending at the seek said "restored" before them, and their "Opened …"
        then replaced what the user was told)."""
        if part not in self._waiting:
            return
        self._waiting.discard(part)
        if not self._waiting and self.pending is not None:
            self._check_merges()

    def _check_merges(self) -> None:
        """Arrived (or stopped short): the merges taken against the saved ones; the view put back."""
        ws, self.pending = self.pending, None
        run = self.session.workbench.run
        now = run.saved().merges if run is not None else ()
        difference = merges_difference(ws.merges[: ws.position], now)
        select_word(self.window, ws.view.get("selected_word"))
        if difference is not None:
            self.note(difference.text(ws.position, len(now)))
        self._position = ws.position
        self.restored.emit(ws)  # other features bring their parts back (hold, note, release)
        self.release()

    # -- what the restore found, said once --------------------------------------------------------------
    def hold(self) -> int:
        """Another part of the restore is coming back (a feature's, on a worker): the restore is said once
        :meth:`release` was called as often. Returns the restore's token for :meth:`note` and :meth:`release`."""
        self._holds += 1
        return self._generation

    def note(self, text: str, token: Optional[int] = None) -> None:
        """Something the restore found (said with the rest when all is back)."""
        if token in (None, self._generation):
            self._notes.append(text)

    def release(self, token: Optional[int] = None) -> None:
        """A part is back; when the last one is, what the restore found is said. A part of an earlier restore
        (``token``) changes nothing."""
        if token not in (None, self._generation) or self._holds == 0:
            return
        self._holds -= 1
        if self._holds == 0:
            self._say()

    def _say(self) -> None:
        if self._file_state is not None:  # the runs as the file holds them: quitting asks nothing (is_saved)
            mark_saved(self.session, self._file_state)
        notes, self._notes = self._notes, []
        at = f"Workspace restored at merge {self._position:,}"
        self.report = "\n\n".join(notes)
        if not notes:
            self.window.statusBar().showMessage(at, 10000)
        elif self._asked:  # the one dialog was the offer or the corpus question: the rest in the status bar
            more = f"{len(notes)} differences" if len(notes) > 1 else "a difference"
            self.window.statusBar().showMessage(f"{at} with {more}: {notes[0].splitlines()[0]}", 60000)
        else:
            self._tell("Workspace restored with differences" if len(notes) > 1 else
                       "Workspace restored with a difference", self.report)
        self.settled.emit()

    def _reopen_tabs(self, ws: Workspace) -> None:
        paths, self._restored_tab = list(ws.tabs), ws.view.get("current_tab")
        if not paths:
            return

        def read_all(*, progress, cancel) -> List[Tuple[str, Any]]:
            out = []
            for p in paths:
                try:
                    out.append((p, open_vocabulary(p)))
                except Exception as exc:  # noqa: BLE001 - one tab failing leaves the others
                    out.append((p, user_message(exc)))
            return out

        self._tabs.start(read_all, self._on_tabs_read)

    def _on_tabs_read(self, results: List[Tuple[str, Any]]) -> None:
        problems = []
        bench = self.session.workbench
        open_already = {os.path.abspath(v.path) for v in bench.vocabularies()  # shown in a tab of this window now
                        if v.path and self.window.inspector(v.id) is not None}
        for path, model in results:
            if isinstance(model, str):
                problems.append(model)
                continue
            if os.path.abspath(path) in open_already:  # its tab is open in this window: not a second one
                continue
            bench.add_vocabulary(model, path=path)  # the window makes its tab
        current = self._restored_tab
        if isinstance(current, int) and current >= 0:  # an index past the last tab changes nothing
            self.window.tabs.setCurrentIndex(current)
        if problems:
            self.note("Some inspector tabs were not reopened: " + "; ".join(problems))
        self._arrived("tabs")



def _current_run(ws: Workspace) -> SavedRun:
    """The run the workspace's own fields hold (its corpus files, all of them), as the core reads it; a
    workbench part that cannot be read leaves the run the fields say."""
    try:
        bench = read_bench(ws)
        run = next((r for r in bench.runs if r.id == bench.current_run), None)
    except BPELensError:
        run = None
    return run or SavedRun("r1", (ws.corpus,) if ws.corpus else (), ws.config, ws.position, ws.merges, ws.branches)


def _file_state(ws: Workspace) -> Optional[tuple]:
    """The workspace's runs as :func:`~bpe_lens_app.discard_questions.workspace_state` compares them (None: its
    workbench part cannot be read)."""
    try:
        return saved_state(read_bench(ws))
    except BPELensError:
        return None


def _corpus_paths(ws: Workspace) -> List[str]:
    """Every file of the saved corpus (a corpus of several files is loaded whole, as it was saved)."""
    return [ref.path for ref in _current_run(ws).corpus]
