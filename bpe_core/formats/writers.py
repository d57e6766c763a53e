"""Write a :class:`BPEModel` as ``tokenizer.json``, ``vocab.json`` + ``merges.txt`` or ``.tiktoken``.

Byte-level tokens are written as GPT-2 glyph strings (``Ġthe``); every write is atomic.
What each format can hold, and what we refuse rather than write a file that encodes
differently from our own encoder:

* ``tokenizer.json`` (current ``tokenizers``: merges as ``[a, b]`` pairs) holds the whole
  pipeline; a model with the seeds' *separate* ``</w>`` symbol cannot be expressed (HF glues
  its suffix to the last character) and is refused.
* ``vocab.json`` + ``merges.txt`` hold only the vocabulary and merges (no pipeline; readers
  assume GPT-2's byte-level pre-tokenizer for byte models). ``vocab.json`` is written like
  GPT-2's own file (``json.dumps`` defaults), so GPT-2's files round-trip byte for byte.
* ``.tiktoken`` holds ``base64(token bytes) rank`` lines for byte models; the rank is the id,
  and it is also the merge priority, so ids must follow merge order.
* none of them holds PickyBPE's removals (every merge applies by rank there, a removed token is never
  split again): a picky model with removals is refused; one without (τ = 1.0) is plain BPE.

>>> from bpe_core.model import BPEModel
>>> m = BPEModel(unit="bytes", tokens=[b"a", b" ", b" a"], merges=[(1, 0)])
>>> merges_txt(m)
'#version: 0.2\\nĠ a\\n'
>>> tiktoken_text(m)
'YQ== 0\\nIA== 1\\nIGE= 2\\n'
"""
from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Optional

from bpe_core.formats.atomic import atomic_write_files, atomic_write_text, encode_text
from bpe_core.model import BPEModel
from bpe_core.base.symbols import to_glyphs
from bpe_core.types import BPELensError, Raw


def token_text(model: BPEModel, raw: Raw) -> str:
    """How a token is spelled in vocab.json/tokenizer.json: bytes as glyphs, strings as is."""
    return to_glyphs(raw) if isinstance(raw, bytes) else raw


def _vocab(model: BPEModel) -> Dict[str, int]:
    vocab: Dict[str, int] = {}
    for i, raw in enumerate(model.tokens):
        if raw is None:
            continue
        key = token_text(model, raw)
        if key in vocab:
            raise BPELensError(f"token {key!r} has two ids ({vocab[key]} and {i}); a vocabulary file "
                               "maps each token to one id")
        vocab[key] = i
    return vocab


def _merge_pairs(model: BPEModel) -> List[List[str]]:
    pairs = []
    for rank, (a, b) in enumerate(model.merges, 1):
        left, right = model.tokens[a], model.tokens[b]
        if left is None or right is None:
            raise BPELensError(f"merge {rank} uses an id that has no token ({a}, {b})")
        pairs.append([token_text(model, left), token_text(model, right)])
    return pairs


def _refuse_removals(model: BPEModel, fmt: str) -> None:
    if model.removals:
        raise BPELensError(f"{fmt} cannot express PickyBPE's removals ({len(model.removals)} tokens removed): "
                           "its encoder applies every merge by rank and cannot split a removed token again; "
                           "save as native or picky instead")


def _refuse_separate_suffix(model: BPEModel, fmt: str) -> None:
    _refuse_removals(model, fmt)
    if model.end_of_word_suffix:
        raise BPELensError(f"{fmt} cannot express a separate end-of-word symbol "
                           f"({model.end_of_word_suffix!r} appended to every word as its own token); "
                           "save as native or seed000 instead")


# -- the text pipeline in tokenizers' terms ----------------------------------------------
_BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
_PLAIN_BYTES = dict(_BYTE_LEVEL, use_regex=False)
_HF_KEYS = ("normalizer", "pre_tokenizer", "post_processor", "decoder")


