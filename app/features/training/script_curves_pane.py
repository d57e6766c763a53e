"""Tokens per word per script over the merge number: is one language starving another?

Tokens per word is the Measures chart's (issue 26): a script's tokens over the whitespace-separated words of
the run's text in that script, the scripts with a curve being the main ones weighed by characters
(:func:`~bpe_core.analysis.variant_compare.word_groups`). The text's words are read once per corpus on a
worker, shared with the Variants tab (:mod:`app.session.text_words`); until they come the chart says it is
reading, and a corpus without text (a word-count table) is drawn as tokens per *piece*, titled so.

One curve per main script of the corpus (Latin, Han, Cyrillic, ... — :mod:`bpe_core.analysis.scripts`),
kept by :class:`~bpe_core.analysis.group_curves.GroupCurves`: each word's script is found once, and
each batch of merges (a step, a Play frame, a bulk run's frame, a seek) asks only the words those
merges changed for their new length; merges applied in a batch are merged into those words one by one, a
point at each (Step ×500 draws its 500 merges, not a straight line). The scripts of a large corpus's words are found on a worker. The chart starts tracking when it is first switched on
(:meth:`set_tracking`), from the merge the training is at then; it draws only while visible.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Dict, List, Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from bpe_core import MergeStep
from bpe_core.analysis import GroupCurves, word_groups

from ...session.session import Session
from ...session.text_words import READING, text_words_of
from ...widgets.axes import SpacedAxis
from ...widgets.chart_legend import legend_below
from ...widgets.merge_axis import follow_merges, point_marks
from ...widgets.theme import MANY_CURVES, follow_palette, graphic_color
from ...runtime.worker import LatestWorker, keep_alive

#: points drawn per curve at most (longer runs are thinned; the last point is always drawn)
MAX_POINTS = 2048
#: above this spread of the scripts' values the y axis is logarithmic
LOG_SPREAD = 5.0
#: scripts written without spaces between words (a whitespace "word" there is a clause)
UNSPACED = frozenset({"Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan"})
COLORS = MANY_CURVES
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
        self.texts = text_words_of(session)  # the text's words, read once per corpus for every pane
        self.texts.read.connect(lambda _key: self._take_words())
        # its y axis turns logarithmic above a fivefold spread: SpacedAxis keeps those labels apart
        self.plot_widget = pg.PlotWidget(objectName="script_curves", axisItems={"left": SpacedAxis("left")})
        plot = self.plot_widget.getPlotItem()
        plot.setTitle("tokens per word, by script")
        plot.setLabel("bottom", "merge")
        plot.setLabel("left", "tokens / word")
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setMenuEnabled(False)
        self.legend = legend_below(self.plot_widget, plot)  # under the plot: off the curves
        follow_palette(self.plot_widget, plot)  # a theme switch restyles it
        self.plot_widget.installEventFilter(self)  # ... and colours its curves for the new background
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
        """Each word's script and the groups (the core's ``word_groups``): at once for a small corpus, else on
        a worker (~3 µs a word); the text's words are asked for at once (read on their worker)."""
        run = SimpleNamespace(words=list(self.session.words), freqs=list(self.session.freqs))
        self._text_words()
        if len(run.words) <= SYNC_WORDS:
            self._install(word_groups(run, None))
        else:
            self.note.setText(f"Finding the script of {len(run.words):,} words…")
            self.calls.start(lambda *, progress, cancel: word_groups(run, None), self._install)

    def _text_words(self):
        """The run's text's words by script; None: no text (tokens per piece); READING: not read yet."""
        run = self.session.workbench.run
        return None if run is None else self.texts.words(run.corpus)

    def _install(self, groups) -> None:
        """Start the curves at the current merge (``groups``: the current corpus's words' scripts and groups)."""
        s = self.session
        if not self.tracking or len(groups.scripts) != len(s.words):
            return
        segs = [s.segmentation(i) for i in range(len(groups.scripts))]
        self.tracker = GroupCurves(groups.scripts, freqs=s.freqs, segmentations=segs, merge=s.merge_count,
                                   main=groups.groups)
        self._make_curves()
        self._take_words()

    def _take_words(self) -> None:
        """The text's words came (or were known): the curves divide by them from then on, past points too."""
        t = self.tracker
        if t is None:
            return
        words = self._text_words()
        if words is not READING and not t.per_word and words is not None:
            t.set_words(words)
        self._title(t.per_word or words is READING)
        self.redraw()

    def _title(self, per_word: bool) -> None:
        what = "word" if per_word else "piece"
        plot = self.plot_widget.getPlotItem()
        plot.setTitle(f"tokens per {what}, by script")
        plot.setLabel("left", f"tokens / {what}")

    def _make_curves(self) -> None:
        plot = self.plot_widget.getPlotItem()
        for curve in self.curves.values():
            plot.removeItem(curve)
        self.legend.clear()
        self.curves = {}
        for k, group in enumerate(self.tracker.groups if self.tracker else ()):
            self.curves[group] = plot.plot([], [], pen=self._pen(k), name=group)
        self._show_note()

    def _pen(self, k: int):
        """The ``k``-th script's line, its colour readable on the chart's background."""
        return pg.mkPen(graphic_color(COLORS[k % len(COLORS)], self.plot_widget.palette()), width=2)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.PaletteChange and watched is self.plot_widget:  # View → Theme
            for k, curve in enumerate(self.curves.values()):
                curve.setPen(self._pen(k))
                if curve.opts["symbol"] is not None:
                    curve.setSymbolPen(curve.opts["pen"].color())
                    curve.setSymbolBrush(curve.opts["pen"].color())
        return False

    def _on_session_corpus_loaded(self, _info) -> None:
        self.tracker = None
        self.calls.cancel()  # scripts of the previous corpus's words
        if self.tracking:
            self._build()
        else:
            self._make_curves()

    def _on_session_steps_applied(self, steps: List[MergeStep]) -> None:
        tracker = self.tracker
        if tracker is not None and steps and steps[0].rank == tracker.last_merge + 1:
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
        reading = not tracker.per_word and self._text_words() is READING  # no words to divide by yet
        for k, group in enumerate(tracker.groups):
            curve, n = self.curves[group], 0 if reading else len(xs)
            color = curve.opts["pen"].color()
            curve.setData(xs[:n], np.array([v[k] for _, v in picked])[:n], **point_marks(n, color))  # merge 0: a mark
        follow_merges(self.plot_widget.getPlotItem(), [] if reading else xs)  # at merge 0: 0…10, plain ticks
        self._scale([] if reading else tracker.values())
        self._show_note()

    def _scale(self, values) -> None:
        """A log y axis when the scripts' values spread more than :data:`LOG_SPREAD`-fold (a script written
        without spaces, whose "word" is a clause, flattened the others against the bottom), else linear."""
        shown = [v for v in values if v > 0]
        log = bool(shown) and max(shown) > LOG_SPREAD * min(shown)
        plot = self.plot_widget.getPlotItem()
        if plot.getAxis("left").logMode != log:
            plot.setLogMode(y=log)
            plot.setLabel("left", "tokens / word (log)" if log else "tokens / word")

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.redraw()

    def values(self) -> Dict[str, float]:
        """Each curve's last y (what the chart shows at its right end, on a log axis too)."""
        out = {}
        for group, curve in self.curves.items():
            y = curve.yData  # the values given (getData() gives log10 of them on a log axis)
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
        elif not t.per_word and self._text_words() is READING:
            text = "Reading the text for its words (tokens per word divides by them)…"
        else:
            start = t.first_merge
            text = ", ".join(f"{g} {v:.2f}" for g, v in zip(t.groups, t.values())) + \
                (" tokens per word" if t.per_word else " tokens per piece: the corpus has no text to count its "
                 "words in (a word-count table); a piece is not a word") + \
                (f" (tracked from merge {start:,})" if start else "") + _unspaced_note(t.groups if t.per_word else ())
        self.note.setText(text)


def _unspaced_note(groups) -> str:
    """Why a script written without spaces reads so high (its "word" is a clause: docs/measures.md)."""
    unspaced = [g for g in groups if g in UNSPACED]
    if not unspaced:
        return ""
    names = " and ".join(unspaced)
    return (f". {names} {'is' if len(unspaced) == 1 else 'are'} written without spaces: a word there is a whole "
            "clause, so compare by tokens per 100 characters (Measures)")

