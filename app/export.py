"""Export: charts to PNG/SVG (pyqtgraph exporters), the merges to CSV, the vocabulary to a file.

These are plain functions of their inputs (a plot item or scene, a list of merges, a model),
called by the main window's File → Export actions and by the tests.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, MergeStep

from .chips import chip_text

#: (file-dialog filter, writer) for every vocabulary format we can save, native first
VOCAB_FORMATS: Dict[str, str] = {
    "native": "BPE Lens vocabulary (*.json)",
    "tokenizer.json": "Hugging Face tokenizer.json (tokenizer.json)",
    "gpt2": "GPT-2 vocab.json + merges.txt (*.txt)",
    "tiktoken": "tiktoken ranks (*.tiktoken)",
}
CHART_FILTER = "PNG image (*.png);;SVG drawing (*.svg)"


def export_chart(item, path: str, *, width: int = 1600) -> str:
    """Write a plot item (or a whole GraphicsScene) to ``path``: ``.svg`` as SVG, else PNG."""
    from pyqtgraph.exporters import ImageExporter, SVGExporter

    path = str(path)
    if Path(path).suffix.lower() == ".svg":
        SVGExporter(item).export(path)
    else:
        if not Path(path).suffix:
            path += ".png"
        exporter = ImageExporter(item)
        exporter.parameters()["width"] = int(width)
        exporter.export(path)
    return path


MERGES_HEADER = ("rank", "left", "right", "new_token", "count", "left_id", "right_id", "new_id", "words_changed")


def merges_rows(steps: Sequence[MergeStep]) -> List[Tuple]:
    """One row per merge, tokens as the chips show them (byte tokens as GPT-2 glyphs)."""
    return [(s.rank, chip_text(s.left_token, whitespace=False)[0], chip_text(s.right_token, whitespace=False)[0],
             chip_text(s.new_token, whitespace=False)[0], s.count, s.left, s.right, s.new_id, len(s.changed_words))
            for s in steps]


def merges_csv(steps: Sequence[MergeStep]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MERGES_HEADER)
    writer.writerows(merges_rows(steps))
    return out.getvalue()


def export_merges_csv(steps: Sequence[MergeStep], path: str) -> str:
    Path(path).write_text(merges_csv(steps), encoding="utf-8")
    return str(path)


def _writers() -> Dict[str, Callable[[BPEModel, str], None]]:
    from bpe_core.formats.native import write_native
    from bpe_core.formats.writers import write_tiktoken, write_tokenizer_json, write_vocab_merges

    return {"native": write_native, "tokenizer.json": write_tokenizer_json, "gpt2": write_vocab_merges,
            "tiktoken": write_tiktoken}


def format_for(path: str, dialog_filter: str = "") -> str:
    """The format a save should use: the dialog's filter if one was chosen, else the file name."""
    for name, flt in VOCAB_FORMATS.items():
        if dialog_filter and dialog_filter == flt:
            return name
    p = Path(path)
    if p.name == "tokenizer.json":
        return "tokenizer.json"
    if p.suffix == ".tiktoken":
        return "tiktoken"
    if p.name in ("vocab.json", "merges.txt") or p.suffix == ".txt":
        return "gpt2"
    return "native"


def save_vocabulary(model: BPEModel, path: str, fmt: str = "native") -> str:
    """Write ``model`` in format ``fmt`` (a key of :data:`VOCAB_FORMATS`); BPELensError if it cannot."""
    if model is None:
        raise BPELensError("Nothing to save: load a corpus first.")
    try:
        writer = _writers()[fmt]
    except KeyError:
        raise BPELensError(f"Unknown vocabulary format {fmt!r}") from None
    writer(model, str(path))
    return str(path)
