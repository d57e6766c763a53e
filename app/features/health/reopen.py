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

from bpe_core.formats import Workspace

from ..inspector import reopenable
from .actions import open_health

KIND = "health"


def reopen(window, ws: Workspace, note: Callable[[str], None]) -> int:
    """Open again the health tabs ``ws`` saved; what cannot come back is said through ``note``. Returns how
    many tabs were opened."""
    opened = 0
    for analysis, model, _name, subject_id in reopenable(window, ws, KIND, "vocabulary health", note):
        corpus = tuple(map(os.path.abspath, analysis.corpus))
        if any(p.analysis is not None and (p.analysis.subject_id, tuple(p.analysis.corpus)) == (subject_id, corpus)
               for p in list(window.health_panes)):
            continue  # its tab is open in this window already: not a second one
        open_health(window, model, list(analysis.corpus), subject=subject_id, front=False)
        opened += 1
    return opened
