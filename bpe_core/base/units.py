"""A word's initial units: the one home for "what does BPE start a word from".

:class:`Units` is the unit mapper, the last link of a text pipeline (normalizer -> pre-tokenizer ->
unit mapper): a word as its UTF-8 bytes or its characters, Hugging Face's continuing-subword prefix
and end-of-word suffix forms, and the separate end-of-word symbol of the seeds (``</w>``) for the
words the pre-tokenizer says take it (the CJK splitter gives Han runs none). The trainer counts
words and starts them from :meth:`Units.symbols`; the encoder starts a piece from the same mapper
(:attr:`bpe_core.model.BPEModel.units`); the replay too.

>>> Units("chars", prefix="##").symbols("abc")
['a', '##b', '##c']
>>> word_units("hé", "bytes")
[b'h', b'\\xc3', b'\\xa9']
"""
from __future__ import annotations

import re
from typing import Callable, List, Optional

from bpe_core.base.symbols import from_glyphs
from bpe_core.types import BPELensError, Raw

_BYTES = tuple(bytes([i]) for i in range(256))
_SURROGATE = re.compile("[\ud800-\udfff]")


def surrogate_error(text: str, what: str = "the text") -> Optional[BPELensError]:
    """The error for ``text`` if it holds a lone surrogate (U+D800..U+DFFF), else None.

    Such a character is no Unicode text: it has no UTF-8 bytes, so no byte-level BPE can start
    from it (Python only hands it over from escapes like JSON's ``\\ud800`` or from
    ``surrogateescape``). One regex scan; callers that encode anyway catch ``UnicodeEncodeError``
    and ask this for the message, so valid text pays nothing.

    >>> print(surrogate_error("ab" + chr(0xD800)))
    the text has a lone surrogate (U+D800) at character index 2: it is no Unicode text (it has no UTF-8 bytes)
    >>> surrogate_error("abc") is None
    True
    """
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return BPELensError(f"{what} has a lone surrogate (U+{ord(found.group()):04X}) at character index "
                        f"{found.start()}: it is no Unicode text (it has no UTF-8 bytes)")


def check_text(text: str, what: str = "the text") -> None:
    """Raise :func:`surrogate_error`'s BPELensError when ``text`` holds a lone surrogate.

    >>> check_text("fine")
    """
    error = surrogate_error(text, what)
    if error is not None:
        raise error


def word_units(word: str, unit: str) -> List[Raw]:
    """``word`` as its UTF-8 bytes (``unit == "bytes"``) or its characters.

    >>> word_units("ab", "chars")
    ['a', 'b']
    """
    if unit == "bytes":
        return [_BYTES[b] for b in word.encode("utf-8")]
    return list(word)


def affix_form(unit: str, text: str) -> Raw:
    """An HF prefix/suffix in the unit (byte models store them as GPT-2 glyphs).

    >>> affix_form("bytes", "Ġ"), affix_form("chars", "##")
    (b' ', '##')
    """
    if unit != "bytes":
        return text
    try:
        return from_glyphs(text)
    except KeyError:
        return text.encode()


def _every_word(word: str) -> bool:
    return True


class Units:
    """The unit mapper: the symbols BPE starts a word from.

    ``unit`` is ``"bytes"`` or ``"chars"``; ``end_of_word_suffix`` a separate symbol appended to the
    words ``takes_suffix`` accepts (every word unless a pre-tokenizer says otherwise); ``prefix`` and
    ``end`` HF's continuing-subword prefix on every symbol but the first and end-of-word suffix on
    the last (given as a file stores them: glyphs for byte models). ``refusal`` is the message a
    setting no trainer can start from raises when symbols are asked for (bytes with a separate
    suffix; the CJK splitter over bytes); a byte model's :meth:`base` units stay available.

    >>> u = Units("chars", end_of_word_suffix="</w>", takes_suffix=lambda w: w != "!")
    >>> u.symbols("ab"), u.symbols("!"), u.base("ab"), u.symbols("ab", suffix=False)
    (['a', 'b', '</w>'], ['!'], ['a', 'b'], ['a', 'b'])
    """

    def __init__(self, unit: str = "chars", *, end_of_word_suffix: str = "", prefix: str = "", end: str = "",
                 takes_suffix: Optional[Callable[[str], bool]] = None, refusal: Optional[str] = None) -> None:
        self.unit = unit
        self.end_of_word_suffix = end_of_word_suffix
        #: the affixes in the unit ("" or b"" when there is none)
        self.prefix: Raw = affix_form(unit, prefix)
        self.end: Raw = affix_form(unit, end)
        self.takes_suffix = takes_suffix or _every_word
        self.refusal = refusal

    @property
    def plain(self) -> Optional[str]:
        """The unit when a word's symbols are exactly its UTF-8 bytes or its characters (no affix, no separate
        suffix, nothing refused: SuperBPE's replay cuts such words in bulk), else None."""
        return None if (self.prefix or self.end or self.end_of_word_suffix or self.refusal) else self.unit

    @property
    def plain_bytes(self) -> bool:
        """True when a word's symbols are exactly its UTF-8 bytes (the trainer maps those straight to ids)."""
        return self.plain == "bytes"

    def base(self, word: str) -> List[Raw]:
        """The units of ``word`` before affixes and the separate suffix: its bytes or characters."""
        return word_units(word, self.unit)

    def symbols(self, word: str, suffix: bool = True) -> List[Raw]:
        """The symbols a trainer starts ``word`` from: units with the HF affix forms, plus the separate
        end-of-word symbol when ``suffix`` and the word takes it."""
        if self.refusal:
            raise BPELensError(self.refusal)
        units = word_units(word, self.unit)
        if self.prefix or self.end:
            units = self.affixed(units)
        if self.end_of_word_suffix and suffix and self.takes_suffix(word):
            units.append(self.end_of_word_suffix)
        return units

    def affixed(self, units: List[Raw]) -> List[Raw]:
        """``units`` in their HF forms: the prefix on every unit but the first, the end on the last
        (a new list when there is an affix; ``units`` itself when there is none).

        >>> Units("chars", prefix="##", end="</w>").affixed(["a", "b"])
        ['a', '##b</w>']
        """
        if not (self.prefix or self.end) or not units:
            return units
        prefix, out = self.prefix, list(units)
        if prefix:
            out[1:] = [prefix + u for u in out[1:]]  # type: ignore[operator]
        if self.end:
            out[-1] = out[-1] + self.end  # type: ignore[operator]
        return out

    def __repr__(self) -> str:
        return f"<Units {self.unit} suffix={self.end_of_word_suffix!r}>"
