"""The Variants tab: the current run and its branches of another variant (SuperBPE's stage 2 from merge t),
each steppable, and the open runs compared side by side at their current merge (a table from the core's
:func:`~bpe_core.analysis.variant_compare.variant_figures`, their curves of bytes per token in one chart).

The tab shows; it computes nothing itself: the figures are the core's, the runs the Workbench's.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence

import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (QHBoxLayout, QHeaderView, QLabel, QListWidget, QProgressBar, QPushButton, QSplitter,
                               QTableWidget, QTableWidgetItem, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from bpe_core.analysis import tokens_per_word_note
from bpe_core.workbench import left_out, rule_name

from ...widgets.chart_legend import in_id_order, legend_below
from ...widgets.merge_axis import follow_merges, point_marks
from ...widgets.theme import follow_palette, run_color

COLUMNS = ("Run", "Merge", "Bytes / token", "Tokens / word by script", "Vocab used", "Dead", "Removed")
#: what the tokens per word column counts: the Measures chart's definition (the core's variant_compare)
TOKENS_PER_WORD_TIP = ("Each script's tokens over the whitespace-separated words of the run's text in that script, "
                       "as View → Measures… counts them (its script curves, with the run's corpus as the text)")
#: merges of the selected branch listed (its newest)
MERGES_SHOWN = 200


def run_name(run) -> str:
    """What the tab calls a run: its rule, and where a branch starts."""
    cfg = run.config
    if run.parent is not None:
        return f"{run.id}: SuperBPE from merge {run.transition:,}" if cfg.variant == "superbpe" else \
            f"{run.id}: {cfg.variant} from merge {run.transition:,}"
    return f"{run.id}: {run_rule(cfg)} ({cfg.preset})"


def run_rule(cfg) -> str:
    """A run's training rule as the tab names it ("PickyBPE τ=0.6"): the workbench's name for it."""
    return rule_name(cfg)


def left_out_note(run) -> str:
    """Why a branch's merge index runs past its vocabulary (empty when it does not)."""
    n = left_out(run)
    if not n:
        return ""
    t = run.transition or 0
    return (f"{run.id} holds {t - n:,} of the run's first {t:,} merges: SuperBPE's stage 2 leaves out a merge whose "
            f"pair never forms in its units, so its merge index (the run's {t:,}, then its own) runs {n:,} past its "
            "vocabulary; like SuperBPE's own trainer it stops at the vocabulary size.")


def target_text(run) -> str:
    """What follows a run's vocabulary in its label: " of T" (the size it stops at), " of at most T" for a
    PickyBPE run stopping at a number of merges (the core's ``TrainingRun.vocab_ceiling``), nothing when no end
    is set."""
    ceiling, target = run.vocab_ceiling, run.vocab_target
    if ceiling is not None:
        return f" of at most {ceiling:,}"
    return "" if target is None else f" of {target:,}"


def picky_note(run) -> str:
    """Why a PickyBPE run's label says "of at most" (empty for any other run)."""
    ceiling = run.vocab_ceiling
    if ceiling is None:
        return ""
    return (f"{run.id} stops after {run.config.num_merges:,} merges: each adds a token and its removals take "
            f"tokens out as it goes, so it ends with {ceiling:,} tokens or fewer.")


def left_out_summary(runs: Sequence) -> str:
    """:func:`left_out_note` once for all branches that leave merges out, with each one's count (the tab's note:
    three branches said the same sentence three times)."""
    counts = [(run.id, left_out(run), run.transition or 0) for run in runs]
    counts = [(rid, n, t) for rid, n, t in counts if n]
    if not counts:
        return ""
    each = ", ".join(f"{rid}: {n:,} of {t:,}" for rid, n, t in counts)
    return ("SuperBPE's stage 2 leaves out a merge whose pair never forms in its units, so a branch's merge index "
            f"(the run's, then its own) runs past its vocabulary by the merges left out ({each}); like SuperBPE's "
            "own trainer it stops at the vocabulary size.")


def token_text(timeline, token_id: int) -> str:
    """A token as a reader reads it: bytes as UTF-8 text where they are (\\x.. where not), spaces as ␣,
    so a superword's inner spaces show."""
    raw = timeline.token(token_id)
    text = raw.decode("utf-8", "backslashreplace") if isinstance(raw, bytes) else timeline.display(token_id)
    return "‘" + text.replace(" ", "␣").replace("Ġ", "␣").replace("\n", "↵") + "’"


