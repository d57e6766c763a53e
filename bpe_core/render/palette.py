"""Token colors without Qt: one palette, a stable slot per id, and neighbours that always differ.

The app (``app/widgets/chip_colors.py``) and the headless renderer (:mod:`bpe_core.render.draw`,
:mod:`bpe_core.render.svg`) color chips from here, so a slide shows the colors of the app.

:data:`PALETTE_HEX` holds 14 light background colors for dark text (contrast >= 7:1 against
:data:`TEXT_HEX`, so they stay readable on a projector, in print and on a dark desktop). A token's
slot is a stable function of its id (:func:`palette_index`). Twelve-plus colors cannot all be told
apart under color-vision deficiencies, so neighbours are handled separately: :func:`chip_indices`
moves a token to another palette entry when its color is *confusable* with its left neighbour's —
closer than :data:`MIN_DELTA_E` (CIE76) with normal vision or under simulated protanopia,
deuteranopia or tritanopia (Machado et al. 2009, severity 1). Chips also keep a gap and a darker
outline, so the boundary never depends on color alone.

>>> a, b = chip_indices([7, 7])
>>> a != b
True
"""
from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple

__all__ = ["PALETTE_HEX", "TEXT_HEX", "ACCENT_HEX", "MIN_DELTA_E", "DELTA_E", "palette_index", "chip_indices",
           "chip_hex", "distinguishable"]


# --------------------------------------------------------------------------- palette
#: light backgrounds (Paul Tol's "light" and "pale" schemes plus a few pastels), for dark text
PALETTE_HEX: Tuple[str, ...] = (
    "#77AADD",  # light blue
    "#EE8866",  # orange
    "#EEDD88",  # light yellow
    "#FFAABB",  # pink
    "#99DDFF",  # light cyan
    "#44BB99",  # mint
    "#BBCC33",  # pear
    "#DDDDDD",  # pale grey
    "#C5B0E0",  # lavender
    "#CCDDAA",  # pale green
    "#FFCCCC",  # pale red
    "#AAAA00",  # olive
    "#E8B4D8",  # orchid
    "#F4C28A",  # apricot
)
#: chip text (dark on every palette entry)
TEXT_HEX = "#111111"
#: outline of highlighted / flashing chips (hover, "the merge that just fired")
ACCENT_HEX = "#D81B60"
#: two colors closer than this (CIE76 ΔE, any vision) count as the same for neighbours
MIN_DELTA_E = 12.0

_N = len(PALETTE_HEX)
#: step through the palette when shifting (coprime with the palette size: visits every entry)
_SHIFT = 5

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB
_CVD = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(hex_color: str) -> Tuple[float, float, float]:
    out = []
    for i in (1, 3, 5):
        c = int(hex_color[i:i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return tuple(out)  # type: ignore[return-value]


def _lab(rgb: Sequence[float]) -> Tuple[float, float, float]:
    r, g, b = (min(max(c, 0.0), 1.0) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _views(hex_color: str) -> List[Tuple[float, float, float]]:
    """The color's Lab value as seen with normal vision and the three simulated deficiencies."""
    lin = _linear(hex_color)
    out = [_lab(lin)]
    for m in _CVD.values():
        out.append(_lab([sum(m[r][k] * lin[k] for k in range(3)) for r in range(3)]))
    return out


def _delta_e(a: Sequence[float], b: Sequence[float]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


_VIEWS = [_views(h) for h in PALETTE_HEX]
#: min ΔE over the four visions between palette entries i and j
DELTA_E: Tuple[Tuple[float, ...], ...] = tuple(
    tuple(min(_delta_e(a, b) for a, b in zip(_VIEWS[i], _VIEWS[j])) for j in range(_N)) for i in range(_N)
)
_OK = tuple(tuple(i != j and DELTA_E[i][j] >= MIN_DELTA_E for j in range(_N)) for i in range(_N))


def distinguishable(i: int, j: int) -> bool:
    """True when palette entries ``i`` and ``j`` differ for normal vision and protan/deutan/tritan."""
    return _OK[i][j]


def palette_index(token_id: int) -> int:
    """Stable palette slot of a token id (Fibonacci hashing, so consecutive ids spread out).

    >>> palette_index(42) == palette_index(42)
    True
    """
    return ((token_id * 0x9E3779B1) & 0xFFFFFFFF) * _N >> 32


def chip_indices(ids: Iterable[int], after: Optional[int] = None) -> List[int]:
    """Palette slots for a row of tokens: each token's own slot unless it is confusable with
    the slot its left neighbour ended up with; then the next distinguishable slot (stepping by
    a stride coprime with the palette size, so the shift is the same for the same pair).
    ``after``: the slot of the token before the first (the row goes on from there).

    >>> ids = [5, 5, 9, 5, 5]
    >>> chip_indices(ids)[2:] == chip_indices(ids[2:], after=chip_indices(ids)[1])
    True
    """
    out: List[int] = []
    add = out.append
    ok, n = _OK, _N
    row = None if after is None else ok[after]  # _OK row of the previous slot
    for tid in ids:
        k = ((tid * 0x9E3779B1) & 0xFFFFFFFF) * n >> 32  # palette_index, inlined (hot loop)
        if row is not None and not row[k]:
            for _ in range(n):
                k = (k + _SHIFT) % n
                if row[k]:
                    break
        add(k)
        row = ok[k]
    return out


def chip_hex(ids: Iterable[int]) -> List[str]:
    """Background colors (``#RRGGBB``) for a row of tokens; neighbours always differ.

    >>> chip_hex([0])[0] in PALETTE_HEX
    True
    """
    return [PALETTE_HEX[k] for k in chip_indices(ids)]
