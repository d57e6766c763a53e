"""File → Save Workspace… / Open Workspace… / Recent workspaces, autosave, and the restore offer.

Opening a workspace redoes what it records (:mod:`~bpe_lens_app.features.workspace.restore`). The loaded corpus
is hashed once, on a worker, for the autosaves and saves.

Other features may take part: ``branches_loaded`` hands the saved branches to the ties feature, which
replays them on the Workbench run (whose branches the workspace saves), and
:meth:`WorkspaceController.changed` asks for an autosave.
"""
from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Dict, Optional, Tuple

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox

from bpe_core import resources
from bpe_core.formats import (WORKSPACE_SUFFIX as SUFFIX, CorpusRef, Workspace, corpus_ref, read_workspace,
                              write_workspace)
from bpe_core.workbench import describe, worth_restoring

from ...discard_questions import mark_saved, workspace_state
from ...runtime import settings_store
from .autosave import DECLINED, Autosaver, crashed_autosaves, data_dir
from ...session.payloads import user_message
from ...recent_menus import fill_menu
from ...runtime.worker import LatestWorker, Threads
from .restore import Restorer
from .state import capture

RECENT_WORKSPACES = "recent_workspaces"
FILTER = f"BPE Lens workspace (*{SUFFIX});;All files (*)"


def install(window) -> None:
    window.workspace = WorkspaceController(window)
    ties = getattr(window, "ties", None)  # training branches (app/features/ties/actions.py) are saved with the rest
    if ties is not None:
        window.workspace.branches_loaded.connect(lambda saved: saved and ties.commands.restore(saved[0]))
    if getattr(window, "biography_panes", None) is not None:  # biography tabs (app/features/inspector) come back
        from ..inspector import reopen_biographies
        window.workspace.restored.connect(lambda ws: reopen_biographies(window, ws, window.workspace.restorer.note))
    if getattr(window, "health_panes", None) is not None:  # health tabs (app/features/health) come back
        from ..health import reopen_health
        window.workspace.restored.connect(lambda ws: reopen_health(window, ws, window.workspace.restorer.note))
    variants = getattr(window, "variants_feature", None)  # runs continuing the run (app/features/variants)
    if variants is not None:
        variants.reopener.report_to(window.workspace.restorer)  # said with the rest of the restore, once
        window.workspace.restorer.loaded.connect(lambda _ws: variants.discard_runs_beside())  # the question named them
        window.workspace.restored.connect(variants.reopen_branches)
    measures = getattr(window, "measures_feature", None)  # the Measures tab (app/features/measures), after the runs
    if measures is not None:
        from ..measures import reopen_measures
        window.workspace.restored.connect(lambda ws: reopen_measures(window, ws, window.workspace.restorer))
        window.workspace.restorer.settled.connect(measures.on_restore_settled)