class VariantsTab(QWidget):
    """Branches of the current run (left) and the comparison (right). ``figures_of(runs)`` returns the
    core's figures of each run in order; ``on_cancel`` stops a continuation being made."""

    def __init__(self, figures_of: Callable[[Sequence], List], on_cancel: Callable[[], None],
                 parent: Optional[QWidget] = None, current: Callable[[], object] = lambda: None) -> None:
        super().__init__(parent)
        self.figures_of = figures_of
        self.current = current  # the window's run (its training panes step it; the tab steps the others)
        self.runs: List = []
        self.curves: Dict[str, pg.PlotDataItem] = {}  # each run's curve by its id, in its colour (run_color)
        self.tree = QTreeWidget(objectName="variant_branches", headerHidden=True)
        self.tree.setContextMenuPolicy(Qt.ActionsContextMenu)  # the feature adds "Continue as SuperBPE from here"
        self.tree.itemSelectionChanged.connect(self._show_merges)
        self.step_button = QPushButton("Step", objectName="variant_step", clicked=lambda: self.step(1))
        self.step10_button = QPushButton("Step ×10", objectName="variant_step10", clicked=lambda: self.step(10))
        self.undo_button = QPushButton("Undo", objectName="variant_undo", clicked=lambda: self.step(-1))
        self.run_button = QPushButton("Run to end", objectName="variant_run")  # the feature runs it on a worker
        self.add_button = QPushButton("Add a run with another rule…", objectName="variant_add_run")
        # why the step buttons are off for the window's own run (hidden for any other)
        self.own_run_note = QLabel(objectName="variant_own_run", wordWrap=True, visible=False)
        self.merges = QListWidget(objectName="variant_merges")
        self.progress = QProgressBar(objectName="variant_progress", visible=False)
        self.cancel_button = QPushButton("Cancel", objectName="variant_cancel", visible=False, clicked=on_cancel)
        self.table = QTableWidget(0, len(COLUMNS), objectName="variant_table")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.horizontalHeaderItem(COLUMNS.index("Tokens / word by script")).setToolTip(TOKENS_PER_WORD_TIP)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.languages = QTableWidget(0, 0, objectName="variant_languages", visible=False)
        self.languages.setEditTriggers(QTableWidget.NoEditTriggers)
        self.languages.verticalHeader().hide()
        self.languages.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.chart = pg.PlotWidget(objectName="variant_curves")
        plot = self.chart.getPlotItem()
        plot.setTitle("bytes per token over merges, one line per run")
        plot.setLabel("bottom", "merge")
        plot.setLabel("left", "bytes / token")
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setMenuEnabled(False)
        self.legend = legend_below(self.chart, plot)  # under the plot: off the curves where branches part
        follow_palette(self.chart, plot)
        self.chart.installEventFilter(self)  # a theme switch: the curves' colours made readable on the new base
        self.note = QLabel(objectName="variant_note", wordWrap=True)
        left = QWidget()
        lay = QVBoxLayout(left)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("<b>Runs and their branches</b>"))
        lay.addWidget(self.tree, 1)
        buttons = QHBoxLayout()
        for b in (self.step_button, self.step10_button, self.undo_button, self.run_button):
            buttons.addWidget(b)
        lay.addLayout(buttons)
        lay.addWidget(self.own_run_note)
        lay.addWidget(self.add_button)
        lay.addWidget(self.progress)
        lay.addWidget(self.cancel_button)
        lay.addWidget(QLabel("Merges of the selected run (newest first)"))
        lay.addWidget(self.merges, 2)
        right = QSplitter(Qt.Vertical)
        right.addWidget(self.table)
        right.addWidget(self.languages)
        right.addWidget(self.chart)
        right.setSizes([150, 150, 320])
        split = QSplitter(Qt.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([330, 800])
        outer = QVBoxLayout(self)
        outer.addWidget(self.note)
        outer.addWidget(split, 1)

    # -- what is shown ------------------------------------------------------------------------------------
    def set_runs(self, runs: Sequence, select: Optional[str] = None) -> None:
        """Show ``runs`` in id order (each branch under its parent: :func:`in_id_order`, the legends' order too)
        and compare them."""
        chosen = select or self.selected_id()
        self.runs = in_id_order(runs)
        self.tree.clear()
        items = {}
        for run in self.runs:
            item = QTreeWidgetItem([self._label(run)])
            item.setToolTip(0, left_out_note(run) or picky_note(run))
            item.setData(0, Qt.UserRole, run.id)
            parent = items.get(run.parent)
            (parent.addChild(item) if parent is not None else self.tree.addTopLevelItem(item))
            items[run.id] = item
        self.tree.expandAll()
        if chosen in items:
            self.tree.setCurrentItem(items[chosen])
        elif items:
            self.tree.setCurrentItem(next(iter(items.values())))
        self.refresh()

    def _label(self, run) -> str:
        """The run and its merge index, and on a second line its vocabulary against the size it stops at (a
        branch's merge index may run past the run's: :func:`left_out_note`)."""
        tl = run.timeline
        k = tl.merge_count + (run.transition or 0)
        return f"{run_name(run)} · at merge {k:,}\nvocabulary {tl.vocab_size:,}{target_text(run)}"

    def selected_id(self) -> Optional[str]:
        item = self.tree.currentItem()
        return item.data(0, Qt.UserRole) if item is not None else None

    def selected(self):
        rid = self.selected_id()
        return next((r for r in self.runs if r.id == rid), None)

    def refresh(self) -> None:
        """The labels, the selected run's merges, the table and the chart again."""
        for i in range(self.tree.topLevelItemCount()):
            self._relabel(self.tree.topLevelItem(i))
        self._show_merges()
        figures = self.figures_of(self.runs)
        self.table.setRowCount(len(figures))
        for row, f in enumerate(figures):
            scripts = ", ".join(f"{s} {v:.2f}" for s, v in f.tokens_per_word.items())
            cells = (f.name, f"{f.merge:,}", f"{f.bytes_per_token:.3f}", scripts, f"{f.used:,} / {f.vocab_size:,}",
                     f"{f.dead:,}", f"{f.removed:,}")
            for col, text in enumerate(cells):
                self.table.setItem(row, col, QTableWidgetItem(text))
        self._show_languages(figures)
        plot = self.chart.getPlotItem()
        plot.clear()
        self.legend.clear()
        self.curves = {}
        every_x = []
        for run, f in zip(self.runs, figures):
            xs, ys = [p[0] for p in f.curve], [p[1] for p in f.curve]
            color = run_color(run.id, self.chart.palette())  # the run's in every chart
            self.curves[run.id] = plot.plot(xs, ys, pen=pg.mkPen(color, width=2), name=f.name,
                                            **point_marks(len(xs), color))  # at merge 0: a mark
            every_x += xs
        follow_merges(plot, every_x)  # at merge 0: 0…10, not −0.5…0.5 "(x0.001)"
        compared = (f"{len(figures)} run{'' if len(figures) == 1 else 's'} compared at their current merge; a branch "
                    "shares its parent's merges up to where it starts (its curve follows the parent's until there).")
        self.note.setText(" ".join(filter(None, [compared, left_out_summary(self.runs),
                                                 tokens_per_word_note(figures)])))

    def eventFilter(self, watched, event) -> bool:
        """The chart's palette changed (View → Theme): each curve in its run's colour for the new background."""
        if event.type() == QEvent.PaletteChange and watched is self.chart:
            for run_id, curve in self.curves.items():
                color = run_color(run_id, self.chart.palette())
                curve.setPen(pg.mkPen(color, width=2))
                if curve.opts["symbol"] is not None:
                    curve.setSymbolPen(color)
                    curve.setSymbolBrush(color)
        return False

    def _show_languages(self, figures: Sequence) -> None:
        """Tokens per language, a column each, and their Gini (shown when a run has languages)."""
        langs = list(dict.fromkeys(lang for f in figures for lang in f.language_costs))
        self.languages.setVisible(bool(langs))
        self.languages.setColumnCount(len(langs) + 2)
        self.languages.setHorizontalHeaderLabels(["Tokens per language", *langs, "Gini"])
        self.languages.setRowCount(len(figures))
        for row, f in enumerate(figures):
            gini = f.cost_gini
            cells = [f.name, *(f"{f.language_costs[x]:,}" if x in f.language_costs else "—" for x in langs),
                     "—" if gini is None else f"{gini:.3f}"]
            for col, text in enumerate(cells):
                self.languages.setItem(row, col, QTableWidgetItem(text))

    def _relabel(self, item: QTreeWidgetItem) -> None:
        run = next((r for r in self.runs if r.id == item.data(0, Qt.UserRole)), None)
        if run is not None:
            item.setText(0, self._label(run))
        for i in range(item.childCount()):
            self._relabel(item.child(i))

    def _show_merges(self) -> None:
        run = self.selected()
        self.merges.clear()
        branch = run is not None and self._movable(run) and not run.timeline.is_moving
        own = run is not None and not self._movable(run)
        said = f"{run.id} is the window's own run: step it in the Training tab" if own else ""
        for b in (self.step_button, self.step10_button, self.undo_button, self.run_button):
            b.setEnabled(branch and not self.progress.isVisible())
            b.setToolTip(said)
        self.own_run_note.setText(f"{said}." if said else "")
        self.own_run_note.setVisible(own)
        if run is None:
            return
        tl, base = run.timeline, run.transition or 0
        history = tl.history
        for s in reversed(history[-MERGES_SHOWN:]):
            # the token isolated (U+2068 … U+2069): a right-to-left token cannot carry the count to its other side
            self.merges.addItem(f"{base + s.rank:>6,}  \u2068{token_text(tl, s.new_id)}\u2069  ({s.count:,})")

    # -- commands -----------------------------------------------------------------------------------------
    def step(self, n: int) -> None:
        """Step (or undo, ``n`` < 0) the selected branch; its rows and curve follow."""
        run = self.selected()
        if run is None or not self._movable(run) or run.timeline.is_moving:
            return
        run.timeline.step(n) if n > 0 else run.timeline.undo(-n)
        self.refresh()

    def _movable(self, run) -> bool:
        """A branch or a run beside the window's: the tab steps it (the window's run: its training panes)."""
        return run.parent is not None or run is not self.current()

    def busy(self, text: str, done: int = 0, total: int = 0) -> None:
        """A continuation is being made (``text``: empty when it is over)."""
        self.progress.setVisible(bool(text))
        self.cancel_button.setVisible(bool(text))
        self.progress.setFormat(f"{text} %p%")
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self._show_merges()  # the step buttons: off while a branch is made or run
