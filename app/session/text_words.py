"""The words of an open corpus's text by script, read once per corpus for every pane that divides by them.

Tokens per word is the Measures chart's wherever the app shows it (issue 26): a group's tokens over the
whitespace-separated words of the run's text in that group (:func:`bpe_core.analysis.corpus_words`). A run
keeps its text's distinct pieces, not its words (a piece cannot tell where a word starts), so the text is read
for them: once per corpus (about 1 s per 17.6 MB), on a worker, for the Variants tab, the Training tab's
tokens per word by script and its status line and history chart alike. The words never change while a run
steps, so a step divides by constants.

:meth:`TextWords.words` gives a corpus's words by script, None when it has no text to read (a word-count table,
files gone or unreadable: the panes say they count pieces), or :data:`READING` until read; ``read`` is
emitted when a corpus's words come. One per session (:func:`text_words_of`).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, Signal

from bpe_core import BPELensError
from bpe_core.analysis import corpus_words

from ..runtime.worker import LatestWorker, keep_alive

#: a text being read: no words yet
READING: dict = {}


def corpus_key(corpus) -> tuple:
    """What identifies a corpus's text: its files and how they are decoded."""
    return (tuple(corpus.paths), corpus.decode_errors)


def read_text_words(corpus, cancel: Optional[Callable[[], bool]] = None):
    """``corpus``'s text's words by script (the core's :func:`corpus_words`), None when it has no text to read
    (a word-count table, files gone or unreadable)."""
    try:
        return corpus_words(corpus.paths, corpus.decode_errors, cancel=cancel)
    except (BPELensError, OSError):
        return None


class TextWords(QObject):
    """The words of the open corpora's texts, each read once, one at a time, on a worker."""

    read = Signal(object)  # the corpus key whose words came

    def __init__(self, parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self._texts: dict = {}  # corpus key -> its words by script (None: no text)
        self._reading: Optional[tuple] = None
        self._waiting: list = []  # corpora asked for while another was being read
        self.reader = LatestWorker(keep_alive, self)
        self.reader.errored.connect(lambda exc: self._on_read(self._reading, None))
        self.reader.aborted.connect(self._on_aborted)

    def words(self, corpus) -> Any:
        """``corpus``'s words by script, None (no text), or :data:`READING` (being read: ``read`` follows)."""
        key = corpus_key(corpus)
        if key in self._texts:
            return self._texts[key]
        if self._reading is None:
            self._reading = key
            self.reader.start(lambda *, progress, cancel: read_text_words(corpus, cancel),
                              lambda words: self._on_read(key, words))
        elif key != self._reading and all(corpus_key(c) != key for c in self._waiting):
            self._waiting.append(corpus)
        return READING

    def known(self, corpus) -> bool:
        """Whether ``corpus``'s text has been read (its words, or None)."""
        return corpus_key(corpus) in self._texts

    def forget(self) -> None:
        """Forget the words read (a corpus was loaded: its files may have changed since); a text being read
        still comes."""
        self._texts = {}

    def _on_read(self, key, words) -> None:
        self._reading = None
        if key is not None:
            self._texts[key] = words
            self.read.emit(key)
        self._next()

    def _on_aborted(self) -> None:
        self._reading = None
        self._next()

    def _next(self) -> None:
        while self._waiting and self._reading is None:
            corpus = self._waiting.pop(0)
            if corpus_key(corpus) not in self._texts:
                self.words(corpus)


def text_words_of(session: QObject) -> TextWords:
    """The session's :class:`TextWords` (made on first use, a child of the session)."""
    shared = session.findChild(TextWords, "text_words")
    if shared is None:
        shared = TextWords(session)
        shared.setObjectName("text_words")
        session.corpus_loaded.connect(lambda *_: shared.forget())
    return shared


class RunWords(QObject):
    """The whitespace-separated words of the session's run's text in all: what the Training tab's status line
    and history chart divide the run's tokens by (the Measures chart's "all" group). ``what`` is "word", or
    "piece" when the run has no text (a word-count table): the trainer's statistics count its pieces (its
    ``TrainingStats.total_words``), and a piece is not a word, so the figure is named for what it divides by.
    ``changed`` is emitted when the words come (or the corpus changes)."""

    changed = Signal()

    def __init__(self, session: QObject) -> None:
        super().__init__(session)
        self.session, self.texts = session, text_words_of(session)
        self.total: Optional[int] = None  # None: not known (being read, or no text)
        self.what = "word"
        self.texts.read.connect(self._update)
        session.corpus_loaded.connect(self._update)
        self._update()

    def _update(self, *_) -> None:
        run = self.session.workbench.run
        words = None if run is None else self.texts.words(run.corpus)
        reading = words is READING
        state = (None if reading or words is None else sum(words.values()), "piece" if words is None else "word")
        if state != (self.total, self.what):
            self.total, self.what = state
            self.changed.emit()

    def divisor(self, stats) -> int:
        """What tokens per word divides by at ``stats``: the text's words, or the pieces until they are known."""
        return self.total or stats.total_words

    def per_word(self, stats) -> Optional[float]:
        """The run's tokens per word at ``stats`` (per piece without text; None while the text is read)."""
        if self.what == "word" and not self.total:
            return None
        return stats.total_tokens / self.divisor(stats) if self.divisor(stats) else 0.0


def run_words_of(session: QObject) -> RunWords:
    """The session's :class:`RunWords` (made on first use, a child of the session)."""
    shared = session.findChild(RunWords, "run_words")
    if shared is None:
        shared = RunWords(session)
        shared.setObjectName("run_words")
    return shared
