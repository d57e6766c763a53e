"""Demo material for screenshots, benchmarks and tests: a mixed-script text, a small byte-level
vocabulary trained on it by the core trainer, and PNG renders of the encode pane and the inspector.

Nothing here is part of the running app's panes; the panes only take a model.
"""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from bpe_core import BPEModel, Trainer, TrainerConfig, open_vocabulary

from .panes.encode_pane import EncodePane
from .features.inspector import InspectorTab
from .features.inspector import TokenTableModel

__all__ = ["DEMO_TEXT", "demo_byte_model", "demo_model", "render_encode_pane_demo", "render_inspector_demo"]

DEMO_TEXT = (
    "Byte-Pair Encoding merges the most frequent pair, again and again.\n"
    "Tokenization isn't always where you'd expect: unbelievable → un + believ + able?\n"
    "中文分词：自然语言处理很有趣。日本語のテキストも。한국어도 됩니다.\n"
    "Emoji: 😀 🎉 👍 ❤ — and numbers 1234567 or 3.14159.\n"
    "\tdef encode(self, text: str) -> list[int]:\n"
)


def demo_byte_model(text: str, merges: int = 200) -> BPEModel:
    """A small byte-level model (GPT-2 pieces, all 256 bytes, ids 0-255 = the byte values) with up
    to ``merges`` merges learned from ``text`` by the core trainer — for demos and tests that need
    a vocabulary without files. Pairs seen once are not merged.
    """
    config = TrainerConfig(pretokenizer="gpt2", unit="bytes", full_byte_alphabet=True, alphabet_order="bytes",
                           min_frequency=2, num_merges=merges)
    trainer = Trainer.from_texts([text], config)
    trainer.run(merges=merges)
    model = trainer.model()
    model.name = "demo"
    return model


def demo_model() -> BPEModel:
    """GPT-2 from ``BPE_LENS_GPT2`` or the real data in ``BPE_LENS_DATA`` when readable, else
    :func:`demo_byte_model` of :data:`DEMO_TEXT`."""
    data = os.environ.get("BPE_LENS_DATA", "")
    for path in (os.environ.get("BPE_LENS_GPT2", ""), data and os.path.join(data, "gpt2", "tokenizer.json")):
        if path and os.path.exists(path):
            try:
                return open_vocabulary(path)
            except Exception:  # noqa: BLE001 - a demo falls back to the built-in model
                pass
    return demo_byte_model(DEMO_TEXT)


def render_encode_pane_demo(path: str, *, model: Optional[BPEModel] = None, text: str = DEMO_TEXT,
                            size: QSize = QSize(1280, 800)) -> str:
    """Render an encode pane with mixed English/Chinese/emoji text to a PNG at ``path``."""
    qapp = QApplication.instance() or QApplication([])
    pane = EncodePane()
    f = QFont(pane.font())
    f.setPointSizeF(max(11.0, f.pointSizeF() * 1.3))
    pane.setFont(f)
    pane.resize(size)
    pane.set_model(model or demo_model())
    pane.ids_toggle.setChecked(True)
    pane.set_text(text)
    pane.encode_now()
    pane.show()
    qapp.processEvents()
    pane.grab().save(path)
    pane.close()
    return path


def render_inspector_demo(path: str, vocab_path: Optional[str] = None, *, token: Optional[str] = " international",
                          model: Optional[BPEModel] = None, size: QSize = QSize(1400, 900)) -> str:
    """Render the inspector on ``vocab_path`` (or ``model``) with ``token``'s merge tree to a PNG."""
    qapp = QApplication.instance() or QApplication([])
    if model is None:
        model = open_vocabulary(vocab_path)
    tab = InspectorTab(model, "demo")
    f = QFont(tab.font())
    f.setPointSizeF(max(10.0, f.pointSizeF() * 1.2))
    tab.setFont(f)
    tab.resize(size)
    tab.show()
    tid = None
    if token is not None:
        tid = model.id_of(token.encode("utf-8") if model.unit == "bytes" else token)
    if tid is None:  # the longest token made by a merge
        tid = max(model.created_by, key=lambda i: (len(model.tokens[i]), -i)) if model.created_by else 0
    tab.search.setText(token.strip() if token else "")
    tab.apply_search()
    tab.table.sortByColumn(TokenTableModel.COL_RANK, Qt.AscendingOrder)
    tab.select_token(tid)
    tab.encode_pane.set_text(DEMO_TEXT)
    tab.encode_pane.encode_now()
    qapp.processEvents()
    tab.grab().save(path)
    tab.close()
    return path
