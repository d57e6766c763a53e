"""Opening a workspace brings its vocabulary health tabs back (File → Open workspace, the crash offer).

Each health tab is the Workbench's open analysis of kind "health" (its vocabulary, or the training run, and its
corpus): saved with the workspace, it opens again behind the other tabs once the restore has the vocabularies
and the run back, and computes on a worker, as the token biography's tabs do
(:mod:`bpe_lens_app.features.inspector.biography_reopen`). A tab that cannot come back (its corpus gone, its
vocabulary not reopened) is named once in what the restore found (the ``note`` it is given).
"""
from __future__ import annotations

import os
from typing import Callable

from bpe_core import BPELensError
from bpe_core.formats import Workspace
from bpe_core.workbench import read_bench

from ..inspector import analysis_subject
from .actions import open_health

KIND = "health"


def reopen(window, ws: Workspace, note: Callable[[str], None]) -> int:
    """Open again the health tabs ``ws`` saved; what cannot come back is said through ``note``. Returns how
    many tabs were opened."""
    try:
        saved = read_bench(ws)
    except BPELensError:  # the restore said it already
        return 0
    paths = {v.id: v.path for v in saved.vocabularies}
    opened = 0
    for analysis in (a for a in saved.analyses if a.kind == KIND):
        subject, problem = analysis_subject(window, analysis, paths.get(analysis.subject_id), saved.current_run)
        if subject is None:
            note(f"A vocabulary health tab was not reopened: {problem}.")
            continue
        model, name, subject_id = subject
        gone = [os.path.basename(p) for p in analysis.corpus if not os.path.isfile(p)]
        if gone or not analysis.corpus:
            note(f"The vocabulary health of {name} was not reopened: its corpus "
                 f"{', '.join(gone) or 'was not saved'} {'is' if len(gone) == 1 else 'are'} missing.")
            continue
        corpus = tuple(map(os.path.abspath, analysis.corpus))
        if any(p.analysis is not None and (p.analysis.subject_id, tuple(p.analysis.corpus)) == (subject_id, corpus)
               for p in list(window.health_panes)):
            continue  # its tab is open in this window already: not a second one
        open_health(window, model, list(analysis.corpus), subject=subject_id, front=False)
        opened += 1
    return opened
