"""The Measures tab: curves over vocabulary size (one per run and branch) of the measure picked, with a
vertical line at the window's merge, the value under the mouse, and exports.

The tab shows; it computes nothing itself. Its controls (evaluation files, every k, measure, group) are read
by the feature (:mod:`.actions`), which computes :class:`~bpe_core.analysis.curves.Curves` on a worker and
hands them to :meth:`MeasuresPane.show_curves`.
"""
from __future__ import annotations

import os
from typing import Dict, List, Optional, Sequence, Tuple

import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QSpinBox, QVBoxLayout,
                               QWidget)

from bpe_core.analysis import ALL_GROUP as ALL, MEASURE_LABELS, MEASURES, group_label

from .points import Line, hover_text, lines_of, nearest
from ...widgets.chart_legend import legend_below, style_legend
from ...widgets.merge_axis import follow_merges, point_marks
from ...widgets.theme import RUN_COLORS, run_color, run_slot, style_plot

#: a line's dash: a run's tie branches after its first, and runs past the colours' end (r9 is dashed blue); a
#: continuation's inherited stretch is thinner and dotted
STYLES = (Qt.SolidLine, Qt.DashLine, Qt.DashDotLine, Qt.DashDotDotLine)


def color_key(name: str) -> str:
    """What a curve is of: its run id and branch ("r1", "r1 · tie 3"), not its place in the legend.

    >>> color_key("r1: plain BPE (gpt2) · tie 3"), color_key("r4: SuperBPE from merge 1,000")
    ('r1 · tie 3', 'r4')
    """
    run, _, rest = name.partition(":")
    branch = rest.partition(" · ")[2] if rest else ""
    return f"{run} · {branch}" if branch else run


def file_names(paths: Sequence[str]) -> Dict[str, str]:
    """The evaluation files' names by stem (a group's key: "file:eng" is eng.txt), a folder's ``.txt`` files
    as the core reads them, for the picker to name a file as the user knows it."""
    out: Dict[str, str] = {}
    for p in paths:
        if os.path.isdir(p):
            try:
                with os.scandir(p) as it:
                    out.update((os.path.splitext(e.name)[0], e.name) for e in it
                               if e.name.lower().endswith(".txt") and not e.name.startswith("."))
            except OSError:  # unreadable: its files are named by stem (Compute says what is wrong)
                pass
        else:
            name = os.path.basename(p.rstrip("/\\"))
            out[os.path.splitext(name)[0]] = name
    return out


