"""The window's state as a :class:`~bpe_core.formats.workspace.Workspace`, and the view parts put back.

It is the session's Workbench in its saved form (:meth:`~bpe_core.Workbench.to_workspace`: the training
run's corpus, settings, position and merges, the open vocabularies, the encode text, the selected word),
with what only the window knows put in: the tab in front, the order of the vocabularies' tabs, the corpus's
hash once the workspace feature has it. The training's branches are the Workbench run's (the ties feature
works on them), so they are in its saved form. Capturing runs on the GUI thread, so it is kept cheap: the
run converts only the merges it has not seen at its last save (``TrainingRun.saved``); writing the file
is the autosaver's worker's job.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Dict, List, Optional

from bpe_core.formats import CorpusRef, Workspace
from bpe_core.workbench import analysis_dict

def tab_paths(window) -> List[str]:
    """The open vocabularies' files, in the order of their tabs (vocabularies made without a file skipped)."""
    workbench = window.session.workbench
    return [v.path for v in map(workbench.vocabulary, window.tab_order()) if v is not None and v.path]


def capture(window, corpus: Optional[CorpusRef]) -> Optional[Workspace]:
    """The workspace the window shows (the Workbench's, with the window's parts); None while nothing is loaded.

    ``corpus``: the loaded corpus's reference (its hash may still be None while hashing)."""
    session = window.session
    if not session.is_loaded or session.corpus is None or session.workbench.run is None:
        return None
    ws = session.workbench.to_workspace()
    view: Dict[str, Any] = {**ws.view, "current_tab": window.tabs.currentIndex()}
    return replace(ws, corpus=corpus or ws.corpus, tabs=tuple(tab_paths(window)), view=view,
                   bench=_with_views(ws.bench, window))


def _with_views(part: Optional[Dict[str, Any]], window) -> Optional[Dict[str, Any]]:
    """The workbench part with each analysis tab's filter and sort (what only its tab knows) put in, and the
    Measures tab (an analysis only the window knows: app/features/measures/reopen.py)."""
    from ..inspector import biography_views
    from ..measures import saved_measures

    views = {_key(analysis_dict(a)): v for a, v in biography_views(window).items()}
    measures = saved_measures(window)
    if not part or not (views or measures):
        return part
    analyses = [{**d, "view": views[key]} if (key := _key(d)) in views else d for d in part.get("analyses", [])]
    return {**part, "analyses": analyses + ([measures] if measures else [])}


def _key(d: Dict[str, Any]) -> str:
    return json.dumps(d, sort_keys=True)


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

