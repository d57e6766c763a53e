"""Restoring a workspace's runs: the corpus checked, counted again, trained to the saved merge, the merges
compared, the first difference said.

Each step is a plain function returning a record, so an app can run the slow ones on a worker and ask the
user in between, and a test can run them in a row:

1. :func:`corpus_problem_of` - before anything is opened: a corpus that is missing, a folder, a pipe or a
   device is never read (``None``: it can be); a parity-aware run's corpus is its languages (a folder of one
   file per language, or a word-count table), checked as the training settings check them;
2. :func:`check_corpus` - the files hashed (in blocks, cancellable) and compared with the saved size and
   sha256: ``change`` says in words how the corpus differs (None: the same content);
3. :func:`restore_run` - the corpus counted, the saved branches replayed, the timeline taken to the saved
   merge, and the merges taken compared with the saved ones (:func:`merges_difference`).

:func:`runs_beside` names the saved runs that were opened beside the current one (another rule on its text),
which an app reopens after the current run as it reopens the current run's branches.

>>> saved = [("l", "o", 4), ("lo", "w", 3)]
>>> d = merges_difference(saved, [("l", "o", 4), ("o", "w", 2)])
>>> d.rank, d.saved, d.taken
(2, ('lo', 'w', 3), ('o', 'w', 2))
>>> d.text(2, 2)
"From merge 2 on, training took other merges than the workspace saved: saved 'lo' + 'w' (3), now 'o' + 'w' (2). The corpus or the settings differ (now at merge 2 of 2)."
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Tuple

from bpe_core.formats.workspace import (CorpusRef, SavedMerge, Workspace, corpus_change, corpus_problem, corpus_ref,
                                        first_difference, saved_merges)
from bpe_core.training.branches import Branches
from bpe_core.training.timeline import Timeline
from bpe_core.types import BPELensError, Cancelled, Progress
from bpe_core.workbench.records import RunCorpus
from bpe_core.workbench.runs import TrainingRun, count_corpus
from bpe_core.workbench.rule_runs import check_languages, parity_factory, rule_name
from bpe_core.workbench.saved import SavedBench, SavedRun

ProgressFn = Optional[Callable[[Progress], None]]
CancelFn = Optional[Callable[[], bool]]
NO_CORPUS = "The workspace names no corpus"


@dataclass(frozen=True)
class MergeDifference:
    """Where the merges taken now part from the saved ones: ``rank`` is the first merge that differs
    (1-based); ``saved``/``taken`` the merge each side has there (None: that side has none)."""

    rank: int
    saved: Optional[SavedMerge]
    taken: Optional[SavedMerge]

    def text(self, position: int, reached: int) -> str:
        """The difference in words (``position``: the saved merge; ``reached``: the merge training is at)."""
        def show(m: Optional[SavedMerge]) -> str:
            return f"{m[0]!r} + {m[1]!r} ({m[2]:,})" if m else "none (training stopped)"

        return (f"From merge {self.rank:,} on, training took other merges than the workspace saved: "
                f"saved {show(self.saved)}, now {show(self.taken)}. The corpus or the settings differ "
                f"(now at merge {reached:,} of {position:,}).")


def merges_difference(saved: Sequence[SavedMerge], now: Sequence[SavedMerge]) -> Optional[MergeDifference]:
    """The first merge where ``now`` (merges taken, as stored) differs from ``saved``; None when they agree."""
    i = first_difference(saved, now)
    if i is None:
        return None
    return MergeDifference(i + 1, tuple(saved[i]) if i < len(saved) else None,
                           tuple(now[i]) if i < len(now) else None)


@dataclass(frozen=True)
class CorpusCheck:
    """The corpus files as they are now (sizes and sha256), and how they differ from the saved ones."""

    refs: Tuple[CorpusRef, ...]
    change: Optional[str]


@dataclass(frozen=True)
class RunRestore:
    """What restoring one run found: the corpus's change (None: the saved content), the first merge that
    differs (None: all the saved merges came back), the saved position and the merge reached, and a
    ``problem`` when the run could not be opened or its branches not replayed."""

    run_id: str
    changed_corpus: Optional[str] = None
    first_difference: Optional[MergeDifference] = None
    position: int = 0
    reached: int = 0
    problem: Optional[str] = None

    @property
    def difference_text(self) -> Optional[str]:
        return None if self.first_difference is None else self.first_difference.text(self.position, self.reached)


@dataclass(frozen=True)
class RestoreReport:
    """Every run's :class:`RunRestore`, and the vocabularies that could not be opened again (one line each)."""

    runs: Tuple[RunRestore, ...] = ()
    vocabulary_problems: Tuple[str, ...] = ()

    @property
    def changed_corpus(self) -> Optional[str]:
        return next((r.changed_corpus for r in self.runs if r.changed_corpus), None)

    @property
    def first_difference(self) -> Optional[MergeDifference]:
        return next((r.first_difference for r in self.runs if r.first_difference), None)

    @property
    def clean(self) -> bool:
        """Everything came back as saved: no changed corpus, no difference, no problem."""
        return not self.vocabulary_problems and all(
            r.changed_corpus is None and r.first_difference is None and r.problem is None for r in self.runs)


