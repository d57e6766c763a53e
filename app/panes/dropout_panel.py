"""The encode pane's BPE-dropout controls and the table of each word's sampled segmentations.

A row of controls: a "Dropout" toggle and, while it is on, p (0 to 1, step 0.05, default 0.1), the seed, N
(default 100) and "Sample N". With dropout on, the pane's chips show one sample of the text, the seed's
(:class:`~bpe_core.encoding.dropout.DropoutEncoder` with ``repeat``: the same text, the same sample; the CLI's
``encode --dropout P --seed S`` prints the same first sample). "Sample N" draws N segmentations of each word
(pre-tokenizer piece) of the text on a worker (:func:`~bpe_core.encoding.dropout.sample_words`) and lists them
below the chips: word, segmentation, share and count, each word's segmentations by falling share. The panel
holds no algorithm: it reads its settings on the GUI thread and hands the core plain values.
"""
from __future__ import annotations

import atexit
from typing import Callable, Optional, Tuple

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QDoubleSpinBox, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QSizePolicy, QSpinBox, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from bpe_core import BPEModel, DropoutEncoder
from bpe_core.encoding import sample_words, shares, text_words
from bpe_core.types import Cancelled, Progress

from ..runtime.worker import LatestWorker, Threads
from ..widgets.chip_text import chip_text
from ..widgets.encode_chips import toggle_button

__all__ = ["DropoutPanel", "COLUMNS"]

#: the distribution table's columns
COLUMNS = ("word", "segmentation", "share", "count")
#: every sampling thread not yet ended: a QThread destroyed while running aborts the process
_LIVE = Threads()
atexit.register(_LIVE.wait)

#: what the panel samples: (the model, the text, the merges limit) as the pane encodes them now
Source = Callable[[], Tuple[Optional[BPEModel], str, Optional[int]]]


class DropoutPanel(QWidget):
    """The dropout row; :attr:`table` (shown once sampled) goes where the owner puts it. ``changed``: the
    toggle, p or the seed changed (the chips show another sample)."""

    changed = Signal()
    #: a sampling ended and the table shows it
    sampled = Signal()

    def __init__(self, source: Source, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._source = source
        self.toggle = toggle_button("Dropout", "BPE-dropout: skip each merge with probability p, as tokenizers' "
                                               "BPE(dropout=p); the chips show the seed's sample")
        self.p_spin = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, decimals=2, value=0.1)
        self.p_spin.setToolTip("p: the probability that each merge is skipped")
        self.seed_spin = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.seed_spin.setToolTip("seed of the draws: the same seed gives the same sample")
        self.seed_spin.setMaximumWidth(self.seed_spin.fontMetrics().horizontalAdvance("0" * 12))
        self.n_spin = QSpinBox(minimum=1, maximum=100_000, value=100, singleStep=100)
        self.n_spin.setToolTip("how many segmentations of each word to draw")
        self.sample_button = QPushButton()
        self.sample_button.setToolTip("Draw N segmentations of each word of the text and list their shares")
        self.status = QLabel()
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.table.hide()
        self._threads = Threads()
        self._worker = LatestWorker(self._track, self)
        self._worker.progressed.connect(self._on_progress)
        self._worker.errored.connect(lambda exc: self._say(f"sampling failed: {exc}"))
        self._worker.aborted.connect(lambda: self._say("sampling stopped"))
        # on a line of its own under the controls (beside them it had no room at 1280x720), wrapping rather than
        # widening the pane or eliding
        self.status.setWordWrap(True)
        self.status.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.status.hide()
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(self.status)
        #: shown while dropout is on (off, the row is the toggle alone: the pane stays as narrow as before)
        self._controls = (QLabel("p"), self.p_spin, QLabel("seed"), self.seed_spin, QLabel("N"), self.n_spin,
                          self.sample_button)
        for w in (self.toggle, *self._controls):
            row.addWidget(w)
        row.addStretch(1)
        self.toggle.toggled.connect(self._on_settings)
        self.p_spin.valueChanged.connect(self._on_settings)
        self.seed_spin.valueChanged.connect(self._on_settings)
        self.n_spin.valueChanged.connect(self._update)
        self.sample_button.clicked.connect(self.sample)
        self._update()

    def _say(self, text: str) -> None:
        """The summary line: shown only while it says something."""
        self.status.setText(text)
        self.status.setVisible(bool(text))

    # -- what the pane asks
    def active(self) -> bool:
        """Dropout is on: encodings are samples."""
        return self.toggle.isChecked()

    def factory(self, plain: Callable[[BPEModel, Optional[int]], object]) -> Callable[[BPEModel, Optional[int]], object]:
        """How the pane makes its encoder: ``plain`` with dropout off, else a seeded DropoutEncoder that gives the
        seed's sample each time (the settings read here, on the GUI thread; the result may run on a worker)."""
        if not self.active():
            return plain
        p, seed = self.p_spin.value(), self.seed_spin.value()
        return lambda model, limit: DropoutEncoder(model, p, seed, repeat=True, merges_limit=limit)

    # -- sampling
    def sample(self) -> None:
        """Draw N segmentations of each word of the text on a worker; the table shows them when done."""
        model, text, limit = self._source()
        if model is None or not text:
            self._say("nothing to sample: no vocabulary or no text")
            return
        p, seed, n = self.p_spin.value(), self.seed_spin.value(), self.n_spin.value()

        def run(progress: Callable[[Progress], None], cancel: Callable[[], bool]):
            def step(done: int, total: int) -> None:
                if cancel():
                    raise Cancelled()
                progress(Progress(done, total, "words"))
            words = text_words(model, text)
            return model, words, sample_words(model, words, p, seed, n, step, merges_limit=limit)

        self._say("sampling…")
        self._worker.start(run, lambda result: self._show(*result, p=p, seed=seed, n=n))

    def clear(self) -> None:
        """Forget the table (the settings it was drawn with changed)."""
        self._worker.cancel()
        self.table.setRowCount(0)
        self.table.hide()
        self._say("")

    def wait(self) -> None:
        """Block until the sampling threads end (closing, tests)."""
        self._threads.wait()

    def _track(self, thread) -> None:
        self._threads.track(thread)
        _LIVE.track(thread)

    def _on_progress(self, progress: Progress) -> None:
        self._say(f"sampling… {progress.done:,} of {progress.total:,} words")

    def _show(self, model: BPEModel, words, counts, *, p: float, seed: int, n: int) -> None:
        rows = [(word, seg, c, share) for word in words for seg, c, share in shares(counts[word])]
        table = self.table
        table.setUpdatesEnabled(False)
        table.setRowCount(len(rows))
        for r, (word, seg, c, share) in enumerate(rows):
            label = " | ".join(_label(model, i) for i in seg)
            for col, value in enumerate((chip_text(word, mode="text", whitespace=True)[0], label, f"{share:.1%}", f"{c:,}")):
                table.setItem(r, col, QTableWidgetItem(value))
        table.resizeColumnToContents(0)
        table.setUpdatesEnabled(True)
        table.show()
        _make_room(table)
        self._say(f"{n:,} samples of each of {len(words):,} words  ·  p {p:g}  ·  seed {seed}")
        self.sampled.emit()

    # -- slots
    def _on_settings(self) -> None:
        self._update()
        self.clear()
        self.changed.emit()

    def _update(self) -> None:
        on = self.active()
        for w in self._controls:
            w.setVisible(on)
        self.sample_button.setText(f"Sample {self.n_spin.value():,}")


