"""The one place that knows where BPE Lens's data files are: the default corpus, the example
corpora, the Punkt tables, the application icon and the ``.desktop`` file.

They live in the repository's ``resources/`` folder, which installs as the package
``bpe_lens_resources`` (see ``pyproject.toml``), so ``importlib.resources`` finds them in a
checkout (editable install) and in a wheel alike. Callers get real file paths because the
readers (Punkt tables, corpus counting in worker processes, Qt's icon loader) need paths; a
zipped install, where there are none, fails here with one clear message.

>>> default_corpus().name
'default.txt'
>>> sorted(p.name for p in examples())[0]
'seed000_hello.txt'
"""
from __future__ import annotations

import functools
from importlib import resources as _ilr
from pathlib import Path
from typing import List

from bpe_core.types import BPELensError

__all__ = ["PACKAGE", "root", "resource", "default_corpus", "examples", "punkt_dir", "icon", "desktop_file"]

PACKAGE = "bpe_lens_resources"


@functools.lru_cache(maxsize=1)
def root() -> Path:
    """The resources folder (``resources/`` of a checkout, ``site-packages/bpe_lens_resources``)."""
    try:
        folder = _ilr.files(PACKAGE)
    except ModuleNotFoundError:
        raise BPELensError(f"the package data {PACKAGE!r} is not installed; reinstall bpe-lens") from None
    path = Path(str(folder))
    if not path.is_dir():
        raise BPELensError(f"the package data {PACKAGE!r} is not a folder on disk ({folder}); "
                           "install bpe-lens unzipped")
    return path


def resource(*parts: str) -> Path:
    """A file or folder inside the resources, e.g. ``resource("corpus", "default.txt")``."""
    return root().joinpath(*parts)


def default_corpus() -> Path:
    """The corpus the app opens with (Jane Austen, *Pride and Prejudice*)."""
    return resource("corpus", "default.txt")


def examples() -> List[Path]:
    """The small example corpora of File → Examples, sorted by name."""
    return sorted(resource("examples").glob("*.txt"))


def punkt_dir(language: str = "english") -> Path:
    """NLTK's ``punkt_tab`` tables for ``language`` (only English is shipped)."""
    return resource("punkt_tab", language)


def icon(name: str = "bpe-lens.png") -> Path:
    """The application icon (PNG: needs no Qt SVG plugin; the SVG beside it is the source)."""
    return resource("icons", name)


def desktop_file() -> Path:
    """The freedesktop ``.desktop`` entry (copy it to ``~/.local/share/applications``)."""
    return resource("bpe-lens.desktop")
