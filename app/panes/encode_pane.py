"""Encode pane: type text, see it as tokens — re-encoded as you type.

Layout: a toolbar (toggles ``ids``, ``whitespace``, ``glyphs``, ``hex`` and the token count /
chars-per-token label), a :class:`QPlainTextEdit` for the input, and a
:class:`~bpe_lens_app.widgets.token_view.TokenView` that shows the encoding as colored chips
(stable color per id, neighbours always differ). Hovering a chip highlights every chip of the
same id and the token's span in the input, and its tooltip gives id, merge rank and bytes.

Two ways to feed it: :meth:`EncodePane.set_model` (a fixed vocabulary: the inspector) or
:meth:`EncodePane.observe` (the training session's vocabulary: re-encoded in the step's frame
while that is cheap, else at most every 40 ms, and the merge that just fired flashes; a step or an undo
moves the shown encoding along without an encoder where that is exact: :meth:`EncodePane.follow_steps`). Typing
re-encodes 40 ms after the last keystroke. An encoding slower than :data:`WORKER_MS` runs on a
worker next time (:mod:`~bpe_lens_app.runtime.encode_jobs`): 3,000 characters never block the GUI thread.
"""
from __future__ import annotations

import time
from collections import deque
from typing import Callable, List, Optional, Sequence, Tuple

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QPlainTextEdit, QSplitter, QVBoxLayout,
                               QWidget)

from bpe_core import BPEModel, Encoder, MergeStep
from bpe_core.encoding import LensEncoding, Trail, can_advance
from bpe_core.types import Encoding

from .dropout_panel import DropoutPanel
from .encode_follow import SessionFollower
from ..runtime.encode_jobs import EncodeJobs, EncodeResult, encode_job
from ..widgets.encode_chips import (ChipCache, Move, chip_tooltip, move_ends, span_highlight, stats_texts, toggle_button,
                                    unknown_count)
from ..session.session import Session
from ..widgets.quiet import FitLabel
from ..widgets.token_view import TokenView

__all__ = ["EncodePane", "make_encoder", "DEBOUNCE_MS", "SAME_FRAME_MS", "MAX_CHARS"]

DEBOUNCE_MS = 40
#: a new vocabulary is encoded in the same frame when the last encoding took at most this long
SAME_FRAME_MS = 4.0
#: after an encoding slower than this (ms), or for text longer than WORKER_CHARS, encode on a worker
WORKER_MS, WORKER_CHARS = 15.0, 1000
#: longer input is encoded only up to here (the rest would cost seconds on the GUI thread)
MAX_CHARS = 200_000


# --------------------------------------------------------------------------- encoder
def make_encoder(model: BPEModel, merges_limit: Optional[int] = None) -> Encoder:
    """The encoder the pane uses (only the first ``merges_limit`` merges when given)."""
    return Encoder(model, merges_limit=merges_limit)