def corpus_problem_of(run: SavedRun) -> Optional[str]:
    """Why the run's corpus cannot be read at all (missing, a folder, a pipe or a device); None: it can."""
    if not run.corpus:
        return NO_CORPUS
    if run.config.variant == "parity":  # its languages: a folder of one file per language, or a table
        try:
            check_languages(run.corpus[0].path)
        except BPELensError as exc:
            return f"{run.corpus[0].path}: {exc}" if run.corpus[0].path not in str(exc) else str(exc)
        return None
    return next(filter(None, (corpus_problem(ref.path) for ref in run.corpus)), None)


def check_corpus(run: SavedRun, *, cancel: CancelFn = None, progress: ProgressFn = None) -> CorpusCheck:
    """Hash the run's corpus files and compare them with the saved ones (a worker's job for a big corpus).

    A file that cannot be read is a change (its problem in words); it is not hashed. A parity-aware run's
    languages are not hashed (a folder): they are checked when counted, and the merges taken say a change."""
    if run.config.variant == "parity":
        problem = corpus_problem_of(run)
        return CorpusCheck((), problem)
    refs, changes = [], []
    for saved in run.corpus:
        problem = corpus_problem(saved.path)
        now = None if problem else corpus_ref(saved.path, cancel=cancel, progress=progress)
        if now is not None:
            refs.append(now)
        changes.append(problem or corpus_change(saved, now))
    return CorpusCheck(tuple(refs), next(filter(None, changes), None) if run.corpus else NO_CORPUS)


def restore_run(run: SavedRun, *, corpus: Optional[RunCorpus] = None, refs: Tuple[CorpusRef, ...] = (),
                change: Optional[str] = None, progress: ProgressFn = None, cancel: CancelFn = None,
                parent: Optional[TrainingRun] = None, start: Optional[Any] = None) -> Tuple[TrainingRun, RunRestore]:
    """Count the run's corpus (``corpus``: another one the user chose), replay its branches, train to the
    saved merge and compare the merges taken with the saved ones.

    ``refs`` and ``change``: what :func:`check_corpus` found (kept on the run; said in the report).
    A run that continues another (``run.parent``) continues ``parent`` (restored first) from its merge
    ``run.transition`` again (workbench/continuations.py); ``start``: the parent's model there, taken
    already (an app takes it on the thread that owns the parent, then restores on a worker).
    """
    corpus = corpus or RunCorpus(tuple(r.path for r in run.corpus), run.decode_errors)
    if run.parent is not None:
        from bpe_core.workbench.continuations import continuation_timeline, start_model

        if parent is None and start is None:
            raise BPELensError(f"run {run.id} continues run {run.parent}, which is not open")
        start = start if start is not None else start_model(parent, run.transition or 0)
        timeline = continuation_timeline(corpus, run.config, start, progress=progress, cancel=cancel)
    elif run.config.variant == "parity":  # the corpus is its languages (workbench/rule_runs.py)
        trainer = parity_factory(corpus.paths[0])(None, run.config, progress=progress, cancel=cancel)
        timeline = Timeline(trainer)
    else:
        timeline = count_corpus(corpus, run.config, progress=progress, cancel=cancel)
    opened = TrainingRun(run.id, corpus, timeline, refs, parent=run.parent, transition=run.transition)
    problem = None
    if run.branches:
        try:
            opened.branches = Branches.from_data(timeline, run.branches[0])
        except (BPELensError, KeyError, TypeError, ValueError, IndexError) as exc:
            problem = f"the branches cannot be restored: {exc}"
            _main_line_only(opened)
    known = max(run.position, len(run.merges))  # merges past the position: where its branches start
    _train_to(timeline, known, progress=progress, cancel=cancel)
    now = saved_merges(timeline.history)
    if known > run.position:
        timeline.seek(run.position)
    return opened, RunRestore(run.id, change, merges_difference(run.merges[:known], now), run.position,
                              min(len(now), run.position), problem)


