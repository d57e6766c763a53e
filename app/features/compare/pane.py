"""The comparison tab: two vocabularies side by side (a :class:`bpe_core.analysis.diff.ModelDiff`).

Summary (first divergent merge, token counts, specials) | the merges side by side from the
divergence | the shared / only-A / only-B token lists with a filter | a text box encoded by both,
the spans where they cut differently highlighted in the box and in both token rows | the selected
token's merge trees on both sides. Everything is computed by the core; the diff itself arrives
ready (the feature computes it on a worker).
"""
from __future__ import annotations

import html
from typing import List, Optional, Sequence, Tuple

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QGridLayout, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPlainTextEdit, QSplitter,
    QTableView, QTextBrowser, QTextEdit, QVBoxLayout, QWidget,
)

from bpe_core.analysis import ModelDiff, TextDiff, compare_text
from bpe_core.base import decoded_text, visible_whitespace
from bpe_core.types import Raw

from ...widgets.theme import CHANGED_TINT, app_palette, mix
from ...widgets.merge_tree import MergeTreeView
from .models import KINDS, MergesSideBySide, TokenDiffModel

__all__ = ["CompareTab", "DEFAULT_TEXT"]

DEFAULT_TEXT = "Hello world,    indented code\n\tdef tokenize(text):  return text.split()"


