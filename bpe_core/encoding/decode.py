"""Token ids back to text: bytes joined and decoded; character tokens with their decorations undone.

Character vocabularies mark words in their tokens (a seed's ``</w>``, HF's ``##`` prefix or end-of-word
suffix, SentencePiece's ``▁``, ``<0xNN>`` byte-fallback tokens); a tokenizer.json's decoder says which
replacements to undo. :meth:`Encoder.decode <bpe_core.encoding.encoder.Encoder.decode>` calls these.

>>> from bpe_core.model import BPEModel
>>> decode_chars(BPEModel(unit="chars", tokens=[], end_of_word_suffix="</w>"), ["lo", "w</w>", "er</w>"])
'low er'
"""
from __future__ import annotations

import re
from typing import List, Optional

from bpe_core.model import BPEModel
from bpe_core.types import Raw

_BYTE_TOKEN = re.compile(r"<0x([0-9A-F]{2})>")


def decode_chars(m: BPEModel, raws: List[Raw]) -> str:
    """Character tokens back to text: byte-fallback runs decoded, word suffixes/prefixes undone,
    and the tokenizer.json decoder's Metaspace / Replace / Strip steps applied."""
    out: List[str] = []
    pending = bytearray()
    sfx = m.hf_end_of_word_suffix or m.end_of_word_suffix
    prefix = m.continuing_subword_prefix
    ended_word = False
    for k, r in enumerate(raws):
        s = r.decode("utf-8", "replace") if isinstance(r, bytes) else r
        fb = _BYTE_TOKEN.fullmatch(s) if m.byte_fallback else None
        if fb:
            pending.append(int(fb.group(1), 16))
            continue
        if pending:
            out.append(pending.decode("utf-8", "replace"))
            pending.clear()
        if prefix:
            if s.startswith(prefix):
                s = s[len(prefix):]
            elif k > 0 and not ended_word:
                s = " " + s
        ended_word = bool(sfx) and s.endswith(sfx)
        if ended_word:
            s = s[: -len(sfx)] + " "
        out.append(s)
    if pending:
        out.append(pending.decode("utf-8", "replace"))
    text = "".join(out)
    if ended_word:
        text = text[:-1]  # the space the last word's suffix stood for
    return apply_decoder(m.config.get("decoder") if isinstance(m.config, dict) else None, text)


def apply_decoder(dec: Optional[dict], text: str) -> str:
    if not isinstance(dec, dict):
        return text
    kind = dec.get("type")
    if kind == "Sequence":
        for d in dec.get("decoders", []):
            text = apply_decoder(d, text)
    elif kind == "Metaspace":
        text = text.replace(dec.get("replacement", "\u2581"), " ")
        if dec.get("prepend_scheme", "always") != "never" and dec.get("add_prefix_space", True):
            text = text[1:] if text.startswith(" ") else text
    elif kind == "Replace" and "String" in (dec.get("pattern") or {}):
        text = text.replace(dec["pattern"]["String"], dec.get("content", ""))
    elif kind == "Strip":
        c = dec.get("content", " ")
        for _ in range(dec.get("start", 0)):
            text = text[len(c):] if c and text.startswith(c) else text
        for _ in range(dec.get("stop", 0)):
            text = text[: -len(c)] if c and text.endswith(c) else text
    return text
