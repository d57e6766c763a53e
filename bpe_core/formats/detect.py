"""Open any vocabulary BPE Lens knows, by looking at its content (not trusting its name).

========================  ==================================================================
format                    recognised by
========================  ==================================================================
``native``                JSON object with ``"format": "bpe-lens"``
``tokenizer.json``        JSON object with a ``"model"`` object
``vocab-merges``          GPT-2 ``vocab.json`` (token -> id) with its ``merges.txt`` beside it,
                          or that ``merges.txt`` (``#version`` header / ``a b`` lines)
``tiktoken``              lines of ``base64 rank``
``sentencepiece``         a SentencePiece ``ModelProto`` (protobuf)
``seed000``               a folder with ``freqs.json``/``vocab_to_idx.json``/``idx_to_vocab.json``
                          (or one of those files)
``picky``                 PickyBPE's model file (pchizhov/picky_bpe): a JSON object with ``tokens``,
                          ``id2int``, ``merges`` and ``splits``
========================  ==================================================================

Every problem (missing, empty, binary, corrupt, unknown) is a :class:`BPELensError` whose
one-line message names the path.

>>> import tempfile, os
>>> p = os.path.join(tempfile.mkdtemp(), "r.tiktoken")
>>> _ = open(p, "w").write("IQ== 0\\nIg== 1\\n")
>>> detect_format(p)
'tiktoken'
"""
from __future__ import annotations

import base64
import binascii
import json
from pathlib import Path
from typing import Optional, Tuple

from bpe_core.model import BPEModel
from bpe_core.types import BPELensError
from bpe_core.base.file_errors import no_such_file, not_utf8, read_error, wide_text_message
from bpe_core.formats.hf_json import NOT_A_FILE
from bpe_core.formats.seed000_trio import FILES as SEED_FILES
from bpe_core.formats.seed000_trio import read_seed000, write_seed000
from bpe_core.formats.sentencepiece_model import looks_like_sentencepiece, read_sentencepiece
from bpe_core.formats.temps import finish_interrupted_saves
from bpe_core.formats.json_text import parse_json

FORMATS = ("native", "tokenizer.json", "vocab-merges", "tiktoken", "sentencepiece", "seed000", "picky")
WRITE_FORMATS = ("native", "tokenizer.json", "vocab-merges", "tiktoken", "seed000", "picky")
_SNIFF = 1 << 16


def detect_format(path) -> str:
    """The format name of ``path`` (one of :data:`FORMATS`)."""
    return _detect(Path(path))[0]


def open_vocabulary(path, *, pattern: Optional[str] = None) -> BPEModel:
    """Read ``path`` whatever its format; ``pattern`` is the split regex of a ``.tiktoken`` file
    (OpenAI's own files are recognised by name and need none).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "tokenizer.json")
    >>> write_vocabulary(BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)]), path, "tokenizer.json")
    >>> m = open_vocabulary(path)
    >>> m.source_format, m.tokens, m.merges
    ('hf-json', ['a', 'b', 'ab'], [(0, 1)])
    """
    p = Path(path)
    fmt, target = _detect(p)
    if fmt in ("vocab-merges", "seed000"):  # a save of the set killed between two renames: finish it
        finish_interrupted_saves(target if target.is_dir() else target.parent)
    try:
        if fmt == "seed000":
            return read_seed000(target)
        if fmt == "sentencepiece":
            return read_sentencepiece(target)
        if fmt == "tiktoken":
            from bpe_core.formats.tiktoken_file import read_tiktoken
            return read_tiktoken(str(target), pattern=pattern)
        if fmt == "native":
            from bpe_core.formats.native import read_native
            return read_native(str(target))
        if fmt == "tokenizer.json":
            from bpe_core.formats.hf_json import read_tokenizer_json
            return read_tokenizer_json(str(target))
        if fmt == "picky":
            from bpe_core.formats.picky_file import read_picky
            return read_picky(str(target))
        from bpe_core.formats.gpt2_files import read_vocab_merges  # finds the partner file itself
        return read_vocab_merges(str(target))
    except BPELensError as exc:
        msg = str(exc)
        raise BPELensError(msg if str(p) in msg or p.name in msg else f"{p}: {msg}") from None
    except ImportError as exc:  # a reader module missing from this build
        raise BPELensError(f"{p}: reading {fmt} files is not available ({exc})") from None
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError) as exc:
        # readers are meant to raise BPELensError; anything else is still the file's fault
        raise BPELensError(f"{p}: not a readable {fmt} file ({type(exc).__name__}: {exc})") from None


def write_vocabulary(model: BPEModel, path, fmt: str) -> None:
    """Write ``model`` to ``path`` as ``fmt`` (one of :data:`WRITE_FORMATS`), atomically.

    ``vocab-merges`` and ``seed000`` write several files: ``path`` is a folder for them (or,
    for vocab-merges, a ``*vocab.json`` name whose ``*merges.txt`` goes beside it).

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> write_vocabulary(BPEModel(unit="bytes", tokens=[b"a", b"b", b"ab"], merges=[(0, 1)]), folder, "vocab-merges")
    >>> sorted(os.listdir(folder))
    ['merges.txt', 'vocab.json']
    """
    if fmt == "native":
        from bpe_core.formats.native import write_native
        write_native(model, str(path))
    elif fmt == "tokenizer.json":
        from bpe_core.formats.writers import write_tokenizer_json
        write_tokenizer_json(model, path)
    elif fmt == "vocab-merges":
        from bpe_core.formats.writers import write_vocab_merges
        write_vocab_merges(model, path)
    elif fmt == "tiktoken":
        from bpe_core.formats.writers import write_tiktoken
        write_tiktoken(model, path)
    elif fmt == "seed000":
        write_seed000(model, path)
    elif fmt == "picky":
        from bpe_core.formats.picky_file import write_picky
        write_picky(model, path)
    else:
        raise BPELensError(f"unknown output format {fmt!r}; choose one of: {', '.join(WRITE_FORMATS)}")


