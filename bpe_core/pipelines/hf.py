"""Hugging Face ``tokenizers`` pipelines (normalizer, pre-tokenizer, added tokens) with offsets.

Semantics follow tokenizers 0.23: added tokens that are not ``normalized`` are cut out of the raw
text first, each remaining segment is normalized, ``normalized`` added tokens are cut out of it,
then the pre-tokenizer splits what is left. Every piece keeps its span in the ORIGINAL text: a
segment carries an alignment (original span of each of its characters) once a normalizer changed it.

>>> p = HFPipeline({"type": "Lowercase"}, {"type": "Whitespace"},
...                [{"id": 7, "content": "[X]", "special": True, "normalized": False}])
>>> [(x.text, x.start, x.end, x.special) for x in p.split("Hi [X]YOU!")]
[('hi', 0, 2, None), ('[X]', 3, 6, 7), ('you', 6, 9, None), ('!', 9, 10, None)]
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

import regex

from bpe_core.pipelines.base import ImportedSymbols
from bpe_core.pipelines.hf_normalizers import WHITESPACE, Seg, build_normalizer, hf_pattern
from bpe_core.types import BPELensError, Piece

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
_PUNCT = regex.compile(r"[\p{P}!-/:-@\[-`{-~]")  # is_ascii_punctuation || is_punctuation
_BEHAVIORS = ("removed", "isolated", "mergedwithprevious", "mergedwithnext", "contiguous")


def split_seg(seg: Seg, rx: "regex.Pattern[str]", behavior: str, invert: bool = False) -> List[Seg]:
    """tokenizers' NormalizedString::split: matches and gaps, then the delimiter behavior."""
    t = seg.text
    if behavior.lower() == "isolated":  # every match and gap as it is: no marks (a whole book's marks were ~100 MB)
        parts: List[Seg] = []
        prev = 0
        for m in rx.finditer(t):
            s, e = m.span()
            if s != prev:
                parts.append(seg.sub(prev, s))
            if e > s:
                parts.append(seg.sub(s, e))
            prev = e
        if prev < len(t):
            parts.append(seg.sub(prev, len(t)))
        return parts
    marks: List[Tuple[int, int, bool]] = []
    prev = 0
    for m in rx.finditer(t):
        if m.start() != prev:
            marks.append((prev, m.start(), invert))
        marks.append((m.start(), m.end(), not invert))
        prev = m.end()
    if prev != len(t) or not marks:
        marks.append((prev, len(t), invert))
    b = behavior.lower()
    if b == "removed":
        out = [(s, e) for s, e, is_m in marks if not is_m]
    elif b == "isolated":
        out = [(s, e) for s, e, _ in marks]
    elif b in ("contiguous", "mergedwithprevious", "mergedwithnext"):
        seq = marks[::-1] if b == "mergedwithnext" else marks
        acc: List[List[int]] = []
        prev_m = False
        for s, e, is_m in seq:
            join = is_m == prev_m if b == "contiguous" else (is_m and not prev_m)
            if join and acc:
                if b == "mergedwithnext":
                    acc[-1][0] = s
                else:
                    acc[-1][1] = e
            else:
                acc.append([s, e])
            prev_m = is_m
        out = [(s, e) for s, e in (acc[::-1] if b == "mergedwithnext" else acc)]
    else:
        raise BPELensError(f"unknown split behavior {behavior!r}")
    return [seg.sub(s, e) for s, e in out if e > s]


PreTok = Callable[[Seg], List[Seg]]


def _metaspace(d: Dict[str, Any]) -> PreTok:
    rep = d.get("replacement", "\u2581")
    scheme = d.get("prepend_scheme") or ("always" if d.get("add_prefix_space", True) else "never")
    do_split = d.get("split", True)
    rep_re = regex.compile(regex.escape(rep))

    def run(seg: Seg) -> List[Seg]:
        seg = Seg(seg.text.replace(" ", rep), seg.base, seg.align) if len(rep) == 1 else \
            seg.rebuild([rep if c == " " else c for c in seg.text])
        if not seg.text.startswith(rep) and (scheme == "always" or (scheme == "first" and seg.orig_start() == 0)):
            seg = seg.prepend(rep)
        return split_seg(seg, rep_re, "mergedwithnext") if do_split else [seg]
    return run


