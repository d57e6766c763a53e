"""View → "Measures…": the Measures tab, curves over vocabulary size of every open run and branch.

The evaluation text is the run's own corpus until the user chooses other files (held-out text, one file
per language for parallel text). Compute takes the runs and branches on the GUI thread
(:func:`.subjects.subjects`) and computes their curves on a worker with progress and Cancel; the vertical
line follows the window's merge (steps, undo, scrubbing). Exports: the curves as CSV (the core's
``curves_csv``), the chart as PNG or SVG, through the exports' gate (never over an input).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Sequence, Tuple

from PySide6.QtWidgets import QFileDialog

from .pane import MeasuresPane
from .subjects import compute_all, default_every, reach_of, subjects
from ...runtime.worker import LatestWorker, keep_alive
from ...session.payloads import user_message

ACTION_TEXT = "Measures…"
#: the measures under which the note says which language parity is measured against
PARITY_MEASURES = ("parity", "parity_gini")


def install(window) -> None:
    window.measures_feature = MeasuresFeature(window)


def show_measures(window, eval_paths: Sequence[str], *, measure: str = "bytes_per_token", group: str = "all",
                  every: Optional[int] = None) -> None:
    """Open (or bring up) the Measures tab with these evaluation files, measure and group picked, and
    compute the curves of every open run and branch off the GUI thread (``every``: the default for the
    runs' length when None)."""
    feature = window.measures_feature
    pane = feature.show_tab()
    feature.use_files(eval_paths)
    pane.select(measure, group)
    if every is not None:
        pane.every.setValue(every)
        feature.every_set = True
    feature.compute()


class MeasuresFeature:
    """The Measures tab of one window: its evaluation files, the worker that computes, the exports."""

    def __init__(self, window) -> None:
        self.window = window
        self.session = window.session
        self.pane: Optional[MeasuresPane] = None
        self.chosen = False  # the user chose evaluation files (else: the run's corpus, following it)
        self.every_set = False  # the user (or a caller) set every k (else: the default for the runs' length)
        self._setting_every = False
        self.dropped = False  # a computation was cancelled because the evaluation files changed
        self.reach = 0  # the merge the curves shown reach
        # what the note says of them: the summary, the reference language under the parity measures, the notes
        self.summary, self.parity, self.notes = "", "", ""
        self.pending = False  # a restored workspace's curves, computed once the restore has all its runs back
        self.calls = LatestWorker(keep_alive)
        self.calls.progressed.connect(self._on_progress)
        self.calls.errored.connect(self._on_errored)
        self.calls.aborted.connect(self._on_aborted)
        self.action = window.make_action(ACTION_TEXT, self.show_tab, name="measures")
        self.action.setStatusTip("Curves over vocabulary size: bytes per token, Rényi efficiency, parity, … of "
                                 "every run and branch, on an evaluation text")
        window.menus["view"].addAction(self.action)
        window.tab_closed.connect(self._on_window_tab_closed)
        s = self.session
        for signal in (s.steps_applied, s.steps_undone, s.reset_done):
            signal.connect(lambda *_: self._follow())
        s.corpus_loaded.connect(lambda *_: self._on_corpus_loaded())

    # -- the tab --------------------------------------------------------------------------------------------
    def show_tab(self, front: bool = True) -> MeasuresPane:
        """The tab (made when it is not open), brought to the front unless ``front`` is False."""
        if self.pane is None:
            pane = self.pane = MeasuresPane()
            pane.compute_requested.connect(self.compute)
            pane.cancel_requested.connect(self.calls.cancel)
            pane.choose_files_requested.connect(self.choose_files)
            pane.corpus_files_requested.connect(self.use_corpus)
            pane.export_requested.connect(self.export)
            pane.every.valueChanged.connect(self._on_every_edited)
            pane.destroyed.connect(self._on_pane_destroyed)  # the window went (closed, replaced): stop computing
            pane.measure_box.currentIndexChanged.connect(lambda *_: self._follow())  # the parity note or not
            for box in (pane.measure_box, pane.group_box):  # what the tab shows is in the workspace's autosave
                box.currentIndexChanged.connect(self._changed)
            self.window.tabs.addTab(pane, "Measures")
            if not self.chosen:
                pane.set_files(self._corpus_paths())
            self._default_every(reach_of(self.session.workbench))
            self._follow()
        if front:
            self.window.tabs.setCurrentWidget(self.pane)
        return self.pane

    def _corpus_paths(self) -> Tuple[str, ...]:
        info = self.session.corpus
        return tuple(info.paths or (info.path,)) if info is not None else ()

    def use_files(self, paths: Sequence[str]) -> None:
        self.chosen = True
        self._set_files([os.fspath(p) for p in paths])

    def use_corpus(self) -> None:
        self.chosen = False
        self._set_files(self._corpus_paths())

    def _set_files(self, paths: Sequence[str]) -> None:
        """Other evaluation files: the curves of the old ones go at once (none is shown under the new label)."""
        pane = self.show_tab(front=False)
        old = pane.paths
        pane.set_files(paths)
        self._changed()
        if tuple(paths) != tuple(old) and (pane.curves or self.calls.busy):
            self.dropped = self.calls.busy
            self.calls.cancel()
            names = ", ".join(os.path.basename(p) for p in old)
            pane.show_curves((), f"The curves were computed on {names}: Compute draws them on the files "
                                 "chosen.")

    def choose_files(self) -> None:
        start = self.pane.paths[0] if self.pane and self.pane.paths else str(Path.home())
        paths, _ = QFileDialog.getOpenFileNames(self.window, "Evaluation files (one per language for parallel "
                                                "text)", start, "Text (*.txt *.raw);;All files (*)")
        if paths:
            self.use_files(paths)

    def _on_every_edited(self, *_) -> None:
        if not self._setting_every:
            self.every_set = True
            self._changed()

    def _default_every(self, reach: int) -> int:
        """Every k for the runs' length (about 200 points on the longest), unless one was set."""
        if self.pane is not None and not self.every_set:
            self._setting_every = True
            self.pane.every.setValue(default_every(reach))
            self._setting_every = False
        return self.pane.every.value() if self.pane is not None else default_every(reach)

    # -- computing ------------------------------------------------------------------------------------------
    def compute(self) -> None:
        pane = self.show_tab()
        if self.session.workbench.run is None or not pane.paths:
            pane.note.setText("Open a corpus and choose evaluation files first.")
            return
        items = subjects(self.session.workbench)
        paths, every = pane.paths, self._default_every(max((s.reach for s in items), default=0))
        pane.busy("Computing the curves", 0, 1)
        pane.note.setText(f"Computing {len(items)} curve{'s' * (len(items) != 1)} every {every:,} merges on "
                          f"{len(paths)} file{'s' * (len(paths) != 1)}…")
        self.calls.start(lambda *, progress, cancel: compute_all(items, paths, every, progress=progress,
                                                                 cancel=cancel),
                         self._on_computed)

    def _on_computed(self, curves: Tuple) -> None:
        pane = self.pane
        if pane is None:
            return
        pane.busy("")
        self.summary, self.notes = self._summary(curves), " ".join(dict.fromkeys(n for c in curves for n in c.notes))
        self.reach = max((c.rows[-1].merge for c in curves if c.rows), default=0)
        texts = curves[0].texts if curves else ()
        ref = curves[0].reference if curves else None
        self.parity = f" (parity against {ref})" if ref and len(texts) > 1 else ""
        pane.show_curves(curves, self._said())
        self._follow()
        self._changed()

    def _summary(self, curves: Tuple) -> str:
        """"2 curves to merge N on eng, rus" (:meth:`_said` ends it)."""
        reach = max((c.rows[-1].merge for c in curves if c.rows), default=0)
        texts = curves[0].texts if curves else ()
        return f"{len(curves)} curve{'s' * (len(curves) != 1)} to merge {reach:,} on {', '.join(texts)}"

    def _said(self) -> str:
        """What the note says of the curves shown, with "(parity against eng)" only under the parity measures
        (parity, the Gini of per-language cost): under any other it would say what the chart does not show."""
        shown = self.pane is not None and self.pane.measure() in PARITY_MEASURES
        return " ".join(filter(None, [f"{self.summary}{self.parity if shown else ''}.", self.notes]))

    def _on_errored(self, exc) -> None:
        if self.pane is not None:
            self.pane.busy("")
            self.pane.note.setText(f"Could not compute the curves: {user_message(exc)}")
        self.session.error_raised.emit(user_message(exc))

    def _on_aborted(self) -> None:
        dropped, self.dropped = self.dropped, False
        if self.pane is not None:
            self.pane.busy("")
            if not dropped:  # (else the note says why the curves went)
                self.pane.note.setText("Cancelled: the curves shown are the ones computed before.")

    def cancel(self) -> None:
        self.calls.cancel()

    # -- the workspace --------------------------------------------------------------------------------------
    def _changed(self, *_) -> None:
        """What the tab shows changed: the workspace's autosave takes it (:mod:`.reopen` says what is saved)."""
        workspace = getattr(self.window, "workspace", None)
        if workspace is not None:
            workspace.changed()

    def on_restore_settled(self) -> None:
        """A workspace restore has all its parts back (the runs beside, the branches): the curves it showed are
        computed again, on the worker, with progress and Cancel, as Compute does."""
        pending, self.pending = self.pending, False
        if pending and self.pane is not None and not self.calls.busy:
            self.compute()

    # -- following the window -------------------------------------------------------------------------------
    def _follow(self) -> None:
        """The vertical line at the window's merge; a note when the run went past the curves."""
        if self.pane is None:
            return
        merge = self.session.merge_count
        self.pane.set_merge(merge)
        if self.pane.curves and not self.calls.busy:
            past = f" The window is at merge {merge:,}, past the curves: Compute extends them." \
                if merge > self.reach else ""
            self.pane.note.setText(self._said() + past)

    def _on_corpus_loaded(self) -> None:
        """Another corpus: the curves were of the old runs; the evaluation text follows the corpus unless
        files were chosen."""
        if self.pane is None:
            return
        self.calls.cancel()
        self.pending = False
        if not self.chosen:
            self.pane.set_files(self._corpus_paths())
        self.pane.show_curves((), "Another corpus was opened: Compute draws its runs' curves.")
        self._default_every(reach_of(self.session.workbench))
        self._follow()

    def _on_progress(self, p) -> None:
        if self.pane is not None:
            self.pane.busy("Computing the curves", p.done, p.total)

    def _on_pane_destroyed(self, *_) -> None:
        """The tab is gone with its window: the computation stops, and no report reaches its deleted widgets."""
        self.calls.cancel()
        self.pane, self.pending = None, False

    def _on_window_tab_closed(self, widget) -> None:
        if widget is self.pane:
            self.calls.cancel()
            self.pane, self.pending = None, False
            self._changed()

    # -- exports --------------------------------------------------------------------------------------------
    def export(self, kind: str, path: Optional[str] = None) -> Optional[str]:
        """Save the curves as CSV or the chart as PNG/SVG (asked where, proposed in the exports' folder);
        never over one of the window's inputs or the evaluation files."""
        from bpe_core.analysis import curves_csv
        from bpe_core.formats import atomic_write_text, check_output

        from .. import exports

        pane = self.pane
        if pane is None or not pane.curves:
            self.window.statusBar().showMessage("Compute the curves first", 5000)
            return None
        filters = {"csv": "CSV (*.csv)", "png": "PNG image (*.png)", "svg": "SVG drawing (*.svg)"}
        if path is None:
            proposed = str(exports.default_folder(self.window) / f"measures_{pane.measure()}.{kind}")
            path, _ = QFileDialog.getSaveFileName(self.window, "Export the measures", proposed, filters[kind])
            if not path:
                return None
            if not Path(path).suffix:  # a name typed without one
                path += f".{kind}"
        inputs = [*exports.app_inputs(self.window), *pane.paths]
        try:
            if kind == "csv":
                check_output(path, inputs=inputs)
                atomic_write_text(path, curves_csv(pane.curves))
            else:
                exports.export_chart(pane.plot, path, inputs=inputs)
        except Exception as exc:  # noqa: BLE001 - said, nothing else changes
            self.session.error_raised.emit(user_message(exc))
            return None
        self.window.statusBar().showMessage(f"Saved {exports.saved(self.window, path)}", 5000)
        return path
