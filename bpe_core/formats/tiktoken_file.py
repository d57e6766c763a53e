"""Read a tiktoken rank file (``base64(token_bytes) rank`` per line) into a BPEModel.

The four OpenAI encodings are recognised by file name and get tiktoken's own split pattern and
special tokens (copied from ``tiktoken_ext/openai_public.py``, tiktoken 0.14); any other file needs
``pattern=``. Merges are recovered by re-running BPE on each token's bytes with the lower ranks.

>>> p = RegexPipeline(r"\\w+|\\s", {"<|x|>": 9})
>>> [(x.text, x.start, x.special) for x in p.split("ab<|x|> c")]
[('ab', 0, None), ('<|x|>', 2, 9), (' ', 7, None), ('c', 8, None)]
>>> p.split_words("ab<|x|> c")
['ab', 9, ' ', 'c']
"""
from __future__ import annotations

import binascii
import functools
import os
import re
from itertools import repeat
from typing import Dict, List, Optional, Tuple, Union

import regex

from bpe_core.model import BPEModel
from bpe_core.pipelines.base import ImportedSymbols
from bpe_core.pretokenize.pretokenizers import TIKTOKEN_PATTERNS
from bpe_core.types import BPELensError, Piece

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

# one copy of OpenAI's split patterns lives in pretokenize (a test checks them against the
# installed tiktoken); their re twins for the fast split are generated below
R50K_PATTERN = TIKTOKEN_PATTERNS["gpt2"]
CL100K_PATTERN = TIKTOKEN_PATTERNS["cl100k"]
O200K_PATTERN = TIKTOKEN_PATTERNS["o200k"]
#: characters the fast split handles with Python's re: Latin-1, Latin Extended-A and the General
#: Punctuation block (curly quotes, dashes, NBSP...) - nearly all of English and Western text
_COVERED = [chr(c) for c in range(0x180)] + [chr(c) for c in range(0x2010, 0x2060)]
_UNCOVERED = re.compile("[^\x00-\u017f\u2010-\u205f]+")


@functools.lru_cache(maxsize=None)
def _members(prop: str) -> str:
    """The covered characters in ``regex``'s class ``prop`` (e.g. ``\\p{Lu}``) as re class ranges."""
    rx = regex.compile(prop)
    cps = [ord(c) for c in _COVERED if rx.fullmatch(c)]
    out, i = [], 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        out.append(f"\\u{cps[i]:04x}" + (f"-\\u{cps[j]:04x}" if j > i else ""))
        i = j + 1
    return "".join(out)


