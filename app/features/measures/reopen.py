"""The Measures tab in a workspace: what it shows is saved, and opening the workspace brings it back (File → Open
workspace, the crash offer).

The tab is saved as an analysis of kind "measures" in the workspace's workbench part (beside the biography and
health tabs' analyses: :mod:`bpe_lens_app.features.inspector.biography_reopen`): its subject is the window's
run, its corpus the evaluation files chosen (none: the run's own corpus, which it follows), and its view the
measure and group picked, every k when it was set, whether curves were shown and whether the tab was in front.
The curves themselves are not saved: once the restore has every run back (the runs beside, the branches), they
are computed again on the feature's worker, with progress and Cancel, as Compute does. An evaluation file that
is gone is named once in what the restore found; the tab then comes back on the files still there, not
computed (curves on fewer files would not be the ones saved, parity above all).
"""
from __future__ import annotations

import os
from typing import Any, Dict, Optional

from bpe_core import BPELensError
from bpe_core.analysis import MEASURES
from bpe_core.formats import Workspace
from bpe_core.workbench import read_bench

KIND = "measures"


def saved_analysis(window) -> Optional[Dict[str, Any]]:
    """The Measures tab as the workspace file holds an analysis (None: no tab open, or no run)."""
    feature = getattr(window, "measures_feature", None)
    run = window.session.workbench.run
    if feature is None or feature.pane is None or run is None:
        return None
    pane = feature.pane
    view: Dict[str, Any] = {"measure": pane.measure(), "group": pane.group(), "chosen": feature.chosen,
                            "computed": bool(pane.curves) or feature.calls.busy,
                            "front": pane.isVisibleTo(window)}  # the tab in front (the others' pages are hidden)
    if feature.every_set:
        view["every"] = pane.every.value()
    files = [os.path.abspath(p) for p in pane.paths] if feature.chosen else []
    return {"kind": KIND, "subject_id": run.id, "corpus": [{"path": p} for p in files], "view": view}


def reopen(window, ws: Workspace, restorer) -> bool:
    """Open the Measures tab ``ws`` saved, with its choices; its curves are computed once the restore is over
    (``restorer``'s ``settled``), or a file that is gone is said through ``restorer.note``. Returns whether a tab
    was saved."""
    feature = window.measures_feature
    feature.pending = False
    try:
        saved = read_bench(ws)
    except BPELensError:  # the restore said it already
        return False
    analysis = next((a for a in saved.analyses if a.kind == KIND), None)
    if analysis is None:
        return False
    view = dict(analysis.view)
    pane = feature.show_tab(front=bool(view.get("front")))
    gone = [p for p in analysis.corpus if not os.path.exists(p)]
    if view.get("chosen", bool(analysis.corpus)) and analysis.corpus:
        feature.use_files([p for p in analysis.corpus if p not in gone])
    else:
        feature.use_corpus()
    every = view.get("every")
    if isinstance(every, int) and not isinstance(every, bool) and every >= 1:
        pane.every.setValue(every)
        feature.every_set = True
    measure, group = view.get("measure"), view.get("group")
    pane.select(measure if measure in MEASURES else None, group if isinstance(group, str) and group else None)
    if gone:
        names = ", ".join(os.path.basename(p.rstrip("/\\")) or p for p in gone)
        verb = "is" if len(gone) == 1 else "are"
        restorer.note(f"The Measures tab's evaluation file{'s' * (len(gone) > 1)} {names} {verb} missing: its "
                      "curves were not computed again.")
        pane.note.setText(f"The workspace's evaluation file{'s' * (len(gone) > 1)} {names} {verb} missing: choose "
                          "files, or Compute on the files still there.")
    elif view.get("computed"):
        feature.pending = True
        pane.note.setText("The workspace's curves are computed again once its runs are back…")
    return True
