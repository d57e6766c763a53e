"""Read GPT-2's ``vocab.json`` + ``merges.txt`` (or ``encoder.json`` + ``vocab.bpe``) into a BPEModel.

Either file may be given; the other is found beside it: ``vocab.json``/``merges.txt``,
``encoder.json``/``vocab.bpe`` or ``PREFIX-vocab.json``/``PREFIX-merges.txt``. The model is byte-level
with GPT-2's pipeline (ByteLevel pre-tokenizer, no prefix space) and ``<|endoftext|>`` as a special
token (its vocab id, or the next free id when the vocab lacks it).

>>> sibling_names("/m/gpt2-merges.txt")
('/m/gpt2-vocab.json', '/m/gpt2-merges.txt')
>>> sibling_names("/m/encoder.json")
('/m/encoder.json', '/m/vocab.bpe')
"""
from __future__ import annotations

import os
from typing import List, Tuple

from bpe_core.pipelines.hf import HFPipeline
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError
from bpe_core.formats.hf_json import build_bpe_model, load_json, read_text

ENDOFTEXT = "<|endoftext|>"
_PAIRS = (("vocab.json", "merges.txt"), ("encoder.json", "vocab.bpe"))


def sibling_names(path: str) -> Tuple[str, str]:
    """(vocab path, merges path) for either of the two files."""
    folder, name = os.path.split(path)
    for v, m in _PAIRS:
        if name in (v, m):
            return os.path.join(folder, v), os.path.join(folder, m)
        for mine, other in ((v, m), (m, v)):
            if name.endswith("-" + mine):
                stem = name[: -len(mine)]
                pair = (stem + v, stem + m)
                return os.path.join(folder, pair[0]), os.path.join(folder, pair[1])
    if name.endswith(".json"):
        return path, os.path.join(folder, "merges.txt")
    if name.endswith((".txt", ".bpe")):
        return os.path.join(folder, "vocab.json"), path
    raise BPELensError(f"{name} is neither a vocab.json nor a merges.txt (cannot tell which file to pair it with)")


def _merge_lines(path: str) -> List[Tuple[str, str, int]]:
    text = read_text(path)
    out: List[Tuple[str, str, int]] = []
    for no, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if (no == 1 and line.startswith("#version")) or not line:
            continue
        parts = line.split(" ")
        if len(parts) != 2:
            raise BPELensError(f"{os.path.basename(path)} line {no} is not a merge 'a b': {line[:60]!r}")
        out.append((parts[0], parts[1], no))
    return out


def read_vocab_merges(path: str) -> BPEModel:
    vocab_path, merges_path = sibling_names(path)
    for p in (vocab_path, merges_path):
        if not os.path.exists(p):
            raise BPELensError(f"{os.path.basename(path)} needs {os.path.basename(p)} beside it, "
                               f"and {os.path.dirname(p) or '.'} has none")
    vocab = load_json(vocab_path)
    if not isinstance(vocab, dict) or not all(isinstance(v, int) for v in vocab.values()):
        raise BPELensError(f"{os.path.basename(vocab_path)} is not a JSON object of token -> id")
    lines = _merge_lines(merges_path)
    eot = vocab.get(ENDOFTEXT, max(vocab.values(), default=-1) + 1)
    added = [{"id": eot, "content": ENDOFTEXT, "special": True, "normalized": False}]
    pipeline = HFPipeline(None, {"type": "ByteLevel", "add_prefix_space": False, "use_regex": True}, added)
    mname = os.path.basename(merges_path)
    model = build_bpe_model(vocab, [(a, b) for a, b, _ in lines], byte_level=True, added_tokens=added,
                            pipeline=pipeline, where=lambda k: f"{mname} line {lines[k][2]}",
                            source_format="gpt2-files",
                            name=os.path.basename(os.path.dirname(os.path.abspath(vocab_path))) or "gpt2")
    model.config["files"] = [vocab_path, merges_path]
    return model
