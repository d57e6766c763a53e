"""Export: charts to PNG/SVG (pyqtgraph exporters), the merges to CSV, the vocabulary to a file;
and the one question a vocabulary file can leave open when it is read back (a ``.tiktoken``
file's split pattern).

These are plain functions of their inputs (a plot item or scene, a list of merges, a model),
called by the main window's File actions and by the tests. Every export goes through one gate and one
writer: the path is checked first (:func:`bpe_core.formats.outputs.check_output`, never one of
:func:`app_inputs`), the file is drawn in memory and written atomically (:mod:`bpe_core.formats.atomic`).
"""
from __future__ import annotations

import csv
import io
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

from bpe_core import BPELensError, BPEModel, MergeStep

from ...runtime import settings_store
from ...widgets.chip_text import chip_text

#: vocabulary formats we save (names of ``bpe_core.formats.detect.WRITE_FORMATS``) -> file-dialog filter
VOCAB_FORMATS: Dict[str, str] = {
    "native": "BPE Lens vocabulary (*.json)",
    "tokenizer.json": "Hugging Face tokenizer.json (tokenizer.json)",
    "vocab-merges": "GPT-2 vocab.json + merges.txt (*vocab.json)",
    "tiktoken": "tiktoken ranks (*.tiktoken)",
    "seed000": "seed 000 tables (folder)",
    "picky": "PickyBPE model file, as pchizhov/picky_bpe writes it (*.json)",
}
CHART_FILTER = "PNG image (*.png);;SVG drawing (*.svg)"


#: charts are written at this many times their size on screen (sharp on a high-DPI slide or a 4K projector),
#: unless File → Export → PNG size says 1× (:func:`chosen_scale`)
CHART_SCALE = 2
#: and never narrower than this at 2× (a chart in a small pane still fills a slide), half of it at 1×
MIN_CHART_WIDTH = 1600


# -- the gate: where an export is proposed, and what it may never replace --------------------------------
def default_folder(window) -> Path:
    """The folder File → Export proposes: the last export's, the last one used, the corpus's or home,
    whichever comes first that is writable and outside the app's own files (never site-packages)."""
    session, settings = getattr(window, "session", None), getattr(window, "settings", None)
    if settings is None:  # a pane shown on its own (tests)
        return Path.home()
    corpus = session.corpus if session is not None else None
    return Path(settings_store.export_folder(settings, corpus.path if corpus else None))


def app_inputs(window) -> List[str]:
    """Every file the window reads from: the corpus (each of its files), the open vocabularies (with the
    files beside them they were read with). No export may replace one of them."""
    from bpe_core.formats import vocabulary_inputs

    session = getattr(window, "session", None)
    info = session.corpus if session is not None else None
    found = [str(p) for p in (getattr(info, "paths", None) or [info.path])] if info else []
    for path in session.workbench.paths() if session is not None else ():
        found += vocabulary_inputs(path)
    return found


def saved(window, path: str) -> str:
    """Remember ``path``'s folder for the next export; ``path``."""
    settings_store.remember_export(window.settings, path)
    return path


def export_chart(item, path: str, *, scale: Optional[float] = None, width: Optional[int] = None,
                 inputs: Sequence[str] = ()) -> str:
    """Write a plot item (or a whole GraphicsScene) to ``path``: ``.svg`` as SVG, anything else as PNG.

    PNG goes through pyqtgraph's ImageExporter at ``scale`` times the chart's size on screen in device
    pixels (by default the size File → Export → PNG size chose, :func:`chosen_scale`; at least
    :func:`min_width` wide; ``width`` overrides): the whole picture is scaled, lines, text and legends
    alike, so a 2x PNG is the chart as a high-DPI screen shows it.

    SVG does not go through pyqtgraph: its 0.14 SVGExporter fails on every plot with Qt 6.11 (it
    splits path data on spaces and chokes on the close-path ``Z`` that Qt now writes), so the item's part of the scene is painted into a ``QSvgGenerator`` instead;
    lines stay vectors and labels stay text, and its viewBox lets a slide scale it freely.
    """
    from pyqtgraph.exporters import ImageExporter

    from bpe_core.formats import atomic_write_bytes, check_output

    path = str(path)
    svg = Path(path).suffix.lower() == ".svg"
    if not svg and not Path(path).suffix:
        path += ".png"
    check_output(path, inputs=inputs)
    buffer = _Buffer()
    if svg:
        _export_svg(item, buffer.device)
    else:
        exporter = ImageExporter(item)
        scale = chosen_scale(item) if scale is None else scale
        exporter.parameters()["width"] = int(width or max(min_width(scale), round(scale * chart_width(item))))
        with legends_scaled(item):
            image = exporter.export(toBytes=True)
        if not image.save(buffer.device, "PNG"):
            raise BPELensError(f"{path}: the chart could not be drawn as PNG")
    atomic_write_bytes(path, buffer.data())  # drawn in memory, then one atomic write: never half a picture
    return path


def chosen_scale(item) -> float:
    """The PNG scale chosen in File → Export → PNG size of the window showing ``item`` (the first widget up
    from the chart's view that holds a ``chart_scale``: a floating dock's chart is its window's too);
    :data:`CHART_SCALE` for a chart shown on its own."""
    from PySide6.QtWidgets import QGraphicsScene

    scene = item if isinstance(item, QGraphicsScene) else item.scene()
    widget = scene.views()[0] if scene is not None and scene.views() else None
    while widget is not None and not hasattr(widget, "chart_scale"):
        widget = widget.parentWidget()
    return getattr(widget, "chart_scale", CHART_SCALE)


