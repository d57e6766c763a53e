"""The standalone PickyBPE trainer against goldens made by the authors' own code (pchizhov/picky_bpe).

The goldens (tests/data/variants/picky/, made by scripts/make_picky_goldens.py) hold, for each corpus
slice and threshold, the reference's initial characters, every merge (pair, count in its pair table,
frequency actually merged) and removal (token, split, its frequency and the merged frequency) with its
event number, the tie at each merge (how many pairs had the top count and a digest of their set), the
final token list of its model file, the SHA-256 of that file, and picky_tokenize.py's encoding of a
held-out slice.

What is compared, and what cannot be: the reference picks, among pairs tied at the top count, the one
that entered its pair table first. New pairs enter the table while it iterates Python *sets* of Word
objects, which hash by memory address, so the relative order of pairs that entered in the same update
after a merge or a removal is not determined by the code (it can change from run to run). At every
merge this test checks that the tied set is the same (size and digest); when the first tied pair is
alone in its update, or its update is ordered by the code itself (the initial table, a split's inner
pairs), the trainer's own choice must be the reference's. Otherwise the reference's choice must be one
of the tied pairs of that same update, and the trainer is told to follow it (``step(pair)``); the
number of such steps is reported in each golden's check. Everything else (counts, merged frequencies,
removals and their events, final frequencies and presence, the model file byte for byte, encodings by
the trainer's encoder and by one read back from the model file) must be identical.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bpe_core.variants.picky import PickyTrainer
from bpe_core.variants.picky_model import encoder_of_model, model_text
from .paths import need

PICKY = Path(__file__).resolve().parents[1] / "data" / "variants" / "picky"
GOLDENS = sorted(p for p in PICKY.glob("*.json") if p.stem != "small")
SMALL = json.loads((PICKY / "small.json").read_text(encoding="utf-8"))["cases"]


def tie_digest(pairs) -> str:
    lines = sorted(f"{left}\t{right}" for left, right in pairs)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def slice_text(spec: dict) -> str:
    path = need(spec["path"])
    lines = path.read_bytes().splitlines(keepends=True)
    data = b"".join(lines[spec["lines"][0]:spec["lines"][1]])
    assert hashlib.sha256(data).hexdigest() == spec["sha256"], f"{spec['path']} has changed"
    return data.decode("utf-8")


def replay(golden: dict, trainer: PickyTrainer) -> int:
    """Step the trainer through the golden's events; return the number of set-ordered ties followed."""
    followed = 0
    events = golden["events"]
    merge_index = 0
    i = 0
    while i < len(events):
        kind, left, right, new, count, actual = events[i]
        assert kind == "m", f"event {i}: a removal the trainer did not make"
        tied = trainer.candidates()
        n, digest = golden["ties"].get(str(merge_index), [1, None])
        assert len(tied) == n, f"merge {merge_index}: {len(tied)} pairs tied at the top, reference {n}"
        if digest is not None:
            assert tie_digest([(c.left, c.right) for c in tied]) == digest, f"merge {merge_index}: tied sets differ"
        first = tied[0]
        if (first.left, first.right) != (left, right):
            same_update = [(c.left, c.right) for c in tied if c.batch == first.batch]
            assert first.set_ordered and len(same_update) > 1, f"merge {merge_index}: order was determined"
            assert (left, right) in same_update, f"merge {merge_index}: {left}+{right} not in the first update"
            followed += 1
        step = trainer.step((left, right))
        assert (step.event, step.new, step.count, step.actual) == (i, new, count, actual), f"merge {merge_index}"
        i += 1
        for removal in step.removals:
            assert i < len(events) and events[i][0] == "s", (
                f"event {i}: the trainer removed {removal.token}, the reference did not")
            _, token, split, freq, merged = events[i]
            assert (removal.event, removal.token, list(removal.split), removal.freq, removal.merged) == (
                i, token, split, freq, merged), f"event {i}"
            i += 1
        merge_index += 1
    assert trainer.done, "the reference stopped here, the trainer would go on"
    return followed


@pytest.mark.parametrize("path", GOLDENS, ids=[p.stem for p in GOLDENS])
def test_trainer_and_encoder_match_the_reference(path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    settings = golden["settings"]
    trainer = PickyTrainer(slice_text(golden["train"]), settings["vocab_size"], settings["threshold"],
                           coverage=settings["coverage"])
    assert [[s, f] for _, s, f, _ in trainer.tokens()[4:]] == golden["initial"]
    followed = replay(golden, trainer)
    assert [list(t) for t in trainer.tokens()] == golden["tokens"]
    text = model_text(trainer)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == golden["model_sha256"], "model file differs"
    held = slice_text(golden["heldout"]).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if held and held[-1] == "":
        held.pop()
    for encoder in (trainer.encoder(), encoder_of_model(json.loads(text))):
        assert [" ".join(encoder.encode_line(line)) for line in held] == golden["encoding"]
    print(f"{path.stem}: {len(trainer.steps)} merges, {followed} set-ordered ties followed")


@pytest.mark.parametrize("case", SMALL, ids=[str(c["seed"]) for c in SMALL])
def test_small_texts_match_the_reference_on_its_rare_paths(case):
    """Small random texts (scripts/make_picky_goldens.py ``small_text``): restores, removals of A when A is
    B, merges that form a string already present (the reference's pair counts drift then, and so do the
    trainer's), and a text where the reference crashes on an empty pair table, where the trainer stops."""
    trainer = PickyTrainer(case["text"], case["vocab_size"], case["threshold"])
    if "error" in case:
        steps = trainer.train()
        assert [[s.count, s.actual] for s in steps] == case["events"] and trainer.size < case["vocab_size"]
        return
    assert [[s, f] for _, s, f, _ in trainer.tokens()[4:]] == case["initial"]
    replay(case, trainer)
    assert [list(t) for t in trainer.tokens()] == case["tokens"]
    text = model_text(trainer)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == case["model_sha256"]
    encoder = encoder_of_model(json.loads(text))
    assert [" ".join(encoder.encode_line(line)) for line in case["text"].split("\n")[:-1]] == case["encoding"]


def test_the_small_texts_reach_the_rare_paths():
    """At least one small text makes a merge whose string is already present, restores a token, and
    crashes the reference."""
    additional = restored = 0
    for case in SMALL:
        made = {}
        for e in case["events"]:
            if e[0] == "m":
                additional += made.get(e[3]) is True
                restored += made.get(e[3]) is False
                made[e[3]] = True
            elif e[0] == "s":
                made[e[1]] = False
    assert additional >= 15 and restored > 0 and any("error" in c for c in SMALL)


def test_goldens_are_present():
    assert len(GOLDENS) == 6, [p.name for p in GOLDENS]
