"""The window's state as a :class:`~bpe_core.formats.workspace.Workspace`, and the view parts put back.

It is the session's Workbench in its saved form (:meth:`~bpe_core.Workbench.to_workspace`: the training
run's corpus, settings, position and merges, the open vocabularies, the encode text, the selected word),
with what only the window knows put in: the tab in front, the order of the vocabularies' tabs, the corpus's
hash once the workspace feature has it and the training's branches (the ties feature keeps them). Capturing runs on the GUI thread, so it is kept cheap: the workspace feature
converts only the merges it has not seen before (``SavedMerges``); writing the file is the autosaver's
worker's job.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, List, Optional, Sequence

from bpe_core.formats import CorpusRef, Workspace

def tab_paths(window) -> List[str]:
    """The open vocabularies' files, in the order of their tabs (vocabularies made without a file skipped)."""
    workbench = window.session.workbench
    return [v.path for v in map(workbench.vocabulary, window.tab_order()) if v is not None and v.path]


def capture(window, corpus: Optional[CorpusRef], *, branches: Sequence[Any] = ()) -> Optional[Workspace]:
    """The workspace the window shows (the Workbench's, with the window's parts); None while nothing is loaded.

    ``corpus``: the loaded corpus's reference (its hash may still be None while hashing)."""
    session = window.session
    if not session.is_loaded or session.corpus is None or session.workbench.run is None:
        return None
    ws = session.workbench.to_workspace()
    view: Dict[str, Any] = {**ws.view, "current_tab": window.tabs.currentIndex()}
    return replace(ws, corpus=corpus or ws.corpus, branches=tuple(branches), tabs=tuple(tab_paths(window)),
                   view=view)


def worth_restoring(ws: Optional[Workspace], default_corpus: str) -> bool:
    """Whether a crash would lose anything: merges taken, text typed, tabs open or another corpus."""
    return ws is not None and bool(ws.position or ws.encode_text or ws.tabs or ws.branches
                                   or (ws.corpus is not None and ws.corpus.path != default_corpus))


def select_word(window, word: Optional[str]) -> bool:
    """Select ``word`` in the words pane (a saved view); False when the corpus has no such word."""
    if not word:
        return False
    try:
        index = window.session.words.index(word)
    except ValueError:
        return False
    window.words.select_word(index)
    return True


def describe(ws: Workspace) -> str:
    """One line for the restore offer: corpus, settings, merge, what else is there."""
    corpus = ws.corpus.path if ws.corpus else "no corpus"  # absolute (read_workspace): the file it would read
    extra = []
    if ws.encode_text:
        text = " ".join(ws.encode_text.split())
        extra.append(f"encode text “{text[:40]}…”" if len(text) > 40 else f"encode text “{text}”")
    if ws.tabs:
        extra.append(f"{len(ws.tabs)} inspector tab{'s' * (len(ws.tabs) > 1)}")
    return f"{corpus} ({ws.config.preset}) at merge {ws.position:,}" + (f", {', '.join(extra)}" if extra else "")
