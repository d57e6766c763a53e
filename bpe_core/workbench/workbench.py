"""The Workbench: everything open at once, without Qt - training runs, vocabularies, the encode text, the
selection, the comparisons and analyses shown - and the workspace file as its saved form.

Operations change the state and report one event each, carrying its subject (``VocabularyOpened(vocabulary)``,
``VocabularyClosed(id)``, ...), to every observer subscribed: an adapter (the app's session) turns them into
signals, so nothing needs to remember what a worker was asked to do. The slow parts (counting a corpus,
reading a vocabulary file) can run elsewhere first: :meth:`Workbench.open_run` takes a counted timeline,
:meth:`Workbench.open_vocabulary` a model already read.

A whole session:

>>> import os, tempfile
>>> from bpe_core import Workbench, make_config, write_vocabulary
>>> folder = tempfile.mkdtemp()
>>> corpus = os.path.join(folder, "corpus.txt")
>>> _ = open(corpus, "w", encoding="utf-8").write("low lower lowest\\nlow slow\\n")
>>> bench = Workbench()
>>> seen = []
>>> _ = bench.subscribe(seen.append)
>>> run = bench.open_run(corpus, make_config("char-whitespace")).run
>>> [step.new_token for step in run.timeline.step(3)]
['lo', 'low', 'low</w>']
>>> _ = run.timeline.seek(1)
>>> branch, _ = run.branches.pick(run.timeline.trainer.id_of("w"), run.timeline.trainer.id_of("</w>"))
>>> branch.name, [step.new_token for step in run.timeline.history]
('pick at merge 2: w + </w>', ['lo', 'w</w>'])
>>> path = os.path.join(folder, "vocab.json")
>>> write_vocabulary(run.timeline.model(), path, "native")
>>> vocab = bench.open_vocabulary(path).vocabulary
>>> vocab.id, [t.raw for t in vocab.encoder.encode("low").tokens]
('v1', ['lo', 'w</w>'])
>>> _ = bench.set_encode_text("slow lower")
>>> _ = bench.open_comparison(run.id, vocab.id)
>>> [type(event).__name__ for event in seen]
['RunOpened', 'SelectionChanged', 'VocabularyOpened', 'SelectionChanged', 'EncodeTextChanged', 'ComparisonOpened']

Saved and opened again, it is the same workbench: the corpus counted again, the branches replayed, the
merges taken compared with the saved ones (:meth:`Workbench.restore` also returns a report of any difference):

>>> from bpe_core.formats.workspace import read_workspace, write_workspace
>>> write_workspace(bench.to_workspace(), os.path.join(folder, "session.bpelens"))
>>> again = Workbench.from_workspace(read_workspace(os.path.join(folder, "session.bpelens")))
>>> again.state() == bench.state(), again.current_run.timeline.merge_count, again.comparisons
(True, 2, (OpenComparison(a_id='r1', b_id='v1'),))
>>> _, report = Workbench.restore(bench.to_workspace())
>>> report.clean, report.changed_corpus, report.first_difference
(True, None, None)
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from bpe_core.formats.workspace import SavedMerge, Workspace
from bpe_core.training.timeline import Timeline
from bpe_core.types import BPELensError, Progress, TrainerConfig
from bpe_core.workbench.records import (AnalysisClosed, AnalysisOpened, ComparisonClosed, ComparisonOpened,
                                        EncodeTextChanged, Event, OpenAnalysis, OpenComparison, OpenVocabulary, Pair,
                                        RunClosed, RunCorpus, RunOpened, Selection, SelectionChanged,
                                        VocabularyClosed, VocabularyOpened)
from bpe_core.workbench.restore import CorpusCheck, RestoreReport, reopen_run
from bpe_core.workbench.runs import TrainingRun, count_corpus
from bpe_core.workbench.saved import SavedBench, SavedVocabulary, read_bench, to_workspace

Observer = Callable[[Event], None]
_KEEP: Any = object()  # select(): this part of the selection stays as it is


@dataclass(frozen=True)
class RunState:
    """A run as plain data: what a workspace keeps of it (the corpus, settings, position, merges, branches)."""

    id: str
    corpus: RunCorpus
    config: TrainerConfig
    position: int
    merges: Tuple[SavedMerge, ...]
    branches: Tuple[Any, ...]
    parent: Optional[str] = None  # the run it continues, from that run's merge ``transition``
    transition: Optional[int] = None


@dataclass(frozen=True)
class WorkbenchState:
    """Everything open, as plain comparable data (two workbenches showing the same are equal)."""

    runs: Tuple[RunState, ...]
    vocabularies: Tuple[OpenVocabulary, ...]
    encode_text: str
    selection: Selection
    comparisons: Tuple[OpenComparison, ...]
    analyses: Tuple[OpenAnalysis, ...]


class Workbench:
    """Training runs, vocabularies, the encode text, the selection, comparisons and analyses (module doc).

    It takes no lock: operations run on one thread (an app's GUI thread), and a worker hands over what it
    made (a counted timeline, a model read) for :meth:`add_run` / :meth:`add_vocabulary` to open. Opening a
    comparison or analysis that is open already reports it again (a view may bring it to the front).
    """

    def __init__(self) -> None:
        self._runs: Dict[str, TrainingRun] = {}
        self._vocabularies: Dict[str, OpenVocabulary] = {}
        self._encode_text = ""
        self._selection = Selection()
        self._comparisons: List[OpenComparison] = []
        self._analyses: List[OpenAnalysis] = []
        self._observers: List[Observer] = []
        self._last_ids: Dict[str, int] = {}  # prefix ("r", "v") -> the number of the last id given

    # -- observers ------------------------------------------------------------------------------------
    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call ``observer(event)`` after every operation; returns the function that unsubscribes it."""
        self._observers.append(observer)
        return lambda: self._observers.remove(observer) if observer in self._observers else None

    def _tell(self, event: Event) -> Event:
        for observer in list(self._observers):
            observer(event)
        return event

    # -- what is open -----------------------------------------------------------------------------------
    @property
    def runs(self) -> Tuple[TrainingRun, ...]:
        return tuple(self._runs.values())

    @property
    def vocabularies(self) -> Tuple[OpenVocabulary, ...]:
        return tuple(self._vocabularies.values())

    comparisons = property(lambda self: tuple(self._comparisons), doc="The comparisons open, oldest first.")
    analyses = property(lambda self: tuple(self._analyses), doc="The analyses open, oldest first.")
    encode_text = property(lambda self: self._encode_text, doc="The text the encode pane encodes.")
    selection = property(lambda self: self._selection, doc="What is current and selected.")

    def run(self, run_id: str) -> TrainingRun:
        try:
            return self._runs[run_id]
        except KeyError:
            raise BPELensError(f"no training run {run_id!r} is open") from None

    def vocabulary(self, vocabulary_id: str) -> OpenVocabulary:
        try:
            return self._vocabularies[vocabulary_id]
        except KeyError:
            raise BPELensError(f"no vocabulary {vocabulary_id!r} is open") from None

    @property
    def current_run(self) -> Optional[TrainingRun]:
        rid = self._selection.run_id
        return self._runs.get(rid) if rid is not None else None

    @property
    def current_vocabulary(self) -> Optional[OpenVocabulary]:
        vid = self._selection.vocabulary_id
        return self._vocabularies.get(vid) if vid is not None else None

    def files(self) -> Tuple[str, ...]:
        """Every file the open things read (the runs' corpora, the vocabularies, the analyses' corpora), once
        each: what an export must never overwrite."""
        paths = [p for r in self._runs.values() for p in r.corpus.paths]
        paths += [v.path for v in self._vocabularies.values() if v.path is not None]
        paths += [p for a in self._analyses for p in a.corpus]
        return tuple(dict.fromkeys(paths))

    def is_open(self, subject_id: str) -> bool:
        """Whether ``subject_id`` names an open run or vocabulary."""
        return subject_id in self._runs or subject_id in self._vocabularies

    def _new_id(self, prefix: str, taken: Dict[str, Any]) -> str:
        """A fresh id: never one open, nor one used before in this workbench (a late answer about a closed
        vocabulary cannot be taken for a new one's)."""
        n = self._last_ids.get(prefix, 0) + 1
        while f"{prefix}{n}" in taken:
            n += 1
        self._last_ids[prefix] = n
        return f"{prefix}{n}"

    # -- runs -------------------------------------------------------------------------------------------
    def open_run(self, corpus: Union[RunCorpus, str, Sequence[str]], config: Optional[TrainerConfig] = None, *,
                 timeline: Optional[Timeline] = None, run_id: Optional[str] = None,
                 progress: Optional[Callable[[Progress], None]] = None,
                 cancel: Optional[Callable[[], bool]] = None) -> RunOpened:
        """Open a training run on ``corpus`` (a path, several paths, or a :class:`RunCorpus`) and make it
        current. ``timeline``: the corpus already counted (on a worker, by :func:`~bpe_core.workbench.runs.
        count_corpus`); else it is counted here with ``config``."""
        if not isinstance(corpus, RunCorpus):
            corpus = RunCorpus(tuple(map(os.fspath, [corpus] if isinstance(corpus, (str, os.PathLike)) else corpus)))
        corpus = replace(corpus, paths=tuple(os.path.abspath(p) for p in corpus.paths))
        if timeline is None:
            timeline = count_corpus(corpus, config or TrainerConfig(), progress=progress, cancel=cancel)
        return self.add_run(TrainingRun(run_id or self._new_id("r", self._runs), corpus, timeline))

    def add_run(self, run: TrainingRun, *, select: bool = True) -> RunOpened:
        """Add a run made elsewhere (:func:`~bpe_core.workbench.restore.restore_run`, :func:`~bpe_core.
        workbench.continuations.continue_run`) and make it current (``select``: False keeps the current one)."""
        if run.id in self._runs:
            raise BPELensError(f"a training run {run.id!r} is open already")
        if run.parent is not None and run.parent not in self._runs:
            raise BPELensError(f"run {run.id} continues run {run.parent}, which is not open")
        self._runs[run.id] = run
        event = self._tell(RunOpened(run))
        if select:
            self.select(run_id=run.id, word=None, token=None, pair=None)
        return event

    def new_run_id(self) -> str:
        return self._new_id("r", self._runs)  # the id the next run opened gets (never one used before)

    def children(self, run_id: str) -> Tuple[TrainingRun, ...]:
        """The open runs that continue run ``run_id`` (its branches of another variant), by transition."""
        return tuple(sorted((r for r in self._runs.values() if r.parent == run_id), key=lambda r: r.transition or 0))

    def close_run(self, run_id: str) -> RunClosed:
        """Close a run; the comparisons and analyses about it close first; another run becomes current."""
        self.run(run_id)
        for child in self.children(run_id):  # a continuation without its parent could not be restored
            self.close_run(child.id)
        self._close_about(run_id)
        del self._runs[run_id]
        event = self._tell(RunClosed(run_id))
        if self._selection.run_id == run_id:
            self.select(run_id=next(reversed(self._runs), None), word=None, token=None, pair=None)
        return event

    # -- vocabularies -----------------------------------------------------------------------------------
    def open_vocabulary(self, path: str, *, pattern: Optional[str] = None, name: str = "") -> VocabularyOpened:
        """Read the vocabulary in ``path`` (any supported format; ``pattern``: a ``.tiktoken`` file's split
        regex) and open it (:meth:`add_vocabulary`)."""
        from bpe_core.formats.detect import open_vocabulary

        return self.add_vocabulary(open_vocabulary(path, pattern=pattern), path=path, pattern=pattern, name=name)

    def add_vocabulary(self, model: Any, *, path: Optional[str] = None, pattern: Optional[str] = None,
                       name: str = "", vocabulary_id: Optional[str] = None) -> VocabularyOpened:
        """Open a vocabulary already read (on a worker) from ``path``, or made without a file (path None), and
        make it current. ``name``: what it is shown by (default: the model's name)."""
        vid = vocabulary_id or self._new_id("v", self._vocabularies)
        if vid in self._vocabularies:
            raise BPELensError(f"a vocabulary {vid!r} is open already")
        path = None if path is None else os.path.abspath(os.fspath(path))
        vocabulary = OpenVocabulary(vid, path, model, pattern, name or getattr(model, "name", "") or "vocabulary")
        self._vocabularies[vid] = vocabulary
        event = self._tell(VocabularyOpened(vocabulary))
        self.select(vocabulary_id=vid)
        return event

    def close_vocabulary(self, vocabulary_id: str) -> VocabularyClosed:
        """Close a vocabulary; the comparisons and analyses about it close first."""
        self.vocabulary(vocabulary_id)
        self._close_about(vocabulary_id)
        del self._vocabularies[vocabulary_id]
        event = self._tell(VocabularyClosed(vocabulary_id))
        if self._selection.vocabulary_id == vocabulary_id:
            self.select(vocabulary_id=next(reversed(self._vocabularies), None))
        return event

    # -- the selection and the encode text --------------------------------------------------------------
    def select(self, *, run_id: Optional[str] = _KEEP, vocabulary_id: Optional[str] = _KEEP,
               word: Optional[str] = _KEEP, token: Optional[int] = _KEEP,
               pair: Optional[Pair] = _KEEP) -> SelectionChanged:
        """Change what is current or selected (a part not given stays; None: nothing)."""
        if run_id is not _KEEP and run_id is not None:
            self.run(run_id)
        if vocabulary_id is not _KEEP and vocabulary_id is not None:
            self.vocabulary(vocabulary_id)
        parts = {"run_id": run_id, "vocabulary_id": vocabulary_id, "word": word, "token": token, "pair": pair}
        given = {k: v for k, v in parts.items() if v is not _KEEP}
        if given.get("pair") is not None:
            given["pair"] = tuple(given["pair"])
        self._selection = replace(self._selection, **given)
        return self._tell(SelectionChanged(self._selection))

    def set_encode_text(self, text: str) -> EncodeTextChanged:
        self._encode_text = text
        return self._tell(EncodeTextChanged(text))

    # -- comparisons and analyses -----------------------------------------------------------------------
    def open_comparison(self, a_id: str, b_id: str) -> ComparisonOpened:
        """Show two open subjects (runs or vocabularies) side by side."""
        for subject in (a_id, b_id):
            self._check_subject(subject)
        comparison = OpenComparison(a_id, b_id)
        if comparison not in self._comparisons:
            self._comparisons.append(comparison)
        return self._tell(ComparisonOpened(comparison))

    def close_comparison(self, comparison: OpenComparison) -> ComparisonClosed:
        if comparison in self._comparisons:
            self._comparisons.remove(comparison)
        return self._tell(ComparisonClosed(comparison))

    def open_analysis(self, kind: str, subject_id: str, corpus: Sequence[str] = (), *,
                      at: Optional[int] = None) -> AnalysisOpened:
        """Show an analysis (``kind``: health, fertility, ...) of an open subject on ``corpus``'s files (``at``:
        a run's vocabulary at that merge)."""
        self._check_subject(subject_id)
        analysis = OpenAnalysis(kind, subject_id, tuple(os.path.abspath(os.fspath(p)) for p in corpus), at)
        if analysis not in self._analyses:
            self._analyses.append(analysis)
        return self._tell(AnalysisOpened(analysis))

    def close_analysis(self, analysis: OpenAnalysis) -> AnalysisClosed:
        if analysis in self._analyses:
            self._analyses.remove(analysis)
        return self._tell(AnalysisClosed(analysis))

    def _check_subject(self, subject_id: str) -> None:
        if not self.is_open(subject_id):
            raise BPELensError(f"no run or vocabulary {subject_id!r} is open")

    def _close_about(self, subject_id: str) -> None:
        for c in [c for c in self._comparisons if subject_id in (c.a_id, c.b_id)]:
            self.close_comparison(c)
        for a in [a for a in self._analyses if a.subject_id == subject_id]:
            self.close_analysis(a)

    # -- plain data and the workspace file -------------------------------------------------------------
    def state(self) -> WorkbenchState:
        """Everything open as plain data (a run's merges as a workspace stores them)."""
        runs = tuple(RunState(r.id, r.corpus, r.config, s.position, s.merges, s.branches, r.parent, r.transition)
                     for r, s in ((r, self._saved_run(r)) for r in self._runs.values()))
        return WorkbenchState(runs, self.vocabularies, self._encode_text, self._selection, self.comparisons,
                              self.analyses)

    def saved(self) -> SavedBench:
        vocabularies = tuple(SavedVocabulary(v.id, v.path, v.pattern, v.name) for v in self._vocabularies.values()
                             if v.path is not None)  # made here (no file): not saved
        kept = {v.id for v in vocabularies} | set(self._runs)
        return SavedBench(tuple(map(self._saved_run, self._runs.values())), self._selection.run_id, vocabularies,
                          self._encode_text, tuple(c for c in self._comparisons if {c.a_id, c.b_id} <= kept),
                          tuple(a for a in self._analyses if a.subject_id in kept), self._selection)

    def _saved_run(self, run: TrainingRun):
        """``run`` as saved, with its known merges up to the furthest merge a branch of it starts from."""
        return run.saved(max((c.transition or 0 for c in self.children(run.id)), default=0))

    def to_workspace(self) -> Workspace:
        """The workbench as a workspace file's content (:func:`~bpe_core.formats.workspace.write_workspace`).

        The corpus files are saved with the sha256 the runs know (:meth:`TrainingRun.hash_corpus`), else
        with their size alone."""
        return to_workspace(self.saved())

    @classmethod
    def from_workspace(cls, ws: Workspace, **kwargs: Any) -> "Workbench":
        """The workbench ``ws`` saved (:meth:`restore` without its report)."""
        return cls.restore(ws, **kwargs)[0]

    @classmethod
    def restore(cls, ws: Workspace, *, path: str = "<workspace>", read_vocabulary: Optional[Callable] = None,
                corpora: Optional[Mapping[str, RunCorpus]] = None, checks: Optional[Mapping[str, CorpusCheck]] = None,
                progress: Optional[Callable[[Progress], None]] = None,
                cancel: Optional[Callable[[], bool]] = None) -> Tuple["Workbench", RestoreReport]:
        """Open everything ``ws`` saved, here and now (a worker's job: the new workbench shares nothing until
        it is returned): each run's corpus checked, counted, its branches replayed and trained to the saved
        merge; the vocabularies read again. The report says what differs: a changed corpus, the first merge
        that differs, what could not be opened.

        A run whose corpus is missing (or not a file) stays closed; a changed corpus is counted as it is now.
        ``corpora``: run id -> another corpus chosen for it; ``checks``: run id -> its corpus already hashed
        (:func:`~bpe_core.workbench.restore.check_corpus`, so an app that asked the user first hashes once).
        """
        bench = read_bench(ws, path)
        self, runs = cls(), []
        corpora, checks = corpora or {}, checks or {}
        for saved in bench.runs:
            run, report = reopen_run(saved, corpus=corpora.get(saved.id), check=checks.get(saved.id),
                                     progress=progress, cancel=cancel, parent=self._runs.get(saved.parent or ""))
            if run is not None:
                self._runs[run.id] = run
            runs.append(report)
        problems = []
        if read_vocabulary is None:
            from bpe_core.formats.detect import open_vocabulary as read_vocabulary
        for v in bench.vocabularies:
            try:
                model = read_vocabulary(v.path, pattern=v.pattern)
            except (BPELensError, OSError) as exc:
                problems.append(str(exc))
                continue
            self._vocabularies[v.id] = OpenVocabulary(v.id, v.path, model, v.pattern,
                                                      v.name or getattr(model, "name", "") or "vocabulary")
        self._encode_text = bench.encode_text
        self._comparisons = [c for c in bench.comparisons if self.is_open(c.a_id) and self.is_open(c.b_id)]
        self._analyses = [a for a in bench.analyses if self.is_open(a.subject_id)]
        sel = bench.selection
        run_id = sel.run_id if sel.run_id in self._runs else bench.current_run
        self._selection = replace(sel, run_id=run_id if run_id in self._runs else next(iter(self._runs), None),
                                  vocabulary_id=sel.vocabulary_id if sel.vocabulary_id in self._vocabularies
                                  else None)
        return self, RestoreReport(tuple(runs), tuple(problems))

    def __repr__(self) -> str:
        return f"Workbench({len(self._runs)} runs, {len(self._vocabularies)} vocabularies, " \
               f"{len(self._comparisons)} comparisons, {len(self._analyses)} analyses)"
