"""Frames to a file: animated GIF and APNG through Pillow, MP4 through imageio-ffmpeg when installed.

:func:`animate_corpus` is the whole export (count the corpus, train to N, step to M capturing one
frame per merge, draw, write); the CLI's ``animate`` and the app's File → Export → Animation call it.
The encoders are maintained ones (Pillow's GIF/APNG writers, ffmpeg): nothing here writes a format.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, List, Optional, Sequence

from bpe_core.formats.atomic import atomic_output, atomic_output_path
from bpe_core.render import require_pillow
from bpe_core.render.draw import BACKGROUND, BAR_HEX, NEXT_HEX, Style, draw_frame
from bpe_core.render.frames import Frame, capture_frames
from bpe_core.render.palette import ACCENT_HEX, PALETTE_HEX, TEXT_HEX
from bpe_core.types import BPELensError, Cancelled, Progress, TrainerConfig

__all__ = ["FORMATS", "animation_format", "frame_durations", "write_animation", "animate_corpus", "have_mp4"]

#: file suffix -> format written
FORMATS = {".gif": "gif", ".png": "apng", ".apng": "apng", ".mp4": "mp4"}
#: how long the last frame stays before the loop starts again (ms)
HOLD_LAST_MS = 2000


def animation_format(path: str) -> str:
    """``gif``, ``apng`` or ``mp4`` from the file name (``-``, standard output: ``gif``); a BPELensError for
    anything else (checked first)."""
    fmt = "gif" if str(path) == "-" else FORMATS.get(Path(path).suffix.lower())  # -: standard output, a GIF
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
    # Pillow and ffmpeg write into a temp file renamed in at the end: never half an animation in place
    if fmt == "mp4":
        with atomic_output_path(path) as tmp:
            _write_mp4(images, tmp, fps)
    else:
        frames = _shared_palette(images) if fmt == "gif" else list(images)
        extra = {"disposal": 1} if fmt == "gif" else {}
        with atomic_output(path) as out:
            frames[0].save(out, format="GIF" if fmt == "gif" else "PNG", save_all=True, append_images=frames[1:],
                           duration=durations, loop=0, optimize=True, **extra)
    return str(path)


def _shared_palette(images: Sequence) -> List:
    """The frames in one palette made from the first, middle and last frames, without dithering: chips keep
    exactly the same color from frame to frame (a palette per frame would shift them a little, a flicker
    on a projector), text stays crisp, and unchanged regions compress to nothing (~15% smaller)."""
    pil = require_pillow()
    picks = sorted({0, len(images) // 2, len(images) - 1})
    w, h = images[0].size
    sample = pil.Image.new("RGB", (w, h * len(picks)))
    for row, k in enumerate(picks):
        sample.paste(images[k].convert("RGB"), (0, h * row))
    found = sample.quantize(colors=255, method=pil.Image.Quantize.MEDIANCUT, dither=pil.Image.Dither.NONE)
    palette = pil.Image.new("P", (1, 1))  # a fresh image: quantize() reads its palette, not a stale copy
    palette.putpalette(_exact(found.getpalette()[: 3 * 255]))
    return [im.convert("RGB").quantize(palette=palette, dither=pil.Image.Dither.NONE) for im in images]


def _exact(palette: List[int]) -> List[int]:
    """``palette`` with the drawing's own colors (background, text, chips, bars) exact: median cut averages
    them a little (a white background came out #FCFCFC), so every entry within a few levels of one of
    them becomes that color (Pillow's palette lookup is approximate: a lone exact entry is not enough)."""
    entries = [tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)]
    entries += [(0, 0, 0)] * (255 - len(entries))  # a picture of few colors has a short palette
    fixed = [tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))
             for h in (BACKGROUND, TEXT_HEX, BAR_HEX, NEXT_HEX, ACCENT_HEX) + PALETTE_HEX]
    for k, entry in enumerate(entries):
        near = min(fixed, key=lambda rgb: _distance(entry, rgb))
        if _distance(entry, near) <= 3 * 6 ** 2:
            entries[k] = near
    for rgb in fixed:  # a color median cut missed takes the nearest entry that is not one of them
        if rgb not in entries:
            free = [i for i, e in enumerate(entries) if e not in fixed]
            entries[min(free, key=lambda i: _distance(entries[i], rgb))] = rgb
    return [c for rgb in entries for c in rgb]


def _distance(a, b) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b))


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
    to ``path``. Returns the frames (what each shows). Checks the output name before any work: it is
    never the corpus, also through a symlink or a hard link."""
    from bpe_core.formats.outputs import check_output
    from bpe_core.training.trainer import Trainer

    animation_format(path)
    require_pillow()
    check_output(path, inputs=[corpus])
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
