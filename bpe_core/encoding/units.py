"""A word's initial units: the one home for "what does BPE start a word from".

Bytes models start from UTF-8 bytes; character models from characters, or from what the
pipeline of a vocabulary trained here decides (its pre-tokenizer: the CJK splitter keeps "école"
whole). Imported vocabularies add Hugging Face's continuing-subword prefix and end-of-word
suffix forms; the seeds add a separate end-of-word symbol. The trainer, the encoder and the
replay all start here.

>>> m = BPEModel(unit="chars", tokens=[], continuing_subword_prefix="##")
>>> initial_symbols(m, "abc")
['a', '##b', '##c']
>>> word_units("hé", "bytes")
[b'h', b'\\xc3', b'\\xa9']
"""
from __future__ import annotations

import re
from typing import List, Optional, Sequence

from bpe_core.encoding.symbols import from_glyphs
from bpe_core.model import BPEModel
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


def affix_raw(model: BPEModel, text: str) -> Raw:
    """An HF prefix/suffix in the model's unit (byte models store them as GPT-2 glyphs).

    >>> affix_raw(BPEModel(unit="bytes", tokens=[]), "Ġ")
    b' '
    """
    if model.unit != "bytes":
        return text
    try:
        return from_glyphs(text)
    except KeyError:
        return text.encode()


def without_suffix(symbols: Sequence[Raw], suffix: str) -> Sequence[Raw]:
    """``symbols`` without a trailing separate end-of-word ``suffix`` (the encoder adds it itself).

    >>> without_suffix(["a", "</w>"], "</w>"), without_suffix(["</w>"], "</w>")
    (['a'], ['</w>'])
    """
    if suffix and len(symbols) > 1 and symbols[-1] == suffix:
        return symbols[:-1]
    return symbols


def base_units(model: BPEModel, word: str) -> Sequence[Raw]:
    """The units of ``word`` before affixes: bytes, or characters, or the trained pipeline's symbols.

    >>> base_units(BPEModel(unit="chars", tokens=[]), "ab")
    ['a', 'b']
    """
    pipe = model.pipeline
    if model.unit == "bytes":
        return word_units(word, "bytes")
    if pipe is not None and pipe.decides_symbols:
        return without_suffix(pipe.initial_symbols(word), model.end_of_word_suffix)
    return list(word)


def initial_symbols(model: BPEModel, word: str, suffix: bool = True) -> List[Raw]:
    """The symbols a trainer starts ``word`` from: units with HF affix forms, plus the separate
    end-of-word symbol when ``suffix`` (a trained pipeline decides that itself).
    """
    pipe = model.pipeline
    if pipe is not None and pipe.decides_symbols:
        return list(pipe.initial_symbols(word))
    units: List[Raw] = word_units(word, model.unit)
    prefix = affix_raw(model, model.continuing_subword_prefix) if model.continuing_subword_prefix else None
    end = affix_raw(model, model.hf_end_of_word_suffix) if model.hf_end_of_word_suffix else None
    if prefix:
        units[1:] = [prefix + u for u in units[1:]]  # type: ignore[operator]
    if end and units:
        units[-1] = units[-1] + end  # type: ignore[operator]
    if model.end_of_word_suffix and suffix:
        units.append(model.end_of_word_suffix)
    return units
