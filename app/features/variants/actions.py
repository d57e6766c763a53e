"""Training → "Continue as SuperBPE from here" and View → "Compare variants".

*Continue*: the current run's vocabulary at its merge k (taken on the GUI thread, from the records when
the trainer is away) is continued with SuperBPE's stage 2 on the run's corpus: the corpus is counted with
the stage-2 pre-tokenizer and k's merges replayed on a worker (progress, Cancel), then the new run opens
on the Workbench as the current run's branch at k (``parent``, ``transition``: a workspace saves it). Each
transition point asked for is one more branch; they share stage 1. The Variants tab shows them, steps
them and compares them with the run.

*Compare*: the Variants tab, which puts every open run side by side at its merge (the core's
:func:`~bpe_core.analysis.variant_compare.variant_figures`). It lives here, not in compare/, because what
it compares is runs (their rules, branches and curves), where compare/ diffs two vocabularies' merges.
"""
from __future__ import annotations

import os
from typing import List, Optional, Sequence

from bpe_core import BPELensError, Encoder, TrainingRun
from bpe_core.analysis import run_language_costs, variant_figures, word_groups
from bpe_core.workbench import continuation_timeline, start_model, superbpe_config

from .pane import VariantsTab, run_name
from .reopen import Reopener
from ...runtime.worker import GeneratorWorker, LatestWorker, keep_alive
from ...session.text_words import text_words_of


def install(window) -> None:
    window.variants_feature = VariantsFeature(window)


def continue_as_superbpe(window) -> None:
    """What Training → "Continue as SuperBPE from here" does, for another feature (the training settings'
    SuperBPE rule, once its run reaches the transition point): a branch of the run at its merge."""
    feature = getattr(window, "variants_feature", None)
    if feature is not None:
        feature.continue_superbpe()


def add_run_beside(window, run: TrainingRun) -> None:
    """Add ``run``, made elsewhere (a guided example's parity-aware run), beside the window's run as "Add a run
    with another rule…" adds one: listed and compared in the Variants tab, closed when another text or a workspace
    opens."""
    feature = getattr(window, "variants_feature", None)
    if feature is not None:
        feature._on_rule_run(run, feature._for())