def _train_to(timeline: Timeline, k: int, *, progress: ProgressFn = None, cancel: CancelFn = None) -> None:
    """Train to merge ``k`` as :meth:`Timeline.seek` does, reporting the merges done of ``k`` and asking
    ``cancel`` between merges (:class:`Cancelled`: the timeline is left to whoever dropped it)."""
    if progress is None and cancel is None:
        timeline.seek(k)
        return
    total, steps = max(0, k - timeline.merge_count), []
    move = timeline.toward(k, detail=True)
    with move:
        for step in move:
            steps.append(step)
            if cancel is not None and cancel():
                raise Cancelled()
            if progress is not None:
                progress(Progress(len(steps), total, "merges", "training to the saved merge"))
        frame = move.frame(steps)
    timeline.apply(frame)


def reopen_run(run: SavedRun, *, corpus: Optional[RunCorpus] = None, check: Optional[CorpusCheck] = None,
               progress: ProgressFn = None, cancel: CancelFn = None,
               parent: Optional[TrainingRun] = None) -> Tuple[Optional[TrainingRun], RunRestore]:
    """The three steps in a row for one run: a corpus that cannot be read leaves it closed (None, and the
    problem said); else it is hashed and compared (``check``: done already), counted as it is now and trained
    to the saved merge. ``corpus``: another corpus chosen instead of the saved one (not checked: it differs)."""
    if corpus is None:
        problem = corpus_problem_of(run)
        if problem is not None:
            return None, RunRestore(run.id, problem, None, run.position, 0, problem)
        check = check or check_corpus(run, cancel=cancel)
    refs, change = (check.refs, check.change) if check is not None and corpus is None else ((), None)
    if run.parent is not None and parent is None:
        problem = f"it continues run {run.parent}, which could not be opened"
        return None, RunRestore(run.id, None, None, run.position, 0, problem)
    return restore_run(run, corpus=corpus, refs=refs, change=change, progress=progress, cancel=cancel,
                       parent=parent)


def runs_beside(bench: SavedBench) -> Tuple[SavedRun, ...]:
    """The saved runs opened beside the current one (another rule on its text: PickyBPE, parity-aware BPE...),
    in the order they were opened: runs of their own, not continuations of a run (those are branches, reopened
    from their parent), and not the current run."""
    return tuple(r for r in bench.runs if r.parent is None and r.id != bench.current_run)


def _main_line_only(run: TrainingRun) -> None:
    """After branches failed to replay: the timeline back to the rule's own merges, one branch."""
    tl = run.timeline
    tl.seek(0)
    tl.trainer.picks = {}
    tl.replace_future(0)
    run.branches = Branches(tl)


# -- the restore offer ------------------------------------------------------------------------------------
def worth_restoring(ws: Optional[Workspace], default_corpus: str) -> bool:
    """Whether a crash would lose anything: merges taken, text typed, tabs open, branches, another corpus,
    or more than one run."""
    return ws is not None and bool(ws.position or ws.encode_text or ws.tabs or ws.branches or _more_runs(ws)
                                   or (ws.corpus is not None and ws.corpus.path != default_corpus))


def describe(ws: Workspace) -> str:
    """One line for the restore offer: corpus, settings, merge, what else is there.

    >>> from bpe_core.types import TrainerConfig
    >>> describe(Workspace(CorpusRef("/srv/a.txt", 3), TrainerConfig(), encode_text="hi", tabs=("v.json",)))
    '/srv/a.txt (custom) at merge 0, encode text “hi”, 1 inspector tab'
    """
    corpus = ws.corpus.path if ws.corpus else "no corpus"  # absolute (read_workspace): the file it would read
    extra = []
    if ws.encode_text:
        text = " ".join(ws.encode_text.split())
        extra.append(f"encode text “{text[:40]}…”" if len(text) > 40 else f"encode text “{text}”")
    if ws.tabs:
        extra.append(f"{len(ws.tabs)} inspector tab{'s' * (len(ws.tabs) > 1)}")
    extra.extend(_runs_said(ws))
    return f"{corpus} ({ws.config.preset}) at merge {ws.position:,}" + (f", {', '.join(extra)}" if extra else "")


def _runs_said(ws: Workspace) -> Tuple[str, ...]:
    """The runs besides the current one, as the offer says them: its branches, and the runs beside it by rule."""
    from bpe_core.workbench.saved import read_bench

    try:
        bench = read_bench(ws)
    except BPELensError:
        runs = _more_runs(ws)  # said by the restore; counted here
        return (f"{runs} more training run{'s' * (runs > 1)}",) if runs else ()
    branches = sum(r.parent is not None for r in bench.runs)
    beside = runs_beside(bench)
    said = [f"{branches} branch{'es' * (branches > 1)} of the run"] if branches else []
    if beside:
        names = ", ".join(f"{r.id} {rule_name(r.config)}" for r in beside)
        said.append(f"{len(beside)} run{'s' * (len(beside) > 1)} beside it ({names})")
    return tuple(said)


def _more_runs(ws: Workspace) -> int:
    runs = ws.bench.get("runs")
    return len(runs) if isinstance(runs, list) else 0
