"""One frame of a merges animation, painted with Pillow: banner, pair chart, words' chips, encoded text.

The layout is a 16:9 slide (1280x720 by default; ``scale=2`` for high-DPI). Every text goes through
:meth:`Canvas.text`, which records it with its role (``banner``, ``pair``, ``count``, ``word``,
``chip``, ``encoded``, ...): tests assert on what was drawn, not on pixels read back (no OCR).
Each text is drawn with a font that covers it (:func:`bpe_core.render.fonts.font_for`), so Chinese
is drawn with a CJK font, never as boxes. Chip colors come from :mod:`bpe_core.render.palette`,
as in the app; the chart's two colors are the app's (``app/widgets/theme.py`` ``BAR`` and ``ACCENT``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Sequence, Tuple

from bpe_core.render import require_pillow
from bpe_core.render.fonts import font_for
from bpe_core.render.frames import Chip, Frame
from bpe_core.render.palette import ACCENT_HEX, TEXT_HEX, chip_hex

__all__ = ["Style", "Canvas", "draw_frame", "draw_chips", "BAR_HEX", "NEXT_HEX"]

#: ordinary bars and the next merge's bar (the app's theme.BAR and theme.ACCENT)
BAR_HEX = "#4c6ef5"
NEXT_HEX = "#d9480f"
BACKGROUND = "#ffffff"
MUTED = "#555555"
CHIP_OUTLINE = "#444444"
UNKNOWN_OUTLINE = "#8b0000"


@dataclass(frozen=True)
class Style:
    """Sizes in slide pixels at scale 1; ``scale`` multiplies everything (2 for high-DPI slides)."""

    width: int = 1280
    height: int = 720
    scale: int = 1
    banner_size: int = 32
    text_size: int = 20
    chip_size: int = 22
    margin: int = 24

    def px(self, v: float) -> int:
        return int(round(v * self.scale))


@dataclass
class Canvas:
    """A Pillow image with the texts and bars drawn on it, in drawing order: ``texts`` as (role, text),
    ``bars`` as (box, fill)."""

    image: object
    style: Style
    texts: List[Tuple[str, str]] = field(default_factory=list)
    bars: List[Tuple[Tuple[float, float, float, float], str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.draw = require_pillow().ImageDraw.Draw(self.image)

    def font(self, text: str, size: int):
        return font_for(text, self.style.px(size))

    def measure(self, text: str, size: int) -> int:
        return int(self.font(text, size).getlength(text))

    def text(self, xy: Tuple[float, float], text: str, *, size: int, role: str, fill: str = TEXT_HEX,
             anchor: str = "la") -> None:
        self.texts.append((role, text))
        self.draw.text(xy, text, font=self.font(text, size), fill=fill, anchor=anchor)

    def texts_of(self, role: str) -> List[str]:
        return [t for r, t in self.texts if r == role]


def draw_frame(frame: Frame, style: Style = Style(), *, title: str = "") -> Canvas:
    """Paint ``frame``: the banner on top, the next pairs on the left, the words on the right and the
    encoded text below them. Returns the canvas (``.image`` is an RGB Pillow image)."""
    pil = require_pillow()
    s = style
    canvas = Canvas(pil.Image.new("RGB", (s.px(s.width), s.px(s.height)), BACKGROUND), s)
    m = s.px(s.margin)
    canvas.text((s.px(s.width) / 2, m), frame.banner, size=s.banner_size, role="banner", anchor="ma")
    top = m + s.px(s.banner_size * 1.8)
    canvas.draw.line([(m, top - s.px(8)), (s.px(s.width) - m, top - s.px(8))], fill="#dddddd", width=s.px(1))
    split = s.px(s.width * 0.42)
    bottom = s.px(s.height) - m - s.px(s.text_size * 1.6)
    _pair_chart(canvas, frame, (m, top, split - m, bottom))
    words_bottom = _words(canvas, frame, (split + m, top, s.px(s.width) - m, bottom)) if frame.words else top
    if frame.encoded:
        _encoded(canvas, frame, (split + m, words_bottom + s.px(s.text_size), s.px(s.width) - m, bottom))
    footer = f"vocabulary {frame.vocab_size:,} tokens" + (f"  ·  {title}" if title else "")
    canvas.text((m, s.px(s.height) - m), footer, size=s.text_size - 4, role="footer", fill=MUTED, anchor="ld")
    canvas.text((s.px(s.width) - m, s.px(s.height) - m), "BPE Lens", size=s.text_size - 4, role="footer",
                fill=MUTED, anchor="rd")
    return canvas


def _pair_chart(canvas: Canvas, frame: Frame, box: Tuple[int, int, int, int]) -> None:
    """Horizontal bars, the next merge first and in the accent; labels left, counts at the bar ends."""
    s = canvas.style
    x0, y0, x1, y1 = box
    canvas.text((x0, y0), f"Next pairs (top {len(frame.pairs)})", size=s.text_size, role="title", fill=MUTED)
    y0 += s.px(s.text_size * 1.8)
    if not frame.pairs:
        canvas.text((x0, y0), "no pair left", size=s.text_size, role="pair", fill=MUTED)
        return
    labels = [_elide(p.label, 18) for p in frame.pairs]
    label_w = max(canvas.measure(t, s.text_size) for t in labels) + s.px(10)
    count_w = canvas.measure(f"{frame.pairs[0].count:,}", s.text_size) + s.px(8)
    bar_x0, bar_x1 = x0 + label_w, x1 - count_w
    row = min(s.px(s.text_size * 2.0), (y1 - y0) / len(frame.pairs))
    biggest = max(p.count for p in frame.pairs) or 1
    for i, (p, label) in enumerate(zip(frame.pairs, labels)):
        y = y0 + i * row
        mid = y + row / 2
        canvas.text((bar_x0 - s.px(8), mid), label, size=s.text_size, role="pair", anchor="rm",
                    fill=NEXT_HEX if i == 0 else TEXT_HEX)
        end = bar_x0 + max(s.px(2), (bar_x1 - bar_x0) * p.count / biggest)
        box, fill = (bar_x0, y + row * 0.15, end, y + row * 0.85), NEXT_HEX if i == 0 else BAR_HEX
        canvas.bars.append((box, fill))
        canvas.draw.rectangle(box, fill=fill)
        canvas.text((end + s.px(6), mid), f"{p.count:,}", size=s.text_size, role="count", anchor="lm", fill=MUTED)


def _words(canvas: Canvas, frame: Frame, box: Tuple[int, int, int, int]) -> int:
    """One row per chosen word: the word and its frequency, then its chips (changed rows tinted).
    The words take at most 60% of the box when there is encoded text too; returns where they end."""
    s = canvas.style
    x0, y0, x1, y1 = box
    canvas.text((x0, y0), "Words", size=s.text_size, role="title", fill=MUTED)
    y = y0 + s.px(s.text_size * 1.8)
    row = s.px(s.chip_size * 2.1)
    name_w = max([canvas.measure(_word_label(w.word, w.freq), s.text_size) for w in frame.words] + [0]) + s.px(14)
    name_w = min(name_w, (x1 - x0) // 2)
    if frame.encoded:
        y1 = y0 + (y1 - y0) * 0.6
    for w in frame.words:
        if y + row > y1:
            break
        if w.changed:
            canvas.draw.rectangle([x0 - s.px(6), y - s.px(3), x1, y + row - s.px(5)], fill="#fff3bf")
        canvas.text((x0, y + row / 2 - s.px(2)), _elide(_word_label(w.word, w.freq), 24), size=s.text_size,
                    role="word", anchor="lm")
        draw_chips(canvas, w.chips, (x0 + name_w, y), x1, accent=frame.new_id, role="chip")
        y += row
    return int(y)


def _encoded(canvas: Canvas, frame: Frame, box: Tuple[int, int, int, int]) -> None:
    """The encode pane's text as wrapping rows of chips, with the token count."""
    s = canvas.style
    x0, y0, x1, y1 = box
    canvas.text((x0, y0), f"Encoded text: {len(frame.encoded)} tokens", size=s.text_size, role="title", fill=MUTED)
    y = y0 + s.px(s.text_size * 1.8)
    rest: Sequence[Chip] = frame.encoded
    row = s.px(s.chip_size * 2.1)
    while rest and y + row <= y1:
        shown = draw_chips(canvas, rest, (x0, y), x1, accent=frame.new_id, role="encoded",
                           ellipsis=y + 2 * row > y1)
        rest = rest[shown:]
        y += row


