"""A restored workspace's other runs, back in the Variants tab: the window's run's branches (SuperBPE from one of
its merges) and the runs opened beside it (another rule on its text: PickyBPE, parity-aware BPE...).

The core decides what a saved run is and how it is made again (``bpe_core.workbench``: :func:`runs_beside`,
:func:`reopen_run`, :func:`restore_run`): its corpus checked, counted with its own rule and settings, trained to
its saved merge and its merges compared with the saved ones. Here each is run on the feature's worker, one after
another (progress and Cancel in the tab, as other long work), and opened on the Workbench as it comes: a branch
under the run, a run beside it listed after it. What could not come back, or came back with other merges, is
said once, in one message, when the last run is back; nothing else is lost. The runs beside the window's run
before the workspace was opened are gone by then, whatever their text (:meth:`VariantsFeature.discard_runs_beside
<.actions.VariantsFeature.discard_runs_beside>`, when the workspace's corpus loads): the saved runs keep their ids.
"""
from __future__ import annotations

from typing import List, Optional

from PySide6.QtCore import QTimer

from bpe_core import BPELensError, TrainingRun
from bpe_core.workbench import RunRestore, read_bench, reopen_run, restore_run, rule_name, runs_beside, start_model


class Reopener:
    """Reopens one workspace's branches, then its runs beside, for a :class:`VariantsFeature`."""

    def __init__(self, feature) -> None:
        self.feature = feature
        self.session = feature.session
        self._beside: list = []  # saved runs beside the window's run, still to reopen (the one under way first)
        self._said: List[str] = []  # what this restore could not bring back as saved, said once at the end
        self._run: Optional[TrainingRun] = None  # the window's run they are reopened for
        self._report = None  # the workspace restore that says what this restore found, once (report_to)
        self._holding: Optional[int] = None  # the restore's token while it waits for these runs (report_to)
        feature.calls.aborted.connect(self._on_stopped)
        feature.calls.errored.connect(lambda _exc: self._on_stopped())

    def report_to(self, restore) -> None:
        """Say what could not come back through ``restore`` (its ``hold``, ``note``, ``release``: the workspace's
        restore says it with the rest, once); without one it is said as an error, in one message."""
        self._report = restore

    @property
    def bench(self):
        return self.session.workbench.bench

    def reopen(self, ws) -> None:
        """After a workspace is restored (its run loaded and trained to its merge): its branches of the run are
        made again on a worker, one after another, then the runs beside it, each opened as it comes."""
        run = self.session.workbench.run
        try:
            saved = read_bench(ws)
        except BPELensError:
            return  # the restore said what is wrong with the file
        if run is None:
            return
        current = next((r for r in saved.runs if r.id == saved.current_run), None)
        pending = [r for r in saved.runs if current is not None and r.parent == current.id]
        self._run, self._beside, self._said = run, list(runs_beside(saved)), []
        for r in saved.runs:  # a continuation of a run beside (the app makes none): said, never dropped silently
            if r.parent is not None and (current is None or r.parent != current.id):
                self._said.append(f"{r.id} continues {r.parent} from its merge {r.transition or 0:,}: it is not "
                                  "reopened (only the window's run's branches are)")
        busy = pending or self._beside or self._said
        self._holding = self._report.hold() if busy and self._report is not None else None
        furthest = max((r.transition or 0 for r in pending), default=0)
        if furthest > run.timeline.merge_count:
            self._reach(run, furthest, pending)
        else:
            self._reopen_next(run, pending)

    # -- the run's branches ---------------------------------------------------------------------------------
    def _reach(self, run: TrainingRun, k: int, pending: list) -> None:
        """Branches start past the run's merge (it was undone below them; the workspace keeps its merges
        up to there): the run goes to merge ``k``, their starting vocabularies are taken there, and it
        comes back to where it was saved."""
        s, here = self.session, self.session.merge_count
        timer = QTimer(self.feature.window, interval=50)

        def arrived() -> None:
            if s.workbench.run is not run:
                timer.stop()  # another corpus was loaded meanwhile
                self._finish()
                return
            if s.is_running or s.is_loading or (s.merge_count < k and not s.stop_reason):
                return
            timer.stop()
            tl = run.timeline
            starts = {r.id: tl.model().truncated(r.transition or 0) for r in pending
                      if (r.transition or 0) <= tl.merge_count}
            s.seek(here)  # known merges: shown again from the records
            self._reopen_next(run, pending, starts)

        timer.timeout.connect(arrived)
        s.seek(k)
        timer.start()

    def _reopen_next(self, run: TrainingRun, pending: list, starts: Optional[dict] = None) -> None:
        tl, starts = run.timeline, starts or {}
        while pending and pending[0].id not in starts and (pending[0].transition or 0) > tl.merge_count:
            skipped = pending.pop(0)
            self._said.append(f"The branch {skipped.id} starts at merge {skipped.transition:,}, past the merges "
                              f"the run reached ({tl.merge_count:,}): it is not reopened")
        if not pending:
            self._reopen_beside(run)
            return
        saved = pending.pop(0)
        start = starts.get(saved.id) or start_model(run, saved.transition or 0)  # on the run's thread
        corpus = run.corpus
        self.feature.show_tab()
        self.feature.work(f"Reopening the branch from merge {saved.transition:,}",
                          lambda *, progress, cancel: restore_run(saved, corpus=corpus, start=start,
                                                                  progress=progress, cancel=cancel),
                          lambda result: self._on_branch_reopened(run, result, pending, starts))

    def _on_branch_reopened(self, run: TrainingRun, result, pending: list, starts: Optional[dict] = None) -> None:
        child, report = result
        if self.session.workbench.run is not run:
            self._finish()  # another text was opened meanwhile
            return
        if self.bench.is_open(child.id):
            child.id = self.bench.new_run_id()
        child.parent = run.id  # the run as the session opened it
        self.bench.add_run(child, select=False)
        if report.difference_text:
            self._said.append(f"Branch {child.id}: {report.difference_text}")
        self.feature.show_tab()
        self._reopen_next(run, pending, starts)

    # -- the runs beside it ---------------------------------------------------------------------------------
    def _reopen_beside(self, run: TrainingRun) -> None:
        """The next run beside the window's, made again as saved (its own corpus, rule and settings) on a
        worker; when none is left, what did not come back as saved is said."""
        if not self._beside:
            self._finish()
            return
        saved = self._beside[0]  # taken off when it is back: a Cancel names it too
        self.feature.show_tab()
        self.feature.work(f"Reopening {saved.id} ({rule_name(saved.config)}) at merge {saved.position:,}",
                          lambda *, progress, cancel: _reopened(saved, progress=progress, cancel=cancel),
                          lambda result: self._on_beside_reopened(run, saved, result))

    def _on_beside_reopened(self, run: TrainingRun, saved, result) -> None:
        opened, report = result
        self._beside.pop(0)
        if self.session.workbench.run is not run:
            self._finish()  # another text was opened meanwhile
            return
        name = f"{saved.id} ({rule_name(saved.config)})"
        if opened is None:
            self._said.append(f"{name}, run beside this one, is not reopened: {report.problem}")
        else:
            if self.bench.is_open(opened.id):  # the window's run took its id
                opened.id = self.bench.new_run_id()
            self.feature.keep_beside(opened)
            if report.changed_corpus:
                self._said.append(f"{name}: {report.changed_corpus}")
            if report.difference_text:
                self._said.append(f"{name}: {report.difference_text}")
        self._reopen_beside(run)

    # -- the end --------------------------------------------------------------------------------------------
    def _finish(self) -> None:
        said, self._said, self._run, self._beside = self._said, [], None, []
        token, self._holding = self._holding, None
        if token is not None:
            for text in said:
                self._report.note(text, token)
            self._report.release(token)
        elif said:  # one message for the whole restore, not one box each
            self.session.error_raised.emit("\n".join(said))

    def _on_stopped(self) -> None:
        """Cancelled (or failed) while reopening: the runs not reopened yet are named, once."""
        if self._run is None:
            return
        left = [f"{r.id} ({rule_name(r.config)})" for r in self._beside]
        self._beside = []
        if left:
            self._said.append(f"Reopening stopped: {', '.join(left)} not reopened (File → Open workspace… again "
                              "brings them back)")
        self._finish()


def _reopened(saved, *, progress, cancel):
    """:func:`reopen_run` on a worker; settings the core refuses are the run's problem, said in one line."""
    try:
        return reopen_run(saved, progress=progress, cancel=cancel)
    except BPELensError as exc:
        return None, RunRestore(saved.id, None, None, saved.position, 0, str(exc))
