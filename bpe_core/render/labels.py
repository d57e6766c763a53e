"""What a chip reads, without Qt: a token's bytes or characters as text a person can read, and
the banner a merge gets. The app's chips (``app/widgets/chip_text.py``) and the headless slide
renderer read tokens through these functions, so a slide reads like the app.

:func:`chip_text` gives byte tokens as GPT-2 glyphs (``Ġthe``) by default, hex (``20 74 68 65``)
on demand, or the decoded text (``" the"``) where the bytes are valid UTF-8; bytes that are part
of a character (a partial UTF-8 token) read ``‹E4 B8›``. Whitespace can be made visible (space
``·``, newline ``↵``, tab ``→``).
"""
from __future__ import annotations

from typing import Callable, Iterable, List, Literal, Tuple

from bpe_core.base.symbols import to_glyphs, to_hex, visible_whitespace
from bpe_core.types import MergeStep, Raw

__all__ = ["UNKNOWN_LABEL", "TextMode", "chip_text", "chip_texts", "decode_marked", "merge_banner"]

# --------------------------------------------------------------------------- text
#: what a chip of id -1 reads when its character is not known (only an id to go by)
UNKNOWN_LABEL = "?"
TextMode = Literal["glyphs", "hex", "text"]
_CONTROL_PICTURES = {c: chr(0x2400 + c) for c in range(32)}
_CONTROL_PICTURES[0x7F] = "\u2421"


def decode_marked(data: bytes, whitespace: bool = False) -> Tuple[str, bool]:
    """Decode UTF-8, writing undecodable bytes (parts of a character) as ``‹E4 B8›``."""
    parts: List[str] = []
    partial = False
    rest = data
    show = visible_whitespace if whitespace else (lambda s: s)
    while rest:
        try:
            parts.append(show(rest.decode("utf-8")))
            break
        except UnicodeDecodeError as e:
            parts.append(show(rest[: e.start].decode("utf-8")))
            parts.append("‹" + to_hex(rest[e.start: e.end]) + "›")
            partial = True
            rest = rest[e.end:]
    return "".join(parts), partial


def chip_text(raw: Raw, *, mode: TextMode = "glyphs", whitespace: bool = True) -> Tuple[str, bool]:
    """What a chip reads, and whether the token is a partial UTF-8 character.

    ``mode`` applies to byte tokens: ``glyphs`` (GPT-2, ``Ġthe``), ``hex`` or ``text`` (decoded).
    Character tokens read as themselves. ``whitespace`` shows space/newline/tab as ``·↵→``;
    a newline always shows as ``↵`` (an invisible chip would be unreadable).

    >>> chip_text(b" the", mode="text")
    ('·the', False)
    >>> chip_text(b"\\xe4\\xb8", mode="text")
    ('‹E4 B8›', True)
    >>> chip_text(b" the")
    ('Ġthe', False)
    """
    partial = False
    if isinstance(raw, bytes):
        if mode == "hex":
            return to_hex(raw), _is_partial(raw)
        if mode == "glyphs":
            return to_glyphs(raw), _is_partial(raw)
        text, partial = decode_marked(raw, whitespace)
    else:
        text = visible_whitespace(raw) if whitespace else raw
    if not whitespace:
        text = text.replace("\n", "↵")
    if any(ord(c) < 32 or ord(c) == 0x7F for c in text):
        text = "".join(_CONTROL_PICTURES.get(ord(c), c) if c not in " \t" else c for c in text)
    return text, partial


def _is_partial(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


def chip_texts(raws: Iterable[Raw], *, mode: TextMode = "glyphs", whitespace: bool = True) -> List[str]:
    """:func:`chip_text` for many tokens (texts only)."""
    return [chip_text(r, mode=mode, whitespace=whitespace)[0] for r in raws]


def merge_banner(step: MergeStep, text: Callable[[Raw], str] = lambda raw: chip_text(raw)[0]) -> str:
    """The banner of a merge, as a slide shows it: its rank, its parts, the new token and its count.

    >>> from bpe_core.types import TrainingStats
    >>> st = MergeStep(rank=412, left=1, right=2, new_id=3, left_token=b" t", right_token=b"he",
    ...                new_token=b" the", count=1234, created=True, changed_words=(), examples=(),
    ...                changed_pairs=(), stats=TrainingStats(412, 600, 0, 0, 0))
    >>> merge_banner(st, lambda raw: chip_text(raw, mode="text", whitespace=False)[0])
    "merge 412: ' t' + 'he' → ' the' (count 1,234)"
    """
    return (f"merge {step.rank}: '{text(step.left_token)}' + '{text(step.right_token)}' → "
            f"'{text(step.new_token)}' (count {step.count:,})")
