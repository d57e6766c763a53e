"""Seed 000's vocabulary folder: ``freqs.json``, ``vocab_to_idx.json``, ``idx_to_vocab.json``.

The seed saves each table with ``json.dump(table, f, indent=4, ensure_ascii=False)``; JSON
turns ``idx_to_vocab``'s int keys into strings. We read the three files into a chars model
(algorithm ``seed000-greedy``, ``</w>`` as a separate end-of-word symbol, tokens by idx) and
write them back byte for byte: dict orders are kept, so ``write(read(folder))`` reproduces the
seed's files exactly (with ``\\n`` newlines, as the seed writes them on Linux/macOS).

The files do not say which pair made a merged subword, so a model read from them has no merge
list (lineage shows its tokens as leaves); a model trained here keeps its merges.

>>> tables = seed000_tables_of(_example())
>>> list(tables["idx_to_vocab.json"].items())[:2]
[('0', 'a</w>'), ('1', '<line/>')]
"""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, Dict, List, Optional

from bpe_core.base.file_errors import not_utf8, read_error, wide_text_message
from bpe_core.formats.atomic import atomic_write_files, encode_text
from bpe_core.formats.json_text import parse_json
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError

FILES = ("freqs.json", "vocab_to_idx.json", "idx_to_vocab.json")
SPECIALS = ("<line/>", "</line>", "<pad>", "<unk>")
EOW = "</w>"


