"""BPE Lens's own vocabulary file: merges *with their counts*, the vocab and the training config.

::

    {"format": "bpe-lens", "version": 1, "preset": "gpt2", "unit": "bytes",
     "config": {...TrainerConfig fields...},
     "merges": [["Ġ", "t", 24313], ...],
     "vocab": {"<|endoftext|>": 0, "!": 1, ...},
     "specials": {"<|endoftext|>": 0}}

Byte-level tokens are written with GPT-2's byte glyphs, as tokenizer.json does. Seed 000's
preset also stores its frequency table under ``"seed000"``. Saves are atomic.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from bpe_core.formats.checks import expect, first_duplicate, is_id, table_size
from bpe_core.formats.json_text import parse_json
from bpe_core.model import BPEModel
from bpe_core.base.config import config_from_dict
from bpe_core.base.file_errors import read_error
from bpe_core.base.symbols import from_glyphs, to_glyphs
from bpe_core.types import BPELensError, Raw

FORMAT = "bpe-lens"
VERSION = 1


def _text(raw: Raw) -> str:
    return to_glyphs(raw) if isinstance(raw, bytes) else raw


def model_to_native(model: BPEModel) -> Dict[str, Any]:
    texts = [None if raw is None else _text(raw) for raw in model.tokens]  # once per token, not per mention
    vocab: Dict[str, int] = {}
    for i, text in enumerate(texts):
        if text is not None:
            vocab.setdefault(text, i)  # specials are str in byte-level models too
    merges = [[texts[a], texts[b], c] for (a, b), c in zip(model.merges, model.merge_counts)]
    out: Dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "preset": model.config.get("preset", model.name or "custom"),
        "unit": model.unit, "config": model.config, "merges": merges, "vocab": vocab,
        "specials": dict(model.specials),
    }
    if model.algorithm == "seed000-greedy":
        out["seed000"] = {"freqs": model.extras["freqs"], "vocab_size_seed": model.extras["vocab_size_seed"]}
    if model.algorithm != "merges":
        out["algorithm"] = model.algorithm
    if model.unit == "bytes":
        text_tokens = [t for t in model.tokens if isinstance(t, str) and t not in model.specials]
        if text_tokens:  # added tokens kept as text in a byte-level vocabulary (NeoX's runs of spaces)
            out["text_tokens"] = text_tokens
    if model.removals or model.algorithm == "picky":  # a training rule's removals (PickyBPE), in order
        out["removals"] = [[rank, texts[tid], [texts[i] for i in split]] for rank, tid, split in model.removals]
    if "token_freqs" in model.extras:  # each token's weighted frequency by id (PickyBPE's model file lists it)
        out["token_freqs"] = list(model.extras["token_freqs"])
    if model.pipeline is not None and not model.pipeline.decides_symbols:  # an imported pipeline
        out.update(_imported_pipeline(model))  # its options hold the unk token
    elif model.unk_id is not None and model.algorithm != "seed000-greedy":  # a character without a token: unk
        out["unk"] = texts[model.unk_id]
    return out


def _imported_pipeline(model: BPEModel) -> Dict[str, Any]:
    """A loaded vocabulary's pipeline, as tokenizer.json describes it, so the file encodes alike."""
    from bpe_core.formats.picky_file import PickyWords
    from bpe_core.formats.writers import added_tokens_json, hf_pipeline_json
    if model.source_format == "sentencepiece":
        raise BPELensError("a sentencepiece model cannot be saved in the native format; "
                           "keep the .model file or convert it to tokenizer.json")
    unk = model.tokens[model.unk_id] if model.unk_id is not None else None
    if isinstance(model.pipeline, PickyWords):  # picky_tokenize.py's words, which tokenizer.json only nears
        pipeline: Dict[str, Any] = {"words": "picky"}
    else:
        layout = hf_pipeline_json(model)
        pipeline = {"normalizer": layout.get("normalizer"), "pre_tokenizer": layout.get("pre_tokenizer"),
                    "added_tokens": added_tokens_json(model)}
    return {
        "pipeline": pipeline,
        "options": {"unk_token": _text(unk) if unk is not None else None,
                    "continuing_subword_prefix": model.continuing_subword_prefix,
                    "end_of_word_suffix": model.hf_end_of_word_suffix, "byte_fallback": model.byte_fallback,
                    "ignore_merges": model.ignore_merges, "fuse_unk": model.fuse_unk,
                    "source_format": model.source_format},
    }


