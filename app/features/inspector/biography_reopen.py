"""Opening a workspace brings its token biography tabs back (File → Open workspace, the crash offer).

Each saved analysis of kind "biography" names its vocabulary (a saved vocabulary's id: the inspector tab read
again from the same file) or the training run with its merge, and its reference corpus. Once the restore has
the vocabularies and the run back, each tab opens again behind the others on the same vocabulary and corpus,
with its filter and sort, and computes on a worker. A tab that cannot come back (its corpus gone, its
vocabulary not reopened, its merge past where training stopped) is named once in what the restore found
(the ``note`` it is given: :meth:`~bpe_lens_app.features.workspace.restore.Restorer.note`).
"""
from __future__ import annotations

import os
from typing import Callable, Iterator, Optional, Tuple

from bpe_core import BPEModel, BPELensError
from bpe_core.formats import Workspace
from bpe_core import OpenAnalysis
from bpe_core.workbench import read_bench

from .biography_actions import open_biography, training_name

KIND = "biography"


def reopen(window, ws: Workspace, note: Callable[[str], None]) -> int:
    """Open again the biography tabs ``ws`` saved; what cannot come back is said through ``note``. Returns
    how many tabs were opened."""
    opened = 0
    for analysis, model, name, subject_id in reopenable(window, ws, KIND, "token biography", note):
        record = OpenAnalysis(KIND, subject_id, tuple(map(os.path.abspath, analysis.corpus)), analysis.at)
        if any(p.analysis == record for p in list(window.biography_panes)):
            continue  # its tab is open in this window already: not a second one
        pane = open_biography(window, model, name, analysis.corpus, subject=(subject_id, analysis.at), front=False)
        pane.apply_view(dict(analysis.view))
        pane.compute()
        opened += 1
    current = ws.view.get("current_tab")
    if opened and isinstance(current, int) and current >= 0:  # an index past the last tab changes nothing
        window.tabs.setCurrentIndex(current)  # the tab in front may be one of them
    return opened


def reopenable(window, ws: Workspace, kind: str, what: str, note: Callable[[str], None]
               ) -> Iterator[Tuple[OpenAnalysis, BPEModel, str, str]]:
    """The analyses of ``kind`` that ``ws`` saved and that can come back, each with its vocabulary's model, name
    and Workbench id now; one whose vocabulary did not come back or whose corpus is gone is said through
    ``note`` (``what`` names it: "token biography", "vocabulary health"). The biography's tabs and Health's
    (app/features/health/reopen.py) come back through it."""
    try:
        saved = read_bench(ws)
    except BPELensError:  # the restore said it already: its runs and tabs came back from the file's fields
        return
    paths = {v.id: v.path for v in saved.vocabularies}
    for analysis in (a for a in saved.analyses if a.kind == kind):
        subject, problem = analysis_subject(window, analysis, paths.get(analysis.subject_id), saved.current_run)
        if subject is None:
            note(f"A {what} tab was not reopened: {problem}.")
            continue
        model, name, subject_id = subject
        gone = [os.path.basename(p) for p in analysis.corpus if not os.path.isfile(p)]
        if gone or not analysis.corpus:
            note(f"The {what} of {name} was not reopened: its corpus "
                 f"{', '.join(gone) or 'was not saved'} {'is' if len(gone) == 1 else 'are'} missing.")
            continue
        yield analysis, model, name, subject_id


def analysis_subject(window, analysis: OpenAnalysis, path: Optional[str], current_run: Optional[str]
                     ) -> Tuple[Optional[Tuple[BPEModel, str, str]], str]:
    """The vocabulary a saved analysis replays (its model, name and Workbench id now), else why it cannot: the
    biography's, and the health report's (app/features/health/reopen.py)."""
    session = window.session
    if path is not None:
        for vocabulary in session.workbench.vocabularies():
            if vocabulary.path and os.path.abspath(vocabulary.path) == os.path.abspath(path):
                return (vocabulary.model, vocabulary.name, vocabulary.id), ""
        return None, f"its vocabulary {os.path.basename(path)} is not open"
    run = session.workbench.run
    if analysis.subject_id != current_run or run is None or not session.is_loaded:
        return None, f"its subject {analysis.subject_id} (a run beside the training, or a vocabulary made " \
                     "without a file) is not reopened"
    at = session.merge_count if analysis.at is None else analysis.at
    if at > session.merge_count:
        return None, f"the training stopped at merge {session.merge_count:,}, before its merge {at:,}"
    model = session.model()
    model = model.truncated(at) if at < session.merge_count else model
    return (model, training_name(model, at), run.id), ""
