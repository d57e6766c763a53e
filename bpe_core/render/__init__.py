"""Pictures for slides, without Qt: frames of merges N..M as an animated GIF/APNG (MP4 when
imageio-ffmpeg is installed), and SVG drawings of a word's segmentation strip and a token's merge tree.

The pipeline: :mod:`.frames` captures what each frame shows (plain data, from a Trainer), :mod:`.draw`
paints one frame with Pillow, :mod:`.animation` writes the frames to a file; :mod:`.svg` writes text.
The app's File → Export and ``python -m bpe_core animate`` / ``svg`` call the same functions.

Pillow is optional (the ``export`` extra): it is imported on first use, through :func:`require_pillow`,
which says how to install it when it is missing.

This ``__init__`` is the folder's face: code outside the folder (the app above all) imports these names
from ``bpe_core.render``, never from the modules behind it, so the modules can be split or renamed
without touching their callers. Each name loads from its home on first use (PEP 562), so importing
the face costs nothing and pulls no other stage in.
"""
from __future__ import annotations

import importlib
from types import SimpleNamespace
from typing import Dict

from bpe_core.base.faces import lazy_names
from bpe_core.types import BPELensError

#: public name -> the module of this folder that is its home (no TYPE_CHECKING imports of them here: fonts.py
#: imports require_pillow from this face, so they would close an import loop)
_HOMES: Dict[str, str] = {
    "animate_corpus": "animation", "have_mp4": "animation",
    "find_word": "frames",
    "UNKNOWN_LABEL": "labels", "TextMode": "labels", "chip_text": "labels", "decode_marked": "labels",
    "ACCENT_HEX": "palette", "DELTA_E": "palette", "MIN_DELTA_E": "palette", "PALETTE_HEX": "palette",
    "TEXT_HEX": "palette", "chip_indices": "palette", "distinguishable": "palette", "palette_index": "palette",
    "merge_tree_svg": "svg", "strip_rows": "svg", "word_strip_svg": "svg",
}

__all__ = ["require_pillow", *_HOMES]

_PIL = None


def require_pillow() -> SimpleNamespace:
    """Pillow's ``Image``, ``ImageDraw`` and ``ImageFont`` modules, or a BPELensError saying how to get them."""
    global _PIL
    if _PIL is None:
        try:
            _PIL = SimpleNamespace(**{name: importlib.import_module(f"PIL.{name}")
                                      for name in ("Image", "ImageDraw", "ImageFont", "ImageSequence")})
        except ImportError as exc:
            raise BPELensError("Pictures and animations need Pillow: pip install bpe-lens[export]") from exc
    return _PIL


__getattr__, __dir__ = lazy_names(globals(), _HOMES)
