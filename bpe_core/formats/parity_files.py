"""The files cimeister/parity-aware-bpe writes (``parity_aware_learn_bpe.py``): its merges file and its
tokenizer.json, for a byte-level model read as the reference reads text.

The merges file is ``#version: 0.2`` and one ``left right`` line per merge, in GPT-2 byte glyphs (byte for
byte what the reference writes). The tokenizer.json is the one its ``save_tokenizer_json`` makes: a BPE
model with ``<unk>``, the pre-tokenizer ``Whitespace`` then ``ByteLevel(add_prefix_space, no regex)``, the
``ByteLevel`` decoder, the specials ``<s> <pad> </s> <unk>`` as added tokens and the ``<s> $A </s>``
template. Ids are the model's own: the reference's ids of the 256 byte glyphs come from a hash set's order
and change from run to run, so no file can match them; any order encodes the same tokens.

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="bytes", tokens=[b" ", b"t", b" t"], merges=[(0, 1)])
>>> reference_merges_text(m)
'#version: 0.2\\nĠ t\\n'
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping

from bpe_core.base.symbols import to_glyphs
from bpe_core.formats.atomic import atomic_write_text
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, Raw

__all__ = ["REFERENCE_PRE_TOKENIZER", "reference_layout", "reference_merges_text", "reference_pipeline", "reference_tokenizer_json",
           "write_reference_files"]

REFERENCE_PRE_TOKENIZER: Dict[str, Any] = {"type": "Sequence", "pretokenizers": [
    {"type": "Whitespace"}, {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": False}]}
_DECODER = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}


def _added(specials: Mapping[str, int]) -> List[Dict[str, Any]]:
    return [{"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False,
             "special": True} for s, i in sorted(specials.items(), key=lambda kv: kv[1])]


def reference_layout(specials: Mapping[str, int]) -> Dict[str, Any]:
    """The reference tokenizer.json's pipeline keys (normalizer, pre_tokenizer, post_processor, decoder,
    added_tokens): a model whose config holds them is written and reloaded with this pipeline."""
    d = _document(specials)
    return {k: d[k] for k in ("normalizer", "pre_tokenizer", "post_processor", "decoder", "added_tokens")}


def reference_pipeline(specials: Mapping[str, int]):
    """The reference's text pipeline (its pre-tokenizer; ``specials`` cut out as added tokens)."""
    from bpe_core.pipelines.hf import HFPipeline
    return HFPipeline(None, REFERENCE_PRE_TOKENIZER, _added(specials))


def _text(raw: Raw) -> str:
    if not isinstance(raw, bytes):
        raise BPELensError("the reference's files hold byte-level tokens only (this model is character-level)")
    return to_glyphs(raw)


def reference_merges_text(model: BPEModel) -> str:
    """The merges file as the reference writes it."""
    lines = ["#version: 0.2\n"]
    for left, right in model.merges:
        lines.append(f"{_text(model.tokens[left])} {_text(model.tokens[right])}\n")  # type: ignore[arg-type]
    return "".join(lines)


def _document(specials: Mapping[str, int]) -> Dict[str, Any]:
    missing = [t for t in ("<s>", "</s>", "<unk>") if t not in specials]
    if missing:
        raise BPELensError(f"the reference's tokenizer.json needs the special token {missing[0]}")

    def special(name: str) -> Dict[str, Any]:
        return {"SpecialToken": {"id": name, "type_id": 0}}

    def seq(name: str) -> Dict[str, Any]:
        return {"Sequence": {"id": name, "type_id": 0}}

    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": _added(specials),
        "normalizer": None, "pre_tokenizer": REFERENCE_PRE_TOKENIZER,
        "post_processor": {
            "type": "TemplateProcessing", "single": [special("<s>"), seq("A"), special("</s>")],
            "pair": [special("<s>"), seq("A"), special("</s>"), special("</s>"), seq("B"), special("</s>")],
            "special_tokens": {t: {"id": t, "ids": [specials[t]], "tokens": [t]} for t in ("</s>", "<s>")}},
        "decoder": _DECODER,
    }


def reference_tokenizer_json(model: BPEModel) -> Dict[str, Any]:
    """The tokenizer.json document the reference's ``save_tokenizer_json`` writes for ``model``."""
    doc = _document(model.specials)
    vocab = {(t if isinstance(t, str) else _text(t)): i for i, t in enumerate(model.tokens) if t is not None}
    doc["model"] = {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                    "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                    "vocab": vocab,
                    "merges": [[_text(model.tokens[a]), _text(model.tokens[b])] for a, b in model.merges]}  # type: ignore[arg-type]
    return doc


def write_reference_files(model: BPEModel, merges_path, json_path=None) -> None:
    """Write the merges file (and the tokenizer.json when ``json_path`` is given), atomically."""
    import json
    atomic_write_text(merges_path, reference_merges_text(model))
    if json_path is not None:
        atomic_write_text(json_path, json.dumps(reference_tokenizer_json(model), ensure_ascii=False, indent=2))