def _split(pattern: str) -> Dict[str, Any]:
    # Removed + invert: the matches are the words and whatever lies between is dropped,
    # which is what our regex pre-tokenizers (and tiktoken) do. tokenizers compiles with
    # Oniguruma, which reads "{1,3}+" as "({1,3})+" (unbounded) rather than possessive:
    # drop that "+" (greedy and possessive agree when nothing follows in the branch, as in
    # cl100k's \p{N}{1,3}+).
    pattern = re.sub(r"(?<!\\)(\{\d+(?:,\d*)?\})\+", r"\1", pattern)
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Removed", "invert": True}


def _seq(kind: str, items: List[Optional[Dict[str, Any]]]) -> Optional[Dict[str, Any]]:
    items = [i for i in items if i]
    if len(items) <= 1:
        return items[0] if items else None
    return {"type": "Sequence", ("normalizers" if kind == "n" else "pretokenizers"): items}


def hf_pipeline_json(model: BPEModel) -> Dict[str, Any]:
    """normalizer / pre_tokenizer / post_processor / decoder JSON for ``model``'s pipeline."""
    cfg = model.config
    from bpe_core.formats.picky_file import HF_LAYOUT, cuts_as_reference
    if cuts_as_reference(model):  # picky_tokenize.py's words (a word starting with ▁ gets no second one)
        return dict(HF_LAYOUT)
    if any(isinstance(cfg.get(k), dict) for k in _HF_KEYS):  # read from a tokenizer.json: keep it
        return {k: cfg.get(k) if isinstance(cfg.get(k), dict) else None for k in _HF_KEYS}
    byte = model.unit == "bytes"
    decoder = _BYTE_LEVEL if byte else None
    if model.hf_end_of_word_suffix and not byte:
        decoder = {"type": "BPEDecoder", "suffix": model.hf_end_of_word_suffix}
    out: Dict[str, Any] = {"normalizer": None, "pre_tokenizer": None, "post_processor": None, "decoder": decoder}
    if model.source_format == "sentencepiece":
        return _sentencepiece_layout(model)
    name = cfg.get("pretokenizer")
    pattern = cfg.get("pattern")
    if name is None and pattern:  # a tiktoken file's split pattern
        name = "regex"
    if name is None and model.pipeline is None:
        out["pre_tokenizer"] = _PLAIN_BYTES if byte else None
        return out
    if name is None:
        if not byte:
            raise BPELensError("this vocabulary's pre-tokenizer has no tokenizer.json equivalent")
        name = "gpt2"  # GPT-2 files carry no pipeline; byte-level readers assume GPT-2's
    if name == "gpt2" and byte:
        out["pre_tokenizer"] = _BYTE_LEVEL
    else:
        split = _pretokenizer_split(name, pattern)
        out["pre_tokenizer"] = _seq("p", split + [_PLAIN_BYTES if byte else None])
    lowercase = cfg.get("lowercase_encode")
    if lowercase if lowercase is not None else cfg.get("lowercase"):
        out["normalizer"] = {"type": "Lowercase"}
    return out


def _pretokenizer_split(name: str, pattern: Optional[str]) -> List[Dict[str, Any]]:
    from bpe_core.pretokenize.pretokenizers import SEED001_PATTERN, TIKTOKEN_PATTERNS, WORDPUNCT_RE
    if name in ("whitespace", "whitespace-split"):
        return [{"type": "WhitespaceSplit"}]
    if name in ("wordpunct", "punkt-wordpunct"):  # sentence splitting never changes the words
        return [{"type": "WhitespaceSplit"}, _split(WORDPUNCT_RE.pattern)]
    patterns = dict(TIKTOKEN_PATTERNS, seed001=SEED001_PATTERN)
    if name in patterns:
        return [_split(patterns[name])]
    if name == "regex" and pattern:
        return [_split(pattern)]
    raise BPELensError(f"the {name!r} pre-tokenizer has no tokenizer.json equivalent")