def _label(model: BPEModel, token_id: int) -> str:
    """A token as its chip reads (space as ·); an id the vocabulary lacks as ?."""
    raw = model.tokens[token_id] if 0 <= token_id < len(model.tokens) else None
    return "?" if raw is None else chip_text(raw, mode="text", whitespace=True)[0]


#: the rows of the distribution a sampling shows at least, when the window has room for them
ROWS_SHOWN = 6


def _make_room(table: QTableWidget) -> None:
    """Give the table, shown just now (its splitter gave it no height), 2/5 of its splitter and at least
    :data:`ROWS_SHOWN` rows: from its splitter's other panes down to their least heights, then, if that is not
    enough (a 720-pixel-high window), from the panes beside the one that holds it in an outer vertical splitter."""
    frame = 2 * table.frameWidth() + table.horizontalHeader().sizeHint().height()
    frame += table.horizontalScrollBar().sizeHint().height()  # when the segmentations are wide
    need = frame + int((ROWS_SHOWN + 0.5) * table.verticalHeader().defaultSectionSize())
    split = table.parentWidget()
    if not isinstance(split, QSplitter):
        return
    short = _grow(split, table, max(need, sum(split.sizes()) * 2 // 5))
    if short > 0:
        inner = split
        while inner.parentWidget() is not None:
            outer = inner.parentWidget()
            if isinstance(outer, QSplitter) and outer.orientation() == Qt.Vertical:
                holder = inner
                _grow(outer, holder, outer.sizes()[outer.indexOf(holder)] + short)
                _grow(split, table, max(need, sum(split.sizes()) * 2 // 5))
                return
            inner = outer


def _grow(split: QSplitter, widget: QWidget, height: int) -> int:
    """Make ``widget`` in ``split`` ``height`` high, taking from the others down to their least heights (the last
    first); how much it still lacks."""
    sizes, i = split.sizes(), split.indexOf(widget)
    want = height - sizes[i]
    if want <= 0:
        return 0
    for j in reversed(range(len(sizes))):
        if j == i or want <= 0:
            continue
        other = split.widget(j)
        least = (other.minimumHeight() or other.minimumSizeHint().height()) if other.isVisible() else 0
        take = max(0, min(want, sizes[j] - least))
        sizes[j] -= take
        sizes[i] += take
        want -= take
    split.setSizes(sizes)
    return max(want, 0)