def write_native(model: BPEModel, path: str) -> None:
    from bpe_core.formats.atomic import atomic_write_text
    atomic_write_text(path, dumps_native(model_to_native(model)) + "\n")


_MARK = "\x00bpe-lens-table\x00"  # stands for a big table in the skeleton; a NUL is in no setting


def dumps_native(data: Dict[str, Any]) -> str:
    """``json.dumps(data, ensure_ascii=False, indent=1)``, the same text, made faster.

    With ``indent`` the json module encodes in pure Python, item by item: 0.1-0.15 s for 30k merges and
    tokens, a tenth of a CLI train's wall. Here the skeleton still goes through ``json.dumps`` and the two
    big tables (merges, vocab) are filled in from a template, their strings escaped by the json module's
    own C function, so the text is the same (tests/core/test_native.py compares them). Anything else in
    a table (a nested list, a non-str key) makes it fall back to ``json.dumps``.
    """
    merges, vocab = data.get("merges"), data.get("vocab")
    if not (type(merges) is list and merges and type(vocab) is dict and vocab):
        return json.dumps(data, ensure_ascii=False, indent=1)
    skeleton = dict(data, merges=_MARK + "m", vocab=_MARK + "v")
    text = json.dumps(skeleton, ensure_ascii=False, indent=1)
    marks = [json.dumps(_MARK + "m"), json.dumps(_MARK + "v")]
    try:
        if any(text.count(m) != 1 for m in marks):  # a setting holds the mark
            raise _NotFlat
        (a, mark_a, table_a), (b, mark_b, table_b) = sorted(
            [(text.index(marks[0]), marks[0], merges), (text.index(marks[1]), marks[1], vocab)])
        return "".join([text[:a], _table_json(table_a), text[a + len(mark_a):b], _table_json(table_b),
                        text[b + len(mark_b):]])  # one copy of the text
    except _NotFlat:
        return json.dumps(data, ensure_ascii=False, indent=1)


class _NotFlat(Exception):
    """A table holds something the templates do not write as json.dumps would."""


_ENC = json.encoder.encode_basestring  # type: ignore[attr-defined]  # json's own (C) escaping, ensure_ascii off
_WORDS = {None: "null", True: "true", False: "false"}


def _scalar(x: Any) -> str:
    t = type(x)
    if t is str:
        return _ENC(x)
    if t is int:
        return int.__repr__(x)
    if t is float or t is bool or x is None:
        return _WORDS[x] if t is not float else json.dumps(x)
    raise _NotFlat


def _table_json(table: Any) -> str:
    return _merges_json(table) if type(table) is list else _vocab_json(table)


def _merges_json(merges: List[Any]) -> str:
    """The merges list as a top-level value with indent 1 (items at depth 2, their parts at depth 3)."""
    if all(type(m) is list and len(m) == 3 for m in merges):
        lefts, rights, counts = zip(*merges)
        if set(map(type, lefts)) == set(map(type, rights)) == {str} and set(map(type, counts)) <= _INT_OR_NONE:
            made = map("  [\n   {},\n   {},\n   {}\n  ]".format, map(_ENC, lefts), map(_ENC, rights),
                       map(_int_or_null, counts))  # C speed: the usual [left, right, count]
            return "[\n" + ",\n".join(made) + "\n ]"
    rows = []
    add = rows.append
    for m in merges:
        if (type(m) is list or type(m) is tuple) and m:
            add("  [\n   " + ",\n   ".join(map(_scalar, m)) + "\n  ]")
        else:
            add("  []" if type(m) is list or type(m) is tuple else "  " + _scalar(m))
    return "[\n" + ",\n".join(rows) + "\n ]"


_INT_OR_NONE = {int, type(None)}


def _int_or_null(c: Any) -> str:
    return "null" if c is None else int.__repr__(c)


def _vocab_json(vocab: Dict[str, Any]) -> str:
    """The vocab as a top-level value with indent 1 (one ``"text": id`` per line at depth 2)."""
    if set(map(type, vocab)) != {str}:
        raise _NotFlat
    ids = vocab.values()
    values = map(int.__repr__, ids) if set(map(type, ids)) == {int} else map(_scalar, ids)
    return "{\n" + ",\n".join(map("  {}: {}".format, map(_ENC, vocab), values)) + "\n }"