def _sentencepiece_layout(model: BPEModel) -> Dict[str, Any]:
    # SentencePiece normalizes the whole text (char map, squeeze and trim spaces, "▁" in
    # front, spaces -> "▁") and only then cuts out user-defined pieces. So the added tokens
    # are matched after the normalizer ("normalized": true) and the "▁" work is left to the
    # Metaspace pre-tokenizer: a normalizer that prepended "▁" would also prepend it to the
    # added tokens' own text. Leading spaces are squeezed, not stripped: Metaspace turns the
    # one left into the "▁" that prepend_scheme "first" would otherwise add.
    # Known gap: text that *starts* with a user-defined piece gets no "▁" before it here.
    charsmap = model.extras.get("precompiled_charsmap")
    dummy = bool(model.config.get("add_dummy_prefix", True))
    normalizers: List[Optional[Dict[str, Any]]] = [
        {"type": "Precompiled", "precompiled_charsmap": charsmap} if charsmap else None]
    if model.config.get("remove_extra_whitespaces", True):
        normalizers += [{"type": "Strip", "strip_left": not dummy, "strip_right": True},
                        {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]
    meta = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first" if dummy else "never",
            "split": bool(model.config.get("split_by_whitespace", True))}
    decoders: List[Dict[str, Any]] = [{"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "}]
    if model.byte_fallback:
        decoders.append({"type": "ByteFallback"})
    decoders.append({"type": "Fuse"})  # Strip works per token: fuse first, then drop the one space
    if model.config.get("add_dummy_prefix", True):
        decoders.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    return {"normalizer": _seq("n", normalizers), "pre_tokenizer": meta, "post_processor": None,
            "decoder": {"type": "Sequence", "decoders": decoders}}


def added_tokens_json(model: BPEModel) -> List[Dict[str, Any]]:
    """Specials that the pipeline cuts out of text (SentencePiece: only user-defined ones)."""
    given = model.config.get("added_tokens")
    if isinstance(given, list):  # read from a tokenizer.json: keep its flags, fill in the rest
        defaults = {"single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
        return [{"id": t["id"], "content": t["content"], **{k: t.get(k, v) for k, v in defaults.items()}}
                for t in given if isinstance(t, dict) and "id" in t and "content" in t]
    pipe = model.pipeline
    matched = pipe.matched_specials() if pipe is not None else None
    if matched is None:
        matched = model.specials
    # SentencePiece's user-defined pieces are text (decoded, matched after normalizing)
    sp = model.source_format == "sentencepiece"
    return [{"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": sp, "special": not sp and i in model.special_ids}
            for s, i in sorted(matched.items(), key=lambda kv: kv[1])]


# -- tokenizer.json -----------------------------------------------------------------------
def tokenizer_json_dict(model: BPEModel) -> Dict[str, Any]:
    """The ``tokenizer.json`` document for ``model`` (key order as ``tokenizers`` writes it)."""
    _refuse_separate_suffix(model, "tokenizer.json")
    if model.algorithm == "seed000-greedy":
        raise BPELensError("tokenizer.json cannot express seed 000's frequency-greedy encoder; "
                           "save as native or seed000 instead")
    vocab = _vocab(model)
    unk = model.tokens[model.unk_id] if model.unk_id is not None else None
    added = added_tokens_json(model)
    layout = hf_pipeline_json(model)
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": layout["normalizer"], "pre_tokenizer": layout["pre_tokenizer"],
        "post_processor": layout["post_processor"], "decoder": layout["decoder"],
        "model": {
            "type": "BPE", "dropout": None,
            "unk_token": token_text(model, unk) if unk is not None else None,
            "continuing_subword_prefix": model.continuing_subword_prefix or None,
            "end_of_word_suffix": model.hf_end_of_word_suffix or None,
            "fuse_unk": model.fuse_unk, "byte_fallback": model.byte_fallback,
            # tiktoken's "a whole piece that is a token is one token" is HF's ignore_merges
            # and PickyBPE's (picky_tokenize.py: a word that is a present token is that token)
            "ignore_merges": model.ignore_merges or model.algorithm in ("tiktoken", "picky"),
            "vocab": vocab, "merges": _merge_pairs(model),
        },
    }


def tokenizer_json_text(model: BPEModel) -> str:
    return json.dumps(tokenizer_json_dict(model), indent=2, ensure_ascii=False)