# -- sniffing -----------------------------------------------------------------------------
def _detect(p: Path) -> Tuple[str, Path]:
    if not p.exists():
        raise BPELensError(no_such_file(p))
    if p.is_dir():
        return _detect_folder(p)
    if not p.is_file():  # opening a pipe would wait for a writer forever; a device may never end
        raise BPELensError(f"{p}: {NOT_A_FILE}")
    if p.name in SEED_FILES:
        return "seed000", p.parent
    try:
        with open(p, "rb") as f:
            head = f.read(_SNIFF)
    except OSError as exc:
        raise read_error(p, exc) from None
    if not head.strip():
        raise BPELensError(f"{p}: the file is empty")
    text = _as_text(head)
    if text is not None and text.lstrip()[:1] in ("{", "["):
        return _detect_json(p)
    if text is not None and _looks_like_tiktoken(text):
        return "tiktoken", p
    if text is not None and _looks_like_merges(text, p):
        return "vocab-merges", p
    # a ModelProto starts with its pieces (field 1, length-delimited: byte 0x0A); only then is
    # the whole file worth parsing
    if head[:1] == b"\n" and looks_like_sentencepiece(p.read_bytes() if len(head) == _SNIFF else head):
        return "sentencepiece", p
    wide = wide_text_message(str(p), head)
    if wide is not None:  # UTF-16/UTF-32 (Windows tools write it): say so and how to convert, not "binary"
        raise BPELensError(wide)
    if text is None and b"\0" not in head:  # Latin-1 or another 8-bit text: say so, not "binary"
        raise BPELensError(not_utf8(p, _utf8_error_at(head), " (BPE Lens reads UTF-8 vocabulary files)"))
    if text is None or "\0" in text:
        raise BPELensError(f"{p}: a binary file that is no SentencePiece model (nor any vocabulary format "
                           "BPE Lens reads)")
    raise BPELensError(f"{p}: not a vocabulary format BPE Lens knows (expected {', '.join(FORMATS)})")


def _as_text(head: bytes) -> Optional[str]:
    if b"\0" in head:
        return None
    for cut in range(4):  # the sniffed block may end inside a UTF-8 character
        try:
            return head[: len(head) - cut].decode("utf-8-sig")
        except UnicodeDecodeError:
            continue
    return None


def _utf8_error_at(head: bytes) -> int:
    try:
        head.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return exc.start
    return len(head)


def _detect_folder(p: Path) -> Tuple[str, Path]:
    if any((p / name).is_file() for name in SEED_FILES):
        return "seed000", p
    if (p / "tokenizer.json").is_file():
        return "tokenizer.json", p / "tokenizer.json"
    if (p / "vocab.json").is_file() or (p / "merges.txt").is_file():
        return "vocab-merges", p / "vocab.json"
    for name in ("tokenizer.model", "spiece.model", "sentencepiece.bpe.model"):
        if (p / name).is_file():
            return "sentencepiece", p / name
    raise BPELensError(f"{p}: this folder holds no vocabulary (looked for seed 000's {', '.join(SEED_FILES)}, "
                       "tokenizer.json, vocab.json + merges.txt, tokenizer.model)")


def _detect_json(p: Path) -> Tuple[str, Path]:
    try:
        data = parse_json(p.read_bytes().decode("utf-8-sig"), str(p))
    except UnicodeDecodeError as exc:
        raise BPELensError(not_utf8(p, exc.start)) from None
    except json.JSONDecodeError as exc:
        raise BPELensError(f"{p}: invalid JSON at line {exc.lineno} column {exc.colno} ({exc.msg})") from None
    if not isinstance(data, dict):
        raise BPELensError(f"{p}: a JSON {type(data).__name__}, not a vocabulary object")
    if data.get("format") == "bpe-lens":
        return "native", p
    if isinstance(data.get("model"), dict):
        return "tokenizer.json", p
    if data and all(isinstance(v, int) and not isinstance(v, bool) for v in data.values()):
        return "vocab-merges", p
    from bpe_core.formats.picky_file import looks_like_picky
    if looks_like_picky(data):
        return "picky", p
    raise BPELensError(f"{p}: JSON, but neither a BPE Lens file, a tokenizer.json, a vocab.json nor a PickyBPE "
                       "model file")


def _looks_like_tiktoken(text: str) -> bool:
    lines = [ln for ln in text.splitlines()[:50] if ln.strip()]
    if not lines:
        return False
    for ln in lines[:-1] if len(lines) > 1 else lines:  # the last sniffed line may be cut short
        parts = ln.split()
        if len(parts) != 2 or not parts[1].isdigit():
            return False
        try:
            base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            return False
    return True


def _looks_like_merges(text: str, p: Path) -> bool:
    lines = text.splitlines()
    if lines and lines[0].startswith("#version"):
        return True
    body = [ln for ln in lines[:50] if ln and not ln.startswith("#")]
    if not body or not all(len(ln.split(" ")) == 2 for ln in body[:-1] or body):
        return False
    # headerless "a b" lines are only a merges file if its vocab.json is there (else any
    # text of two-word lines would be taken for one)
    stem = p.stem[: -len("merges")] if p.stem.endswith("merges") else None
    partners = ["vocab.json", "encoder.json"] + ([stem + "vocab.json"] if stem else [])
    return any(p.with_name(n).is_file() for n in partners)
