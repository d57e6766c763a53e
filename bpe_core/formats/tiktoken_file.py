"""Read a tiktoken rank file (``base64(token_bytes) rank`` per line) into a BPEModel.

The four OpenAI encodings are recognised by file name and get tiktoken's own split pattern and
special tokens (copied from ``tiktoken_ext/openai_public.py``, tiktoken 0.14); any other file needs
``pattern=``. Merges are recovered by re-running BPE on each token's bytes with the lower ranks.

Its text pipeline is :class:`~bpe_core.pipelines.tiktoken.RegexPipeline`.

>>> KNOWN_ENCODINGS["cl100k_base"][1][ENDOFTEXT]
100257
"""
from __future__ import annotations

import binascii
import os
from typing import Dict, List, Optional, Tuple

from bpe_core.base.merge import byte_pair_bounds
from bpe_core.base.file_errors import binary_file, read_error, wide_text_message
from bpe_core.formats.checks import is_id, table_size
from bpe_core.model import BPEModel
from bpe_core.pipelines.tiktoken import RegexPipeline
from bpe_core.pretokenize.pretokenizers import TIKTOKEN_PATTERNS
from bpe_core.types import BPELensError

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
#: name -> (split pattern, special tokens), as tiktoken_ext.openai_public defines them
KNOWN_ENCODINGS: Dict[str, Tuple[str, Dict[str, int]]] = {
    "r50k_base": (R50K_PATTERN, {ENDOFTEXT: 50256}),
    "p50k_base": (R50K_PATTERN, {ENDOFTEXT: 50256}),
    "cl100k_base": (CL100K_PATTERN, {ENDOFTEXT: 100257, FIM_PREFIX: 100258, FIM_MIDDLE: 100259,
                                     FIM_SUFFIX: 100260, ENDOFPROMPT: 100276}),
    "o200k_base": (O200K_PATTERN, {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}),
}


def _parse(path: str) -> Dict[bytes, int]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise read_error(path, e) from None
    wide = wide_text_message(os.path.basename(path), data[:8192], path)
    if wide is not None:
        raise BPELensError(wide)
    if b"\0" in data[:4096]:
        raise BPELensError(binary_file(os.path.basename(path), data.index(b"\0")))
    name = os.path.basename(path)
    ranks: Dict[bytes, int] = {}
    line_of: Dict[int, int] = {}  # rank -> line number, to name both lines of a duplicate
    for no, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            if len(parts) != 2 or not parts[1].isdigit():
                raise ValueError
            token, rank = binascii.a2b_base64(parts[0], strict_mode=True), int(parts[1])
        except (ValueError, binascii.Error):
            shown = line[:40].decode("utf-8", "replace")
            raise BPELensError(f"{name} line {no} is not 'base64 rank': {shown!r}") from None
        # tiktoken itself refuses both (its encoder and decoder would differ in length)
        if rank in line_of:
            raise BPELensError(f"{name} line {no}: rank {rank} is already given on line {line_of[rank]}")
        if token in ranks:
            raise BPELensError(f"{name} line {no}: token {parts[0].decode('ascii')} already has rank "
                               f"{ranks[token]} (line {line_of[ranks[token]]})")
        ranks[token] = rank
        line_of[rank] = no
    if not ranks:
        raise BPELensError(f"{name} holds no ranks")
    table_size(line_of, name)
    return ranks


def recover_merges(ranks: Dict[bytes, int]) -> Tuple[List[Tuple[int, int]], List[int]]:
    """(left, right) of each multi-byte token in rank order, and the tokens BPE cannot reach.

    The last merge of a token is what BPE leaves when run on its bytes with the lower ranks only:
    two parts: the final merge would make the token itself, whose rank is not below its own
    (:func:`~bpe_core.base.merge.byte_pair_bounds` with ``stop`` = the token's rank).
    o200k's 200k tokens take about 1.5 s on an idle core, more on a busy one.
    """
    merges: List[Tuple[int, int]] = []
    unreachable: List[int] = []
    get = ranks.get
    for tok, top in sorted(ranks.items(), key=lambda x: x[1]):
        n = len(tok)
        if n < 2:
            continue
        bounds = byte_pair_bounds(tok, get, stop=top)  # tiktoken's loop with the lower ranks only
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
    for text, sid in specials.items():
        if not is_id(sid):
            raise BPELensError(f"special token {text!r} has id {sid!r}, not a non-negative integer")
    size = table_size([*ranks.values(), *specials.values()], name)
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