def read_native(path: str) -> BPEModel:
    try:
        with open(path, "rb") as f:
            data = parse_json(f.read().decode("utf-8-sig"), path)
    except OSError as exc:
        raise read_error(path, exc) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BPELensError(f"{path}: not a valid JSON file ({exc})") from None
    return native_to_model(data, path)


def native_to_model(data: Any, path: str = "<native>") -> BPEModel:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BPELensError(f"{path}: not a BPE Lens vocabulary (no \"format\": \"bpe-lens\")")
    if data.get("version") != VERSION:
        raise BPELensError(f"{path}: BPE Lens vocabulary version {data.get('version')!r} is not supported (expected 1)")
    for key in ("vocab", "merges"):
        if key not in data:
            raise BPELensError(f"{path}: missing \"{key}\"")
    unit = data.get("unit", "chars")
    if unit not in ("chars", "bytes"):
        raise BPELensError(f"{path}: unknown unit {unit!r}")
    vocab = expect(data["vocab"], dict, "vocab", path)
    specials: Dict[str, int] = dict(expect(data.get("specials", {}), dict, "specials", path))
    text_tokens = set(expect(data.get("text_tokens") or [], list, "text_tokens", path))
    for text, i in (*vocab.items(), *specials.items()):
        if not is_id(i):
            raise BPELensError(f"{path}: token {text!r} has a bad id {i!r}")
    dup = first_duplicate(vocab.values())
    if dup is not None:
        raise BPELensError(f"{path}: id {dup} is given to two tokens in \"vocab\"")
    tokens: List[Optional[Raw]] = [None] * table_size(vocab.values(), path)
    for text, i in vocab.items():
        if unit == "bytes" and text not in specials and text not in text_tokens:
            try:
                tokens[i] = from_glyphs(text)
            except KeyError:
                raise BPELensError(f"{path}: byte-level token {text!r} is not written in GPT-2 byte glyphs") from None
        else:
            tokens[i] = text
    for text, i in specials.items():
        if i >= len(tokens) or tokens[i] != text:
            raise BPELensError(f"{path}: special token {text!r} has id {i}, which the vocab gives to "
                               f"{tokens[i] if i < len(tokens) else 'no token'!r}")
    ids = {t: i for i, t in enumerate(tokens) if t is not None}
    merges, counts = [], []
    for n, m in enumerate(expect(data["merges"], list, "merges", path), 1):
        if not isinstance(m, list) or len(m) not in (2, 3) or not all(isinstance(x, str) for x in m[:2]) \
                or not (len(m) == 2 or m[2] is None or is_id(m[2])):
            raise BPELensError(f"{path}: merge {n} is not [left, right, count]")
        pair = []
        for part in m[:2]:
            raw: Raw = _from_glyphs_or_none(part) if unit == "bytes" else part
            if raw is None or raw not in ids:
                raise BPELensError(f"{path}: merge {n} names {part!r}, which is not in the vocab")
            pair.append(ids[raw])
        made = tokens[pair[0]] + tokens[pair[1]]  # type: ignore[operator]
        if made not in ids:  # every merge makes a token of the vocab (an encoder would look it up)
            raise BPELensError(f"{path}: merge {n} makes {m[0] + m[1]!r}, which is not in the vocab")
        merges.append((pair[0], pair[1]))
        counts.append(m[2] if len(m) == 3 else None)
    cfg_dict = dict(expect(data.get("config") or {}, dict, "config", path))
    model = BPEModel(unit=unit, tokens=tokens, merges=merges, merge_counts=counts, specials=specials,
                     algorithm=data.get("algorithm", "merges"), name=str(data.get("preset", "")),
                     source_format="native", config=cfg_dict)
    _restore_removals(model, data, ids, path)
    if "unk" in data:  # files written before it have none: unknown characters are dropped, as then
        unk = data["unk"]
        raw = None if not isinstance(unk, str) else unk if unit == "chars" or unk in specials \
            else _from_glyphs_or_none(unk)
        model.unk_id = ids.get(raw)  # type: ignore[arg-type]
        if model.unk_id is None:
            raise BPELensError(f"{path}: \"unk\" names {unk!r}, which is not a token of the vocab")
    if "pipeline" in data:  # an imported vocabulary: rebuild its own pipeline
        _restore_imported(model, data, path)
        return model
    config = config_from_dict(cfg_dict, path)
    if config is not None:
        from bpe_core.pipelines.chain import Pipeline
        model.pipeline = Pipeline(config, specials)
        model.end_of_word_suffix = config.end_of_word_suffix
        model.keep_unknown = config.keep_unknown
    if "seed000" in data:
        n_seed = _seed000_size(data["seed000"], len(tokens), path)
        model.extras = {"freqs": data["seed000"]["freqs"], "vocab_size_seed": n_seed,
                        "vocab_to_idx": {tokens[i]: i for i in range(n_seed)}}
        model.unk_id = specials.get("<unk>")
    return model


