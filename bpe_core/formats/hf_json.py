"""Read a Hugging Face ``tokenizer.json`` (BPE model) into a BPEModel.

Byte-level files (a ByteLevel pre-tokenizer) become ``unit="bytes"`` models whose tokens are the
bytes behind GPT-2's glyphs; added tokens stay ``str`` and are cut out by the pipeline first.
``dropout``, ``truncation`` and ``padding`` are ignored. The normalizer / pre-tokenizer / decoder /
post-processor JSON is kept in ``model.config`` for ``inspect``.

>>> import json, tempfile, os
>>> d = {"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}}
>>> path = os.path.join(tempfile.mkdtemp(), "tokenizer.json")
>>> _ = open(path, "w").write(json.dumps(d))
>>> m = read_tokenizer_json(path)
>>> m.unit, m.merges, m.tokens
('chars', [(0, 1)], ['a', 'b', 'ab'])
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from bpe_core.base.file_errors import binary_file, not_utf8, read_error, wide_text_message
from bpe_core.formats.checks import first_duplicate, is_id, table_size
from bpe_core.formats.json_text import parse_json
from bpe_core.pipelines.hf import HFPipeline
from bpe_core.model import BPEModel
from bpe_core.base.symbols import from_glyphs
from bpe_core.types import BPELensError, Raw

_NOT_BPE = ("WordPiece", "Unigram", "WordLevel")


#: what a vocabulary path that is a pipe, a device or a socket is told (it is never opened)
NOT_A_FILE = "is not a regular file (a pipe, a device or a socket); a vocabulary is read from a file"


def read_text(path: str) -> str:
    """The file as UTF-8 text; BPELensError for a missing, unreadable or binary file."""
    name = os.path.basename(path)
    if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
        raise BPELensError(f"{name} {NOT_A_FILE}")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise read_error(path, e) from None
    wide = wide_text_message(name, data[:8192], path)
    if wide is not None:
        raise BPELensError(wide)
    if b"\0" in data[:8192]:
        raise BPELensError(binary_file(name, data.index(b"\0")))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BPELensError(not_utf8(name, e.start)) from None


def load_json(path: str) -> Any:
    text = read_text(path)
    name = os.path.basename(path)
    try:
        return parse_json(text, name)
    except json.JSONDecodeError as e:
        if e.pos >= len(text.rstrip()) - 1:
            raise BPELensError(f"{name} is truncated JSON (it ends at line {e.lineno}: {e.msg})") from None
        raise BPELensError(f"{name} is not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None


def _glyph_token(tok: str) -> Raw:
    try:
        return from_glyphs(tok)
    except KeyError:
        return tok  # not a glyph string (an odd entry): keep the text; byte pieces never reach it


def build_bpe_model(vocab: Dict[str, int], merges: Sequence[Tuple[str, str]], *, byte_level: bool,
                    added_tokens: List[Dict[str, Any]], pipeline: Any, where: Callable[[int], str],
                    prefix: str = "", **fields: Any) -> BPEModel:
    """Shared by tokenizer.json and vocab.json+merges.txt: ids, merges checked against the vocab."""
    for tok, i in vocab.items():
        if not is_id(i):
            raise BPELensError(f"vocabulary entry {tok!r} has id {i!r}, not a non-negative integer")
    for t in added_tokens:
        if not is_id(t["id"]) or not isinstance(t["content"], str):
            raise BPELensError(f"added token {t['content']!r} has id {t['id']!r}, not a non-negative integer")
    dup = first_duplicate(vocab.values())
    if dup is not None:
        raise BPELensError(f"id {dup} is given to two entries of the vocabulary")
    table_size(vocab.values(), "")  # the vocabulary's own ids first: the message names the file's id
    ids = [*vocab.values(), *(t["id"] for t in added_tokens)]
    tokens: List[Optional[Raw]] = [None] * table_size(ids, "", len(vocab) + len(added_tokens))
    for tok, i in vocab.items():
        tokens[i] = _glyph_token(tok) if byte_level else tok
    pairs: List[Tuple[int, int]] = []
    for k, (a, b) in enumerate(merges):
        for part in (a, b, a + b[len(prefix):]):
            if part not in vocab:
                raise BPELensError(f"{where(k)} ({a} {b}) names {part!r}, which is not in the vocabulary")
        pairs.append((vocab[a], vocab[b]))
    specials: Dict[str, int] = {}
    added_only = []
    for t in added_tokens:
        tokens[t["id"]] = t["content"]
        if t.get("special"):
            specials[t["content"]] = t["id"]
        if vocab.get(t["content"]) != t["id"]:
            added_only.append(t["id"])  # the BPE model itself cannot produce this id
    return BPEModel(unit="bytes" if byte_level else "chars", tokens=tokens, merges=pairs, specials=specials,
                    pipeline=pipeline, algorithm="merges", continuing_subword_prefix=prefix,
                    extras={"added_only": added_only}, **fields)


def _merge_pairs(raw: Any, name: str) -> List[Tuple[str, str]]:
    if not isinstance(raw, list):
        raise BPELensError(f"{name}: model.merges is not a list")
    out: List[Tuple[str, str]] = []
    for k, m in enumerate(raw):
        if isinstance(m, str):
            parts = m.split(" ")
        elif isinstance(m, list):
            parts = m
        else:
            parts = []
        if len(parts) != 2 or not all(isinstance(p, str) for p in parts):
            raise BPELensError(f"{name}: merge {k + 1} is {m!r}, not 'a b' or [\"a\", \"b\"]")
        out.append((parts[0], parts[1]))
    return out


def _has_byte_level(d: Any) -> bool:
    if not isinstance(d, dict):
        return False
    return d.get("type") == "ByteLevel" or any(_has_byte_level(x) for x in d.get("pretokenizers", []))


def read_tokenizer_json(path: str) -> BPEModel:
    """A ``tokenizer.json`` with a BPE model; BPELensError for anything else."""
    name = os.path.basename(path)
    d = load_json(path)
    if not isinstance(d, dict) or not isinstance(d.get("model"), dict):
        raise BPELensError(f"{name} has no \"model\" object: not a tokenizers tokenizer.json")
    model = d["model"]
    kind = model.get("type") or ("BPE" if "merges" in model else "unknown")
    if kind in _NOT_BPE:
        raise BPELensError(f"{name} is a {kind} tokenizer; BPE Lens reads BPE models only")
    if kind != "BPE":
        raise BPELensError(f"{name} has a model of type {kind!r}; BPE Lens reads BPE models only")
    vocab = model.get("vocab")
    if not isinstance(vocab, dict):
        raise BPELensError(f"{name}: model.vocab is not an object of token -> id")
    merges = _merge_pairs(model.get("merges", []), name)
    added = [t for t in d.get("added_tokens") or [] if isinstance(t, dict) and "id" in t and "content" in t]
    pre, norm = d.get("pre_tokenizer"), d.get("normalizer")
    byte_level = _has_byte_level(pre)
    prefix = model.get("continuing_subword_prefix") or ""
    unk = model.get("unk_token")
    for field, value in (("continuing_subword_prefix", prefix), ("unk_token", unk),
                         ("end_of_word_suffix", model.get("end_of_word_suffix") or "")):
        if value is not None and not isinstance(value, str):
            raise BPELensError(f"{name}: model.{field} is {value!r}, not a string")
    m = build_bpe_model(vocab, merges, byte_level=byte_level, added_tokens=added,
                        pipeline=HFPipeline(norm, pre, added), where=lambda k: f"{name}: merge {k + 1}",
                        prefix=prefix, hf_end_of_word_suffix=model.get("end_of_word_suffix") or "",
                        unk_id=vocab.get(unk) if unk is not None else None,
                        fuse_unk=bool(model.get("fuse_unk")), byte_fallback=bool(model.get("byte_fallback")),
                        ignore_merges=bool(model.get("ignore_merges")), source_format="hf-json",
                        name=os.path.basename(os.path.dirname(os.path.abspath(path))) or name,
                        config={k: d.get(k) for k in ("normalizer", "pre_tokenizer", "post_processor", "decoder")})
    m.config["added_tokens"] = added
    return m
