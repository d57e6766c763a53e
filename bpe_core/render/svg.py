"""SVG drawings for slides, written as text (no Pillow, no Qt): a word's segmentation strip and a
token's merge tree. Chips have the app's colors (:mod:`bpe_core.render.palette`); texts stay text
(searchable, sharp at any size). Widths are estimated from the characters (wide for CJK), as the
viewer's font is not known here; chips leave room for the difference.

>>> from bpe_core.render.frames import Chip
>>> svg = word_strip_svg("low", [StripRow("start", (Chip("l", 0), Chip("o", 1), Chip("w", 2))),
...                              StripRow("merge 1: l + o", (Chip("lo", 3), Chip("w", 2)), new_id=3)])
>>> import xml.etree.ElementTree as ET
>>> [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")][-2:]
['lo', 'w']
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple
from xml.sax.saxutils import escape

from bpe_core.render.frames import Chip
from bpe_core.render.palette import ACCENT_HEX, PALETTE_HEX, TEXT_HEX, chip_hex, palette_index

__all__ = ["StripRow", "word_strip_svg", "strip_rows", "merge_tree_svg", "text_width"]

FONT = "DejaVu Sans, WenQuanYi Micro Hei, Noto Sans CJK SC, sans-serif"
SIZE = 16
PAD = 6
GAP = 4
CHIP_H = 26
ROW_H = 36
#: a text's baseline below a chip's top: centred (explicit: not every viewer honours dominant-baseline)
BASELINE = CHIP_H / 2 + 0.36 * SIZE


@dataclass(frozen=True)
class StripRow:
    """One row of a strip: what happened (``label``) and the word's chips after it."""

    label: str
    chips: Tuple[Chip, ...]
    new_id: Optional[int] = None  # the token the row's merge made (outlined in the accent)


def text_width(text: str, size: int = SIZE) -> float:
    """An estimate of ``text``'s width: wide (CJK) characters one em, others 0.62 em.

    >>> text_width("ab", 10), text_width("三", 10)
    (12.4, 10.0)
    """
    return round(float(sum(size if unicodedata.east_asian_width(c) in "WF" else 0.62 * size for c in text)), 2)


def _svg(width: float, height: float, body: List[str], title: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" font-size="{SIZE}">\n'
            f'<title>{escape(title)}</title>\n<rect width="100%" height="100%" fill="#ffffff"/>\n'
            + "\n".join(body) + "\n</svg>\n")


def _chip(x: float, y: float, chip: Chip, color: str, accent: bool) -> Tuple[str, float]:
    """One chip's SVG at (x, y) and its width."""
    w = text_width(chip.text) + 2 * PAD
    fill, outline, stroke = ("#ffffff", "#8b0000", 1) if chip.id < 0 else (color, "#444444", 1)
    if accent:
        outline, stroke = ACCENT_HEX, 3
    return (f'<g><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{CHIP_H}" rx="5" fill="{fill}" '
            f'stroke="{outline}" stroke-width="{stroke}"/>'
            f'<text x="{x + PAD:.1f}" y="{y + BASELINE:.1f}" fill="{TEXT_HEX}" '
            f'xml:space="preserve">{escape(chip.text)}</text></g>'), w


def word_strip_svg(word: str, rows: Sequence[StripRow]) -> str:
    """A word's segmentation, one row per step: a label on the left, the chips on the right."""
    label_w = max([text_width(r.label) for r in rows] + [0]) + 20
    body, widest = [], 0.0
    for i, row in enumerate(rows):
        y = 12 + i * ROW_H
        body.append(f'<text x="12" y="{y + BASELINE:.1f}" fill="#555555">'
                    f'{escape(row.label)}</text>')
        x = 12 + label_w
        for chip, color in zip(row.chips, chip_hex([max(c.id, 0) for c in row.chips])):
            svg, w = _chip(x, y, chip, color, row.new_id is not None and chip.id == row.new_id)
            body.append(svg)
            x += w + GAP
        widest = max(widest, x)
    return _svg(widest + 12, 12 + len(rows) * ROW_H + 4, body, f"segmentation of {word}")


def strip_rows(history: Sequence, text: Callable[[int], str], *, unit: str = "characters") -> List[StripRow]:
    """Rows from a word history (``Timeline.word_history``: (step or None, segmentation) pairs)."""
    rows = []
    for step, seg in history:
        label = f"merge {step.rank}: {text(step.left)} + {text(step.right)}" if step else f"start ({unit})"
        rows.append(StripRow(label, tuple(Chip(text(t) if t >= 0 else "?", t) for t in seg),
                             step.new_id if step else None))
    return rows


def merge_tree_svg(root, text: Optional[Callable[[int], str]] = None) -> str:
    """A merge tree (``bpe_core.analysis.lineage.Node``), root on top, leaves (the units) in reading order;
    each made token says its merge rank under its chip. A sub-tree that recurs is drawn at each place."""
    text = text or (lambda tid: None)
    leaf_right = [12.0]  # leaves go left to right in reading order
    level_right: Dict[int, float] = {}  # and no two chips of one level overlap
    placed: List[Tuple[object, float, int, str, List[int]]] = []  # node, x centre, depth, label, children

    def place(node, level: int) -> int:
        label = text(node.id) or node.display
        kids = [place(c, level + 1) for c in node.children]
        w = max(text_width(label) + 2 * PAD, text_width(f"merge {node.rank}", 11) if node.rank else 0)
        left = level_right.get(level, 12.0)
        if kids:
            x = max(sum(placed[k][1] for k in kids) / len(kids), left + w / 2)
        else:
            x = max(leaf_right[0], left) + w / 2
            leaf_right[0] = x + w / 2 + 2 * GAP
        level_right[level] = x + w / 2 + 2 * GAP
        placed.append((node, x, level, label, kids))
        return len(placed) - 1

    place(root, 0)
    step_y = CHIP_H + 34
    body = []
    for node, x, level, _, kids in placed:  # edges first, under the chips
        for k in kids:
            body.append(f'<line x1="{x:.1f}" y1="{12 + level * step_y + CHIP_H + 18:.1f}" x2="{placed[k][1]:.1f}" '
                        f'y2="{12 + placed[k][2] * step_y:.1f}" stroke="#888888" stroke-width="1.5"/>')
    for node, x, level, label, _ in placed:
        w = text_width(label) + 2 * PAD
        y = 12 + level * step_y
        svg, _ = _chip(x - w / 2, y, Chip(label, node.id), PALETTE_HEX[palette_index(max(node.id, 0))], False)
        body.append(svg)
        if node.rank is not None:
            body.append(f'<text x="{x:.1f}" y="{y + CHIP_H + 14:.1f}" text-anchor="middle" font-size="11" '
                        f'fill="#555555">merge {node.rank}</text>')
    levels = max(p[2] for p in placed) + 1
    width = max(p[1] + (text_width(p[3]) + 2 * PAD) / 2 for p in placed) + 12
    return _svg(width, 12 + levels * step_y, body, f"merge tree of {text(root.id) or root.display}")