def _from_glyphs_or_none(text: str) -> Optional[bytes]:
    try:
        return from_glyphs(text)
    except KeyError:  # not glyphs: then it is not in the vocab either
        return None


def _seed000_size(seed: Any, n_tokens: int, path: str) -> int:
    """Seed 000's table size, checked: its first ``n`` ids are the seed's own tokens."""
    expect(seed, dict, "seed000", path)
    expect(seed.get("freqs"), dict, "seed000.freqs", path)
    n_seed = expect(seed.get("vocab_size_seed"), int, "seed000.vocab_size_seed", path)
    if not 0 <= n_seed <= n_tokens:
        raise BPELensError(f"{path}: \"seed000.vocab_size_seed\" is {n_seed}, but the vocab has {n_tokens} ids")
    return n_seed


def _restore_removals(model: BPEModel, data: Dict[str, Any], ids: Dict[Raw, int], path: str) -> None:
    """A training rule's removals ([merge rank, token, [its split]]) and the token freqs, checked."""
    for n, r in enumerate(expect(data.get("removals") or [], list, "removals", path), 1):
        ok = isinstance(r, list) and len(r) == 3 and is_id(r[0]) and r[0] <= len(model.merges) \
            and isinstance(r[2], list) and all(isinstance(x, str) for x in [r[1], *r[2]])
        parts = [ids.get(_from_glyphs_or_none(x) if model.unit == "bytes" else x) for x in [r[1], *r[2]]] if ok else []
        if not ok or None in parts:
            raise BPELensError(f"{path}: removal {n} is not [merge rank, token, [tokens it splits into]] "
                               "of this vocab's tokens and merges")
        model.removals.append((r[0], parts[0], tuple(parts[1:])))  # type: ignore[arg-type]
    if "token_freqs" in data:
        freqs = expect(data["token_freqs"], list, "token_freqs", path)
        if len(freqs) != len(model.tokens) or not all(type(f) is int for f in freqs):
            raise BPELensError(f"{path}: \"token_freqs\" is not one count per token id")
        model.extras["token_freqs"] = freqs


def _restore_imported(model: BPEModel, data: Dict[str, Any], path: str) -> None:
    from bpe_core.pipelines.hf import HFPipeline
    p = expect(data["pipeline"], dict, "pipeline", path)
    o = expect(data.get("options") or {}, dict, "options", path)
    if p.get("words") == "picky":
        from bpe_core.formats.picky_file import PickyWords
        model.pipeline = PickyWords()
    else:
        model.pipeline = HFPipeline(p.get("normalizer"), p.get("pre_tokenizer"), p.get("added_tokens"))
    model.continuing_subword_prefix = o.get("continuing_subword_prefix") or ""
    model.hf_end_of_word_suffix = o.get("end_of_word_suffix") or ""
    model.byte_fallback = bool(o.get("byte_fallback"))
    model.ignore_merges = bool(o.get("ignore_merges"))
    model.fuse_unk = bool(o.get("fuse_unk"))
    unk = o.get("unk_token")
    if unk is not None:
        raw: Raw = from_glyphs(unk) if model.unit == "bytes" and unk not in model.specials else unk
        if raw not in model.vocab:
            raise BPELensError(f"{path}: unk token {unk!r} is not in the vocab")
        model.unk_id = model.vocab[raw]
