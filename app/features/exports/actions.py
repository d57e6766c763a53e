"""Exports made for slides (issue 12): File → Export → Animation of merges…, Word strip as SVG…,
Merge tree as SVG…. The pictures come from the Qt-free renderer (:mod:`bpe_core.render`), the same
one ``python -m bpe_core animate`` and ``svg`` use; this module only asks what to draw and where.

The word strip is the selected word's history (one row per merge that changed it, as in the words
pane); the merge tree is a token of the vocabulary at the current merge (by default the newest).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu, QMessageBox

from bpe_core import BPELensError
from bpe_core.render import chip_text

from .animation_dialog import AnimationDialog
from ...session.payloads import user_message

SVG_FILTER = "SVG drawing (*.svg)"


def install(window) -> None:
    exports = SlideExports(window)
    window.slide_exports = exports
    menu = window.menus["export"]
    install_png_size(window, menu)
    menu.addSeparator()
    a = window.make_action
    menu.addAction(a("Animation of merges…", exports.animate, name="export_animation"))
    menu.addAction(a("Word strip as SVG…", exports.word_strip, name="export_word_strip"))
    menu.addAction(a("Merge tree as SVG…", exports.merge_tree, name="export_merge_tree"))


#: File → Export → PNG size: (scale, what it is for, the action's name), the default (2×) first
PNG_SIZES = ((2, "slides, high-DPI screens", "png_scale_2"), (1, "web pages, documents", "png_scale_1"))


def install_png_size(window, menu) -> None:
    """File → Export → PNG size, first in the menu: the scale every chart's PNG is written at
    (:func:`~bpe_lens_app.features.exports.files.chosen_scale` reads ``window.chart_scale``), kept for the session."""
    from PySide6.QtGui import QActionGroup

    from .files import CHART_SCALE, min_width

    window.chart_scale = CHART_SCALE
    sizes = QMenu("PNG size", menu)
    group = QActionGroup(sizes)  # exclusive: one is checked
    for scale, use, name in PNG_SIZES:
        text = f"{scale}× the chart on screen ({use}; at least {min_width(scale):,} px wide)"
        action = window.make_action(text, lambda scale=scale: setattr(window, "chart_scale", scale), name=name)
        action.setCheckable(True)
        action.setChecked(scale == window.chart_scale)
        action.setStatusTip(f"Charts exported as PNG are drawn at {scale}× their size on screen")
        group.addAction(action)
        sizes.addAction(action)
    first = menu.actions()[0] if menu.actions() else None
    menu.insertMenu(first, sizes)
    menu.insertSeparator(first)


class SlideExports:
    """The three actions, over the window's session and panes."""

    def __init__(self, window) -> None:
        self.window = window
        self.session = window.session
        self.selected_word: Optional[int] = None
        self.dialog: Optional[AnimationDialog] = None
        window.words.word_selected.connect(self._on_words_word_selected)
        window.session.corpus_loaded.connect(self._on_session_corpus_loaded)

    def _on_words_word_selected(self, word_index: int) -> None:
        self.selected_word = word_index

    def _on_session_corpus_loaded(self, _info) -> None:
        self.selected_word = None

    def _text(self, token_id: int) -> str:
        """What a token's chip reads on a slide (decoded, whitespace as ·)."""
        return chip_text(self.session.token(token_id), mode="text")[0] if token_id >= 0 else "?"

    def _folder(self) -> Path:
        from .files import default_folder
        return default_folder(self.window)

    def _save_path(self, title: str, name: str) -> str:
        path, _ = QFileDialog.getSaveFileName(self.window, title, str(self._folder() / name), SVG_FILTER)
        return path if not path or path.lower().endswith(".svg") else path + ".svg"

    def _report(self, message: str, *, error: bool = False) -> None:
        if error:
            QMessageBox.warning(self.window, "BPE Lens", message)
        else:
            self.window.statusBar().showMessage(message, 5000)

    # -- animation ------------------------------------------------------------------------------------------
    def animate(self) -> Optional[AnimationDialog]:
        """Open the animation dialog on the current corpus and settings (shown, not modal)."""
        info = self.session.corpus
        if info is None:
            self._report("Open a corpus first: the animation trains on it.", error=True)
            return None
        k = self.session.merge_count
        words = [self._word_text(self.selected_word)] if self.selected_word is not None else []
        from .files import app_inputs, saved
        self.dialog = AnimationDialog(info.path, self.session.config, first=0, last=max(30, k), words=words,
                                      text=self.window.encode.text()[:300], folder=self._folder(),
                                      inputs=app_inputs(self.window), parent=self.window)
        self.dialog.exported.connect(lambda path: self._report(f"Saved {saved(self.window, path)}"))
        self.dialog.show()
        return self.dialog

    def _word_text(self, i: int) -> str:
        """The word as a person types it (GPT-2's Ġ as a space, stripped; no end-of-word suffix)."""
        word = chip_text(self.session.words[i], mode="text", whitespace=False)[0]
        suffix = self.session.config.end_of_word_suffix
        if suffix and word.endswith(suffix):
            word = word[: -len(suffix)]
        return word.replace("Ġ", " ").strip() or word

    # -- SVG ---------------------------------------------------------------------------------------------------
    def word_strip(self, path: Optional[str] = None, word_index: Optional[int] = None) -> Optional[str]:
        """The selected word's segmentation, one row per merge that changed it, as SVG."""
        from bpe_core.render import strip_rows, word_strip_svg

        if not self.session.is_loaded:
            self._report("Open a corpus first.", error=True)
            return None
        i = word_index if word_index is not None else self.selected_word
        if i is None:
            i = self._ask_word()
            if i is None:
                return None
        name = self._word_text(i)
        path = path or self._save_path("Word strip as SVG", f"{_file_name(name)}-strip.svg")
        if not path:
            return None
        unit = "bytes" if self.session.config.unit == "bytes" else "characters"
        svg = word_strip_svg(name, strip_rows(self.session.word_history(i), self._text, unit=unit))
        return self._write(path, svg)

    def _ask_word(self) -> Optional[int]:
        from bpe_core.render import find_word

        word, ok = QInputDialog.getText(self.window, "Word strip", "Which word? (select one in the words pane "
                                        "to skip this question)")
        if not ok or not word.strip():
            return None
        words = self.session.words
        i = find_word({w: k for k, w in enumerate(words)}, self.session.freqs, word.strip())
        if i is None:
            self._report(f"{word.strip()!r} is not a word of this corpus.", error=True)
        return i

    def merge_tree(self, path: Optional[str] = None, token: Optional[str] = None) -> Optional[str]:
        """A token's merge tree at the current merge as SVG (by default the newest merge's token)."""
        from bpe_core.analysis import merge_tree, token_id_of
        from bpe_core.render import merge_tree_svg

        model = self.session.model()
        if model is None or not self.session.history:
            self._report("Train a few merges first: the tree shows how a merged token was built.", error=True)
            return None
        if token is None:
            newest = chip_text(self.session.token(self.session.history[-1].new_id), mode="text",
                               whitespace=False)[0]
            token, ok = QInputDialog.getText(self.window, "Merge tree", "Token (its text, or #id):", text=newest)
            if not ok or not token:
                return None
        try:
            tree = merge_tree(model, token_id_of(model, token))
        except BPELensError as exc:
            self._report(user_message(exc), error=True)
            return None
        path = path or self._save_path("Merge tree as SVG", f"{_file_name(token)}-tree.svg")
        return self._write(path, merge_tree_svg(tree, self._text)) if path else None

    def _write(self, path: str, svg: str) -> Optional[str]:
        from bpe_core.formats import atomic_write_text, check_output

        from .files import app_inputs, saved

        try:
            check_output(path, inputs=app_inputs(self.window))  # never the corpus or an open vocabulary
            atomic_write_text(path, svg)
        except (BPELensError, OSError) as exc:
            self._report(user_message(exc), error=True)
            return None
        self._report(f"Saved {saved(self.window, path)}")
        return path


def _file_name(text: str) -> str:
    """A file name from a word or token (letters and digits kept, CJK too)."""
    return "".join(c for c in text.strip() if c.isalnum()) or "token"
