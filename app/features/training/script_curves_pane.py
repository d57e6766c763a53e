"""Tokens per word per script over the merge number: is one language starving another?

One curve per main script of the corpus (Latin, Han, Cyrillic, ... — :mod:`bpe_core.analysis.scripts`),
kept by :class:`~bpe_core.analysis.group_curves.GroupCurves`: each word's script is found once, and
each batch of merges (a step, a Play frame, a bulk run's frame, a seek) asks only the words those
merges changed for their new length; merges applied in a batch are merged into those words one by one, a
point at each (Step ×500 draws its 500 merges, not a straight line). The scripts of a large corpus's words are found on a worker. The chart starts tracking when it is first switched on
(:meth:`set_tracking`), from the merge the training is at then; it draws only while visible.
"""
from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from bpe_core import MergeStep
from bpe_core.analysis import GroupCurves, words_scripts

from ...session.session import Session
from ...widgets.theme import ACCENT, CURVES, follow_palette, graphic_color
from ...runtime.worker import LatestWorker, keep_alive

#: points drawn per curve at most (longer runs are thinned; the last point is always drawn)
MAX_POINTS = 2048
COLORS = (*CURVES, ACCENT)
#: up to this many words, their scripts are found on the GUI thread (~60 ms for 20k words)
SYNC_WORDS = 20_000


class ScriptCurvesChart(QWidget):
    """A small chart: tokens per word of each main script against the merge number."""

    def __init__(self, session: Session, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.session = session
        self.tracker: Optional[GroupCurves] = None
        self.tracking = False
        self.calls = LatestWorker(keep_alive, self)
        self.plot_widget = pg.PlotWidget(objectName="script_curves")
        plot = self.plot_widget.getPlotItem()
        plot.setTitle("tokens per word, by script")
        plot.setLabel("bottom", "merge")
        plot.setLabel("left", "tokens / word")
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setMenuEnabled(False)
        self.legend = plot.addLegend(offset=(-10, 10))
        follow_palette(self.plot_widget, plot)  # a theme switch restyles it
        self.curves: Dict[str, pg.PlotDataItem] = {}
        self.note = QLabel(objectName="script_curves_note", wordWrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot_widget, 1)
        layout.addWidget(self.note)
        session.corpus_loaded.connect(self._on_session_corpus_loaded)
        session.steps_applied.connect(self._on_session_steps_applied)
        session.steps_undone.connect(self._on_session_steps_changed)
        self._show_note()

    # -- tracking ----------------------------------------------------------------------------------
    def set_tracking(self, on: bool) -> None:
        """Start (or stop) following the training; starting builds the groups once."""
        self.tracking = on
        if on and self.tracker is None and self.session.is_loaded:
            self._build()

    def _build(self) -> None:
        """Each word's script: at once for a small corpus, else on a worker (~3 µs a word)."""
        words = list(self.session.words)
        if len(words) <= SYNC_WORDS:
            self._install(words_scripts(words))
        else:
            self.note.setText(f"Finding the script of {len(words):,} words…")
            self.calls.start(lambda *, progress, cancel: words_scripts(words), self._install)

    def _install(self, scripts: List[str]) -> None:
        """Start the curves at the current merge (the scripts are the current corpus's words')."""
        s = self.session
        if not self.tracking or len(scripts) != len(s.words):
            return
        segs = [s.segmentation(i) for i in range(len(scripts))]
        self.tracker = GroupCurves(scripts, freqs=s.freqs, segmentations=segs, merge=s.merge_count)
        self._make_curves()
        self.redraw()

    def _make_curves(self) -> None:
        plot = self.plot_widget.getPlotItem()
        for curve in self.curves.values():
            plot.removeItem(curve)
        self.legend.clear()
        self.curves = {}
        for k, group in enumerate(self.tracker.groups if self.tracker else ()):
            pen = pg.mkPen(graphic_color(COLORS[k % len(COLORS)]), width=2)
            self.curves[group] = plot.plot([], [], pen=pen, name=group)
        self._show_note()

    def _on_session_corpus_loaded(self, _info) -> None:
        self.tracker = None
        self.calls.cancel()  # scripts of the previous corpus's words
        if self.tracking:
            self._build()
        else:
            self._make_curves()

    def _on_session_steps_applied(self, steps: List[MergeStep]) -> None:
        tracker = self.tracker
        if tracker is not None and steps and steps[0].rank == tracker.points[-1][0] + 1:
            tracker.replay(steps)  # a point at each merge, as stepping one by one
            if self.isVisible():
                self.redraw()
        else:
            self._on_session_steps_changed(steps)

    def _on_session_steps_changed(self, steps: List[MergeStep]) -> None:
        tracker = self.tracker
        if tracker is None or not steps:
            return
        changed = set()
        for step in steps:
            changed.update(step.changed_words)
        segmentation = self.session.segmentation
        tracker.set_segmentations({i: segmentation(i) for i in changed}, merge=self.session.merge_count)
        if self.isVisible():
            self.redraw()

    # -- drawing -----------------------------------------------------------------------------------
    def redraw(self) -> None:
        tracker = self.tracker
        if tracker is None:
            return
        points = tracker.points
        step = max(1, -(-len(points) // MAX_POINTS))
        picked = points[::step]
        if picked[-1] is not points[-1]:
            picked.append(points[-1])
        xs = np.array([m for m, _ in picked], dtype=float)
        for k, group in enumerate(tracker.groups):
            self.curves[group].setData(xs, np.array([v[k] for _, v in picked]))
        self._show_note()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.redraw()

    def values(self) -> Dict[str, float]:
        """Each curve's last y (what the chart shows at its right end)."""
        out = {}
        for group, curve in self.curves.items():
            _x, y = curve.getData()
            if y is not None and len(y):
                out[group] = float(y[-1])
        return out

    def _show_note(self) -> None:
        t = self.tracker
        if not self.session.is_loaded:
            text = "Load a corpus: one curve per script (Latin, Han, Cyrillic, …) with at least 1% of the words."
        elif t is None:
            text = "Switched off."
        elif len(t.groups) < 2:
            text = f"One script only ({', '.join(t.groups) or 'no letters'}): nothing to compare."
        else:
            start = t.points[0][0]
            text = ", ".join(f"{g} {v:.2f}" for g, v in zip(t.groups, t.values())) + " tokens per word" + \
                (f" (tracked from merge {start:,})" if start else "")
        self.note.setText(text)
