"""Fonts for the headless renderer: a TrueType file found without Qt or fontconfig's Python bindings.

Pillow draws only the glyphs of the one font it is given (no fallback), so a Latin font draws Chinese
as empty boxes ("tofu"). Each text therefore gets a font that covers it: DejaVu Sans for Latin text
and the GPT-2 glyphs (``Ġ``, ``·``, ``↵``), WenQuanYi Micro Hei (or another CJK font) for text with
Han, kana or Hangul (:func:`needs_cjk`). Files are found by ``fc-match`` when it is installed, else at
the usual Debian/Fedora/macOS paths, else Pillow's built-in bitmap font (Latin only, but never a crash).

>>> needs_cjk("三国"), needs_cjk("Ġthe")
(True, False)
"""
from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path
from typing import Optional, Tuple

from bpe_core.render import require_pillow

__all__ = ["LATIN_FAMILIES", "CJK_FAMILIES", "find_font", "font_file", "needs_cjk", "font_for"]

#: fontconfig names tried for Latin text, best first
LATIN_FAMILIES = ("DejaVu Sans", "Liberation Sans", "Arial")
#: fontconfig names tried for CJK text, best first
CJK_FAMILIES = ("WenQuanYi Micro Hei", "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC")

_KNOWN_PATHS = {
    "latin": ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf",
              "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf", "/Library/Fonts/Arial.ttf",
              "C:/Windows/Fonts/arial.ttf"),
    "cjk": ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
            "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
            "/System/Library/Fonts/PingFang.ttc", "C:/Windows/Fonts/msyh.ttc"),
}
#: Unicode blocks that need a CJK font: CJK punctuation, kana, Han, Hangul, full-width forms
_CJK_RANGES: Tuple[Tuple[int, int], ...] = (
    (0x2E80, 0x2FDF), (0x3000, 0x30FF), (0x3100, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x2FA1F),
)


def needs_cjk(text: str) -> bool:
    """True when ``text`` has a character only a CJK font draws."""
    for ch in text:
        o = ord(ch)
        if o >= 0x2E80 and any(a <= o <= b for a, b in _CJK_RANGES):
            return True
    return False


def _fc_match(family: str) -> Optional[str]:
    """``fc-match``'s file for ``family``, only when it really is that family (fc-match always answers)."""
    exe = shutil.which("fc-match")
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "-f", "%{family}\t%{file}", family], capture_output=True, text=True,
                             timeout=5, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    names, _, path = out.partition("\t")
    if path and family.lower() in names.lower() and Path(path).is_file():
        return path
    return None


@functools.lru_cache(maxsize=None)
def font_file(kind: str) -> Optional[str]:
    """The TrueType/OpenType file for ``kind`` ("latin" or "cjk"), or None when none is found."""
    for family in (LATIN_FAMILIES if kind == "latin" else CJK_FAMILIES):
        found = _fc_match(family)
        if found:
            return found
    for path in _KNOWN_PATHS[kind]:
        if Path(path).is_file():
            return path
    return None


@functools.lru_cache(maxsize=64)
def find_font(kind: str, size: int):
    """A Pillow font of ``kind`` at ``size`` pixels; the Latin font stands in for a missing CJK font,
    Pillow's default font for a missing Latin one."""
    ImageFont = require_pillow().ImageFont
    path = font_file(kind) or (font_file("latin") if kind == "cjk" else None)
    if path:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size) if hasattr(ImageFont, "load_default") else ImageFont.load_default()


def font_for(text: str, size: int):
    """The font that draws ``text``: the CJK font when the text needs it, else the Latin one."""
    return find_font("cjk" if needs_cjk(text) else "latin", size)