def min_width(scale: float) -> int:
    """The narrowest PNG at ``scale``: :data:`MIN_CHART_WIDTH` at 2× and above, in proportion below (1×:
    half as wide as 2×, whatever the chart's size)."""
    return round(MIN_CHART_WIDTH * min(scale, CHART_SCALE) / CHART_SCALE)


@contextmanager
def legends_scaled(item):
    """While a picture of ``item`` (a plot item or a scene) is drawn, every legend in its scene follows the
    picture's scale. pyqtgraph's legends ignore transformations, so a 2x PNG drew them at 1x; their parent,
    the view box, is never scaled on screen, so following the transformations changes nothing there."""
    from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene
    from pyqtgraph import LegendItem

    scene = item if isinstance(item, QGraphicsScene) else item.scene()
    flag = QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations
    legends = [it for it in (scene.items() if scene is not None else ()) if isinstance(it, LegendItem)
               and it.flags() & flag]
    for legend in legends:
        legend.setFlag(flag, False)
    try:
        yield
    finally:
        for legend in legends:
            legend.setFlag(flag, True)


class _Buffer:
    """An in-memory QIODevice a QImage or QSvgGenerator writes into."""

    def __init__(self) -> None:
        from PySide6.QtCore import QBuffer, QIODevice

        self.device = QBuffer()
        self.device.open(QIODevice.WriteOnly)

    def data(self) -> bytes:
        return bytes(self.device.data())


def chart_width(item) -> float:
    """The chart's width on screen in device pixels (logical pixels times the screen's pixel ratio)."""
    from PySide6.QtWidgets import QGraphicsScene

    scene = item if isinstance(item, QGraphicsScene) else item.scene()
    view = scene.views()[0]
    logical = view.viewport().width() if item is scene else \
        view.mapFromScene(item.sceneBoundingRect()).boundingRect().width()
    return logical * view.devicePixelRatioF()


def _export_svg(item, device) -> None:
    from PySide6.QtCore import QRect, QRectF, QSize
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgGenerator
    from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

    scene = item if isinstance(item, QGraphicsScene) else item.scene()
    view = scene.views()[0]
    # through the view, as on screen (QGraphicsScene.render shifts pyqtgraph's axes)
    source = view.viewport().rect() if item is scene else \
        view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    size = QSize(max(1, source.width()), max(1, source.height()))
    generator = QSvgGenerator()
    generator.setOutputDevice(device)
    generator.setSize(size)
    generator.setViewBox(QRect(0, 0, size.width(), size.height()))
    generator.setTitle("BPE Lens chart")
    # the screen's DPI: pyqtgraph draws axes from QPictures, which a player rescales by the DPI
    # ratio of the two devices (QSvgGenerator defaults to 72 dpi: axes would land off their plots)
    generator.setResolution(view.logicalDpiX())
    cached = [(it, it.cacheMode()) for it in scene.items() if it.cacheMode() != QGraphicsItem.NoCache]
    for it, _ in cached:  # cached items would be written as bitmaps
        it.setCacheMode(QGraphicsItem.NoCache)
    painter = QPainter(generator)
    target = QRectF(0, 0, size.width(), size.height())
    painter.fillRect(target, view.backgroundBrush())  # the chart's own background (dark on a dark desktop)
    view.render(painter, target, source)
    painter.end()
    for it, mode in cached:
        it.setCacheMode(mode)


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


def export_merges_csv(steps: Sequence[MergeStep], path: str, *, inputs: Sequence[str] = ()) -> str:
    """Write the CSV atomically: a full disk or a crash never leaves half a table in place of the old one."""
    from bpe_core.formats import atomic_write_text, check_output

    check_output(path, inputs=inputs)
    atomic_write_text(path, merges_csv(steps))
    return str(path)


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
    if p.name.endswith("vocab.json") or p.name.endswith("merges.txt"):
        return "vocab-merges"
    return "native"


def save_vocabulary(model: BPEModel, path: str, fmt: str = "native", *, inputs: Sequence[str] = ()) -> str:
    """Write ``model`` as ``fmt`` through the core's writers; BPELensError when the format cannot hold it."""
    from bpe_core import write_vocabulary
    from bpe_core.formats import check_save

    if model is None:
        raise BPELensError("Nothing to save: load a corpus first.")
    check_save(str(path), fmt, inputs=inputs)
    write_vocabulary(model, str(path), fmt)
    return str(path)


#: split patterns offered for a ``.tiktoken`` file that is not one of OpenAI's (label: pattern name)
TIKTOKEN_SPLITS: Dict[str, str] = {
    "GPT-2 / r50k_base (byte-level training here uses it)": "gpt2",
    "cl100k_base (GPT-4)": "cl100k",
    "o200k_base (GPT-4o)": "o200k",
}


def ask_tiktoken_pattern(parent, path: str) -> Union[Optional[str], bool]:
    """The split regex to read ``path`` with: None when the file needs none (not ``.tiktoken``, or
    one of OpenAI's, known by name); for another ``.tiktoken`` file (ranks only: how text is split
    before they apply is not in it) the user picks one; False when they cancel."""
    from PySide6.QtWidgets import QInputDialog

    from bpe_core.formats import KNOWN_ENCODINGS
    from bpe_core.pretokenize import TIKTOKEN_PATTERNS

    p = Path(path)
    if p.suffix.lower() != ".tiktoken" or p.name.split(".")[0] in KNOWN_ENCODINGS:
        return None
    choice, ok = QInputDialog.getItem(parent, "Split pattern",
                                      f"How is text split before the ranks in {p.name} apply?",
                                      list(TIKTOKEN_SPLITS), 0, False)
    return TIKTOKEN_PATTERNS[TIKTOKEN_SPLITS[choice]] if ok else False