@functools.lru_cache(maxsize=None)
def covered_twin(pattern: str) -> Optional["re.Pattern[str]"]:
    """``pattern`` for Python's ``re``, exact on text made only of covered characters.

    Each ``\\p{..}``, ``\\s`` and ``\\S`` becomes the explicit list of covered characters that
    ``regex`` puts in it, so the twin cannot disagree with ``regex`` there (and ``re`` is ~3x faster).
    None when ``re`` cannot compile it (possessive quantifiers need Python 3.11).
    """
    out: List[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and pattern[i + 1] in "psS":
            if pattern[i + 1] == "p":
                j = pattern.index("}", i)
                body, i = _members(pattern[i:j + 1]), j + 1
            else:
                body, i = _members(r"\s"), i + 2
                if pattern[i - 1] == "S":
                    if in_class:
                        return None
                    out.append(f"[^{body}]")
                    continue
            out.append(body if in_class else (f"[{body}]" if body else "(?!)"))
            continue
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        in_class = (in_class or c == "[") and not (in_class and c == "]")
        out.append(c)
        i += 1
    try:
        return re.compile("".join(out))
    except re.error:
        return None

#: name -> (split pattern, special tokens), as tiktoken_ext.openai_public defines them
KNOWN_ENCODINGS: Dict[str, Tuple[str, Dict[str, int]]] = {
    "r50k_base": (R50K_PATTERN, {ENDOFTEXT: 50256}),
    "p50k_base": (R50K_PATTERN, {ENDOFTEXT: 50256}),
    "cl100k_base": (CL100K_PATTERN, {ENDOFTEXT: 100257, FIM_PREFIX: 100258, FIM_MIDDLE: 100259,
                                     FIM_SUFFIX: 100260, ENDOFPROMPT: 100276}),
    "o200k_base": (O200K_PATTERN, {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}),
}


class RegexPipeline(ImportedSymbols):
    """tiktoken's pipeline: special tokens cut out first (leftmost, longest), then regex pieces."""

    def __init__(self, pattern: str, specials: Dict[str, int]) -> None:
        try:
            self.pattern = regex.compile(pattern)
        except regex.error as e:
            raise BPELensError(f"the split pattern does not compile: {e}") from None
        # the fast split is proven for OpenAI's patterns only (see _findall)
        self._twin = covered_twin(pattern) if pattern in TIKTOKEN_PATTERNS.values() else None
        self.specials = dict(specials)
        names = sorted(self.specials, key=len, reverse=True)
        self._special_re = regex.compile("|".join(regex.escape(n) for n in names)) if names else None

    def _segments(self, text: str) -> List[Tuple[int, int, Optional[int]]]:
        """(start, end, special id or None) covering ``text``."""
        out: List[Tuple[int, int, Optional[int]]] = []
        pos = 0
        if self._special_re is not None:
            for m in self._special_re.finditer(text):
                if m.start() > pos:
                    out.append((pos, m.start(), None))
                out.append((m.start(), m.end(), self.specials[m.group()]))
                pos = m.end()
        if pos < len(text):
            out.append((pos, len(text), None))
        return out

    def matched_specials(self) -> Dict[str, int]:
        return dict(self.specials)

    def split(self, text: str) -> List[Piece]:
        out: List[Piece] = []
        for s, e, sid in self._segments(text):
            if sid is not None:
                out.append(Piece(text[s:e], s, e, special=sid))
            else:
                out.extend(Piece(m.group(), m.start(), m.end()) for m in self.pattern.finditer(text, s, e))
        return out

    def split_words(self, text: str) -> List[Union[str, int]]:
        """Piece texts (str) and special ids (int) without spans: the encoder's fast path."""
        # `in` is a C substring search: much faster than a regex scan of a large text
        if self._special_re is None or not any(name in text for name in self.specials):
            return self._findall(text, 0, len(text))
        out: List[Union[str, int]] = []
        for s, e, sid in self._segments(text):
            if sid is not None:
                out.append(sid)
            else:
                out.extend(self._findall(text, s, e))
        return out

    def _findall(self, text: str, start: int, end: int) -> List[str]:
        """Pieces of text[start:end]: covered stretches with the ``re`` twin, the rest with ``regex``.

        A stretch is cut only before a space whose previous character is not whitespace: no piece of
        OpenAI's patterns runs from a non-space character into a following space, and none looks
        behind, so both sides split exactly as the whole would.
        """
        twin = self._twin
        if twin is None:
            return self.pattern.findall(text, start, end)
        if text.isascii() if (start, end) == (0, len(text)) else text[start:end].isascii():
            return twin.findall(text, start, end)
        out: List[str] = []
        pos = start
        for m in _UNCOVERED.finditer(text, start, end):
            if m.start() < pos:
                continue  # inside the last stretch given to `regex`
            a = text.rfind(" ", pos, m.start() + 1)
            while a > pos and text[a - 1].isspace():  # isspace is wider than White_Space: safe side
                a = text.rfind(" ", pos, a)
            a = max(a, pos)
            b = text.find(" ", m.end(), end)
            while b != -1 and text[b - 1].isspace():
                b = text.find(" ", b + 1, end)
            b = end if b == -1 else b
            if a > pos:
                out.extend(twin.findall(text, pos, a))
            out.extend(self.pattern.findall(text, a, b))
            pos = b
        if pos < end:
            out.extend(twin.findall(text, pos, end))
        return out


def _parse(path: str) -> Dict[bytes, int]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BPELensError(f"cannot read {path}: {e.strerror}") from None
    if b"\0" in data[:4096]:
        raise BPELensError(f"{os.path.basename(path)} is a binary file, not a tiktoken rank file")
    ranks: Dict[bytes, int] = {}
    for no, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError
            ranks[binascii.a2b_base64(parts[0], strict_mode=True)] = int(parts[1])
        except (ValueError, binascii.Error):
            shown = line[:40].decode("utf-8", "replace")
            raise BPELensError(f"{os.path.basename(path)} line {no} is not 'base64 rank': {shown!r}") from None
    if not ranks:
        raise BPELensError(f"{os.path.basename(path)} holds no ranks")
    return ranks


def recover_merges(ranks: Dict[bytes, int]) -> Tuple[List[Tuple[int, int]], List[int]]:
    """(left, right) of each multi-byte token in rank order, and the tokens BPE cannot reach.

    The last merge of a token is what BPE leaves when run on its bytes with the lower ranks only:
    two parts. We stop at two parts (the final merge would make the token itself). Pair ranks are
    kept in a list and only the merged pair's neighbours are looked up again, so ``min`` does the
    scanning in C; a pair whose token is not below this rank simply never wins (``best >= top``).
    o200k's 200k tokens take about 1.5 s on an idle core, more on a busy one.
    """
    merges: List[Tuple[int, int]] = []
    unreachable: List[int] = []
    get = ranks.get
    big = 1 << 62
    for tok, top in sorted(ranks.items(), key=lambda x: x[1]):
        n = len(tok)
        if n < 2:
            continue
        bounds = list(range(n + 1))
        if n > 2:
            pr = list(map(get, [tok[i:i + 2] for i in range(n - 1)], repeat(big)))
            while len(pr) > 1:
                best = min(pr)
                if best >= top:
                    break
                i = pr.index(best)  # leftmost lowest, as tiktoken
                del bounds[i + 1]
                del pr[i]
                if i > 0:
                    pr[i - 1] = get(tok[bounds[i - 1]:bounds[i + 1]], big)
                if i < len(pr):
                    pr[i] = get(tok[bounds[i]:bounds[i + 2]], big)
        left, right = get(tok[:bounds[1]]), get(tok[bounds[1]:])
        if len(bounds) == 3 and left is not None and right is not None:
            merges.append((left, right))
        else:
            unreachable.append(top)
    return merges, unreachable


def read_tiktoken(path: str, pattern: Optional[str] = None,
                  specials: Optional[Dict[str, int]] = None) -> BPEModel:
    """A ``.tiktoken`` file as a byte-level model with algorithm "tiktoken"."""
    name = os.path.basename(path)
    stem = name.split(".")[0]
    known = KNOWN_ENCODINGS.get(stem)
    if pattern is None:
        if known is None:
            raise BPELensError(f"{name} is not one of {', '.join(KNOWN_ENCODINGS)}: a split pattern is required")
        pattern = known[0]
    if specials is None:
        specials = dict(known[1]) if known else {}
    ranks = _parse(path)
    size = max(max(ranks.values()), max(specials.values(), default=-1)) + 1
    tokens: List = [None] * size
    for tok, r in ranks.items():
        tokens[r] = tok
    for text, sid in specials.items():
        if tokens[sid] is not None and not isinstance(tokens[sid], str):
            raise BPELensError(f"special token {text!r} has id {sid}, which is also a rank in {name}")
        tokens[sid] = text
    model = TiktokenModel(unit="bytes", tokens=tokens, merges=None, specials=dict(specials),  # type: ignore[arg-type]
                          pipeline=RegexPipeline(pattern, specials), algorithm="tiktoken", name=stem,
                          source_format="tiktoken", config={"pattern": pattern})
    model.__dict__["_ranks"] = ranks
    return model


class TiktokenModel(BPEModel):
    """A BPEModel whose merges are recovered on first use of ``merges`` / ``merge_counts``.

    Encoding ("tiktoken" ranks) never needs them, so a file loads in a fraction of a second;
    ``extras["unreachable"]`` (ranks BPE cannot build) is filled at the same time. Copies made
    with ``dataclasses.replace`` or ``truncated`` carry the recovered lists.
    """

    def __post_init__(self) -> None:
        pass  # the base class would pad merge_counts now, forcing the merges

    @property  # type: ignore[override]
    def merges(self) -> List[Tuple[int, int]]:
        d = self.__dict__
        if d.get("_merges") is None:
            d["_merges"], unreachable = recover_merges(d.pop("_ranks", None) or self._ranks_from_tokens())
            self.extras["unreachable"] = unreachable
        return d["_merges"]

    @merges.setter
    def merges(self, value: Optional[List[Tuple[int, int]]]) -> None:
        self.__dict__["_merges"] = value

    @property  # type: ignore[override]
    def merge_counts(self) -> List[Optional[int]]:
        counts = self.__dict__.get("_merge_counts") or []
        if len(counts) < len(self.merges):
            counts = self.__dict__["_merge_counts"] = list(counts) + [None] * (len(self.merges) - len(counts))
        return counts

    @merge_counts.setter
    def merge_counts(self, value: List[Optional[int]]) -> None:
        self.__dict__["_merge_counts"] = value

    def _ranks_from_tokens(self) -> Dict[bytes, int]:
        return {t: i for i, t in enumerate(self.tokens) if isinstance(t, bytes)}
