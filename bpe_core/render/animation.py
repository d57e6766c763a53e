"""Frames to a file: animated GIF and APNG through Pillow, MP4 through imageio-ffmpeg when installed.

:func:`animate_corpus` is the whole export (count the corpus, train to N, step to M capturing one
frame per merge, draw, write); the CLI's ``animate`` and the app's File → Export → Animation call it.
The encoders are maintained ones (Pillow's GIF/APNG writers, ffmpeg): nothing here writes a format.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, List, Optional, Sequence

from bpe_core.render import require_pillow
from bpe_core.render.draw import Style, draw_frame
from bpe_core.render.frames import Frame, capture_frames
from bpe_core.types import BPELensError, Cancelled, Progress, TrainerConfig

__all__ = ["FORMATS", "animation_format", "frame_durations", "write_animation", "animate_corpus", "have_mp4"]

#: file suffix -> format written
FORMATS = {".gif": "gif", ".png": "apng", ".apng": "apng", ".mp4": "mp4"}
#: how long the last frame stays before the loop starts again (ms)
HOLD_LAST_MS = 2000


def animation_format(path: str) -> str:
    """``gif``, ``apng`` or ``mp4`` from the file name; a BPELensError for anything else (checked first)."""
    fmt = FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise BPELensError(f"{path}: write .gif, .png (APNG) or .mp4")
    if fmt == "mp4" and not have_mp4():
        raise BPELensError("MP4 needs imageio-ffmpeg (pip install imageio-ffmpeg); write .gif or .png (APNG) instead")
    return fmt


def have_mp4() -> bool:
    try:
        import imageio_ffmpeg  # noqa: F401
    except ImportError:
        return False
    return True


def frame_durations(count: int, fps: float) -> List[int]:
    """Milliseconds per frame: 1/fps each, the last held for :data:`HOLD_LAST_MS` (so a loop reads as one).

    >>> frame_durations(3, 2)
    [500, 500, 2000]
    """
    if fps <= 0:
        raise BPELensError(f"fps must be positive, not {fps}")
    each = max(20, int(round(1000 / fps)))  # GIF counts in 10 ms; players treat < 20 ms as 100 ms
    return [each] * (count - 1) + [max(each, HOLD_LAST_MS)] if count else []


def write_animation(images: Sequence, path: str, *, fps: float = 2.0) -> str:
    """Write Pillow RGB ``images`` as an animation looping forever; the format follows the suffix."""
    if not images:
        raise BPELensError("no frames to write")
    fmt = animation_format(path)
    durations = frame_durations(len(images), fps)
    if fmt == "mp4":
        _write_mp4(images, path, fps)
    elif fmt == "gif":
        pil = require_pillow()
        # one adaptive palette per frame (chips, text antialiasing), no dithering: crisp text
        frames = [im.quantize(colors=256, method=pil.Image.Quantize.MEDIANCUT, dither=pil.Image.Dither.NONE)
                  for im in images]
        frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:], duration=durations,
                       loop=0, optimize=True, disposal=1)
    else:
        images[0].save(path, format="PNG", save_all=True, append_images=list(images[1:]), duration=durations,
                       loop=0, optimize=True)
    return str(path)


def _write_mp4(images: Sequence, path: str, fps: float) -> None:
    import imageio_ffmpeg

    w, h = images[0].size
    writer = imageio_ffmpeg.write_frames(str(path), (w, h), fps=fps, macro_block_size=2)
    writer.send(None)
    for im in images:
        writer.send(im.convert("RGB").tobytes())
    writer.close()


def animate_corpus(corpus: str, config: TrainerConfig, first: int, last: int, path: str, *,
                   words: Sequence[str] = (), text: str = "", fps: float = 2.0, style: Style = Style(),
                   top: int = 10, progress: Optional[Callable[[Progress], None]] = None,
                   cancel: Optional[Callable[[], bool]] = None) -> List[Frame]:
    """Count ``corpus`` with ``config``, train to ``first``, step to ``last`` and write one frame per merge
    to ``path``. Returns the frames (what each shows). Checks the output name before any work."""
    from bpe_core.formats.outputs import check_output
    from bpe_core.training.trainer import Trainer

    animation_format(path)
    require_pillow()
    check_output(path)
    trainer = Trainer.from_corpus(corpus, config, progress=progress, cancel=cancel)
    frames = capture_frames(trainer, first, last, words=words, text=text, top=top, progress=progress,
                            cancel=cancel)
    title = Path(corpus).name
    images = []
    for i, frame in enumerate(frames, 1):
        if cancel and cancel():
            raise Cancelled()
        images.append(draw_frame(frame, style, title=title).image)
        if progress:
            progress(Progress(i, len(frames), "drawn", f"drawing frame {i} of {len(frames)}"))
    write_animation(images, path, fps=fps)
    return frames
