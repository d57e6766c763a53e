"""How the app reads a corpus made of several files, or one that is not valid UTF-8, the way the CLI does.

``bpe-lens-cli train a.txt b.txt`` counts several files as one corpus, as if they were one file
(:func:`bpe_core.corpus.files.count_words_in_files`). File → Open corpus… with several files selected
loads them the same way (it used to load only the first one, without a word). The CLI's
``--errors replace`` reads bytes that are not UTF-8 as U+FFFD. In the app, that choice is the training
settings' "Decode errors", which is remembered, and the message box for a corpus that fails to decode
offers a "Decode with replacement" button.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Sequence, Tuple, Union

from PySide6.QtCore import QSettings

from bpe_core import Timeline, Trainer, TrainerConfig
from bpe_core.base import check_config

#: how bytes that are not UTF-8 are read: an error naming the byte, or U+FFFD (the CLI's ``--errors``)
DECODE_ERRORS = ("strict", "replace")
DECODE_KEY = "training/decode_errors"
#: the end of the core's message for a corpus that is not UTF-8 (bpe_core.corpus.counting.decode_block)
DECODE_HINT = "decode with replacement to continue"
REPLACE_BUTTON = "Decode with replacement"

PathOrPaths = Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]]


def corpus_paths(path: PathOrPaths) -> Tuple[str, ...]:
    """The corpus's files, in order: one path, or several (one corpus)."""
    if isinstance(path, (str, os.PathLike)):
        return (os.fspath(path),)
    return tuple(os.fspath(p) for p in path)


def corpus_name(paths: Sequence[str]) -> str:
    """What the window calls the corpus: ``a.txt``, ``a.txt + b.txt``, ``a.txt + 2 more files``."""
    names = [os.path.basename(p) for p in paths]
    if len(names) <= 2:
        return " + ".join(names)
    return f"{names[0]} + {len(names) - 1} more files"


def corpus_factory(factory: Callable, errors: str = "strict") -> Callable:
    """Wrap ``factory`` (which makes a trainer from one path, like ``Trainer.from_corpus``) into a factory
    ``(paths, config, *, progress, cancel)`` for a whole corpus.

    One file read strictly goes to ``factory`` unchanged. Several files, or reading with replacement, are
    counted the way the CLI counts them, and the trainer is made by ``factory``'s own class, so that a
    test's slowed trainer stays slow. Any other kind of factory receives the list of paths, and
    ``errors``, when the corpus is not one file read strictly."""
    def make(paths: Sequence[str], config: TrainerConfig, *, progress=None, cancel=None):
        if len(paths) == 1 and errors == "strict":
            return factory(paths[0], config, progress=progress, cancel=cancel)
        owner = getattr(factory, "__self__", None)
        if isinstance(owner, type) and issubclass(owner, Trainer) and factory.__name__ == "from_corpus":
            from bpe_core.corpus import count_words_in_files

            check_config(config)  # before reading a possibly large corpus
            counts = count_words_in_files([Path(p) for p in paths], config, progress=progress, cancel=cancel,
                                          errors=errors)
            return owner(counts, config)
        extra = {} if errors == "strict" else {"errors": errors}
        corpus = paths[0] if len(paths) == 1 else list(paths)
        return factory(corpus, config, progress=progress, cancel=cancel, **extra)

    return make


def corpus_loader(paths: Sequence[str], config: TrainerConfig, factory: Callable, errors: str = "strict") -> Callable:
    """The job a worker runs to load a corpus: it counts the words of ``paths`` with ``factory``'s trainer
    (see :func:`corpus_factory`) and returns the new :class:`~bpe_core.training.timeline.Timeline`."""
    make = corpus_factory(factory, errors)

    def load(*, progress, cancel) -> Timeline:
        return Timeline.from_corpus(paths, config, progress=progress, cancel=cancel, factory=make)

    return load


def is_decode_error(message: str) -> bool:
    """Whether an error message is the core's "not valid UTF-8 at byte N (0xE9); decode with replacement"."""
    return DECODE_HINT in message


def saved_decode_errors(settings: QSettings) -> str:
    """The remembered decode-errors choice ("strict" unless "replace" was chosen)."""
    value = settings.value(DECODE_KEY, "strict")
    return value if value in DECODE_ERRORS else "strict"


def save_decode_errors(settings: QSettings, errors: str) -> None:
    settings.setValue(DECODE_KEY, errors if errors in DECODE_ERRORS else "strict")
