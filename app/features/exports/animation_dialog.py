"""File → Export → Animation of merges…: merges N..M of the open corpus as a GIF or APNG for slides.

The dialog only gathers the choices; the work is :func:`bpe_core.render.animation.animate_corpus`
(the same renderer as ``python -m bpe_core animate``) run on a :class:`~app.worker.FunctionWorker`, with
progress and Cancel: it counts the corpus again and trains its own Trainer, so the session's
trainer (owned by the GUI's moves) is never touched from another thread.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout,
                               QHBoxLayout, QLabel, QLineEdit, QProgressBar, QPushButton, QSpinBox, QVBoxLayout,
                               QWidget)

from bpe_core import BPELensError, TrainerConfig
from bpe_core.render import have_mp4
from bpe_core.types import Progress

from ...session.payloads import user_message
from ...runtime.worker import LatestWorker, Threads

#: format label -> file suffix
FORMATS = {"Animated GIF (.gif)": ".gif", "Animated PNG (.png, APNG)": ".png"}
MAX_MERGES = 1_000_000


@dataclass(frozen=True)
class AnimationJob:
    """What the dialog asks the renderer for."""

    corpus: str
    config: TrainerConfig
    first: int
    last: int
    path: str
    words: Sequence[str]
    text: str
    fps: float

    def __call__(self, *, progress, cancel):
        from bpe_core.render import animate_corpus
        return animate_corpus(self.corpus, self.config, self.first, self.last, self.path, words=self.words,
                              text=self.text, fps=self.fps, progress=progress, cancel=cancel)


class AnimationDialog(QDialog):
    """N..M, words, text, format and file; Export runs on a worker (progress bar, Cancel stops it)."""

    exported = Signal(str)  # the file written

    def __init__(self, corpus: str, config: TrainerConfig, *, first: int = 0, last: int = 30,
                 words: Sequence[str] = (), text: str = "", folder: Optional[Path] = None,
                 inputs: Sequence[str] = (), parent: Optional[QWidget] = None) -> None:
        super().__init__(parent, objectName="animation_dialog")
        self.setWindowTitle("Animation of merges")
        self.setMinimumWidth(600)
        self.corpus, self.config = corpus, config
        #: the files the app reads: never the output (the corpus itself is checked by the renderer)
        self.inputs = tuple(inputs)
        # the folder the window proposes (export.default_folder): never the app's own resources
        self.folder = folder or Path.home()
        self.frames: List = []
        self._threads = Threads()
        self.calls = LatestWorker(self._threads.track, self)
        self.calls.progressed.connect(self._on_calls_progressed)
        self.calls.errored.connect(self._on_calls_errored)
        self.calls.aborted.connect(self._on_calls_aborted)
        self._build(first, last, words, text)

    def _build(self, first: int, last: int, words: Sequence[str], text: str) -> None:
        self.first = QSpinBox(objectName="first", minimum=0, maximum=MAX_MERGES, value=first)
        self.last = QSpinBox(objectName="last", minimum=0, maximum=MAX_MERGES, value=last)
        merges = QHBoxLayout()
        merges.addWidget(self.first)
        merges.addWidget(QLabel("to"))
        merges.addWidget(self.last)
        self.words = QLineEdit(", ".join(words), objectName="words", placeholderText="the, Elizabeth")
        self.text = QLineEdit(text, objectName="text", placeholderText="text encoded at every frame")
        self.format = QComboBox(objectName="format")
        self.format.addItems(list(FORMATS) + (["MP4 video (.mp4)"] if have_mp4() else []))
        self.format.currentTextChanged.connect(self._on_format_current_text_changed)
        self.fps = QDoubleSpinBox(objectName="fps", minimum=0.5, maximum=30, value=2.0, singleStep=0.5)
        self.path = QLineEdit(str(self.folder / "merges.gif"), objectName="path")
        choose = QPushButton("Choose…", clicked=self.choose_path)
        where = QHBoxLayout()
        where.addWidget(self.path, 1)
        where.addWidget(choose)
        form = QFormLayout()
        form.addRow("Merges", merges)
        form.addRow("Words (comma-separated)", self.words)
        form.addRow("Encoded text", self.text)
        form.addRow("Format", self.format)
        form.addRow("Frames per second", self.fps)
        form.addRow("File", where)
        self.progress = QProgressBar(objectName="progress", visible=False)
        self.status = QLabel(objectName="status", wordWrap=True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Close)
        self.export_button = self.buttons.addButton("Export", QDialogButtonBox.AcceptRole)
        self.export_button.setObjectName("export")
        self.export_button.clicked.connect(self.start)
        self.cancel_button = self.buttons.addButton("Cancel export", QDialogButtonBox.ActionRole)
        self.cancel_button.setObjectName("cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.calls.cancel)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)

    # -- choices ----------------------------------------------------------------------------------------
    def job(self) -> AnimationJob:
        words = [w.strip() for w in self.words.text().split(",") if w.strip()]
        return AnimationJob(self.corpus, self.config, self.first.value(), self.last.value(), self.path.text(),
                            tuple(words), self.text.text(), self.fps.value())

    def choose_path(self) -> None:
        suffix = self._suffix()
        path, _ = QFileDialog.getSaveFileName(self, "Save animation", self.path.text(), f"*{suffix}")
        if path:
            self.path.setText(path if Path(path).suffix else path + suffix)

    def _suffix(self) -> str:
        return FORMATS.get(self.format.currentText(), ".mp4")

    def _on_format_current_text_changed(self, _text: str) -> None:
        self.path.setText(str(Path(self.path.text()).with_suffix(self._suffix())))

    # -- the export ---------------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self.calls.busy

    def start(self) -> None:
        """Export with the current choices on a worker (a running export is superseded)."""
        from bpe_core.formats import check_output

        job = self.job()
        if job.last < job.first:
            self.status.setText(f"The last merge ({job.last}) comes before the first ({job.first}).")
            return
        try:
            check_output(job.path, inputs=self.inputs)
        except BPELensError as exc:
            self.status.setText(user_message(exc))
            return
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.status.setText("Counting the corpus…")
        self._set_running(True)
        self.calls.start(job, self._on_done)

    def _set_running(self, running: bool) -> None:
        self.export_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)

    def _on_calls_progressed(self, progress: Progress) -> None:
        self.progress.setRange(0, max(1, progress.total))
        self.progress.setValue(progress.done)
        self.status.setText(progress.message or {"frames": "Training and capturing frames…",
                                                 "drawn": "Drawing frames…"}.get(progress.unit, "Counting…"))

    def _on_done(self, frames) -> None:
        self.frames = list(frames)
        self._set_running(False)
        self.progress.setVisible(False)
        path = self.path.text()
        self.status.setText(f"Saved {path}: {len(frames)} frames (merges {frames[0].merge}..{frames[-1].merge}).")
        self.exported.emit(path)

    def _on_calls_errored(self, exc: BaseException) -> None:
        self._set_running(False)
        self.progress.setVisible(False)
        self.status.setText(user_message(exc))

    def _on_calls_aborted(self) -> None:
        self._set_running(False)
        self.progress.setVisible(False)
        self.status.setText("Cancelled.")

    def done(self, result: int) -> None:  # Qt override: closing cancels a running export and waits for it
        self.calls.cancel()
        self._threads.wait(10_000)
        super().done(result)
