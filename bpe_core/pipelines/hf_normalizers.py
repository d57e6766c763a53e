"""Hugging Face ``tokenizers`` normalizers over text that remembers where each character came from.

A :class:`Seg` is a stretch of (possibly rewritten) text with, once a normalizer changed it, the span
in the ORIGINAL text of each of its characters; :func:`build_normalizer` turns a tokenizer.json
``normalizer`` into a function on segments. :mod:`bpe_core.pipelines.hf` adds the pre-tokenizers.

>>> build_normalizer({"type": "Lowercase"})(Seg("AB", 3)).spans()
[(3, 4), (4, 5)]
"""
from __future__ import annotations

import unicodedata
from typing import Any, Callable, Dict, List, Optional, Tuple

import regex

from bpe_core.types import BPELensError

Span = Tuple[int, int]
WHITESPACE = regex.compile(r"\s")  # regex's \s is Unicode White_Space, as Rust's char::is_whitespace


class Seg:
    """Normalized text plus the original span of each character (identity from ``base`` if None)."""

    __slots__ = ("text", "align", "base")

    def __init__(self, text: str, base: int = 0, align: Optional[List[Span]] = None) -> None:
        self.text, self.base, self.align = text, base, align

    def char_span(self, i: int) -> Span:
        return self.align[i] if self.align is not None else (self.base + i, self.base + i + 1)

    def spans(self) -> List[Span]:
        return self.align if self.align is not None else [(self.base + i, self.base + i + 1)
                                                          for i in range(len(self.text))]

    def sub(self, a: int, b: int) -> "Seg":
        if self.align is None:
            return Seg(self.text[a:b], self.base + a)
        return Seg(self.text[a:b], 0, self.align[a:b])

    def orig_start(self) -> int:
        return self.char_span(0)[0] if self.text else self.base

    def rebuild(self, outs: List[str]) -> "Seg":
        """Replace character i by ``outs[i]``; new characters take the original span of char i."""
        text = "".join(outs)
        if text == self.text:
            return self
        align: List[Span] = []
        for i, o in enumerate(outs):
            if o:
                align.extend([self.char_span(i)] * len(o))
        return Seg(text, 0, align)

    def prepend(self, s: str) -> "Seg":
        return Seg(s + self.text, 0, [self.char_span(0)] * len(s) + self.spans())


# -- normalizers ----------------------------------------------------------------------------
def _nf(form: str) -> Callable[[Seg], Seg]:
    # a cut before an ASCII character never changes normalization (no composition has an ASCII
    # second part), so chunks can be normalized alone and each aligned on its own
    chunk_re = regex.compile(r"[\x00-\x7f][^\x00-\x7f]*|[^\x00-\x7f]+")

    def run(seg: Seg) -> Seg:
        if unicodedata.is_normalized(form, seg.text):
            return seg
        text: List[str] = []
        align: List[Span] = []
        for m in chunk_re.finditer(seg.text):
            chunk, a, b = m.group(), m.start(), m.end()
            out = unicodedata.normalize(form, chunk)
            text.append(out)
            if len(out) == b - a:
                align.extend(seg.char_span(i) for i in range(a, b))
                continue
            whole = (seg.char_span(a)[0], seg.char_span(b - 1)[1])
            # clusters start at characters of combining class 0
            starts = [i for i in range(a, b) if i == a or unicodedata.combining(seg.text[i]) == 0] + [b]
            parts = [unicodedata.normalize(form, seg.text[s:e]) for s, e in zip(starts, starts[1:])]
            if "".join(parts) != out:
                align.extend([whole] * len(out))
                continue
            for s, e, part in zip(starts, starts[1:], parts):
                if len(part) == e - s:
                    align.extend(seg.char_span(i) for i in range(s, e))
                else:
                    align.extend([(seg.char_span(s)[0], seg.char_span(e - 1)[1])] * len(part))
        return Seg("".join(text), 0, align)
    return run


def _lowercase(seg: Seg) -> Seg:
    if seg.text.isascii():
        return Seg(seg.text.lower(), seg.base, seg.align)
    return seg.rebuild([c.lower() for c in seg.text])  # per char: no final-sigma rule, as Rust


