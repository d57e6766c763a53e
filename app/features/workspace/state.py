"""The window's state as a :class:`~bpe_core.formats.workspace.Workspace`, and the view parts put back.

Everything is read from public facts: the session (corpus, config, merge count, history), the encode
pane's text, the open vocabularies' files (the session's Workbench, in the order the window shows their
tabs) and the word last selected. Capturing runs on the GUI thread, so it is kept cheap: the workspace feature
converts only the merges it has not seen before (``SavedMerges``); writing the file is the autosaver's
worker's job.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from bpe_core.formats import CorpusRef, Workspace, saved_merges

def tab_paths(window) -> List[str]:
    """The open vocabularies' files, in the order of their tabs (vocabularies made without a file skipped)."""
    workbench = window.session.workbench
    return [v.path for v in map(workbench.vocabulary, window.tab_order()) if v is not None and v.path]


def capture(window, corpus: Optional[CorpusRef], *, selected_word: Optional[str] = None,
            branches: Sequence[Any] = (), merges: Callable[[Sequence[Any]], Tuple[Any, ...]] = saved_merges
            ) -> Optional[Workspace]:
    """The workspace the window shows; None while nothing is loaded.

    ``corpus``: the loaded corpus's reference (its hash may still be None while hashing); ``merges``: how the
    history is stored (a :class:`~bpe_core.formats.workspace.SavedMerges` converts only what is new)."""
    session = window.session
    if not session.is_loaded or session.corpus is None:
        return None
    history = session.history
    view: Dict[str, Any] = {"current_tab": window.tabs.currentIndex()}
    if selected_word is not None:
        view["selected_word"] = selected_word
    return Workspace(corpus=corpus or CorpusRef(session.corpus.path, -1, None), config=session.config,
                     position=len(history), merges=merges(history), branches=tuple(branches),
                     encode_text=window.encode.text(), tabs=tuple(tab_paths(window)), view=view)


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
