"""Pictures for slides, without Qt: frames of merges N..M as an animated GIF/APNG (MP4 when
imageio-ffmpeg is installed), and SVG drawings of a word's segmentation strip and a token's merge tree.

The pipeline: :mod:`.frames` captures what each frame shows (plain data, from a Trainer), :mod:`.draw`
paints one frame with Pillow, :mod:`.animation` writes the frames to a file; :mod:`.svg` writes text.
The app's File → Export and ``python -m bpe_core animate`` / ``svg`` call the same functions.

Pillow is optional (the ``export`` extra): it is imported on first use, through :func:`require_pillow`,
which says how to install it when it is missing.
"""
from __future__ import annotations

import importlib
from types import SimpleNamespace

from bpe_core.types import BPELensError

__all__ = ["require_pillow"]

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