# --------------------------------------------------------------------------- pane
class EncodePane(QWidget):
    """Editable text above its encoding as chips. See the module docstring."""

    #: emitted after each (re-)encoding with the new :class:`Encoding` (or None)
    encoding_changed = Signal(object)
    #: intent: the user clicked a token's chip (its id); whoever shows tokens may show it
    token_activated = Signal(int)

    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self._model: Optional[BPEModel] = None
        self._source: Optional[Callable[[], Optional[BPEModel]]] = None
        self._encode_ms = 0.0  # how long an encoding takes (model, encoder, chips): the least of the last few
        self._recent_ms: deque = deque(maxlen=4)  # one slow encode (another process had the core) is not a trend
        self._merges_limit: Optional[int] = None
        self._encoder = None
        self._encoding: Optional[Encoding] = None
        self._trail: Optional[Trail] = None  # the shown encoding, able to go a few merges on or back
        self._text = ""
        self._truncated = False
        self._error = ""
        self._chip_model: object = None  # what the chip cache is for: a model, or a followed trainer
        self._chip_owner: object = None
        self._following = False
        self._chip_cache = ChipCache("", False, False)
        self._shown: Optional[tuple] = None  # (encoding, its chips, their line breaks, tokens without an id)
        self._follower: Optional[SessionFollower] = None
        self._jobs = EncodeJobs(self)
        self._jobs.finished.connect(self._on_jobs_finished)
        self._job_inputs: dict = {}  # job number -> (text, truncated, model) it encodes
        self._shown_job = 0  # results up to this job number are not shown (older, or superseded)

        self.ids_toggle = toggle_button("ids", "Show each token's id under it")
        self.whitespace_toggle = toggle_button("whitespace", "Show space as ·, newline as ↵, tab as →", True)
        self.glyphs_toggle = toggle_button("glyphs", "Byte-level tokens as GPT-2 glyphs (Ġ = space)")
        self.hex_toggle = toggle_button("hex", "Byte-level tokens as their bytes in hex")
        self.stats_label = FitLabel()
        self.editor = QPlainTextEdit()
        self.editor.setPlaceholderText("Type or paste text to encode…")
        self.view = TokenView()
        self.view.tooltip_provider = self._tooltip
        self.dropout = DropoutPanel(lambda: (self.model(), self.editor.toPlainText()[:MAX_CHARS], self._merges_limit))
        self.dropout.changed.connect(self._on_dropout_changed)
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._flash_timer = QTimer(self, singleShot=True)
        self._build_layout()

        self._timer.timeout.connect(self._encode_soon)
        self._flash_timer.timeout.connect(lambda: self.view.set_flash_ids(()))
        self.editor.textChanged.connect(self._on_editor_text_changed)
        self.view.hovered.connect(self._on_view_hovered)
        self.view.clicked.connect(self._on_view_clicked)
        for b in (self.ids_toggle, self.whitespace_toggle):
            b.toggled.connect(self._render)
        self.glyphs_toggle.toggled.connect(lambda on: self._exclusive(self.hex_toggle, on))
        self.hex_toggle.toggled.connect(lambda on: self._exclusive(self.glyphs_toggle, on))
        self._update_enabled()
        self._render()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>Encode</b>")
        bar.addWidget(title)
        for b in (self.ids_toggle, self.whitespace_toggle, self.glyphs_toggle, self.hex_toggle):
            bar.addWidget(b)
        bar.addWidget(self.stats_label, 1)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.editor)
        split.addWidget(self.view)
        split.addWidget(self.dropout.table)  # each word's sampled segmentations, once sampled
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 2)
        split.setSizes([100, 200])
        split.setChildrenCollapsible(False)
        self.editor.setMinimumHeight(2 * self.editor.fontMetrics().height())  # two lines: the window fits 540 px
        self.view.setMinimumHeight(2 * self.view.fontMetrics().height())  # a row of chips (a scroll area asks 70 px)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(self.dropout)
        lay.addWidget(split, 1)

    # -- public API
    def set_model(self, model: Optional[BPEModel], merges_limit: Optional[int] = None) -> None:
        """Encode with ``model`` (only its first ``merges_limit`` merges when given)."""
        self._source = None
        self._following = False
        self._model = model
        self._merges_limit = merges_limit
        self._encoder = self._trail = None
        self._update_enabled()
        self._schedule()

    def follow(self, source: Callable[[], Optional[BPEModel]], *, same_ids: bool = False) -> None:
        """Encode with the model ``source()`` returns (a trainer's vocabulary, which changes with
        every merge), asked for when the pane encodes.

        When the last encoding took at most :data:`SAME_FRAME_MS`, the pane re-encodes at once, so
        a step's frame shows it; else (long text, a vocabulary of thousands of merges: the
        encoder is rebuilt per model) at most every :data:`DEBOUNCE_MS`, however fast the steps
        come (a pending re-encode is not pushed back, so holding → still shows progress).
        ``same_ids``: the new model gives every id the previous one had the same token (a
        trainer's next merge), so the chips already made are kept.
        """
        if not (same_ids and self._following):
            self._chip_owner = object()  # another vocabulary: chips are made again
        self._following = True
        self._source = source
        self._merges_limit = None
        self._encoder = self._trail = None
        if self._encode_ms <= SAME_FRAME_MS:
            self.encode_now()
        elif not self._timer.isActive():
            self._timer.start()

    def follow_steps(self, source: Callable[[], Optional[BPEModel]], steps: Sequence[MergeStep], undone: bool) -> None:
        """The followed trainer merged ``steps`` (``undone``: undid them, newest first). The shown encoding goes
        along at once where that is exact and no encoding is on its way (:class:`~bpe_core.encoding.advance.Trail`:
        0.03-0.25 ms for 3,000 characters, no encoder); else as :meth:`follow` with ``same_ids``."""
        trail = self._trail if self._following and not self.encoding_pending() else None
        encoding = trail.follow(steps, undone) if trail is not None else None
        if encoding is None:
            self.follow(source, same_ids=True)
            return
        self._source, self._encoder = source, None
        if encoding is not self._encoding:  # the same object: the merged pair is not in the text
            self._encoding = encoding
            self._render(lazy=True, moves=trail.moves)
            self.encoding_changed.emit(encoding)

    def warm_next(self, step: MergeStep) -> None:
        """Make the chips the followed trainer's next merge will show, while the user reads this one."""
        trail, shown = self._trail, self._shown
        if trail is None or shown is None or shown[0] is not trail.encoding or not self.isVisible():
            return
        moved = trail.peek(step)
        if moved is not None and moved[1]:
            move = (trail.encoding, moved[1], moved[0], False)
            self.view.warm(self._chip_cache.splice(shown[1], shown[2], [move], self._text)[0], {step.new_id})

    def forget_chips(self) -> None:
        """Token ids may name other tokens now (a branch was picked or switched): chips are made again."""
        self._chip_owner = object()

    def _start_trail(self, model: Optional[BPEModel]) -> None:
        """The shown encoding was just made with ``model``: a followed trainer's may go along its merges."""
        enc, usable = self._encoding, self._following and self._merges_limit is None and not self.dropout.active()
        usable = usable and model is not None and isinstance(enc, LensEncoding) and can_advance(model)
        self._trail = Trail(enc, len(model.merges)) if usable else None

    def _took(self, ms: float) -> None:
        self._recent_ms.append(ms)
        self._encode_ms = min(self._recent_ms)

    def observe(self, session: Session) -> None:
        """Encode with the session's vocabulary as it trains, while the pane is visible
        (:class:`~bpe_lens_app.panes.encode_follow.SessionFollower` says when)."""
        self._follower = SessionFollower(self, session)

    def model(self) -> Optional[BPEModel]:
        if self._source is not None:
            self._model, self._source = self._source(), None
            self._update_enabled()
        return self._model

    def set_text(self, text: str) -> None:
        self.editor.setPlainText(text)

    def text(self) -> str:
        return self.editor.toPlainText()

    def encoding(self) -> Optional[Encoding]:
        return self._encoding

    def encoded(self) -> Tuple[str, Optional[int]]:
        """The text the shown encoding was made from and its merges limit (to explain a chip)."""
        return self._text, self._merges_limit

    def displayed_texts(self) -> List[str]:
        """What the chips read, in order (for tests and screenshots)."""
        return [c.text for c in self.view.chips()]

    def flash_ids(self, ids, ms: int = 300) -> None:
        """Outline every chip of these token ids for ``ms`` (the merge that just fired). While an encoding
        is on its way (on the worker, or debounced) the chips shown now are not repainted for it: the new
        ones come with the outlines (one repaint a step, not two)."""
        self.view.set_flash_ids(ids, repaint=not self.encoding_pending())
        self._flash_timer.start(ms)

    def encoding_pending(self) -> bool:
        """An encoding is scheduled or running on the worker: new chips will replace those shown."""
        return self._timer.isActive() or any(n > self._shown_job for n in self._job_inputs)

    def encode_now(self) -> None:
        """Encode immediately, on this thread (skipping the debounce and any encoding on the worker)."""
        self._timer.stop()
        self._shown_job = self._jobs.cancel()
        self._encode_now()

    def _encode_soon(self) -> None:
        """Here when the last encoding took at most :data:`WORKER_MS` and the text is short; else on the worker."""
        text = self.editor.toPlainText()
        if self._encode_ms <= WORKER_MS and len(text) <= WORKER_CHARS:
            self._encode_now()
            return
        model = self.model()
        if not text or model is None:
            self._encode_now()
            return
        job = encode_job(model, self._merges_limit, self._encoder, text[:MAX_CHARS], self.dropout.factory(make_encoder))
        number = self._jobs.submit(job)
        self._job_inputs = {n: v for n, v in self._job_inputs.items() if n > self._shown_job}
        self._job_inputs[number] = (text[:MAX_CHARS], len(text) > MAX_CHARS, model)

    def _on_jobs_finished(self, result: EncodeResult) -> None:
        inputs = self._job_inputs.pop(result.number, None)
        if result.number <= self._shown_job or inputs is None:
            return  # superseded by a newer result or an encoding here
        start = time.perf_counter()
        self._shown_job = result.number
        self._text, self._truncated, model = inputs
        if model is self._model and self._encoder is None:
            self._encoder = result.encoder  # typing on reuses its word cache
        self._encoding, self._error = result.encoding, result.error
        self._start_trail(model)
        self._render()
        self._took(result.ms + (time.perf_counter() - start) * 1000)
        self.encoding_changed.emit(self._encoding)

    # -- slots
    def _on_editor_text_changed(self) -> None:
        self._recent_ms.clear()  # another text: the next encoding's time stands alone
        self._schedule()

    def _schedule(self) -> None:
        self._timer.start()

    def _on_dropout_changed(self) -> None:
        """Dropout on or off, another p or seed: another encoder; a result on its way is of the old settings."""
        self._encoder = self._trail = None
        self._shown_job = self._jobs.cancel()
        self._schedule()

    def _exclusive(self, other, on: bool) -> None:
        if on and other.isChecked():
            other.blockSignals(True)
            other.setChecked(False)
            other.blockSignals(False)
        self._render()

    def _update_enabled(self) -> None:
        byte_level = self._model is not None and self._model.unit == "bytes"
        for b in (self.glyphs_toggle, self.hex_toggle):
            b.setEnabled(byte_level)

    def _encode_now(self) -> None:
        start = time.perf_counter()
        text = self.editor.toPlainText()
        self._truncated = len(text) > MAX_CHARS
        self._text = text[:MAX_CHARS]
        self._error = ""
        self._encoding = None
        if self._text and self.model() is not None:
            try:
                if self._encoder is None:
                    self._encoder = self.dropout.factory(make_encoder)(self._model, self._merges_limit)
                self._encoding = self._encoder.encode(self._text)
            except Exception as exc:  # a user-facing message beats a dead pane
                self._error = str(exc) or type(exc).__name__
        self._start_trail(self._model)
        self._render()
        self._took((time.perf_counter() - start) * 1000)
        self.encoding_changed.emit(self._encoding)

    def _mode(self) -> str:
        if self.hex_toggle.isChecked():
            return "hex"
        if self.glyphs_toggle.isChecked():
            return "glyphs"
        return "text"

    def _render(self, lazy: bool = False, moves: Sequence[Move] = ()) -> None:
        """Show the encoding's chips (``lazy``: a step; :meth:`TokenView.set_chips`); ``moves``: how the shown
        encoding became this one (a trail's), so that the chips shown are spliced, not made again."""
        enc = self._encoding
        if enc is None:
            self.view.set_chips([])
            self.view.set_placeholder(self._placeholder())
            self._set_stats()
            return
        style = (self._mode(), self.whitespace_toggle.isChecked(), self.ids_toggle.isChecked())
        # chips are kept across re-encodings while typing, and across a followed trainer's merges;
        # another model object (even at a recycled address, hence ``is`` and not ``id``) may give
        # an id another token
        owner = self._chip_owner if self._following else self._model
        if style != self._chip_cache.style or self._chip_model is not owner:
            self._chip_model, self._chip_cache = owner, ChipCache(*style)
            self._shown = None
        shown, ends = self._shown, move_ends(moves) if moves else (None, None)
        if shown is not None and shown[0] is ends[0] and ends[1] is enc:
            chips, breaks = self._chip_cache.splice(shown[1], shown[2], moves, self._text)
            kept = shown[3]  # a merge never joins a character without a token
        else:
            chips, breaks = self._chip_cache.chips(enc.tokens, self._text)
            kept = unknown_count(enc)
        self._shown = (enc, chips, breaks, kept)
        self.view.set_chips(chips, breaks, lazy=lazy)
        self._set_stats()

    def _placeholder(self) -> str:
        if self._error:
            return f"Could not encode: {self._error}"
        if self._model is None and self._source is None:
            return "No vocabulary yet — train a few merges or open a vocabulary to see how text is tokenized."
        return "Type or paste text above to see its tokens."

    def _set_stats(self) -> None:
        enc = self._encoding
        if enc is None:
            msg = "encode failed" if self._error else ""
            self.stats_label.set_texts(msg, msg)
            return
        kept = self._shown[3] if self._shown is not None and self._shown[0] is enc else None
        self.stats_label.set_texts(*stats_texts(enc, len(self._text), self._merges_limit,
                                                MAX_CHARS if self._truncated else None, kept))

    def _on_view_hovered(self, i: int) -> None:
        sel = []
        if i >= 0 and self._encoding is not None:
            t = self._encoding.tokens[i]
            sel.append(span_highlight(self.editor.document(), t.start, t.end, self.view.chip_color(i)))
        self.editor.setExtraSelections(sel)

    def _on_view_clicked(self, i: int) -> None:
        if self._encoding is not None and self._encoding.tokens[i].id >= 0:  # id -1 names no token
            self.token_activated.emit(self._encoding.tokens[i].id)

    def _tooltip(self, i: int) -> str:
        return chip_tooltip(self.model(), self._encoding, self._text, i)
