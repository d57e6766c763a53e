"""The Workbench seen from Qt: its events become signals that carry their subject.

The core's Workbench holds everything open in the app (the training run, the vocabularies read from
files, which of them is current) without Qt. This adapter owns it for the session: a command such as
:meth:`WorkbenchAdapter.open_vocabulary` reads the file on a worker and then tells the Workbench, and
each event the Workbench reports comes out as a Qt signal whose argument is the thing it is about:
``vocabulary_opened`` carries the :class:`OpenVocabulary` (its id, its path and its model), and
``vocabulary_closed`` carries the id. A pane that reacts to an event therefore needs no context
kept elsewhere (for example a window attribute remembering which file was being opened).

Features find the open vocabularies here, through :meth:`vocabularies`, :meth:`vocabulary` and
:attr:`current`, never by looking through the window's tabs.
"""
from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from PySide6.QtCore import QObject, Signal

from bpe_core.model import BPEModel


@dataclass(frozen=True)
class OpenVocabulary:
    """A vocabulary open in the app: its id, the file it was read from ("" when it came from memory),
    its model and the name it is shown by."""

    id: str
    path: str
    model: BPEModel
    name: str


class WorkbenchAdapter(QObject):
    """The session's open vocabularies and its training run, with a signal for each change."""

    vocabulary_opened = Signal(object)  # OpenVocabulary
    vocabulary_closed = Signal(str)  # the id of the vocabulary closed
    selection_changed = Signal(object)  # the current vocabulary (OpenVocabulary), or None: the training
    run_opened = Signal(object)  # CorpusInfo of the training run now open

    def __init__(self, session, calls, parent: Optional[QObject] = None) -> None:
        """``calls``: the session's call slot, so that reading a file shows as the session loading
        (progress, Cancel, errors said once)."""
        super().__init__(parent if parent is not None else session)
        self._calls = calls
        self._ids = itertools.count(1)
        self._open: Dict[str, OpenVocabulary] = {}
        self._current: Optional[str] = None
        self.run: Any = None  # CorpusInfo of the training run, once a corpus is loaded
        session.corpus_loaded.connect(self._on_session_corpus_loaded)

    # -- commands ---------------------------------------------------------------------------------------
    def open_vocabulary(self, path: str, *, pattern: Optional[str] = None) -> None:
        """Read the vocabulary at ``path`` on a worker; ``vocabulary_opened`` follows with its record.
        ``pattern``: the split regex of a ``.tiktoken`` file other than OpenAI's own."""
        from bpe_core.formats.detect import open_vocabulary

        path = os.fspath(path)
        self._calls.start(lambda *, progress, cancel: open_vocabulary(path, pattern=pattern),
                          lambda model: self.add_vocabulary(model, path=path))

    def add_vocabulary(self, model: BPEModel, *, path: str = "", name: str = "") -> OpenVocabulary:
        """Open a vocabulary already read (or made in memory); ``vocabulary_opened`` is emitted."""
        vocabulary = OpenVocabulary(f"v{next(self._ids)}", os.fspath(path), model, name or model.name or "vocabulary")
        self._open[vocabulary.id] = vocabulary
        self.vocabulary_opened.emit(vocabulary)
        return vocabulary

    def close_vocabulary(self, vocabulary_id: str) -> None:
        """Close an open vocabulary; ``vocabulary_closed(id)`` is emitted (nothing happens for an unknown id)."""
        if self._open.pop(vocabulary_id, None) is None:
            return
        if self._current == vocabulary_id:
            self.select(None)
        self.vocabulary_closed.emit(vocabulary_id)

    def select(self, vocabulary_id: Optional[str]) -> None:
        """Make a vocabulary current (None: the training); ``selection_changed`` is emitted on a change."""
        vocabulary_id = vocabulary_id if vocabulary_id in self._open else None
        if vocabulary_id != self._current:
            self._current = vocabulary_id
            self.selection_changed.emit(self.current)

    # -- queries ----------------------------------------------------------------------------------------
    def vocabularies(self) -> List[OpenVocabulary]:
        """The open vocabularies, oldest first."""
        return list(self._open.values())

    def vocabulary(self, vocabulary_id: str) -> Optional[OpenVocabulary]:
        return self._open.get(vocabulary_id)

    @property
    def current(self) -> Optional[OpenVocabulary]:
        """The vocabulary the user is looking at, or None when it is the training."""
        return self._open.get(self._current) if self._current is not None else None

    def paths(self) -> List[str]:
        """The files of the open vocabularies, oldest first (vocabularies made in memory have none)."""
        return [v.path for v in self._open.values() if v.path]

    # -- events from the session ------------------------------------------------------------------------
    def _on_session_corpus_loaded(self, info) -> None:
        self.run = info
        self.run_opened.emit(info)
