"""Read a SentencePiece ``.model`` file of type BPE into a chars :class:`BPEModel`.

The file is a protobuf ``ModelProto``. We parse the few fields we need ourselves (pieces with
score and type, ``trainer_spec.model_type``/``byte_fallback``, the normalizer switches), so
telling a SentencePiece file apart needs no extra package; reading one needs the optional
``sentencepiece`` package, whose normalizer (NFKC + a precompiled char map) we call so that
our pieces match ``sp.encode`` exactly.

How a BPE ``.model`` maps onto a model: the trainer stores merged pieces in creation order
with score ``-(merge index)`` and then the single characters. A merge's two parts are
recovered by re-running SentencePiece's BPE on the piece with only the earlier pieces.
``▁`` (U+2581) stays as it is. ``<0xNN>`` byte pieces are kept as tokens (``byte_fallback``);
unknown, control and user-defined pieces become specials (only user-defined ones are matched
in text, as SentencePiece does). Unknown characters fuse into one ``<unk>`` (``fuse_unk``).

Where our encoding can differ from ``sp.encode``: SentencePiece merges any two adjacent
symbols whose concatenation is a piece, we merge the recorded pair; a vocabulary trained by
SentencePiece makes these agree on ordinary text, a hand-edited one may not. Spans of a word
that NFKC changes (``ﬀ`` -> ``ff``) cover the whole word. ``treat_whitespace_as_suffix`` and
pieces marked unused are not supported.
"""
from __future__ import annotations

import base64
import struct
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from bpe_core.base.file_errors import read_error
from bpe_core.model import BPEModel
from bpe_core.pipelines.sentencepiece import SentencePiecePipeline
from bpe_core.types import BPELensError

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
MODEL_TYPES = {1: "Unigram", 2: "BPE", 3: "Word", 4: "Char"}