def write_tokenizer_json(model: BPEModel, path) -> None:
    atomic_write_text(path, tokenizer_json_text(model))


# -- vocab.json + merges.txt --------------------------------------------------------------
def vocab_json(model: BPEModel) -> str:
    return json.dumps(_vocab(model))


def merges_txt(model: BPEModel) -> str:
    lines = ["#version: 0.2"]
    for rank, (left, right) in enumerate(_merge_pairs(model), 1):
        for part in (left, right):
            if not part or any(c in part for c in " \n\r"):
                raise BPELensError(f"merge {rank} ({left!r}, {right!r}) has a part with a space or newline, "
                                   "which merges.txt cannot hold; use tokenizer.json")
        lines.append(f"{left} {right}")
    return "\n".join(lines) + "\n"


def vocab_merges_paths(path) -> tuple[Path, Path]:
    """Where ``vocab.json`` and ``merges.txt`` go: into a folder, or paired with a ``*.json``
    name the way the reader pairs them (gpt2_files.sibling_names), so the files read back.

    ``out/`` -> ``out/vocab.json`` + ``out/merges.txt``; ``out/gpt2-vocab.json`` ->
    ``out/gpt2-vocab.json`` + ``out/gpt2-merges.txt``.
    """
    p = Path(path)
    if p.suffix.lower() != ".json" or p.is_dir():
        return p / "vocab.json", p / "merges.txt"
    try:
        from bpe_core.formats.gpt2_files import sibling_names
        vocab, merges = sibling_names(str(p))
        return Path(vocab), Path(merges)
    except ImportError:
        stem = p.stem
        merges_name = stem[: -len("vocab")] + "merges.txt" if stem.endswith("-vocab") else "merges.txt"
        return p, p.with_name(merges_name)


def write_vocab_merges(model: BPEModel, path) -> None:
    _refuse_separate_suffix(model, "vocab.json + merges.txt")
    vocab_path, merges_path = vocab_merges_paths(path)
    texts = vocab_json(model), merges_txt(model)  # both checked before either is written
    try:
        vocab_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BPELensError(f"{vocab_path.parent}: cannot create the folder ({exc.strerror or exc})") from exc
    # one save: a vocab.json without its merges.txt would load silently and encode differently
    atomic_write_files({vocab_path: encode_text(vocab_path, texts[0]), merges_path: encode_text(merges_path, texts[1])})


# -- .tiktoken ----------------------------------------------------------------------------
def tiktoken_text(model: BPEModel) -> str:
    _refuse_removals(model, "a .tiktoken file")
    if model.unit != "bytes":
        raise BPELensError("a .tiktoken file holds byte tokens; this is a character-level vocabulary "
                           "(save as tokenizer.json, vocab-merges or native)")
    _check_rank_order(model)
    seen: Dict[bytes, int] = {}
    lines = []
    for i, raw in enumerate(model.tokens):
        if raw is None or i in model.special_ids or not isinstance(raw, bytes):
            continue  # specials are not part of a .tiktoken file (tiktoken defines them in code)
        if raw in seen:
            raise BPELensError(f"token {to_glyphs(raw)!r} has two ids ({seen[raw]} and {i})")
        seen[raw] = i
        lines.append(f"{base64.b64encode(raw).decode('ascii')} {i}\n")
    return "".join(lines)


def _check_rank_order(model: BPEModel) -> None:
    # tiktoken merges the pair whose *concatenation* has the lowest rank, and rank == id; a
    # token whose id is lower than a token made before it would be merged out of order.
    last: Optional[int] = None
    for rank, tid in enumerate(model.merge_result, 1):
        if model.created_by.get(tid) != rank:
            continue  # a second merge spelling an existing token
        if last is not None and tid < last:
            raise BPELensError(f"token ids do not follow merge order (merge {rank} makes id {tid} after id "
                               f"{last}); a .tiktoken rank is both id and merge priority")
        last = tid


def write_tiktoken(model: BPEModel, path) -> None:
    atomic_write_text(path, tiktoken_text(model))
