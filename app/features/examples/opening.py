"""File → Examples: what choosing an example does.

A seed's example opens its corpus with its own settings. A guided example (one with a ``measure``) goes on
by itself: once its corpus is counted it trains to its merges, then opens the Measures chart on its files
with its measure and group picked. It follows the window's own commands, so the user sees every stage
(counting, the run's progress, the curves computing) and can stop any of them; opening another corpus
meanwhile ends the guide without acting.

An example with a rule ``beside`` (parity-aware BPE for "How fair is this tokenizer?") then trains a run of
that rule on the same language folder to the same merge, on a worker (progress in the status bar), adds it
beside the window's run as Variants → "Add a run with another rule…" does, and draws the chart again with
both runs: the two Gini side by side.
"""
from __future__ import annotations

import os
from typing import Optional, Tuple

from bpe_core import RunCorpus, Timeline, TrainingRun, make_config
from bpe_core.types import Cancelled, Progress
from bpe_core.workbench import parity_factory

from .catalog import Example
from .own_settings import lend
from ...runtime.worker import LatestWorker, keep_alive

#: merges a run beside trains between two progress reports (and checks for Cancel)
CHUNK = 100

__all__ = ["open_example"]


def open_example(window, example: Example) -> None:
    """Open ``example`` in ``window`` (asking first when trained merges would be discarded)."""
    if example.measure is None:
        config = example.config()  # the example's own: the next text opened gets the user's (own_settings.py)
        lend(window, config, lambda: window.load_corpus(str(example.path), config))
        return
    earlier = getattr(window, "example_beside", None)
    if earlier is not None:
        earlier.cancel_beside()  # its run beside would join the new run
    guide = Guide(window, example)
    window.example_guide = guide  # kept alive while it waits; a newer guide replaces it
    guide.start()


class Guide:
    """One guided example on its way: counting, then training, then the Measures chart."""

    def __init__(self, window, example: Example) -> None:
        self.window = window
        self.session = window.session
        self.example = example
        self.paths: Tuple[str, ...] = tuple(str(p) for p in example.files())
        self.stage: Optional[str] = None  # "counting", "training", then None (done or given up)
        self.beside: Optional[LatestWorker] = None  # what trains the run beside (kept: it reports when over)
        self.beside_on = False  # the run beside is training

    def start(self) -> None:
        s = self.session
        s.corpus_loaded.connect(self._on_loaded)
        s.load_cancelled.connect(self._end)
        s.run_finished.connect(self._on_run_finished)
        self.stage = "counting"
        config = self.example.config()
        lend(self.window, config, lambda: self.window.load_corpus(self.paths, config))
        if not s.is_loading or s.last_load is None or tuple(s.last_load[0]) != self.paths:
            self._end()  # the user kept the trained merges: nothing was opened

    def _ours(self) -> bool:
        info = self.session.corpus
        return info is not None and tuple(info.paths or (info.path,)) == self.paths \
            and getattr(self.window, "example_guide", None) is self

    def _on_loaded(self, *_) -> None:
        if self.stage != "counting":
            return
        if not self._ours():
            self._end()
            return
        self.stage = "training"
        self.session.run_to_target()

    def _on_run_finished(self, end) -> None:
        if self.stage != "training":
            return
        if not self._ours() or end.reason in ("cancelled", "paused") or self.session.merge_count == 0:
            self._end()  # stopped by the user, or another text: the chart waits for View → Measures…
            return
        self._end()
        self._show_measures()
        if self.example.beside:
            self._train_beside(self.session.merge_count)

    def _show_measures(self) -> None:
        from ..measures import show_measures  # through the feature's face, when it is used

        e = self.example
        show_measures(self.window, [str(p) for p in e.eval_files()], measure=e.measure, group=e.group,
                      every=e.every)

    # -- a run of another rule beside the window's ----------------------------------------------------------
    def _train_beside(self, merges: int) -> None:
        """Train the example's other rule on its language folder to ``merges`` on a worker, then add it."""
        e, bench = self.example, self.session.workbench.bench
        config = make_config(e.preset, **{**e.overrides, **e.beside})
        folder, run_id = os.path.abspath(e.path), bench.new_run_id()
        rule = "parity-aware BPE" if config.variant == "parity" else config.variant
        bar = self.window.statusBar()
        self.beside = worker = LatestWorker(keep_alive)
        self.beside_on = True
        self.window.example_beside = self
        self.session.corpus_loaded.connect(self.cancel_beside)  # another text (or this one again)
        worker.progressed.connect(lambda p: bar.showMessage(
            f"{e.title} Training a {rule} run beside it: merge {p.done:,} of {p.total:,}"))
        worker.errored.connect(lambda exc: (self._beside_over(),
                                            self.session.error_raised.emit(f"the {rule} run beside: {exc}")))
        worker.aborted.connect(lambda: (self._beside_over(),
                                        bar.showMessage(f"The {rule} run beside was cancelled", 5000)))
        bar.showMessage(f"{e.title} Training a {rule} run beside it…")
        worker.start(lambda *, progress, cancel: beside_run(run_id, folder, config, merges, progress=progress,
                                                            cancel=cancel),
                     self._on_beside_trained)

    def cancel_beside(self, *_) -> None:
        """Stop training the run beside (another text was opened, or the example again)."""
        if self.beside_on:
            self.beside.cancel()
            self._beside_over()

    def _beside_over(self) -> None:
        if not self.beside_on:
            return
        self.beside_on = False
        self.session.corpus_loaded.disconnect(self.cancel_beside)
        if getattr(self.window, "example_beside", None) is self:
            self.window.example_beside = None

    def _on_beside_trained(self, run: TrainingRun) -> None:
        if not self.beside_on:
            return  # cancelled meanwhile
        self._beside_over()
        info = self.session.corpus
        if info is None or tuple(info.paths or (info.path,)) != self.paths:
            return  # another text was opened meanwhile: the run beside it would compare with nothing
        from bpe_core.analysis import MEASURE_LABELS

        from ..variants import add_run_beside

        add_run_beside(self.window, run)
        self.window.statusBar().showMessage(f"{self.example.title} Both runs are drawn: pick "
                                            f"\"{MEASURE_LABELS['parity_gini']}\" to compare their fairness", 10000)
        self._show_measures()

    def _end(self, *_) -> None:
        if self.stage is None:
            return
        self.stage = None
        s = self.session
        for signal, slot in ((s.corpus_loaded, self._on_loaded), (s.load_cancelled, self._end),
                             (s.run_finished, self._on_run_finished)):
            signal.disconnect(slot)
        if getattr(self.window, "example_guide", None) is self:
            self.window.example_guide = None


def beside_run(run_id: str, folder: str, config, merges: int, *, progress=None, cancel=None) -> TrainingRun:
    """A run of ``config``'s rule on a folder of one file per language, trained to ``merges`` (a worker's job:
    its own timeline, which no one else sees until it is returned)."""
    timeline = Timeline(parity_factory(folder)(None, config, cancel=cancel))
    done = 0
    while done < merges:
        if cancel is not None and cancel():
            raise Cancelled()
        step = min(CHUNK, merges - done)
        made = len(timeline.step(step))
        done += made
        if progress is not None:
            progress(Progress(done, merges, "merges"))
        if made < step:
            break  # the rule stopped (no pair left)
    return TrainingRun(run_id, RunCorpus((folder,)), timeline)
