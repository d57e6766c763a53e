"""Why this split (issue 11): click a chip, see the word's merges step by step in a dock.

Chips of the encode pane and of an inspector's encode pane explain their word with the core's
:func:`~bpe_core.analysis.explain.explain_at` (the same pieces, units and merge routine as the
encoder); a click on a word of the words pane shows its history during training
(``session.word_history``: "merge 412 changed it: a + b → ab"). View → Why this split shows or
hides the dock. Stories are built here from core records; the pane only draws them.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QDockWidget

from bpe_core import BPELensError, BPEModel
from bpe_core.analysis import WordExplanation, explain_at, removal_caption, removals_in_word

from .pane import ExplainPane, Frame, Story
from ..training import WORD_INDEX_ROLE
from ...widgets.chip_text import chip_text
from ...widgets.chips import Chip, model_chip
from ...side_docks import add_side_dock

__all__ = ["install", "explanation_story", "history_story", "ExplainFeature"]


def _label(model: BPEModel, i: int, shown: str) -> str:
    """What a chip reads, as in the encode pane: byte tokens decoded (``·token``, ``‹E4 B8›``)."""
    raw = model.tokens[i] if 0 <= i < len(model.tokens) else None
    if model.unit == "bytes" and isinstance(raw, bytes):
        return chip_text(raw, mode="text")[0]
    return chip_text(shown)[0] or "?"


def _chips(model: BPEModel, ids: Sequence[int], shown: Sequence[str]) -> tuple:
    return tuple(Chip(_label(model, i, s), i, partial=model_chip(model, i, mode="text").partial) if i >= 0
                 else Chip(_label(model, i, s), i, unknown=True) for i, s in zip(ids, shown))


def explanation_story(model: BPEModel, w: WordExplanation) -> Story:
    """Frames of one explained word: its units, then each merge as it fires (rank 0-based, as
    in the merge list; the app's merge numbers are 1-based, so both are named)."""
    title = f"Why this split: {chip_text(w.word)[0]}  (characters {w.start}–{w.end}, cut by the pre-tokenizer)"
    frames: List[Frame] = [Frame(f"start: {len(w.units)} unit(s)", _chips(model, w.unit_ids, w.units))]
    before = frames[0].chips
    for s in w.steps:
        what = f"merge {s.rank + 1} (rank {s.rank})" if s.rank is not None else "table merge (no rank)"
        chips = _chips(model, s.ids, s.tokens)
        if s.removed:  # PickyBPE: a token removed right after merge rank + 1, split again here
            frames.append(Frame(f"removed after merge {s.rank + 1}: {before[s.at].text} split into {s.result}", chips))
            before = chips
            continue
        left, right, made = before[s.at].text, before[s.at + 1].text, chips[s.at]
        frames.append(Frame(f"{what}: {left} + {right} → {made.text}", chips, made.token_id))
        before = chips
    if w.special:
        frames[0] = Frame("a special token: cut out whole", _chips(model, w.ids, w.tokens))
    names = {(p.left, p.right): p for p in w.pairs}
    last = frames[-1].chips
    footer = f"Why it stops: {w.why_stop}"
    lines = [f"  {a.text} + {b.text}: {names[(x, y)].reason}"
             for a, b, x, y in zip(last, last[1:], w.tokens, w.tokens[1:]) if (x, y) in names]
    if lines:
        footer += "\n" + "\n".join(lines[:6])
    if w.note:
        footer += f"\nNote: {w.note}"
    return Story(title, tuple(frames), footer)


def history_story(session, i: int) -> Story:
    """A training word's history: each merge that changed it, as the session's timeline tells it, and each
    token a rule removed from it right after a merge (PickyBPE: "removed 'ab' (IoS 0.93): split into a b")."""
    shown = session.display
    chip = _token_chip(session)
    frames: List[Frame] = []
    before: Sequence[int] = ()
    for step, seg in session.word_history(i):
        chips = tuple(chip(t) for t in seg)
        if step is None:
            frames.append(Frame(f"start: {len(seg)} symbol(s)", chips))
        else:
            frames.append(Frame(_history_caption(session, step, before, seg), chips, step.new_id))
        before = seg
    word = session.words[i]
    title = f"History of {chip_text(word)[0]} ({session.freqs[i]:,}×) during training"
    footer = (f"{len(frames) - 1} of the {session.merge_count} merges so far changed it; "
              "each frame is the word right after that merge.")
    return Story(title, tuple(frames), footer)


def _history_caption(session, step, before: Sequence[int], after: Sequence[int]) -> str:
    """What ``step`` did to the word: its merge (when the word held the pair) and the removals that split it."""
    shown = session.display
    parts = []
    if list(after).count(step.new_id) > list(before).count(step.new_id):
        parts.append(f"merge {step.rank} changed it: {shown(step.left)} + {shown(step.right)} → {shown(step.new_id)}")
    removed = [removal_caption(r, shown) for r in removals_in_word(step, before, after)]
    if not parts:
        return f"after merge {step.rank}: " + "; ".join(removed or ["changed"])
    return "; ".join(parts + removed)


def _token_chip(session):
    def chip(t: int) -> Chip:
        if t < 0:
            return Chip("?", t, unknown=True)
        text, partial = chip_text(session.token(t))
        return Chip(text, t, partial=partial)
    return chip


class ExplainFeature:
    """The dock with the :class:`ExplainPane` and the wiring from chips to stories."""

    def __init__(self, window) -> None:
        self.window = window
        self.pane = ExplainPane()
        self.dock = QDockWidget("Why this split", window)
        self.dock.setObjectName("explain_dock")
        self.dock.setWidget(self.pane)
        add_side_dock(window, self.dock)
        self.dock.hide()
        action = self.dock.toggleViewAction()
        action.setText("Why this split")
        window.menus["view"].addAction(action)
        window.encode.view.clicked.connect(lambda i: self.explain_chip(window.encode, i))
        window.words.table.clicked.connect(self._on_words_table_clicked)
        window.inspector_made.connect(self._on_window_inspector_made)
        self._word: Optional[int] = None  # the training word whose history is shown (None: a chip's word or none)
        s = window.session
        for signal in (s.steps_undone, s.steps_applied, s.reset_done, s.tokens_renamed, s.run_finished):
            signal.connect(self._on_session_moved)
        s.corpus_loaded.connect(lambda *_: self.clear())
        s.config_changed.connect(lambda *_: self.clear())

    def explain_chip(self, encode_pane, i: int) -> None:
        """Explain the word of chip ``i`` of ``encode_pane`` (the model and text it encoded)."""
        enc, model = encode_pane.encoding(), encode_pane.model()
        if enc is None or model is None or not 0 <= i < len(enc.tokens):
            return
        text, limit = encode_pane.encoded()
        try:
            word = explain_at(model, text, enc.tokens[i].start, merges_limit=limit)
        except BPELensError as exc:
            self.window.statusBar().showMessage(f"Cannot explain: {exc}", 5000)
            return
        if word is not None:
            self.show(explanation_story(model, word))

    def explain_word(self, word_index: int) -> None:
        """Show training word ``word_index``'s history."""
        self.show(history_story(self.window.session, word_index))
        self._word = word_index

    def clear(self) -> None:
        """A new run (corpus or rule): the story told was another run's; the pane goes back to its hint."""
        self._word = None
        self.pane.clear()

    def _on_session_moved(self, *_args) -> None:
        """The run moved (undo, seek, step): a training word's history is told again up to the merge shown."""
        s = self.window.session
        if self._word is None or s.is_running or s.is_loading:
            return
        if 0 <= self._word < len(s.words):
            self.pane.show_story(history_story(s, self._word))
        else:
            self.clear()

    def show(self, story: Story) -> None:
        self._word = None
        self.pane.show_story(story)
        self.dock.show()
        self.dock.raise_()

    def _on_words_table_clicked(self, index: QModelIndex) -> None:
        word_index: Optional[int] = index.data(WORD_INDEX_ROLE)
        if word_index is not None:
            self.explain_word(word_index)

    def _on_window_inspector_made(self, tab, _vocabulary) -> None:
        """A vocabulary's inspector tab was made: its chips explain their words too."""
        pane = tab.encode_pane
        pane.view.clicked.connect(lambda i: self.explain_chip(pane, i))


def install(window) -> None:
    window.explain = ExplainFeature(window)