def _strip(left: bool, right: bool) -> Callable[[Seg], Seg]:
    def run(seg: Seg) -> Seg:
        t = seg.text
        a, b = 0, len(t)
        while left and a < b and WHITESPACE.match(t[a]):
            a += 1
        while right and b > a and WHITESPACE.match(t[b - 1]):
            b -= 1
        return seg if (a, b) == (0, len(t)) else seg.sub(a, b)
    return run


def _replace(pattern: Any, content: str) -> Callable[[Seg], Seg]:
    rx = hf_pattern(pattern, "Replace")

    def run(seg: Seg) -> Seg:
        text: List[str] = []
        align: List[Span] = []
        pos = 0
        for m in rx.finditer(seg.text):
            if m.end() == m.start():
                continue
            text.append(seg.text[pos:m.start()])
            align.extend(seg.char_span(i) for i in range(pos, m.start()))
            text.append(content)
            align.extend([(seg.char_span(m.start())[0], seg.char_span(m.end() - 1)[1])] * len(content))
            pos = m.end()
        if pos == 0:
            return seg
        text.append(seg.text[pos:])
        align.extend(seg.char_span(i) for i in range(pos, len(seg.text)))
        return Seg("".join(text), 0, align)
    return run


def _is_chinese(c: str) -> bool:
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x20000 <= o <= 0x2A6DF or 0x2A700 <= o <= 0x2B73F
            or 0x2B740 <= o <= 0x2B81F or 0x2B920 <= o <= 0x2CEAF or 0xF900 <= o <= 0xFAFF or 0x2F800 <= o <= 0x2FA1F)


def _bert(d: Dict[str, Any]) -> Callable[[Seg], Seg]:
    lower = d.get("lowercase", True)
    strip_acc = d.get("strip_accents")
    strip_acc = lower if strip_acc is None else strip_acc
    nfd = _nf("NFD")

    def clean(c: str) -> str:
        if c in "\t\n\r" or WHITESPACE.match(c):
            return " "
        return "" if c in "\0\ufffd" or unicodedata.category(c)[0] == "C" else c

    def run(seg: Seg) -> Seg:
        if d.get("clean_text", True):
            seg = seg.rebuild([clean(c) for c in seg.text])
        if d.get("handle_chinese_chars", True):
            seg = seg.rebuild([f" {c} " if _is_chinese(c) else c for c in seg.text])
        if strip_acc:
            seg = nfd(seg)
            seg = seg.rebuild(["" if unicodedata.category(c) == "Mn" else c for c in seg.text])
        return _lowercase(seg) if lower else seg
    return run


def build_normalizer(d: Optional[Dict[str, Any]]) -> Optional[Callable[[Seg], Seg]]:
    if not d:
        return None
    kind = d.get("type")
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        return _nf(kind)
    if kind == "Lowercase":
        return _lowercase
    if kind == "Strip":
        return _strip(d.get("strip_left", True), d.get("strip_right", True))
    if kind == "Replace":
        return _replace(d.get("pattern"), d.get("content", ""))
    if kind == "Prepend":
        pre = d.get("prepend", "")
        return lambda seg: seg.prepend(pre) if seg.text and pre else seg
    if kind == "BertNormalizer":
        return _bert(d)
    if kind == "Sequence":
        steps = [s for s in (build_normalizer(x) for x in d.get("normalizers", [])) if s is not None]

        def seq(seg: Seg) -> Seg:
            for s in steps:
                seg = s(seg)
            return seg
        return seq
    raise BPELensError(f"the {kind} normalizer is not supported by BPE Lens")


# -- pre-tokenizers -------------------------------------------------------------------------
def hf_pattern(p: Any, owner: str) -> "regex.Pattern[str]":
    try:
        if isinstance(p, dict) and "Regex" in p:
            return regex.compile(p["Regex"])
        if isinstance(p, dict) and "String" in p:
            return regex.compile(regex.escape(p["String"]))
        if isinstance(p, str):
            return regex.compile(regex.escape(p))
    except regex.error as e:
        raise BPELensError(f"the {owner} pattern does not compile: {e}") from None
    raise BPELensError(f"the {owner} pattern {p!r} is neither a String nor a Regex")