def line_looks(lines: Sequence[Line]) -> List[Tuple[str, Qt.PenStyle]]:
    """Each line's run id (its colour: :func:`~bpe_lens_app.widgets.theme.run_color`) and dash: a run's first
    line solid, its other tie branches dashed in turn, every dash one further for each round of the colours."""
    seen: Dict[str, int] = {}
    out = []
    for line in lines:
        run_id = color_key(line.name).partition(" · ")[0]
        branch = seen[run_id] = seen.get(run_id, -1) + 1
        out.append((run_id, STYLES[(run_slot(run_id) // len(RUN_COLORS) + branch) % len(STYLES)]))
    return out


class MeasuresPane(QWidget):
    """Controls over a chart. Signals ask the feature to act: ``compute_requested``, ``cancel_requested``,
    ``choose_files_requested``, ``corpus_files_requested`` and ``export_requested(kind)`` with kind "csv",
    "png" or "svg"."""

    compute_requested = Signal()
    cancel_requested = Signal()
    choose_files_requested = Signal()
    corpus_files_requested = Signal()
    export_requested = Signal(str)

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.paths: Tuple[str, ...] = ()
        self.names: Dict[str, str] = {}  # the evaluation files' names by stem ("eng" -> "eng.txt")
        self.curves: Tuple = ()  # the Curves shown (one per run or branch)
        self.lines: List[Line] = []  # what the chart draws for the measure and group picked
        self.merge = 0
        self.files_label = QLabel(objectName="measures_files", wordWrap=False)
        self.files_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.choose_button = QPushButton("Choose files…", objectName="measures_choose",
                                         clicked=lambda *_: self.choose_files_requested.emit())
        self.choose_button.setToolTip("Evaluation text: one or more files (one per language for parallel text); "
                                      "held-out text measures a tokenizer on what it did not see")
        self.corpus_button = QPushButton("The run's corpus", objectName="measures_corpus",
                                         clicked=lambda *_: self.corpus_files_requested.emit())
        self.every = QSpinBox(objectName="measures_every", minimum=1, maximum=10_000_000, singleStep=10)
        self.every.setToolTip("A point every k merges (exact values at merges 0, k, 2k, … and the last)")
        self.measure_box = QComboBox(objectName="measures_measure")
        for m in MEASURES:
            self.measure_box.addItem(MEASURE_LABELS[m], m)
        self.group_box = QComboBox(objectName="measures_group")
        for box in (self.measure_box, self.group_box):  # the whole text of the pick ("Han script", not "Han scr")
            box.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.group_box.addItem(group_label(ALL), ALL)
        self.measure_box.currentIndexChanged.connect(self._on_measure_changed)
        self.group_box.currentIndexChanged.connect(lambda *_: self.redraw())
        self.compute_button = QPushButton("Compute", objectName="measures_compute",
                                          clicked=lambda *_: self.compute_requested.emit())
        self.cancel_button = QPushButton("Cancel", objectName="measures_cancel", visible=False,
                                         clicked=lambda *_: self.cancel_requested.emit())
        self.progress = QProgressBar(objectName="measures_progress", visible=False)
        self.export_buttons = {kind: QPushButton(f"{kind.upper()}…", objectName=f"measures_export_{kind}",
                                                 clicked=lambda *_, k=kind: self.export_requested.emit(k))
                               for kind in ("csv", "png", "svg")}
        self.chart = pg.PlotWidget(objectName="measures_chart")
        plot = self.plot = self.chart.getPlotItem()
        plot.setLabel("bottom", "merge")
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setMenuEnabled(False)
        for name in ("left", "bottom"):  # values as they are: a scale would read "Rényi efficiency (x0.001)"
            plot.getAxis(name).enableAutoSIPrefix(False)
        # under the plot: off the curves and the line's label (a 2x PNG scales it: exports/files.py legends_scaled)
        self.legend = legend_below(self.chart, plot)
        self.here = pg.InfiniteLine(angle=90, movable=False, label="merge {value:,.0f}",  # the window's merge
                                    labelOpts={"position": 0.95, "anchors": [(0, 0), (0, 0)]})
        self.marker = pg.ScatterPlotItem(size=9)
        self.tip = pg.TextItem(anchor=(0, 1))
        self.tip.setVisible(False)  # empty, its border drew a small stray box
        self.hint = pg.TextItem("Compute to draw the curves", anchor=(0.5, 0.5))
        self.hint.setPos(0.5, 0.5)
        for item in (self.here, self.marker, self.tip, self.hint):  # on the view box: plot.clear() keeps them, no legend entry
            plot.getViewBox().addItem(item, ignoreBounds=True)
        plot.scene().sigMouseMoved.connect(self.hover_at)
        plot.getViewBox().sigXRangeChanged.connect(self._place_label)
        for w in (self.chart, self.chart.viewport()):  # the mouse leaves the chart: the hover box goes
            w.installEventFilter(self)
        self.hover = QLabel(objectName="measures_hover")
        self.hover.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.note = QLabel(objectName="measures_note", wordWrap=True)
        self._layout()
        self.apply_palette()
        self._show_files()
        self.redraw()

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(QLabel("Evaluation text:"))
        top.addWidget(self.files_label, 1)
        top.addWidget(self.choose_button)
        top.addWidget(self.corpus_button)
        top.addWidget(QLabel("every"))
        top.addWidget(self.every)
        top.addWidget(QLabel("merges"))
        second = QHBoxLayout()
        second.addWidget(QLabel("Measure"))
        second.addWidget(self.measure_box)
        second.addWidget(QLabel("Group"))
        second.addWidget(self.group_box)
        second.addWidget(self.compute_button)
        second.addStretch(1)
        second.addWidget(QLabel("Export"))
        for b in self.export_buttons.values():
            second.addWidget(b)
        # while curves are computed: the bar and Cancel on a row of their own (on the controls' row they raised
        # the window's minimum width past a 1280 px screen, and the bar's text was cut in two lines)
        working = QHBoxLayout()
        working.addWidget(self.progress, 1)
        working.addWidget(self.cancel_button)
        outer = QVBoxLayout(self)
        outer.addLayout(top)
        outer.addLayout(second)
        outer.addWidget(self.chart, 1)
        outer.addWidget(self.hover)
        outer.addLayout(working)
        outer.addWidget(self.note)

    # -- the controls -------------------------------------------------------------------------------------
    def set_files(self, paths: Sequence[str]) -> None:
        self.paths = tuple(paths)
        self.names = file_names(self.paths)
        self._show_files()

    def _show_files(self) -> None:
        names = [os.path.basename(p.rstrip("/\\")) or p for p in self.paths]
        text = ", ".join(names) if len(names) <= 6 else f"{', '.join(names[:5])} and {len(names) - 5} more"
        self.files_label.setText(text or "none: choose files")
        self.files_label.setToolTip("\n".join(self.paths))
        self.compute_button.setEnabled(bool(self.paths) and not self.progress.isVisible())

    def group_name(self, group: str) -> str:
        """A group as the picker and the title name it (the core's ``group_label``): "eng.txt", "Latin script"."""
        return group_label(group, self.names)

    def measure(self) -> str:
        return self.measure_box.currentData()

    def group(self) -> str:
        return self.group_box.currentData() or ALL

    def select(self, measure: Optional[str] = None, group: Optional[str] = None) -> None:
        """Pick a measure and a group (a group the curves do not have yet is added, to be kept)."""
        if measure is not None:
            self.measure_box.setCurrentIndex(max(0, self.measure_box.findData(measure)))
        if group is not None:
            if self.group_box.findData(group) < 0:
                self.group_box.addItem(self.group_name(group), group)
            self.group_box.setCurrentIndex(self.group_box.findData(group))

    def _on_measure_changed(self, *_) -> None:
        self._fill_groups()
        self.redraw()

    def _fill_groups(self) -> None:
        """The groups the curves have for the measure (all files, each file, each script), the pick kept."""
        keep, measure = self.group(), self.measure()
        groups = list(dict.fromkeys(g for c in self.curves for g in c.groups(measure))) or [ALL]
        if keep not in groups and not self.curves:
            groups.append(keep)
        self.group_box.blockSignals(True)
        self.group_box.clear()
        for g in groups:
            self.group_box.addItem(self.group_name(g), g)
        self.group_box.setCurrentIndex(max(0, self.group_box.findData(keep)))
        self.group_box.blockSignals(False)

    def busy(self, text: str, done: int = 0, total: int = 0) -> None:
        """Curves are being computed (``text``: empty when that is over)."""
        self.progress.setVisible(bool(text))
        self.cancel_button.setVisible(bool(text))
        self.progress.setFormat(f"{text} %p%")
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.compute_button.setEnabled(bool(self.paths) and not text)

    # -- the chart ------------------------------------------------------------------------------------------
    def show_curves(self, curves: Sequence, note: str = "") -> None:
        """Show these runs' curves (each a :class:`~bpe_core.analysis.curves.Curves`)."""
        self.curves = tuple(curves)
        self._fill_groups()
        self.redraw()
        self.note.setText(note)

    def set_merge(self, merge: int) -> None:
        """The window's merge: the vertical line goes there."""
        self.merge = merge
        self.here.setValue(merge)
        self._place_label()

    def _place_label(self, *_) -> None:
        """The line's label on the side with room: to the line's left in the chart's right half (else it is cut
        at the right edge)."""
        (x0, x1), _ = self.plot.getViewBox().viewRange()
        side = (1, 0) if self.here.value() > (x0 + x1) / 2 else (0, 0)
        self.here.label.anchors = [side, side]
        self.here.label.updatePosition()

    def redraw(self) -> None:
        measure, group = self.measure(), self.group()
        plot = self.plot
        plot.clear()
        self.legend.clear()
        palette = self.chart.palette()  # the title in its text (pyqtgraph's own grey was faint on white)
        plot.setTitle(f"{MEASURE_LABELS[measure]} over merges ({self.group_name(group)})", color=palette.text().color())
        plot.setLabel("left", MEASURE_LABELS[measure])
        self.lines = lines_of(self.curves, measure, group)
        for line, (run_id, style) in zip(self.lines, line_looks(self.lines)):
            color = run_color(run_id, palette)  # the run's in every chart (the Variants tab's too)
            k = line.split()  # a continuation's inherited stretch: thin and dotted, its own merges solid
            if k:
                plot.plot(line.merges[:k], line.values[:k], pen=pg.mkPen(color, width=1, style=Qt.DotLine))
            own = slice(max(k - 1, 0), None)
            plot.plot(line.merges[own], line.values[own], pen=pg.mkPen(color, width=2, style=style), name=line.name,
                      **point_marks(len(line.merges[own]), color))  # at merge 0: a mark
        if self.lines:
            follow_merges(plot, [float(line.merges[-1]) for line in self.lines])  # at merge 0: 0…10, not −0.5…0.5
        self.clear_hover()
        self.legend.setVisible(bool(self.lines))
        self.hint.setVisible(not self.curves)
        if self.curves and not self.lines:
            self.hover.setText(f"No run has {MEASURE_LABELS[measure]} for {self.group_name(group)}"
                               + (": parity needs two or more evaluation files" if "parity" in measure else ""))

    def hover_at(self, scene_pos) -> str:
        """The point nearest the mouse (in pixels), marked and said: "r1 …: merge N (vocab V): value"."""
        vb = self.plot.getViewBox()
        if not self.lines or not vb.sceneBoundingRect().contains(scene_pos):
            return ""
        at = vb.mapSceneToView(scene_pos)
        w, h = vb.viewPixelSize()
        hit = nearest(self.lines, at.x(), at.y(), w, h)
        if hit is None:
            return ""
        line, i = hit
        text = hover_text(line, i)
        self.marker.setData([line.merges[i]], [line.values[i]], brush=pg.mkBrush(self.chart.palette().text().color()))
        self.tip.setText(text)
        self.tip.setVisible(True)
        (x0, x1), (y0, y1) = vb.viewRange()
        x, y = float(line.merges[i]), float(line.values[i])
        # inside the chart, off the point (anchors past the box's edges leave the marker clear)
        self.tip.setAnchor((1.03 if x > (x0 + x1) / 2 else -0.03, 1.25 if y < (y0 + y1) / 2 else -0.25))
        self.tip.setPos(x, y)
        self.hover.setText(text)
        return text

    def clear_hover(self) -> None:
        self.marker.setData([], [])
        self.tip.setText("")
        self.tip.setVisible(False)
        self.hover.setText("")

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Leave:
            self.clear_hover()
        elif event.type() == QEvent.PaletteChange and watched is self.chart:
            self.apply_palette()  # the chart's own: the pane hears of a theme switch before the chart has its palette
        return False

    def point_scene_pos(self, line_index: int, i: int):
        """Where point ``i`` of line ``line_index`` is in the scene (for tests: where a mouse would be)."""
        line = self.lines[line_index]
        return self.plot.getViewBox().mapViewToScene(pg.Point(float(line.merges[i]), float(line.values[i])))

    # -- palette --------------------------------------------------------------------------------------------
    def apply_palette(self) -> None:
        palette = self.chart.palette()
        style_plot(self.chart, self.plot, palette)
        text = palette.text().color()
        self.here.setPen(pg.mkPen(text, width=1, style=Qt.DashLine))
        self.here.label.setColor(text)
        self.tip.setColor(text)
        base = palette.base().color()
        base.setAlpha(220)
        self.tip.fill = pg.mkBrush(base)  # the value stays readable over the curves
        self.tip.border = pg.mkPen(palette.mid().color())
        style_legend(self.legend, palette)
        if hasattr(self, "lines") and self.curves:
            self.redraw()