def _load(folder: Path, name: str) -> Dict[str, Any]:
    file = folder / name
    if not file.is_file():
        raise BPELensError(f"{folder}: missing {name} (a seed-000 vocabulary folder holds {', '.join(FILES)})")
    try:
        raw = file.read_bytes()
        wide = wide_text_message(str(file), raw[:8192])
        if wide is not None:
            raise BPELensError(wide)
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BPELensError(not_utf8(file, exc.start)) from exc
    except OSError as exc:
        raise read_error(file, exc) from exc
    try:
        data = parse_json(text, str(file))
    except json.JSONDecodeError as exc:
        raise BPELensError(f"{file}: invalid JSON at line {exc.lineno} column {exc.colno} ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise BPELensError(f"{file}: expected a JSON object, found {type(data).__name__}")
    return data


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_seed000(folder) -> BPEModel:
    """Read seed 000's three tables; BPELensError names a missing file or a bad entry."""
    folder = Path(folder)
    if not folder.is_dir():
        raise BPELensError(f"{folder}: not a folder (seed 000 saves {', '.join(FILES)} into a folder)")
    freqs, v2i, i2v = (_load(folder, name) for name in FILES)
    for key, value in freqs.items():
        if not _is_int(value):
            raise BPELensError(f"{folder / 'freqs.json'}: count of {key!r} is {value!r}, not an integer")
    for key, value in v2i.items():
        if not _is_int(value) or value < 0:
            raise BPELensError(f"{folder / 'vocab_to_idx.json'}: id of {key!r} is {value!r}, not an id")
    top = max(v2i.values(), default=-1)
    if top > 4 * len(v2i) + 1000:  # a stray huge id would make a giant, mostly empty table
        raise BPELensError(f"{folder / 'vocab_to_idx.json'}: id {top} is far beyond its {len(v2i)} entries")
    tokens: List[Optional[str]] = [None] * (top + 1)
    for key, value in i2v.items():
        if not key.isdigit() or not isinstance(value, str):
            raise BPELensError(f"{folder / 'idx_to_vocab.json'}: entry {key!r}: {value!r} is not id: token")
        if v2i.get(value) != int(key):
            raise BPELensError(f"{folder}: idx_to_vocab.json maps {key} to {value!r} but vocab_to_idx.json "
                               f"maps it to {v2i.get(value)!r}")
    for token, i in v2i.items():
        if tokens[i] is not None:
            raise BPELensError(f"{folder / 'vocab_to_idx.json'}: id {i} is given to {tokens[i]!r} and {token!r}")
        if i2v.get(str(i)) != token:
            raise BPELensError(f"{folder}: vocab_to_idx.json maps {token!r} to {i} but idx_to_vocab.json "
                               f"has {i2v.get(str(i))!r} there")
        tokens[i] = token
    missing = [s for s in SPECIALS if s not in v2i]
    if missing:
        raise BPELensError(f"{folder / 'vocab_to_idx.json'}: missing the seed's special token(s) {', '.join(missing)}")
    extras: Dict[str, Any] = {"freqs": freqs, "vocab_to_idx": v2i, "vocab_size_seed": len(v2i)}
    if list(i2v) != [str(i) for i in v2i.values()]:
        extras["idx_to_vocab_order"] = list(i2v)  # not the seed's own order; keep it for writing
    return BPEModel(unit="chars", tokens=tokens, specials={s: v2i[s] for s in SPECIALS},
                    pipeline=_seed_pipeline(), algorithm="seed000-greedy", end_of_word_suffix=EOW,
                    unk_id=v2i["<unk>"], name=folder.name, source_format="seed000",
                    config=_seed_config(), extras=extras)


def _seed_config() -> Dict[str, Any]:
    try:
        from bpe_core.presets import make_config
    except ImportError:  # presets not available: still a usable model
        return {"preset": "nltk-wordpunct", "pretokenizer": "punkt-wordpunct", "end_of_word_suffix": EOW}
    cfg = asdict(make_config("nltk-wordpunct"))
    cfg["special_tokens"] = list(cfg["special_tokens"])
    return cfg


def _seed_pipeline():
    try:
        from bpe_core.pipelines.chain import Pipeline
        from bpe_core.presets import make_config
    except ImportError:
        return None
    # Seed 000 never matches its specials in text; they only frame sentences.
    return Pipeline(make_config("nltk-wordpunct"), {})


# -- writing ------------------------------------------------------------------------------
def seed000_tables_of(model: BPEModel) -> Dict[str, Dict[str, Any]]:
    """The three tables as seed 000 would ``json.dump`` them (keys as JSON strings).

    A model read from the trio or trained with the seed's preset carries the seed's own
    ``freqs``/``vocab_to_idx``. Any other chars model with a separate ``</w>`` symbol gets a
    table on which the seed's greedy encoder applies merges in rank order: a merged token's
    value is higher the earlier its merge (the greedy encoder picks the highest value).
    """
    if model.unit != "chars":
        raise BPELensError("seed 000's files hold character tokens; this is a byte-level vocabulary")
    freqs = model.extras.get("freqs")
    v2i = model.extras.get("vocab_to_idx")
    if freqs is None or v2i is None:
        freqs, v2i = _synthesize(model)
    order = model.extras.get("idx_to_vocab_order")
    by_id = {str(i): t for t, i in v2i.items()}
    i2v = {k: by_id[k] for k in order} if order and sorted(order) == sorted(by_id) else by_id
    return {"freqs.json": dict(freqs), "vocab_to_idx.json": dict(v2i), "idx_to_vocab.json": i2v}


def _synthesize(model: BPEModel):
    if model.end_of_word_suffix != EOW:
        found = repr(model.end_of_word_suffix) if model.end_of_word_suffix else "no separate end-of-word symbol"
        raise BPELensError(f"seed 000's encoder appends '{EOW}' to every word as its own symbol; "
                           f"this vocabulary has {found}")
    v2i: Dict[str, int] = {}
    for i, tok in enumerate(model.tokens):
        if isinstance(tok, str) and tok not in v2i:
            v2i[tok] = i
    next_id = len(model.tokens)
    for special in SPECIALS:  # the seed's encoder looks these up and fails without them
        if special not in v2i:
            v2i[special] = next_id
            next_id += 1
    n = len(model.merges)
    value = {tid: n + 2 - rank for tid, rank in model.created_by.items()}
    freqs = {tok: value.get(i, 1) for tok, i in v2i.items()}
    return freqs, v2i


def seed000_texts(model: BPEModel) -> Dict[str, str]:
    """File name -> exact file text."""
    return {name: json.dumps(table, indent=4, ensure_ascii=False)
            for name, table in seed000_tables_of(model).items()}


def write_seed000(model: BPEModel, folder) -> None:
    """Write the three files into ``folder`` (created if needed) as one atomic save."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise BPELensError(f"{folder}: exists and is not a folder (seed 000's vocabulary is a folder)")
    texts = seed000_texts(model)  # all three computed before anything is written
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BPELensError(f"{folder}: cannot create the folder ({exc.strerror or exc})") from exc
    atomic_write_files({folder / name: encode_text(folder / name, text) for name, text in texts.items()})


def _example() -> BPEModel:
    return BPEModel(unit="chars", tokens=["a</w>", "<line/>", "</line>", "<pad>", "<unk>"],
                    algorithm="seed000-greedy", end_of_word_suffix=EOW,
                    extras={"freqs": {"a</w>": 2, "<line/>": 1, "</line>": 1, "<pad>": 1, "<unk>": 1},
                            "vocab_to_idx": {"a</w>": 0, "<line/>": 1, "</line>": 2, "<pad>": 3, "<unk>": 4}})