class CompareTab(QWidget):
    """Vocabulary A against vocabulary B (``diff``), named ``name_a`` and ``name_b``."""

    token_selected = Signal(bytes)

    ENCODE_DEBOUNCE_MS = 150

    def __init__(self, diff: ModelDiff, name_a: str, name_b: str, text: str = DEFAULT_TEXT,
                 parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        self.diff, self.name_a, self.name_b = diff, name_a, name_b
        self.text_diff: Optional[TextDiff] = None
        self.summary = QLabel(self._summary_text(), objectName="compare_summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.merges_model = MergesSideBySide(diff, self)
        self.merges_view = self._table(self.merges_model)
        self.tokens_model = TokenDiffModel(diff, self)
        self.kind = QComboBox(objectName="compare_kind")
        self.kind.addItems([f"{k} ({n:,})" for k, n in zip(KINDS, (diff.shared_tokens, diff.only_a, diff.only_b))])
        self.filter = QLineEdit(placeholderText="Filter tokens (text or glyphs: Ġthe)", clearButtonEnabled=True)
        self.tokens_view = self._table(self.tokens_model)
        self.text_edit = QPlainTextEdit(text, objectName="compare_text")
        self.text_edit.setPlaceholderText("Type a text: both vocabularies encode it")
        self.rows = (QTextBrowser(objectName="compare_row_a"), QTextBrowser(objectName="compare_row_b"))
        self.text_info = QLabel()
        self.token_box = QLineEdit(placeholderText="Token for the merge trees (text or glyphs)")
        self.trees = (MergeTreeView(), MergeTreeView())
        self.tree_captions = (QLabel(), QLabel())
        for tree, side in zip(self.trees, (diff.a, diff.b)):
            tree.set_model(side.model)
        self._encode_timer = QTimer(self, singleShot=True, interval=self.ENCODE_DEBOUNCE_MS)
        self._build_layout()
        self._size_columns()
        self.kind.currentIndexChanged.connect(lambda i: self.tokens_model.set_kind(KINDS[i]))
        self.filter.textChanged.connect(self.tokens_model.set_filter)
        self.tokens_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: cur.isValid() and self.show_trees(self.tokens_model.token(cur.row())))
        self.token_box.returnPressed.connect(lambda: self.show_trees_for_text(self.token_box.text()))
        self.text_edit.textChanged.connect(self._encode_timer.start)
        self._encode_timer.timeout.connect(self.encode_text)
        self.encode_text()

    # -- building --------------------------------------------------------------------------------
    def _table(self, model) -> QTableView:
        t = QTableView()
        t.setModel(model)
        t.setSelectionBehavior(QAbstractItemView.SelectRows)
        t.setSelectionMode(QAbstractItemView.SingleSelection)
        t.verticalHeader().hide()
        t.horizontalHeader().setStretchLastSection(True)
        t.setAlternatingRowColors(True)
        t.setWordWrap(False)
        return t

    def _build_layout(self) -> None:
        merges = self._titled(f"Merges from the divergence (0-based rank): A = {self.name_a} | B = {self.name_b}",
                              self.merges_view)
        head = QHBoxLayout()
        head.addWidget(self.kind)
        head.addWidget(self.filter, 1)
        tokens = self._titled("Tokens (as bytes; specials apart)", head, self.tokens_view)
        text = self._titled("The same text, encoded by both (differing spans highlighted)", self.text_edit,
                            self.text_info, QLabel("A"), self.rows[0], QLabel("B"), self.rows[1])
        self.text_edit.setMaximumHeight(self.fontMetrics().height() * 5)
        for row in self.rows:
            row.setMaximumHeight(self.fontMetrics().height() * 5)
        grid = QGridLayout()
        for col, (cap, tree) in enumerate(zip(self.tree_captions, self.trees)):
            grid.addWidget(cap, 0, col)
            grid.addWidget(tree, 1, col)
        trees = self._titled("Merge trees of one token (select a row, or type a token)", self.token_box, grid)
        top = QSplitter(Qt.Horizontal)
        top.addWidget(merges)
        top.addWidget(tokens)
        bottom = QSplitter(Qt.Horizontal)
        bottom.addWidget(text)
        bottom.addWidget(trees)
        body = QSplitter(Qt.Vertical)
        body.addWidget(top)
        body.addWidget(bottom)
        body.setSizes([380, 420])
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(self.summary)
        outer.addWidget(body, 1)

    @staticmethod
    def _titled(title: str, *parts) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        label = QLabel(f"<b>{html.escape(title)}</b>")
        lay.addWidget(label)
        for part in parts:
            if isinstance(part, QWidget):
                lay.addWidget(part, 1 if isinstance(part, (QTableView, MergeTreeView)) else 0)
            else:
                lay.addLayout(part, 1 if isinstance(part, QGridLayout) else 0)
        return box

    def _summary_text(self) -> str:
        d = self.diff
        fdm = d.first_divergent_merge
        where = "none — the merge lists are equal" if fdm is None else f"{fdm:,} (0-based rank)"
        side = lambda s, name: (f"{name}: {len(s.ids):,} tokens, {len(s.model.merges):,} merges, "  # noqa: E731
                                f"specials {', '.join(s.specials) or 'none'}")
        return (f"{side(d.a, 'A ' + self.name_a)}\n{side(d.b, 'B ' + self.name_b)}\n"
                f"First divergent merge: {where} · shared tokens {d.shared_tokens:,} · "
                f"only A {d.only_a:,} · only B {d.only_b:,}")

    # -- the text --------------------------------------------------------------------------------
    def encode_text(self) -> None:
        """Encode the box's text with both vocabularies and highlight where they cut differently."""
        self._encode_timer.stop()
        text = self.text_edit.toPlainText()
        td, ea, eb = compare_text(self.diff.a.model, self.diff.b.model, text)
        self.text_diff = td
        self._highlight(td.differing)
        for row, enc in zip(self.rows, (ea, eb)):
            row.setHtml(self._token_row_html(enc.tokens, td.differing))
        self.text_info.setText(f"A {len(ea.tokens):,} tokens · B {len(eb.tokens):,} tokens · differs in "
                               f"{len(td.differing)} span(s): " + ", ".join(repr(text[s:e]) for s, e in td.differing[:8]))

    def highlighted_spans(self) -> List[Tuple[int, int]]:
        """The character spans highlighted in the text box now."""
        return [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in self.text_edit.extraSelections()]

    def _highlight(self, spans: Sequence[Tuple[int, int]]) -> None:
        fmt = QTextCharFormat()
        fmt.setBackground(mix(app_palette().base().color(), CHANGED_TINT, 0.55))
        selections = []
        for start, end in spans:
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.text_edit.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.KeepAnchor)
            sel.cursor, sel.format = cursor, fmt
            selections.append(sel)
        self.text_edit.setExtraSelections(selections)

    @staticmethod
    def _token_row_html(tokens, differing: Sequence[Tuple[int, int]]) -> str:
        pal = app_palette()
        base, text = pal.base().color(), pal.text().color()
        tints = (mix(base, text, 0.08).name(), mix(base, text, 0.18).name())
        hot = mix(base, CHANGED_TINT, 0.6).name()
        parts = []
        for k, t in enumerate(tokens):
            inside = any(s < t.end and t.start < e or s <= t.start < e for s, e in differing)
            bg = hot if inside else tints[k % 2]
            weight = "font-weight:600;" if inside else ""
            parts.append(f'<span style="background:{bg};{weight}">{html.escape(_readable(t.raw, t.display))}</span>')
        return '<div style="font-family:monospace;line-height:150%">' + "&#8201;".join(parts) + "</div>"

    def _size_columns(self) -> None:
        """Widths from the font (ResizeToContents would measure every one of 50k rows)."""
        digits = self.fontMetrics().horizontalAdvance("0") * 8 + 16
        wide = self.fontMetrics().horizontalAdvance("M") * 10
        header = self.merges_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Stretch)
        header.setSectionResizeMode(MergesSideBySide.COL_RANK, QHeaderView.Fixed)
        self.merges_view.setColumnWidth(MergesSideBySide.COL_RANK, digits)
        self.tokens_view.setColumnWidth(TokenDiffModel.COL_TOKEN, wide)
        for col in range(1, len(TokenDiffModel.HEADERS)):
            self.tokens_view.setColumnWidth(col, digits)

    # -- the trees -------------------------------------------------------------------------------
    def show_trees(self, token: bytes) -> None:
        """Both sides' merge trees of the token with these bytes ("not in B" where it is missing)."""
        for tree, cap, side, name in zip(self.trees, self.tree_captions, (self.diff.a, self.diff.b), "AB"):
            tid = side.ids.get(token)
            if tid is None:
                tree.clear()
                cap.setText(f"{name}: not in this vocabulary")
            else:
                tree.show_token(tid)
                cap.setText(f"{name}: id {tid:,} in {self.name_a if name == 'A' else self.name_b}")
        self.token_selected.emit(token)

    def show_trees_for_text(self, text: str) -> bool:
        from bpe_core.base import from_glyphs, is_glyph_string
        for token in (text.encode("utf-8"), from_glyphs(text) if text and is_glyph_string(text) else None):
            if token is not None and (token in self.diff.a.ids or token in self.diff.b.ids):
                self.show_trees(token)
                return True
        for cap in self.tree_captions:
            cap.setText(f"{text!r} is in neither vocabulary")
        return False

    def select_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(KINDS.index(kind))


def _readable(raw: Raw, shown: str) -> str:
    """A token as the text it stands for, whitespace visible (``·`` space); glyphs for a partial character,
    so a byte token and an added text token of the same bytes read alike."""
    text = decoded_text(raw)
    return visible_whitespace(text if text is not None else shown)
