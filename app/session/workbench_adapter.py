"""The Workbench seen from Qt: its events become signals that carry their subject.

The core's :class:`~bpe_core.Workbench` holds everything open in the app (the training run, the vocabularies
read from files, which of them is current) without Qt. This adapter owns it for the session. A command such
as :meth:`WorkbenchAdapter.open_vocabulary` reads the file on a worker and then tells the Workbench; each
event the Workbench reports comes out as a Qt signal whose argument is the thing it is about:
``vocabulary_opened`` carries the :class:`~bpe_core.OpenVocabulary` (its id, its path and its model) and
``vocabulary_closed`` carries the id. A pane that reacts to an event therefore needs no context kept
elsewhere (for example a window attribute remembering which file was being opened).

Features find the open vocabularies here, through :meth:`vocabularies`, :meth:`vocabulary` and
:attr:`current`, never by looking through the window's tabs. The session's training run is registered as
the Workbench's run each time a corpus is loaded (:attr:`run`).
"""
from __future__ import annotations

import itertools
import os
from typing import Any, List, Optional

from PySide6.QtCore import QObject, Signal

from bpe_core import OpenVocabulary, RunCorpus, VocabularyClosed, VocabularyOpened, Workbench

#: the id of the session's training run on the Workbench (the session trains one corpus at a time)
RUN_ID = "r1"


class WorkbenchAdapter(QObject):
    """The session's Workbench, with a Qt signal for each event it reports."""

    vocabulary_opened = Signal(object)  # OpenVocabulary
    vocabulary_closed = Signal(str)  # the id of the vocabulary closed
    selection_changed = Signal(object)  # the current vocabulary (OpenVocabulary), or None: the training
    run_opened = Signal(object)  # the TrainingRun now open (the session's corpus and timeline)

    def __init__(self, session, calls, parent: Optional[QObject] = None) -> None:
        """``calls``: the session's call slot, so that reading a file shows as the session loading
        (progress, Cancel, an error said once)."""
        super().__init__(parent if parent is not None else session)
        self._session, self._calls = session, calls
        self.bench = Workbench()
        self._ids = itertools.count(1)
        self._current: Optional[str] = None  # the current vocabulary's id as last said by selection_changed
        self.bench.subscribe(self._on_bench_event)
        session.corpus_loaded.connect(self._on_session_corpus_loaded)

    # -- commands ---------------------------------------------------------------------------------------
    def open_vocabulary(self, path: str, *, pattern: Optional[str] = None) -> None:
        """Read the vocabulary at ``path`` on a worker; ``vocabulary_opened`` follows with its record.
        ``pattern``: the split regex of a ``.tiktoken`` file other than OpenAI's own."""
        from bpe_core import open_vocabulary

        path = os.fspath(path)
        self._calls.start(lambda *, progress, cancel: open_vocabulary(path, pattern=pattern),
                          lambda model: self.add_vocabulary(model, path=path, pattern=pattern))

    def add_vocabulary(self, model: Any, *, path: str = "", name: str = "",
                       pattern: Optional[str] = None) -> OpenVocabulary:
        """Open a vocabulary already read (``path``: its file) or made in memory (no path); it becomes
        current and ``vocabulary_opened`` is emitted. ``name``: what its tab is called (else the model's)."""
        vocabulary_id = f"v{next(self._ids)}"  # never reused: a closed vocabulary's tab cannot be confused
        return self.bench.add_vocabulary(model, path=os.fspath(path) or None, pattern=pattern, name=name,
                                         vocabulary_id=vocabulary_id).vocabulary

    def close_vocabulary(self, vocabulary_id: str) -> None:
        """Close an open vocabulary; ``vocabulary_closed(id)`` is emitted (an id not open: nothing happens)."""
        if self._is_open(vocabulary_id):
            self.bench.close_vocabulary(vocabulary_id)

    def select(self, vocabulary_id: Optional[str]) -> None:
        """Make a vocabulary current (None: the training); ``selection_changed`` is emitted on a change."""
        vocabulary_id = vocabulary_id if self._is_open(vocabulary_id) else None
        if vocabulary_id != self.bench.selection.vocabulary_id:
            self.bench.select(vocabulary_id=vocabulary_id)

    def set_encode_text(self, text: str) -> None:
        """The text the encode pane encodes (a workspace saves it)."""
        if text != self.bench.encode_text:
            self.bench.set_encode_text(text)

    def select_word(self, word: Optional[str]) -> None:
        """The word selected in the training's words (None: none); a corpus loaded clears it."""
        if self.bench.current_run is not None and word != self.bench.selection.word:
            self.bench.select(word=word)

    def to_workspace(self) -> Any:
        """Everything open, as a workspace file holds it (:meth:`bpe_core.Workbench.to_workspace`)."""
        return self.bench.to_workspace()

    # -- queries ----------------------------------------------------------------------------------------
    def vocabularies(self) -> List[OpenVocabulary]:
        """The open vocabularies, oldest first."""
        return list(self.bench.vocabularies)

    def vocabulary(self, vocabulary_id: str) -> Optional[OpenVocabulary]:
        return self.bench.vocabulary(vocabulary_id) if self._is_open(vocabulary_id) else None

    def _is_open(self, vocabulary_id: Optional[str]) -> bool:
        return any(v.id == vocabulary_id for v in self.bench.vocabularies)

    @property
    def current(self) -> Optional[OpenVocabulary]:
        """The vocabulary the user is looking at, or None when it is the training."""
        return self.bench.current_vocabulary

    def paths(self) -> List[str]:
        """The files of the open vocabularies, oldest first (vocabularies made in memory have none)."""
        return [v.path for v in self.bench.vocabularies if v.path]

    @property
    def selected_word(self) -> Optional[str]:
        return self.bench.selection.word

    @property
    def run(self) -> Any:
        """The session's training run on the Workbench (None before a corpus is loaded)."""
        return self.bench.current_run

    # -- events -----------------------------------------------------------------------------------------
    def _on_bench_event(self, event) -> None:
        if isinstance(event, VocabularyOpened):
            self.vocabulary_opened.emit(event.vocabulary)
        elif isinstance(event, VocabularyClosed):
            self.vocabulary_closed.emit(event.vocabulary_id)
        current = self.bench.current_vocabulary
        if (current.id if current is not None else None) != self._current:  # whichever operation changed it
            self._current = current.id if current is not None else None
            self.selection_changed.emit(current)

    def _on_session_corpus_loaded(self, info) -> None:
        """The session counted a corpus: its timeline is the Workbench's run (the one before is closed)."""
        if self.bench.runs:
            self.bench.close_run(RUN_ID)
        corpus = RunCorpus(tuple(info.paths or (info.path,)), self._session.decode_errors)
        self.run_opened.emit(self.bench.open_run(corpus, info.config, timeline=self._session.core,
                                                 run_id=RUN_ID).run)
