"""The session: the one object through which the app's panes drive training and learn what happened.

Panes never touch the trainer. They call a command (``step``, ``seek``, ``play``, ``run_to_target``, ...),
and they redraw when the session emits a signal named in the past tense (``steps_applied``,
``run_finished``, ...). In between they may read its read-only facts at any time (``words``,
``top_pairs``, ``history``, ``segmentation(i)``, ``display(id)``), which all belong to the core's
:class:`~bpe_core.training.timeline.Timeline`: the session keeps no copy.

A move of up to ``SYNC_STEPS`` merges runs on the GUI thread; a longer one runs on a worker (runs.py),
and the session applies the frames it hands over on the GUI thread, so a pane never races the worker.
Going to a merge the timeline already knows never waits for the trainer: ``Timeline.jump`` shows it from
the records at once, and the trainer catches up in the background (``caught_up`` says when it arrives).
Run to target over known merges is a replay of the records (replay.py).
"""
from __future__ import annotations

import os
from typing import Callable, List, Optional, Tuple

from PySide6.QtCore import QObject, QTimer, Signal

# Some names are re-exported (noqa: F401): the panes and the window take them from the session, their one door.
from bpe_core import PRESETS, BPEModel, MergeStep, Timeline, TrainerConfig, make_config  # noqa: F401
from bpe_core.training import TOP_K, Frame, Move, WordHistory, target_merges  # noqa: F401
from bpe_core.types import PairCount, Raw, TrainingStats, WordChange  # noqa: F401

from ..runtime.coalesce import later
from ..runtime.worker import GUI_FIRST, LatestWorker, Threads
from .corpus_files import corpus_loader, corpus_name, corpus_paths
from .defaults import DEFAULT_PRESET, default_config, default_trainer_factory  # noqa: F401
from .facts import Fact, examples_at
from .known_end import KnownEnd
from .payloads import CorpusInfo, RunEnd, RunProgress, corpus_info, user_message  # noqa: F401
from .replay import Replay
from .run_kinds import (AHEAD, BULK_FRAME_INTERVAL, CATCH_UP, CATCH_UP_DELAY_MS, KEY_STEP,  # noqa: F401
                        PAINT_WINDOW_S, READ_AHEAD, READ_ON_MS, SILENT, SYNC_STEPS)
from .runs import Runs
from .workbench_adapter import WorkbenchAdapter