# -- protobuf wire format (just enough for ModelProto) ------------------------------------
def _varint(buf: bytes, i: int) -> Tuple[int, int]:
    result = shift = 0
    while True:
        if i >= len(buf) or shift > 63:
            raise ValueError("truncated varint")
        byte = buf[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i


def _fields(buf: bytes) -> Iterator[Tuple[int, int, object]]:
    """(field number, wire type, value) of one message; ValueError when malformed."""
    i = 0
    while i < len(buf):
        key, i = _varint(buf, i)
        num, wire = key >> 3, key & 7
        if num == 0:
            raise ValueError("field number 0")
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 2:
            size, i = _varint(buf, i)
            value, i = buf[i:i + size], i + size
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        if i > len(buf):
            raise ValueError("truncated field")
        yield num, wire, value


def parse_model_proto(data: bytes) -> Tuple[List[Tuple[str, float, int]], Dict[int, object], Dict[int, object]]:
    """``(pieces, trainer_spec, normalizer_spec)``; pieces are ``(text, score, type)``.

    Raises ``ValueError`` when ``data`` is not a SentencePiece model.
    """
    pieces: List[Tuple[str, float, int]] = []
    trainer: Dict[int, object] = {}
    normalizer: Dict[int, object] = {}
    for num, wire, value in _fields(data):
        if num == 1 and wire == 2:
            text, score, kind = None, 0.0, NORMAL
            for n, w, v in _fields(value):  # type: ignore[arg-type]
                if n == 1 and w == 2:
                    text = v.decode("utf-8")  # type: ignore[union-attr]
                elif n == 2 and w == 5:
                    score = struct.unpack("<f", v)[0]  # type: ignore[arg-type]
                elif n == 3 and w == 0:
                    kind = v  # type: ignore[assignment]
            if text is None:
                raise ValueError("a piece without text")
            pieces.append((text, score, kind))
        elif num in (2, 3) and wire == 2:
            (trainer if num == 2 else normalizer).update({n: v for n, _, v in _fields(value)})  # type: ignore[arg-type]
        elif num > 5:
            raise ValueError(f"unexpected field {num}")
    if not pieces:
        raise ValueError("no pieces")
    return pieces, trainer, normalizer


def looks_like_sentencepiece(data: bytes) -> bool:
    try:
        parse_model_proto(data)
    except (ValueError, UnicodeDecodeError, struct.error):
        return False
    return True


# -- the pipeline: SentencePiece's normalizer, one piece per "▁word" -----------------------
# -- the reader ---------------------------------------------------------------------------
def read_sentencepiece(path) -> BPEModel:
    """Read a SentencePiece BPE ``.model``; BPELensError for any other kind."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise read_error(path, exc) from exc
    try:
        pieces, trainer, normalizer = parse_model_proto(data)
    except (ValueError, UnicodeDecodeError, struct.error) as exc:
        raise BPELensError(f"{path}: not a valid SentencePiece model ({exc})") from exc
    kind = int(trainer.get(3, 1))  # type: ignore[arg-type]
    if kind != 2:
        raise BPELensError(f"{path}: a SentencePiece {MODEL_TYPES.get(kind, kind)} model, not BPE; "
                           "BPE Lens reads only BPE models")
    if trainer.get(24):
        raise BPELensError(f"{path}: treat_whitespace_as_suffix models are not supported")
    sentencepiece = _sentencepiece(f"{path}: reading SentencePiece models")
    try:
        processor = sentencepiece.SentencePieceProcessor(model_proto=data)
    except Exception as exc:  # the SWIG layer raises RuntimeError/OSError variants
        raise BPELensError(f"{path}: sentencepiece cannot load it ({exc})") from exc
    return build_model(pieces, trainer, normalizer, processor, name=path.stem)


def build_model(pieces: List[Tuple[str, float, int]], trainer: Dict[int, object],
                normalizer: Dict[int, object], processor, *, name: str = "") -> BPEModel:
    tokens = [p for p, _, _ in pieces]
    specials = {p: i for i, (p, _, t) in enumerate(pieces) if t in (UNKNOWN, CONTROL, USER_DEFINED)}
    user_defined = {p: i for i, (p, _, t) in enumerate(pieces) if t == USER_DEFINED}
    unk = next((i for i, (_, _, t) in enumerate(pieces) if t == UNKNOWN), None)
    merged = sorted((i for i, (p, _, t) in enumerate(pieces) if t == NORMAL and len(p) > 1),
                    key=lambda i: (-pieces[i][1], i))
    merges = recover_merges([tokens[i] for i in merged],
                            {p: i for i, (p, _, t) in enumerate(pieces) if t == NORMAL})
    charsmap = normalizer.get(2, b"")
    charsmap = charsmap if isinstance(charsmap, bytes) else b""
    norm_name = normalizer.get(1, b"nmt_nfkc")
    norm_name = norm_name.decode("utf-8", "replace") if isinstance(norm_name, bytes) else str(norm_name)
    pipeline = SentencePiecePipeline(
        processor, user_defined=user_defined, add_dummy_prefix=bool(normalizer.get(3, 1)),
        split_by_whitespace=bool(trainer.get(22, 1)), identity=norm_name == "identity")
    config = {"normalizer": norm_name, "pre_tokenizer": "sentencepiece (▁ marks a word start)",
              "add_dummy_prefix": bool(normalizer.get(3, 1)),
              "remove_extra_whitespaces": bool(normalizer.get(4, 1)),
              "split_by_whitespace": bool(trainer.get(22, 1)), "model_type": "BPE"}
    return BPEModel(unit="chars", tokens=tokens, merges=merges, specials=specials, pipeline=pipeline,
                    unk_id=unk, fuse_unk=True, byte_fallback=bool(trainer.get(35, 0)), name=name,
                    source_format="sentencepiece", config=config,
                    extras={"scores": [s for _, s, _ in pieces],
                            # base64 so that the model stays JSON-safe; tokenizer.json's Precompiled
                            # normalizer takes exactly this
                            "precompiled_charsmap": base64.b64encode(charsmap).decode("ascii")})


def recover_merges(merged_in_order: List[str], normal: Dict[str, int]) -> List[Tuple[int, int]]:
    """Each merged piece's two parts: SentencePiece's BPE on it using only earlier pieces.

    >>> recover_merges(["ab", "abc"], {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4})
    [(0, 1), (3, 2)]
    """
    rank = {p: r for r, p in enumerate(merged_in_order)}
    merges: List[Tuple[int, int]] = []
    for r, piece in enumerate(merged_in_order):
        parts = list(piece)
        while len(parts) > 2:
            best = min(range(len(parts) - 1), default=None,
                       key=lambda k: (rank.get(parts[k] + parts[k + 1], r), k))
            if best is None or rank.get(parts[best] + parts[best + 1], r) >= r:
                break
            parts[best:best + 2] = [parts[best] + parts[best + 1]]
        if len(parts) != 2 or parts[0] not in normal or parts[1] not in normal:
            parts = _any_split(piece, normal, rank, r)
        if parts:
            merges.append((normal[parts[0]], normal[parts[1]]))
    return merges


def _any_split(piece: str, normal: Dict[str, int], rank: Dict[str, int], r: int) -> Optional[List[str]]:
    # A hand-edited file may hold a piece that BPE cannot rebuild; take the split into two
    # existing, earlier pieces with the latest-made parts, or give the piece no merge at all.
    best = None
    for k in range(1, len(piece)):
        a, b = piece[:k], piece[k:]
        if a in normal and b in normal and rank.get(a, -1) < r and rank.get(b, -1) < r:
            key = max(rank.get(a, -1), rank.get(b, -1))
            if best is None or key < best[0]:
                best = (key, [a, b])
    return best[1] if best else None


def charsmap_normalizer(charsmap: bytes):
    """``str -> str`` applying a precompiled char map exactly as SentencePiece (and tokenizers'
    ``Precompiled`` normalizer) do, nothing else: no ``▁``, no whitespace squeezing.

    We build a two-piece model holding only that normalizer and let sentencepiece run it, so
    the trie lookups are SentencePiece's own (for hf_pipeline's ``Precompiled`` support).
    """
    sentencepiece = _sentencepiece("the Precompiled normalizer")

    def var(n: int) -> bytes:
        out = bytearray()
        while True:
            out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
            n >>= 7
            if not n:
                return bytes(out)

    def msg(num: int, data: bytes) -> bytes:
        return var(num << 3 | 2) + var(len(data)) + data

    def piece(text: str, kind: int) -> bytes:
        return msg(1, text.encode()) + var(2 << 3 | 5) + struct.pack("<f", 0.0) + var(3 << 3) + var(kind)

    spec = msg(1, b"precompiled") + msg(2, charsmap) + b"".join(var(f << 3) + var(0) for f in (3, 4, 5))
    proto = msg(1, piece("<unk>", UNKNOWN)) + msg(1, piece("a", NORMAL)) + msg(2, var(3 << 3) + var(2)) + msg(3, spec)
    try:
        processor = sentencepiece.SentencePieceProcessor(model_proto=proto)
    except Exception as exc:
        raise BPELensError(f"the precompiled char map is not valid ({exc})") from exc
    return processor.normalize


def _sentencepiece(what: str):
    try:
        import sentencepiece  # optional dependency
    except ImportError:
        raise BPELensError(f"{what} needs the sentencepiece package; install the sentencepiece extra "
                           "(pip install 'bpe-lens[sentencepiece]')") from None
    return sentencepiece