def draw_chips(canvas: Canvas, chips: Sequence[Chip], at: Tuple[float, float], right: float, *,
               accent=None, role: str = "chip", ellipsis: bool = True) -> int:
    """A row of chips from ``at`` up to ``right``: colored as the app colors them (neighbours always
    differ), the chips of ``accent`` outlined in the accent. Returns how many chips fit; with
    ``ellipsis``, a row that does not fit ends in ``…``."""
    s = canvas.style
    x, y = at
    pad, gap, height = s.px(6), s.px(4), s.px(s.chip_size * 1.6)
    colors = chip_hex([c.id if c.id >= 0 else 0 for c in chips])
    for n, (chip, color) in enumerate(zip(chips, colors)):
        text = chip.text or " "
        w = canvas.measure(text, s.chip_size) + 2 * pad
        if x + w > right and n:
            if ellipsis:
                canvas.text((x, y + height / 2), "…", size=s.chip_size, role=role, anchor="lm")
            return n
        unknown = chip.id < 0
        outline = ACCENT_HEX if accent is not None and chip.id == accent else \
            (UNKNOWN_OUTLINE if unknown else CHIP_OUTLINE)
        canvas.draw.rounded_rectangle([x, y, x + w, y + height], radius=s.px(5),
                                      fill="#ffffff" if unknown else color, outline=outline,
                                      width=s.px(3) if outline == ACCENT_HEX else s.px(1))
        canvas.text((x + pad, y + height / 2), text, size=s.chip_size, role=role, anchor="lm")
        x += w + gap
    return len(chips)


def _word_label(word: str, freq: int) -> str:
    return f"{word} ({freq:,})" if freq else word


def _elide(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
