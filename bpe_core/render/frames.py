"""What each frame of a merges animation shows, as plain data captured from a Trainer.

A frame is the state after merge k: the banner of merge k, the top pairs (the first is merge k+1,
drawn in the accent), the chosen words' segmentations and the encode text's tokens. Capturing is
apart from drawing so tests check what a frame says (:class:`Frame`) without reading pixels, and
the app and the CLI drive the same capture (train to N, then step to M, one frame per merge).

>>> from bpe_core.presets import make_config
>>> from bpe_core.training.trainer import Trainer
>>> t = Trainer({"low": 5, "lower": 2, "newest": 6}, make_config("char-whitespace"))
>>> [f.banner for f in capture_frames(t, 1, 2, words=["lower"])]
["merge 1: 'w' + 'e' → 'we' (count 8)", "merge 2: 'l' + 'o' → 'lo' (count 7)"]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Mapping, Optional, Sequence, Tuple

from bpe_core.render.labels import UNKNOWN_LABEL, TextMode, chip_text, merge_banner
from bpe_core.types import BPELensError, Cancelled, Progress

__all__ = ["Chip", "WordRow", "Bar", "Frame", "capture_frames", "find_word", "parse_range"]


@dataclass(frozen=True)
class Chip:
    """One token as a chip: what it reads and its id (its color; -1 for a symbol outside the vocabulary)."""

    text: str
    id: int


@dataclass(frozen=True)
class WordRow:
    word: str
    freq: int  # 0 for a word that is not in the corpus (segmented by the model)
    chips: Tuple[Chip, ...]
    changed: bool  # merge k changed it


@dataclass(frozen=True)
class Bar:
    label: str
    count: int


@dataclass(frozen=True)
class Frame:
    """The state after merge ``merge`` (0: the words as units). ``new_id`` is merge k's token (its
    chips get the accent outline); ``pairs[0]`` is the next merge."""

    merge: int
    banner: str
    pairs: Tuple[Bar, ...]
    words: Tuple[WordRow, ...]
    encoded: Tuple[Chip, ...]
    new_id: Optional[int]
    vocab_size: int


def parse_range(text: str) -> Tuple[int, int]:
    """``"N..M"`` (or ``"N-M"``, or one number) as (N, M) with 0 <= N <= M.

    >>> parse_range("0..30"), parse_range("12")
    ((0, 30), (12, 12))
    """
    for sep in ("..", "-", ":"):
        if sep in text:
            a, _, b = text.partition(sep)
            break
    else:
        a = b = text
    try:
        first, last = int(a), int(b)
    except ValueError:
        raise BPELensError(f"merges must be N..M (two whole numbers), not {text!r}") from None
    if first < 0 or last < first:
        raise BPELensError(f"merges {text!r}: need 0 <= N <= M")
    return first, last


def find_word(index: Mapping[str, int], freqs: Sequence[int], word: str) -> Optional[int]:
    """The index of ``word`` in ``index`` (the trainer's words -> their index), as the corpus keeps it:
    the word itself, with GPT-2's leading space (``Ġword``, ``" word"``) or an end-of-word suffix;
    the most frequent of these forms (``the`` is mostly ``Ġthe`` in running text). None when the
    corpus has no form of it.

    >>> find_word({"the": 0, "Ġthe": 1}, [3, 40], "the"), find_word({}, [], "the")
    (1, None)
    """
    found = [index[f] for f in (word, "Ġ" + word, " " + word, word + "</w>") if f in index]
    return max(found, key=lambda i: freqs[i]) if found else None


def capture_frames(trainer, first: int, last: int, *, words: Sequence[str] = (), text: str = "", top: int = 10,
                   mode: TextMode = "text", progress: Optional[Callable[[Progress], None]] = None,
                   cancel: Optional[Callable[[], bool]] = None) -> List[Frame]:
    """Frames for merges ``first..last``: the trainer is moved to ``first`` (trained or undone), then
    stepped to ``last``, one frame per merge. Fewer frames when a stop rule ends training sooner.

    ``words`` are shown with their segmentation (words the corpus lacks are segmented by the model);
    ``text`` is encoded at every frame.
    """
    if last < first:
        raise BPELensError(f"merges {first}..{last}: the last merge comes before the first")
    total = last - first + 1
    trainer.seek(first)
    if trainer.merge_count < first:
        raise BPELensError(f"training stops at merge {trainer.merge_count} ({trainer.stop_reason}), "
                           f"before merge {first}")
    index = {w: i for i, w in enumerate(trainer.words)} if words else {}
    found = [(w, find_word(index, trainer.freqs, w)) for w in words]
    frames: List[Frame] = []
    while True:
        frames.append(_frame(trainer, found, text, top, mode))
        if progress:
            progress(Progress(len(frames), total, "frames", f"merge {trainer.merge_count}"))
        if trainer.merge_count >= last or (cancel and cancel()):
            break
        if trainer.step() is None:
            break
    if cancel and cancel():
        raise Cancelled()
    return frames


def _frame(trainer, words, text: str, top: int, mode: TextMode) -> Frame:
    show = lambda raw: chip_text(raw, mode=mode)[0]  # noqa: E731 - chips show whitespace as ·
    say = lambda raw: chip_text(raw, mode=mode, whitespace=False)[0]  # noqa: E731 - quoted in the banner
    k = trainer.merge_count
    step = trainer.history[-1] if k else None
    model = trainer.model() if text or any(i is None for _, i in words) else None
    encoder = _encoder(model) if model is not None else None

    def chip(tid: int) -> Chip:
        return Chip(show(trainer.token(tid)), tid) if tid >= 0 else Chip(UNKNOWN_LABEL, -1)

    rows = []
    changed = set(step.changed_words) if step else set()
    for word, i in words:
        if i is None:
            rows.append(WordRow(word, 0, _encoded(encoder, word, show), False))
        else:
            rows.append(WordRow(word, trainer.freqs[i], tuple(chip(t) for t in trainer.segmentation(i)), i in changed))
    pairs = tuple(Bar(f"{show(trainer.token(p.left))} + {show(trainer.token(p.right))}", p.count)
                  for p in trainer.top_pairs(top))
    banner = merge_banner(step, say) if step else \
        f"merge 0: the words as {'bytes' if trainer.config.unit == 'bytes' else 'characters'}"
    return Frame(merge=k, banner=banner, pairs=pairs, words=tuple(rows),
                 encoded=_encoded(encoder, text, show) if text else (), new_id=step.new_id if step else None,
                 vocab_size=trainer.vocab_size)


def _encoder(model):
    from bpe_core.encoding.encoder import Encoder
    return Encoder(model)


def _encoded(encoder, text: str, show) -> Tuple[Chip, ...]:
    if encoder is None or not text:
        return ()
    return tuple(Chip(show(tok.raw) if tok.id >= 0 or tok.raw else tok.display, tok.id)
                 for tok in encoder.encode(text).tokens)