def build_pre_tokenizer(d: Optional[Dict[str, Any]]) -> Tuple[Optional[PreTok], bool]:
    """The pre-tokenizer, and whether it is byte-level (a ByteLevel step anywhere)."""
    if not d:
        return None, False
    kind = d.get("type")
    rx: Optional["regex.Pattern[str]"] = None
    if kind == "ByteLevel":
        prefix, use_regex = d.get("add_prefix_space", True), d.get("use_regex", True)
        rx = regex.compile(GPT2_PATTERN) if use_regex else None

        def byte_level(seg: Seg) -> List[Seg]:
            if prefix and not seg.text.startswith(" "):
                seg = seg.prepend(" ")
            return split_seg(seg, rx, "isolated") if rx is not None else [seg]
        return byte_level, True
    if kind == "Split":
        rx = hf_pattern(d.get("pattern"), "Split")
        behavior, invert = str(d.get("behavior", "Isolated")), bool(d.get("invert", False))
        if behavior.lower() not in _BEHAVIORS:
            raise BPELensError(f"unknown Split behavior {behavior!r}")
        return (lambda seg: split_seg(seg, rx, behavior, invert)), False
    if kind == "Metaspace":
        return _metaspace(d), False
    if kind == "Whitespace":
        rx = regex.compile(r"\w+|[^\w\s]+")
        return (lambda seg: split_seg(seg, rx, "removed", True)), False
    if kind == "WhitespaceSplit":
        return (lambda seg: split_seg(seg, WHITESPACE, "removed")), False
    if kind == "CharDelimiterSplit":
        rx = regex.compile(regex.escape(d.get("delimiter", " ")))
        return (lambda seg: split_seg(seg, rx, "removed")), False
    if kind == "BertPreTokenizer":
        return (lambda seg: [x for w in split_seg(seg, WHITESPACE, "removed")
                             for x in split_seg(w, _PUNCT, "isolated")]), False
    if kind == "Punctuation":
        behavior = str(d.get("behavior", "Isolated"))
        return (lambda seg: split_seg(seg, _PUNCT, behavior)), False
    if kind == "Digits":
        single = d.get("individual_digits", False)
        rx = regex.compile(r"[\p{Nd}\p{Nl}\p{No}]")  # Rust char::is_numeric
        return (lambda seg: split_seg(seg, rx, "isolated" if single else "contiguous")), False
    if kind == "Sequence":
        steps = [build_pre_tokenizer(x) for x in d.get("pretokenizers", [])]
        fns = [f for f, _ in steps if f is not None]

        def seq(seg: Seg) -> List[Seg]:
            segs = [seg]
            for f in fns:
                segs = [x for s in segs for x in f(s)]
            return segs
        return seq, any(b for _, b in steps)
    raise BPELensError(f"the {kind} pre-tokenizer is not supported by BPE Lens")


# -- the whole pipeline ---------------------------------------------------------------------
class HFPipeline(ImportedSymbols):
    """tokenizers' AddedVocabulary + normalizer + pre-tokenizer, as a ``split(text)`` pipeline."""

    def __init__(self, normalizer: Optional[Dict[str, Any]], pre_tokenizer: Optional[Dict[str, Any]],
                 added_tokens: Optional[List[Dict[str, Any]]] = None) -> None:
        self.normalize = build_normalizer(normalizer)
        self.pre_tokenize, self.byte_level = build_pre_tokenizer(pre_tokenizer)
        added = [t for t in (added_tokens or []) if t.get("content")]
        # tokenizers matches a `normalized` added token by its normalized content
        norm = [t for t in added if t.get("normalized", not t.get("special"))]
        self._by_text = [{t["content"]: t for t in added if t not in norm},
                         {(self.normalize(Seg(t["content"])).text if self.normalize else t["content"]): t for t in norm}]
        self._raw_re, self._norm_re = (self._added_re(names) for names in self._by_text)

    @staticmethod
    def _added_re(names: Dict[str, Any]) -> Optional["regex.Pattern[str]"]:
        ordered = sorted((n for n in names if n), key=len, reverse=True)  # leftmost-longest, like aho-corasick
        return regex.compile("|".join(regex.escape(n) for n in ordered)) if ordered else None

    def _cut_added(self, seg: Seg, rx: Optional["regex.Pattern[str]"],
                   table: Dict[str, Any]) -> List[Union[Seg, Tuple[int, Seg]]]:
        """tokenizers' find_matches: added-token matches (with lstrip/rstrip/single_word) and the rest."""
        if rx is None or not seg.text:
            return [seg]
        t = seg.text
        out: List[Union[Seg, Tuple[int, Seg]]] = []
        pos = 0
        for m in rx.finditer(t):
            tok = table[m.group()]
            start, stop = m.start(), m.end()
            if start < pos:
                continue
            if tok.get("single_word") and ((start > 0 and regex.match(r"\w", t[start - 1]))
                                           or (stop < len(t) and regex.match(r"\w", t[stop]))):
                continue
            if tok.get("lstrip"):
                while start > pos and WHITESPACE.match(t[start - 1]):
                    start -= 1
            if tok.get("rstrip"):
                while stop < len(t) and WHITESPACE.match(t[stop]):
                    stop += 1
            if start > pos:
                out.append(seg.sub(pos, start))
            out.append((tok["id"], seg.sub(start, stop)))
            pos = stop
        if pos < len(t):
            out.append(seg.sub(pos, len(t)))
        return out

    def _walk(self, text: str) -> Iterator[Tuple[Seg, Optional[int]]]:
        """(segment, added-token id or None) in order: the pieces before they become Pieces."""
        for part in self._cut_added(Seg(text), self._raw_re, self._by_text[0]):
            if isinstance(part, tuple):
                yield part[1], part[0]
                continue
            seg = self.normalize(part) if self.normalize is not None else part
            for sub in self._cut_added(seg, self._norm_re, self._by_text[1]):
                if isinstance(sub, tuple):
                    yield sub[1], sub[0]
                elif sub.text:
                    for p in (self.pre_tokenize(sub) if self.pre_tokenize is not None else [sub]):
                        if p.text:
                            yield p, None

    def split(self, text: str) -> List[Piece]:
        return [self._piece(seg, special) for seg, special in self._walk(text)]

    def matched_specials(self) -> Optional[Dict[str, int]]:
        return None  # the model's specials (a tokenizer.json's added tokens are kept in its config)

    def split_words(self, text: str) -> List[Union[str, int]]:
        """Piece texts and added-token ids without spans: the encoder's fast path."""
        return [seg.text if special is None else special for seg, special in self._walk(text)]

    @staticmethod
    def _piece(seg: Seg, special: Optional[int] = None) -> Piece:
        if seg.align is None:
            return Piece(seg.text, seg.base, seg.base + len(seg.text), special)
        if not seg.align:
            return Piece(seg.text, 0, 0, special)
        start = min(a for a, _ in seg.align)
        end = max(b for _, b in seg.align)
        return Piece(seg.text, start, end, special, meta={"align": seg.align})