class WorkspaceController(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window, self.session = window, window.session
        self.message: Optional[QMessageBox] = None  # the last problem said (corrupt file, other merges)
        self._offer: Optional[QMessageBox] = None  # the restore offer, while it asks
        self._refs: Dict[Tuple[str, int, int], CorpusRef] = {}  # (path, size, mtime) -> hashed reference
        self._threads = Threads()
        self._hashes = LatestWorker(self._threads.track, self)
        self._saves = LatestWorker(self._threads.track, self)
        for slot in (self._hashes, self._saves):
            slot.errored.connect(lambda exc: self._tell("BPE Lens", user_message(exc)))
        self.restorer = Restorer(window, tell=self._tell, track=self._threads.track, remember_ref=self._remember_ref)
        self.restored = self.restorer.restored  # Workspace: loaded, trained to its merge and checked
        self.branches_loaded = self.restorer.branches_loaded  # the saved branches, for their feature
        self.restored.connect(self._on_restorer_restored)
        self.autosaver = Autosaver(self.capture, data_dir(), self, busy=self.is_busy, live=window.isVisible)
        self.autosaver.failed.connect(lambda text: window.statusBar().showMessage(text, 15000))
        self._build_menu()
        self._connect()
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.finish)
        window.path_openers.append(self.open_if_workspace)

    # -- public -------------------------------------------------------------------------------------------
    def capture(self) -> Optional[Workspace]:
        """What the window shows as a workspace (None when not worth an autosave)."""
        info = self.session.corpus
        ref = self._ref(info.path) if info is not None else None
        ws = capture(self.window, ref)
        return ws if worth_restoring(ws, str(resources.default_corpus())) else None

    def is_busy(self) -> bool:
        """Restoring or loading: what the window shows is not a workspace yet (autosave waits)."""
        return self.restorer.busy or self.session.is_loading

    @property
    def question(self) -> Optional[QMessageBox]:
        """The question open now (the restore offer, or what to do about a changed corpus)."""
        return self._offer or self.restorer.question

    def changed(self, *_args) -> None:
        if self.window.isVisible():  # a closed window (the app quitting, a test's) saves nothing more
            self.autosaver.changed()

    def save_to(self, path: str) -> None:
        """Write the workspace to ``path`` on a worker (the corpus hashed first if it is not yet)."""
        ws = capture(self.window, None)
        if ws is None:
            self._tell("Save workspace", "Nothing to save yet: no corpus is loaded.")
            return
        try:  # the gate of every export: never the corpus or an open vocabulary
            from bpe_core.formats import check_output

            from ..exports import app_inputs
            check_output(path, inputs=app_inputs(self.window))
        except Exception as exc:  # noqa: BLE001 - said to the user, nothing is written
            self._tell("Save workspace", user_message(exc))
            return
        ref = self._ref(ws.corpus.path)
        state = workspace_state(self.session)  # what the file holds: the window asks nothing until it changes

        def save(*, progress, cancel) -> str:
            done = replace(ws, corpus=ref if ref.sha256 else corpus_ref(ref.path, cancel=cancel))
            write_workspace(done, path)
            return path

        self._saves.start(save, lambda saved: self._on_saved(saved, state))

    def open(self, path: str) -> None:
        """Read ``path`` and restore it (after asking when that would discard trained merges)."""
        try:
            ws = read_workspace(path)
        except Exception as exc:  # noqa: BLE001 - said to the user, nothing else changes
            self._tell("Open workspace", user_message(exc))
            return
        if self.window.ask_to_discard(f"Opening workspace {Path(path).name}"):
            settings_store.remember(self.window.settings, RECENT_WORKSPACES, str(path))
            self.restore(ws)

    def open_if_workspace(self, path: str) -> bool:
        """A path opened from the command line or dropped: True when it was a workspace."""
        from bpe_core.formats import is_workspace

        if not is_workspace(path):
            return False
        self.open(path)
        return True

    def restore(self, ws: Workspace, *, asked: bool = False) -> None:
        """Bring ``ws`` back (:class:`~bpe_lens_app.features.workspace.restore.Restorer`); ``restored`` follows.
        ``asked``: the crash offer was the restore's dialog (what it finds goes to the status bar)."""
        self.restorer.restore(ws, asked=asked)

    @property
    def report(self) -> str:
        """What the last restore found (other merges, tabs or runs not reopened), as it was said."""
        return self.restorer.report

    def offer_restore(self) -> bool:
        """At start: a session that did not exit cleanly left an autosave; offer it (True: restoring)."""
        crashed = crashed_autosaves(self.autosaver.path.parent)
        if not crashed:
            return False
        try:
            ws = read_workspace(str(crashed[0]))
        except Exception as exc:  # noqa: BLE001
            self._tell("Restore", f"The last session's autosave cannot be read: {user_message(exc)}")
            os.replace(crashed[0], crashed[0].with_name(DECLINED))
            return False
        box = self._offer = QMessageBox(
            QMessageBox.Question, "Restore the last session?",
            "BPE Lens did not exit cleanly last time. Restore the session it was showing?",
            QMessageBox.Yes | QMessageBox.No, self.window, objectName="restore_box")
        when = time.strftime("%H:%M on %a %d %b", time.localtime(crashed[0].stat().st_mtime))
        box.setInformativeText(f"{describe(ws)}.\nAutosaved at {when}.\n\nNo keeps it as "
                               f"{crashed[0].with_name(DECLINED)} (File → Open workspace… opens it later).")
        box.setDefaultButton(QMessageBox.Yes)
        try:
            answer = box.exec()
        finally:
            self._offer = None
        if answer != QMessageBox.Yes:
            os.replace(crashed[0], crashed[0].with_name(DECLINED))
            return False
        self.autosaver.adopt(crashed[0])  # ours now: a crash while restoring still leaves it
        self.restore(ws, asked=True)
        return True

    def finish(self) -> None:
        """A clean exit: workers stopped, the autosave removed (next start offers nothing)."""
        self._hashes.cancel()
        self.restorer.cancel()
        self._threads.wait()
        self.autosaver.finish()

    # -- restoring ----------------------------------------------------------------------------------------
    # -- autosave, the corpus reference ------------------------------------------------------------------
    def _connect(self) -> None:
        s, w = self.session, self.window
        for signal in (s.steps_applied, s.steps_undone, s.reset_done, s.config_changed,
                       w.encode.editor.textChanged, w.tabs.currentChanged, w.tabs.tabBar().tabMoved):
            signal.connect(self.changed)
        s.corpus_loaded.connect(self._on_session_corpus_loaded)
        w.words.word_selected.connect(self._on_words_word_selected)

    def _on_session_corpus_loaded(self, info) -> None:
        if self._ref(info.path).sha256 is None and os.path.isfile(info.path):
            path = info.path  # hashed once per corpus file, on a worker
            self._hashes.start(lambda *, progress, cancel: corpus_ref(path, cancel=cancel), self._remember_ref)
        self.changed()

    def _on_restorer_restored(self, ws: Workspace) -> None:
        self.session.workbench.select_word(ws.view.get("selected_word"))
        self.changed()

    def _on_words_word_selected(self, index: int) -> None:
        words = self.session.words
        self.session.workbench.select_word(words[index] if 0 <= index < len(words) else None)
        self.changed()

    @staticmethod
    def _key(path: str) -> Tuple[str, int, int]:
        try:
            st = os.stat(path)
        except OSError:
            return (path, -1, -1)
        return (path, st.st_size, st.st_mtime_ns)

    def _ref(self, path: str) -> CorpusRef:
        """The corpus's hashed reference when known, else its path and size (hash still None)."""
        key = self._key(path)
        return self._refs.get(key) or CorpusRef(path, key[1], None)

    def _remember_ref(self, ref: CorpusRef) -> None:
        self._refs[self._key(ref.path)] = ref
        self.changed()

    # -- menus, messages ----------------------------------------------------------------------------------
    def _build_menu(self) -> None:
        w, file = self.window, self.window.menus["file"]
        before = next((a for a in file.actions() if a.objectName() == "action_save_vocabulary"), None)
        actions = [w.make_action("Open workspace…", self.choose_and_open, "Ctrl+Alt+O", "open_workspace"),
                   w.make_action("Save workspace…", self.choose_and_save, "Ctrl+Alt+S", "save_workspace")]
        self.recent_menu = QMenu("Recent workspaces", file)
        if before is None:
            file.addActions(actions)
            file.addMenu(self.recent_menu)
        else:
            file.insertActions(before, actions)
            file.insertMenu(before, self.recent_menu)
        self.recent_menu.aboutToShow.connect(lambda: fill_menu(
            self.recent_menu, settings_store.recent(w.settings, RECENT_WORKSPACES), self.open))

    def choose_and_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Open workspace", "", FILTER)
        if path:
            self.open(path)

    def choose_and_save(self) -> None:
        from ..exports import default_folder
        start = default_folder(self.window) / f"workspace{SUFFIX}"  # not the working folder
        path, _ = QFileDialog.getSaveFileName(self.window, "Save workspace", str(start), FILTER)
        if path:
            self.save_to(path if Path(path).suffix else path + SUFFIX)

    def _on_saved(self, path: str, state: tuple = ()) -> None:
        mark_saved(self.session, state)
        settings_store.remember(self.window.settings, RECENT_WORKSPACES, path)
        self.window.statusBar().showMessage(f"Saved {path}", 5000)

    def _tell(self, title: str, text: str) -> None:
        """A problem in a non-modal box (kept in ``message`` so a test reads what was said)."""
        self.window.statusBar().showMessage(text.splitlines()[0], 15000)
        self.message = QMessageBox(QMessageBox.Warning, title, text, QMessageBox.Ok, self.window)
        self.message.setObjectName("workspace_message")
        self.message.open()


def start(window, path: Optional[str], *, offer: bool) -> bool:
    """At start-up: open the workspace ``path``, or offer the crashed session's; True when one is opened
    (the caller then loads no default corpus)."""
    if path:
        window.workspace.open(path)
        return True
    return offer and window.workspace.offer_restore()
