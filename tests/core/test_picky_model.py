"""A PickyBPE BPEModel (algorithm "picky": merges, removals, token freqs) against the reference's goldens.

The goldens (tests/data/variants/picky/, made by running pchizhov/picky_bpe itself: tests/data/README.md)
hold each run's events, its model file's token list and SHA-256, and ``picky_tokenize.py``'s encoding of a
held-out slice. :func:`golden_model` builds the BPEModel from a golden's ``events`` and ``tokens`` alone
(no trainer), as the Trainer's ``model()`` describes a picky run; then:

- ``Encoder(model)`` (the event replay of bpe_core.encoding.picky, through the model's pipeline) gives the
  reference tokenizer's output, token for token, with spans into the text;
- ``picky_text(model)`` is the reference's model file byte for byte (its SHA-256), and reading it back
  (``open_vocabulary``, detected by content) gives the same model and encoding.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.picky_file import PickyWords, SPECIALS, model_of_picky, picky_text
from bpe_core.model import BPEModel
from .paths import need

PICKY = Path(__file__).resolve().parents[1] / "data" / "variants" / "picky"
GOLDENS = sorted(p for p in PICKY.glob("*.json") if p.stem != "small")
SMALL = [c for c in json.loads((PICKY / "small.json").read_text(encoding="utf-8"))["cases"] if "error" not in c]


def golden_model(golden: dict) -> BPEModel:
    """The BPEModel of a golden run, from its ``tokens`` ([id, str, final freq, present]) and ``events``
    (["m", left, right, new, count, merged] / ["s", token, split, freq, merged])."""
    tokens = [None] * (max(t[0] for t in golden["tokens"]) + 1)
    freqs = [0] * len(tokens)
    for tid, s, freq, _ in golden["tokens"]:
        tokens[tid], freqs[tid] = s, freq
    ids = {s: i for i, s in enumerate(tokens)}
    merges, counts, removals = [], [], []
    for e in golden["events"]:
        if e[0] == "m":
            merges.append((ids[e[1]], ids[e[2]]))
            counts.append(e[4])
        else:
            removals.append((len(merges), ids[e[1]], tuple(ids[s] for s in e[2])))
    return BPEModel(unit="chars", tokens=tokens, merges=merges, merge_counts=counts,
                    specials={s: i for i, s in enumerate(SPECIALS)}, unk_id=1, pipeline=PickyWords(),
                    algorithm="picky", removals=removals, extras={"token_freqs": freqs})


def slice_text(spec: dict) -> str:
    lines = need(spec["path"]).read_bytes().splitlines(keepends=True)
    data = b"".join(lines[spec["lines"][0]:spec["lines"][1]])
    assert hashlib.sha256(data).hexdigest() == spec["sha256"], f"{spec['path']} has changed"
    return data.decode("utf-8")


def held_lines(golden: dict) -> list:
    held = slice_text(golden["heldout"]).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return held[:-1] if held and held[-1] == "" else held


def encoded_lines(model: BPEModel, lines) -> list:
    encoder = Encoder(model)
    return [" ".join(t.raw for t in encoder.encode(line).tokens) for line in lines]


@pytest.mark.parametrize("path", GOLDENS, ids=[p.stem for p in GOLDENS])
def test_a_picky_model_encodes_and_writes_as_the_reference(path, tmp_path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    model = golden_model(golden)
    lines = held_lines(golden)
    assert encoded_lines(model, lines) == golden["encoding"]
    text = picky_text(model)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == golden["model_sha256"], "model file differs"
    from bpe_core.formats.detect import detect_format, open_vocabulary
    (tmp_path / "model.json").write_text(text, encoding="utf-8")
    assert detect_format(tmp_path / "model.json") == "picky"
    back = open_vocabulary(tmp_path / "model.json")
    assert (back.tokens, back.merges, back.removals) == (model.tokens, model.merges, model.removals)
    assert back.extras["token_freqs"] == model.extras["token_freqs"]
    assert encoded_lines(back, lines) == golden["encoding"]


@pytest.mark.parametrize("case", SMALL, ids=[str(c["seed"]) for c in SMALL])
def test_small_texts_rare_paths(case):
    """Restores, removals of A when A is B, merges forming a present string: encoding and model file."""
    model = golden_model(case)
    assert encoded_lines(model, case["text"].split("\n")[:-1]) == case["encoding"]
    assert hashlib.sha256(picky_text(model).encode("utf-8")).hexdigest() == case["model_sha256"]


def test_spans_cover_the_words_and_ids_agree():
    """Spans point into the text (the ▁ shares its word's first character), encode_ids is encode's ids."""
    golden = json.loads(GOLDENS[0].read_text(encoding="utf-8"))
    model = golden_model(golden)
    text = "  ".join(held_lines(golden)[:40])
    enc = Encoder(model).encode(text)
    assert [t.id for t in enc.tokens] == Encoder(model).encode_ids(text)
    for t in enc.tokens:
        shown = t.raw.lstrip("▁") if t.raw not in SPECIALS else None
        if shown:
            assert text[t.start:t.end] == shown or t.raw.startswith("▁") and text[t.start:t.end].startswith(shown[:1])
    words = text.split()
    starts = [enc.tokens[i].start for i in enc.starts]
    assert len(starts) == len(words) and all(text[s:].startswith(w) for s, w in zip(starts, words))


def test_merges_limit_encodes_as_of_that_merge():
    """As of merge k: only the events up to merge k and its removals (a removed token stays split)."""
    golden = json.loads((PICKY / "shakespeare_t0.6.json").read_text(encoding="utf-8"))
    model = golden_model(golden)
    rank, tid, _ = model.removals[0]
    word = model.tokens[tid]
    assert Encoder(model, merges_limit=rank - 1).encode_ids(word[1:]) == [tid]  # made, not yet removed
    assert tid not in Encoder(model, merges_limit=rank).encode_ids(word[1:])  # removed right after merge k
    assert Encoder(model, merges_limit=0).encode_ids("ab") == [model.vocab["▁"], model.vocab["a"], model.vocab["b"]]


def test_a_model_file_that_is_not_one_is_refused_in_a_sentence(tmp_path):
    from bpe_core.types import BPELensError
    golden = json.loads((PICKY / "small.json").read_text(encoding="utf-8"))["cases"][0]
    data = json.loads(picky_text(golden_model(golden)))
    data["merges"][0]["pair"][0]["id"] = 10_000
    with pytest.raises(BPELensError, match="names a token id the file does not list"):
        model_of_picky(data, "m.json")
    data["merges"] = "x"
    with pytest.raises(BPELensError, match="not a PickyBPE model file"):
        model_of_picky(data, "m.json")