class Session(QObject):
    """Commands in, past-tense signals out, over one training run (see the module's description)."""

    loading_started = Signal(str)  # what is being read: a corpus or a vocabulary (the window shows Cancel)
    load_progress = Signal(object)  # bpe_core.types.Progress
    corpus_loaded = Signal(object)  # CorpusInfo
    load_cancelled = Signal()
    # Merge lists travel as ``object``: PySide would copy a ``list`` into a QVariantList and back for every slot
    # (about 5 ms for a frame of 3,000 merges). The slots share the one list and never change it.
    steps_applied = Signal(object)  # list[MergeStep], oldest first
    steps_undone = Signal(object)  # list[MergeStep], in the order they were undone
    reset_done = Signal()
    run_started = Signal(str)  # the run's kind: "run", "play", "seek", ...
    run_progress = Signal(object)  # RunProgress
    run_finished = Signal(object)  # RunEnd
    error_raised = Signal(str)  # a message for the user
    vocabulary_opened = Signal(object)  # BPEModel
    config_changed = Signal(object)  # TrainerConfig
    tokens_renamed = Signal()  # another branch was picked: ids past the alphabet may now name other tokens
    caught_up = Signal()  # the trainer reached the merge a seek jumped to, so the exact top pairs are shown

    # Read-only facts: each reads the timeline's attribute of the same name (see facts.py).
    words = Fact[List[str]](list)  # the corpus's unique words, in order of first appearance
    freqs = Fact[List[int]](list)  # how often each word occurs
    top_pairs = Fact[Tuple[PairCount, ...]](tuple)  # the next merges, in the order the tie rule takes them
    merge_count = Fact[int](int)  # the position: how many merges are applied
    vocab_size = Fact[int](int)
    stats = Fact[Optional[TrainingStats]]()
    initial_stats = Fact[Optional[TrainingStats]]()  # the statistics at merge 0
    history = Fact[List[MergeStep]](list)  # the merges applied, rank 1 first
    timeline = Fact[List[MergeStep]](list, name="reached_steps")  # every merge reached: applied, then undone

    def __init__(self, *, trainer_factory: Optional[Callable] = None, config: Optional[TrainerConfig] = None,
                 parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._factory = trainer_factory or default_trainer_factory()
        self._config = config or default_config()
        self._tl: Optional[Timeline] = None
        self._corpus: Optional[CorpusInfo] = None
        self._threads = Threads()  # every worker started, kept until it has ended
        self._calls = LatestWorker(self._threads.track)  # loads and file reads, one at a time
        self._calls.progressed.connect(self.load_progress)
        self._calls.errored.connect(lambda exc: self.error_raised.emit(user_message(exc)))
        self._calls.aborted.connect(self.load_cancelled)
        self._speed = 5.0
        self.read_ahead = READ_AHEAD  # how many merges the trainer may run ahead of the position (0: never)
        self.decode_errors = "strict"  # bytes that are not UTF-8: "strict" (an error) or "replace" (U+FFFD)
        self.last_load: tuple = ()  # (paths, config, factory) of the newest load, for "Decode with replacement"
        # The records are indexed for seeks a slice per event-loop pass, so input and paints go first.
        self._indexing = QTimer(self, singleShot=True, interval=0)
        self._indexing.timeout.connect(self._on_indexing_timeout)
        self._known_end = KnownEnd()  # where a run met a stop rule, so a replay there ends the same way
        self._runs = Runs(self, self._threads, self._known_end, publish=self._publish,
                          replaying=lambda: self._replay.is_showing)
        self._replay = Replay(self, self._runs, self._known_end, show=self._show)
        # the open vocabularies and the training run, as events carrying their subject (workbench_adapter.py)
        self.workbench = WorkbenchAdapter(self, self._calls)
        self.workbench.vocabulary_opened.connect(lambda vocabulary: self.vocabulary_opened.emit(vocabulary.model))

    # -- state ------------------------------------------------------------------------------------------
    @property
    def is_loaded(self) -> bool:
        return self._tl is not None

    @property
    def is_loading(self) -> bool:
        return self._calls.busy

    @property
    def is_running(self) -> bool:
        """A run the user started is going on (a silent catch-up, read-ahead or key step is not one)."""
        return self._replay.is_on or self._runs.user_started

    @property
    def is_catching_up(self) -> bool:
        """The trainer is not yet where the facts need it, so the top pairs shown may come from the records."""
        return self._tl is not None and (self._runs.needs_catch_up() or self._runs.is_a(CATCH_UP))

    @property
    def run_goal(self) -> Optional[int]:
        """The merge a forward run started by the user is heading for (Run to target, a long step);
        None when it is unknown or no such run is going on."""
        return self._runs.goal if self.is_running else None

    @property
    def run_kind(self) -> str:
        return "run" if self._replay.is_on else self._runs.kind if self.is_running else ""

    @property
    def config(self) -> TrainerConfig:
        return self._config

    @property
    def corpus(self) -> Optional[CorpusInfo]:
        return self._corpus

    @property
    def speed(self) -> float:
        return self._speed

    @property
    def core(self) -> Optional[Timeline]:
        """The timeline itself, for commands kept in their own modules (app/session/branches.py)."""
        return self._tl

    # -- read-only views of the timeline --------------------------------------------------------------
    @property
    def stop_reason(self) -> Optional[str]:
        """Why training stopped at the position, even when the trainer is elsewhere (see known_end.py)."""
        return self._known_end.stop_reason(self._tl)

    @property
    def target_merges(self) -> int:
        """Where training ends: the configured number of merges, or the vocabulary size minus the alphabet."""
        return self._tl.target_merges if self._tl else target_merges(self._config, None)

    # Methods, not Facts: panes keep the bound method (TokenChips(session.token)) across corpus loads.
    def segmentation(self, i: int) -> Tuple[int, ...]:
        """Word ``i`` as token ids at the position."""
        return self._tl.segmentation(i)

    def token(self, token_id: int) -> Raw:
        return self._tl.token(token_id)

    def display(self, token_id: int) -> str:
        """How a token is written on screen."""
        return self._tl.display(token_id)

    def word_history(self, i: int) -> WordHistory:
        """Word ``i``'s segmentation at the start and after every merge that changed it."""
        return self._tl.word_history(i)

    def next_step(self) -> Optional[MergeStep]:
        """The merge a step would show next, when the timeline knows it already (read ahead, or undone)."""
        tl = self._tl
        return tl.steps[tl.merge_count] if tl is not None and tl.merge_count < len(tl.steps) else None

    def examples(self, step: MergeStep) -> Tuple[WordChange, ...]:
        """The most frequent words ``step`` changed, before and after it (see :func:`facts.examples_at`)."""
        return examples_at(self._tl, step)

    def model(self) -> Optional[BPEModel]:
        """The vocabulary as trained so far (the timeline caches it for each merge count)."""
        return self._tl.model() if self._tl else None

    def when_ready(self, then: Callable[[], None]) -> bool:
        """True when the trainer is free and at the position; otherwise ``then()`` runs once it is."""
        return self._ready(then)

    def republish(self, undone: List[MergeStep], applied: List[MergeStep]) -> None:
        """Tell the panes what a branch command did to the position: merges undone, then merges applied."""
        self.tokens_renamed.emit()  # first, because caches of token texts by id are now stale
        for steps, were_undone in ((undone, True), (applied, False)):
            if steps:
                self._show(steps, were_undone)

    # -- commands: corpus and settings ----------------------------------------------------------------
    def load_corpus(self, path, config: Optional[TrainerConfig] = None, factory: Optional[Callable] = None) -> None:
        """Count the words of ``path`` on a worker, then start training at merge 0 (``corpus_loaded``).
        ``path`` is a file, or several files counted as one corpus, as the CLI does. ``factory`` makes this
        load's trainer. The current corpus stays until the new one is counted."""
        self._stop_run("cancelled")
        self._runs.stop_timers()  # they belong to the old timeline
        config = config or self._config
        paths = corpus_paths(path)
        factory = factory or self._factory
        self.last_load = (paths, config, factory)
        load = corpus_loader(paths, config, factory, self.decode_errors)
        self._calls.start(load, lambda timeline: self._install(timeline, paths, config))
        self.loading_started.emit(f"Counting words in {corpus_name(paths)}")

    def set_config(self, config: TrainerConfig) -> None:
        """Use new training settings: the corpus is counted again and training restarts at merge 0."""
        if self._corpus is None:
            self._config = config
            self.config_changed.emit(config)
        else:
            self.load_corpus(self._corpus.paths or self._corpus.path, config)

    def open_vocabulary(self, path: str, *, pattern: Optional[str] = None) -> None:
        """Read a saved vocabulary (any supported format) on a worker; ``vocabulary_opened`` follows.
        ``pattern`` is the split regex of a ``.tiktoken`` file other than OpenAI's own."""
        path = os.fspath(path)
        self.workbench.open_vocabulary(path, pattern=pattern)
        self.loading_started.emit(f"Opening {os.path.basename(path)}")

    def cancel(self) -> None:
        """Cancel a load, or stop a run (the merges made so far are kept)."""
        self._calls.cancel()
        self._stop_run("cancelled")

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Stop every worker and wait for it to end (the window is closing)."""
        self._stop_run("cancelled")
        self._threads.wait(timeout_ms, interrupt=True)

    # -- commands: training ---------------------------------------------------------------------------
    def step(self, n: int = 1) -> None:
        """Merge ``n`` more. A merge the timeline knows is shown at once; otherwise the trainer merges, on
        the GUI thread for a few merges and on a worker for more than SYNC_STEPS."""
        if self._runs.is_a(AHEAD):
            self._stop_run("paused")  # it is at most one merge away; what it has read is kept
        if self._jumped(self.merge_count + n, n) or not self._ready(lambda: self.step(n)):
            return
        if n > SYNC_STEPS:
            self._runs.start("seek", self._tl.forward(n), n)
        elif not self._publish(self._tl.walk(self._tl.forward(n, detail=True))):
            self.run_finished.emit(RunEnd("step", self.stop_reason or "done", self.merge_count))
        else:
            self._runs.read_on.start()

    def request_step(self, n: int = 1, *, repeat: bool = False) -> None:
        """Step from the keyboard or a button: the trainer merges on a worker, so the GUI thread never waits.

        A request made while a key step is on its way follows it: its ``n`` is added to the steps waiting,
        or, for a held key (``repeat``), replaces them, so held keys never queue up. While the trainer reads
        ahead, a merge it has not reached yet is shown as soon as it has (a newer request replaces this one).
        """
        if self._jumped(self.merge_count + n, n):
            return
        if self._runs.is_a(AHEAD):
            self._runs.waiting = lambda: self.request_step(n)
            GUI_FIRST.lift()  # the user waits for the read-ahead's next merge: it need not wait for paints
        elif self._runs.is_a(KEY_STEP):
            self._runs.steps_asked = n if repeat else self._runs.steps_asked + n
        elif n > SYNC_STEPS:
            self.step(n)
        elif self._ready(lambda: self.request_step(n)):
            self._runs.start(KEY_STEP, self._tl.forward(n, detail=True), n)

    def undo(self, n: int = 1) -> None:
        """Undo the last ``n`` merges (they stay known, so stepping forward shows them again at once)."""
        n = min(n, self.merge_count)
        if self._jumped(self.merge_count - n, n) or not self._ready(lambda: self.undo(n)):
            return
        if n > SYNC_STEPS:
            self._runs.start("seek", self._tl.back(n), n)
        elif n > 0:
            self._publish(self._tl.walk(self._tl.back(n)))

    def seek(self, k: int) -> None:
        """Step or undo until ``merge_count == k``, or until the trainer stops; a known merge shows at once."""
        k = max(0, k)
        if self._jumped(k, abs(k - self.merge_count)) or not self._ready(lambda: self.seek(k)):
            return
        if k > self.merge_count:
            self.step(k - self.merge_count)
        elif k < self.merge_count:
            self.undo(self.merge_count - k)

    def reset(self) -> None:
        """Go back to merge 0. The timeline keeps its merges, so stepping forward shows them again."""
        if self._jumped(0, self.merge_count):
            self.reset_done.emit()
        elif not self._ready(self.reset):
            return
        else:
            self.undo(self.merge_count)
            self.reset_done.emit()

    def play(self, speed: Optional[float] = None) -> None:
        """Step on a worker at ``speed`` merges a second until paused or until the target is reached."""
        if speed is not None:
            self._speed = max(0.1, float(speed))
        if self._ready(self.play):
            self._runs.start("play", self._tl.forward(), None, interval=1.0 / self._speed)

    def set_speed(self, speed: float) -> None:
        """Set Play's pace in merges a second; a Play going on follows at once."""
        self._speed = max(0.1, float(speed))
        if self._runs.is_a("play"):
            self._runs.worker.set_interval(1.0 / self._speed)

    def pause(self) -> None:
        """Pause a run the user started (a silent catch-up goes on)."""
        if self.is_running:
            self._stop_run("paused")

    def run_to_target(self) -> None:
        """Merge on a worker, as fast as possible, until the configured vocabulary size or number of merges
        (Cancel stops it). Merges the timeline already knows are shown from its records (replay.py)."""
        if not self._replay.run_to_target() and self._ready(self.run_to_target):
            total = max(0, self.target_merges - self.merge_count)
            self._runs.start("run", self._tl.forward(), total or None)

    # -- moving the position ----------------------------------------------------------------------------
    def _ready(self, then: Callable[[], None]) -> bool:
        """True when a corpus is loaded, nothing is loading and the trainer stands at the position; a run
        going on is stopped first. Otherwise ``then`` runs once the trainer has caught up."""
        self._replay.end("paused")
        if self._tl is None or self._calls.busy:
            return False
        if not self._runs.is_a(CATCH_UP):
            self._stop_run("paused")
            if not self._tl.is_lagging:
                return True
            self._runs.catch_up(exact=True)
        self._runs.waiting = then
        return False

    def _jumped(self, k: int, distance: int) -> bool:
        """Show known merge ``k`` from the records, when it is far away or the trainer is elsewhere anyway.
        False: the trainer itself should move there."""
        tl = self._tl
        if tl is None or self._calls.busy or not 0 <= k <= len(tl.steps) or k == tl.merge_count:
            return False
        runs = self._runs
        silent = runs.is_a(CATCH_UP, AHEAD)
        if distance <= SYNC_STEPS and not tl.is_lagging and not silent:
            return False
        if not silent:
            self._stop_run("paused")
        self._replay.end("paused")
        runs.waiting = None
        self._show(*tl.jump(k))
        if runs.worker is None and runs.needs_catch_up():
            runs.follow_later.start()  # started again by each jump while the user scrubs
        elif runs.worker is None:
            runs.read_on.start()  # after this frame is drawn: a worker would compete with it for the GIL
        elif runs.kind == CATCH_UP or runs.needs_catch_up():
            runs.worker.requestInterruption()  # redirected when it ends (never waited for here)
        return True

    def _on_indexing_timeout(self) -> None:
        if self._tl is not None and not self._tl.index_some():
            self._indexing.start()  # another slice on the next pass

    def _install(self, timeline: Timeline, paths: tuple, config: TrainerConfig) -> None:
        self._tl, self._config = timeline, config
        self._corpus = corpus_info(timeline, paths, config)
        self.config_changed.emit(config)
        self.corpus_loaded.emit(self._corpus)

    # -- publishing -----------------------------------------------------------------------------------------
    def _publish(self, frame: Frame, show: bool = True) -> bool:
        """Apply ``frame`` to the timeline and tell the panes. False when the frame held no merge."""
        steps = self._tl.apply(frame, show=show)
        self._indexing.start()
        self._known_end.note(self._tl)
        if steps:
            self._show(steps, frame.undone)
        return bool(steps)

    def _show(self, steps: List[MergeStep], undone: bool) -> None:
        """Tell the panes. Background workers wait while the panes take the steps in and repaint, until the
        event loop has run past what the panes posted (at most PAINT_WINDOW_S); a zero timer started here
        could run before those repaints if other timers came due meanwhile."""
        GUI_FIRST.paint_soon(PAINT_WINDOW_S)
        (self.steps_undone if undone else self.steps_applied).emit(steps)
        later(self, GUI_FIRST.lift)

    def _stop_run(self, reason: str) -> None:
        """Stop a replay or a run going on, for ``reason`` ("paused", "cancelled")."""
        self._replay.end(reason)
        self._runs.stop(reason)