class VariantsFeature:
    """The SuperBPE continuations of one window's run, and the Variants tab."""

    def __init__(self, window) -> None:
        self.window = window
        self.session = window.session
        self.calls = LatestWorker(keep_alive)
        self.calls.progressed.connect(self._on_calls_progressed)
        self.calls.errored.connect(self._on_calls_errored)
        self.calls.aborted.connect(self._on_calls_aborted)
        self.tab: Optional[VariantsTab] = None
        self.runner: Optional[GeneratorWorker] = None  # a branch run to its end
        self._figures: dict = {}  # (run, timeline, merge, parent's last point) -> its figures
        self._groups: dict = {}  # run id -> (its timeline's words, its text's words, what tokens per word counts)
        self.texts = text_words_of(self.session)  # each corpus's text's words, read once for every pane
        self.texts.read.connect(lambda _key: self._refresh())
        self._beside: dict = {}  # a run added with another rule -> the text of the window's run it was added beside
        self._discarded = 0  # how often every run beside was discarded (a run still counting then is not added)
        self._loaded: Optional[tuple] = None  # the text and settings the window's run was last loaded with
        self._work_text = "SuperBPE stage 2: counting"  # what the worker does, said with its progress
        self._cancelled_text = ""  # what the status bar says when that work is cancelled
        self.continue_action = window.make_action("Continue as SuperBPE from here", self.continue_superbpe,
                                                  name="continue_superbpe")
        self.compare_action = window.make_action("Compare variants", self.show_tab, name="compare_variants")
        self.add_rule_action = window.make_action("Add a run with another rule…", self.add_rule_run,
                                                  name="add_rule_run")
        window.menus["train"].addSeparator()
        window.menus["train"].addAction(self.continue_action)
        window.menus["view"].addAction(self.compare_action)
        window.tab_closed.connect(self._on_window_tab_closed)
        self.session.corpus_loaded.connect(lambda *_: self._refresh())
        self.session.run_finished.connect(lambda *_: self._refresh())
        self.session.config_changed.connect(lambda *_: self._offer_continue())
        self.session.corpus_loaded.connect(lambda *_: self._offer_continue())
        self.session.corpus_loaded.connect(lambda *_: self._close_runs_of_other_text())
        self.reopener = Reopener(self)  # a restored workspace's branches and runs beside, back

    @property
    def bench(self):
        return self.session.workbench.bench

    def runs(self) -> List[TrainingRun]:
        """Every open run (the session's first), each followed by its branches by transition point."""
        current = self.session.workbench.run
        roots = [r for r in self.bench.runs if r.parent is None]
        roots.sort(key=lambda r: r is not current)
        return [x for r in roots for x in (r, *self.bench.children(r.id))]

    # -- continue as SuperBPE -------------------------------------------------------------------------------
    def _offer_continue(self) -> None:
        """SuperBPE's stage 2 continues a plain BPE run: off on PickyBPE and parity-aware runs, saying why."""
        rule = {"picky": "PickyBPE", "parity": "parity-aware BPE"}.get(self.session.config.variant)
        self.continue_action.setEnabled(rule is None)
        self.continue_action.setToolTip(
            "SuperBPE's stage 2 continues a run's vocabulary at its merge" if rule is None else
            f"Not for a {rule} run: SuperBPE continues plain BPE (start a plain BPE run in Training settings)")

    def continue_superbpe(self) -> None:
        """Make a branch of the current run at its merge: SuperBPE's stage 2 from there (on a worker)."""
        run, s = self.session.workbench.run, self.session
        if run is None or s.is_loading or self.busy:
            return
        k = s.merge_count
        try:
            config = superbpe_config(run.config, k)
            start = start_model(run, k)
        except BPELensError as exc:
            s.error_raised.emit(str(exc))
            return
        corpus = run.corpus
        self.show_tab()
        self._busy(f"SuperBPE stage 2 from merge {k:,}: counting")
        self._work_text = "SuperBPE stage 2: counting"
        self._cancelled_text = f"SuperBPE from merge {k:,} cancelled: no branch was made."
        self.calls.start(lambda *, progress, cancel: continuation_timeline(corpus, config, start, progress=progress,
                                                                            cancel=cancel),
                         lambda timeline: self._on_continued(run, k, timeline))

    def _on_continued(self, parent: TrainingRun, k: int, timeline) -> None:
        self._busy("")
        if self.session.workbench.run is not parent:
            return  # another corpus was loaded meanwhile (its run may have the same id)
        child = TrainingRun(self.bench.new_run_id(), parent.corpus, timeline, parent.refs, parent=parent.id,
                            transition=k)
        self.bench.add_run(child, select=False)  # the training panes stay on the run
        self.show_tab(select=child.id)

    def _busy(self, text: str) -> None:
        if self.tab is not None:
            self.tab.busy(text)

    def _on_calls_progressed(self, p) -> None:
        if self.tab is not None:
            self.tab.busy(self._work_text, p.done, p.total)

    def _on_calls_aborted(self) -> None:
        """The work was cancelled: the tab's bar goes, and the status bar says what was not made."""
        self._busy("")
        if self._cancelled_text:
            self.window.statusBar().showMessage(self._cancelled_text, 8000)

    def _on_calls_errored(self, exc) -> None:
        self._busy("")
        self.session.error_raised.emit(str(exc))

    # -- a run with another rule, beside the window's ---------------------------------------------------------
    def add_rule_run(self) -> None:
        """Ask for a rule (the training settings' fields) and open a run of it on the window's corpus (parity:
        on its languages) as another run of the Workbench, counted on a worker; the window's run stays."""
        from .add_rule import AddRuleDialog, rule_run  # here: the training feature imports this package

        run, s = self.session.workbench.run, self.session
        if run is None or s.is_loading or self.busy:
            return
        dialog = AddRuleDialog(run.config, self.window)
        if not dialog.exec():
            return
        config, languages, corpus, new_id = dialog.config(), dialog.languages(), run.corpus, self.bench.new_run_id()
        text = self._for()
        self.show_tab()
        self._busy(f"A {config.variant} run: counting")
        self._work_text = f"A {config.variant} run: counting"
        self._cancelled_text = f"The {config.variant} run beside was cancelled: no run was added."
        self.calls.start(lambda *, progress, cancel: rule_run(new_id, corpus, config, languages, progress=progress,
                                                              cancel=cancel),
                         lambda new: self._on_rule_run(new, text))

    def _on_rule_run(self, new: TrainingRun, added_for: tuple) -> None:
        self._busy("")
        if self.bench.is_open(new.id) or added_for != self._for():
            return  # another text was opened meanwhile, or a workspace
        self._beside[new.id] = self._text()
        self.bench.add_run(new, select=False)  # the training panes stay on the window's run
        self.show_tab(select=new.id)

    def _text(self) -> tuple:
        """The window's run's text (its files): what a run added beside it was added for."""
        run = self.session.workbench.run
        return tuple(sorted(os.path.abspath(p) for p in run.corpus.paths)) if run is not None else ()

    def _for(self) -> tuple:
        """What a run being made beside the window's run is for: its text, until the runs beside are discarded."""
        return self._text(), self._discarded

    def discard_runs_beside(self) -> None:
        """A workspace was opened over the window (File → Open workspace…, after the question that names these
        runs): every run beside the window's run goes, whatever its text (the workspace's own come back as saved,
        with their saved ids); one still being made is not added."""
        current = self.session.workbench.run
        self._discarded += 1
        self._beside.clear()
        for run in [r for r in self.bench.runs if r is not current and r.parent is None]:
            if self.bench.is_open(run.id):
                self.bench.close_run(run.id)  # its branches with it
        self._refresh()

    def _close_runs_of_other_text(self) -> None:
        """Another text was opened: the runs added beside the old one go (they would be compared with a run
        on other text); a new rule on the same text keeps them. The same text opened again with the same
        settings is the run started again, and the question named the runs beside as discarded: they go too."""
        text, config = self._text(), self.session.config
        again, self._loaded = self._loaded == (text, config), (text, config)
        if again:
            self.discard_runs_beside()
            return
        for rid in [rid for rid, beside in self._beside.items() if beside != text]:
            del self._beside[rid]
            if self.bench.is_open(rid):
                self.bench.close_run(rid)
        self._refresh()

    # -- a branch run to its end ------------------------------------------------------------------------------
    def run_branch(self) -> None:
        """Run the selected branch until its stop rule (the vocabulary size) on a worker; its frames are
        applied here as they come, Cancel keeps the merges made."""
        run = self.tab.selected() if self.tab is not None else None
        if run is None or run is self.session.workbench.run or run.timeline.is_moving or self.busy:
            return
        tl = run.timeline
        total = max(1, tl.target_merges - tl.merge_count)
        move = tl.forward()
        worker = self.runner = GeneratorWorker(move, move.frame)
        worker.yielded.connect(lambda: self._apply(tl, worker))
        worker.progressed.connect(lambda n: self.tab and self.tab.busy("Running the branch", n, total))
        worker.ended.connect(lambda error: self._on_run_ended(tl, worker, error))
        keep_alive(worker)
        self._busy("Running the branch")
        worker.start()

    @property
    def busy(self) -> bool:
        return self.calls.busy or self.runner is not None

    def cancel(self) -> None:
        self.calls.cancel()
        if self.runner is not None:
            self.runner.requestInterruption()

    def _apply(self, tl, worker: GeneratorWorker) -> None:
        for frame in worker.take_batches():
            tl.apply(frame)

    def _on_run_ended(self, tl, worker: GeneratorWorker, error) -> None:
        self._apply(tl, worker)
        self.runner = None
        self._busy("")
        if error is not None:
            self.session.error_raised.emit(str(error))
        self._refresh()

    # -- a workspace's other runs, back (reopen.py) ----------------------------------------------------------
    def reopen_branches(self, ws) -> None:
        """After a workspace is restored: its branches of the run and the runs beside it, made again on a
        worker one after another and listed here as they come (:class:`~.reopen.Reopener`)."""
        self.reopener.reopen(ws)

    def work(self, text: str, fn, done) -> None:
        """Run ``fn(progress=, cancel=)`` on the feature's worker, ``text`` and its progress in the tab (Cancel
        there stops it); ``done(result)`` on the GUI thread."""
        self._work_text, self._cancelled_text = text, ""  # (a workspace's reopening says its own)
        self._busy(text)

        def returned(result) -> None:
            self._busy("")
            done(result)

        self.calls.start(fn, returned)

    def keep_beside(self, run: TrainingRun) -> None:
        """Open ``run`` (made elsewhere: a workspace's run beside the window's) beside the window's run, as
        "Add a run with another rule…" opens one."""
        self._beside[run.id] = self._text()
        self.bench.add_run(run, select=False)
        self.show_tab()

    # -- the tab --------------------------------------------------------------------------------------------
    def show_tab(self, select: Optional[str] = None) -> VariantsTab:
        tabs = self.window.tabs
        if self.tab is None:
            self.tab = VariantsTab(self.figures, self.cancel, current=lambda: self.session.workbench.run)
            self.tab.run_button.clicked.connect(self.run_branch)
            self.tab.add_button.clicked.connect(self.add_rule_run)
            self.tab.tree.addAction(self.continue_action)  # the runs' context menu
            self.tab.tree.addAction(self.add_rule_action)
            tabs.addTab(self.tab, "Variants")
        tabs.setCurrentWidget(self.tab)
        self.tab.set_runs(self.runs(), select=select)
        return self.tab

    def figures(self, runs: Sequence[TrainingRun]) -> List:
        """The core's figures of each run at its merge (a branch's curve continues its parent's). What a
        run's tokens per word is counted over (its words' scripts, its text's words) is found once per run,
        its text read once for all the runs on it, on a worker (until then the tab shows no tokens per word);
        a run that has not moved is not asked again (stepping one branch recounts that branch only)."""
        out, curves, kept = [], {}, {}
        for run in runs:
            tl = run.timeline
            shared = curves.get(run.parent, ())  # the parent's known records: the stretch a branch shares
            text = self.texts.words(run.corpus)  # READING (no tokens per word yet) until read on the worker
            key = (run.id, id(tl), tl.merge_count, run.parent and (len(shared), shared[-1:]), id(text))
            f = self._figures.get(key)
            if f is None:
                known = self._groups.get(run.id)
                if known is None or known[0] is not tl.words or known[1] is not text:  # another timeline or text
                    known = self._groups[run.id] = (tl.words, text, word_groups(tl, text))
                costs = run_language_costs(tl, run.corpus.paths, Encoder(tl.model()).encode_ids)
                f = variant_figures(run_name(run), tl, offset=run.transition or 0, groups=known[2],
                                    base_curve=curves.get(run.parent, ()), language_costs=costs)
            kept[key] = f
            curves[run.id] = f.known_curve
            out.append(f)
        self._figures = kept
        self._groups = {r.id: self._groups[r.id] for r in runs if r.id in self._groups}
        return out

    def _refresh(self) -> None:
        if self.tab is not None and not self.session.is_running and self.runner is None:
            self.tab.set_runs(self.runs())

    def _on_window_tab_closed(self, widget) -> None:
        if widget is self.tab:
            self.tab = None
