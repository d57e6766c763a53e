"""PickyBPE as the Trainer's rule (``variants.picky_model.reference_trainer``) against goldens made by the
authors' own code (pchizhov/picky_bpe). PickyBPE has one home, bpe_core/training/picky.py: the standalone
trainer that was checked here before (bpe_core/variants/picky.py) is gone, and every assertion it made
about the goldens is made here about the Trainer.

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
of the tied pairs of that same update, and the trainer is told to follow it (``step(pair=...)``); the
number of such steps is reported in each golden's check. Everything else (counts, merged frequencies,
removals and their events, final frequencies and presence, the model file byte for byte, encodings by
the trainer's model and by one read back from the model file) must be identical.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.picky_file import picky_text
from bpe_core.training.pairs import MASK, SHIFT
from bpe_core.training.trainer import Trainer
from bpe_core.variants.picky_model import encoder_of_model, reference_model, reference_trainer
from .paths import need

PICKY = Path(__file__).resolve().parents[1] / "data" / "variants" / "picky"
GOLDENS = sorted(p for p in PICKY.glob("*.json") if p.stem != "small")
SMALL = json.loads((PICKY / "small.json").read_text(encoding="utf-8"))["cases"]
ROOT = Path(__file__).resolve().parents[2]


def tie_digest(pairs) -> str:
    lines = sorted(f"{left}\t{right}" for left, right in pairs)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def slice_text(spec: dict) -> str:
    path = need(spec["path"])
    lines = path.read_bytes().splitlines(keepends=True)
    data = b"".join(lines[spec["lines"][0]:spec["lines"][1]])
    assert hashlib.sha256(data).hexdigest() == spec["sha256"], f"{spec['path']} has changed"
    return data.decode("utf-8")


def top_allowed(t: Trainer) -> list:
    """The pairs tied at the top count among those the trainer may merge (no special), best first."""
    idx, taken, out = t.pair_index, [], []
    while True:
        best = idx.pop_best()
        if best is None:
            break
        taken.append(best)
        if t._refuse(best[0] >> SHIFT, best[0] & MASK):
            continue
        if out and best[1] != out[0][1]:
            break
        if best not in out:
            out.append(best)
    for k, c in taken:
        idx.push_back(k, c)
    return [k for k, _ in out]



def replay(golden: dict, t: Trainer) -> int:
    """Step the trainer through the golden's events; return the number of set-ordered ties followed."""
    order, serial, events = t._rules.order, t.pair_index.serial, golden["events"]
    followed = merge_index = i = 0
    while i < len(events):
        kind, left, right, new, count, actual = events[i]
        assert kind == "m", f"event {i}: a removal the trainer did not make"
        tied = top_allowed(t)
        n, digest = golden["ties"].get(str(merge_index), [1, None])
        assert len(tied) == n, f"merge {merge_index}: {len(tied)} pairs tied at the top, reference {n}"
        if digest is not None:
            names = [(t.display(k >> SHIFT), t.display(k & MASK)) for k in tied]
            assert tie_digest(names) == digest, f"merge {merge_index}: tied sets differ"
        want = (t.id_of(left), t.id_of(right))
        key = (want[0] << SHIFT) | want[1]
        if tied[0] != key:
            mine = order.batch_of(serial[tied[0]])
            same_update = [k for k in tied if order.batch_of(serial[k]) == mine]
            assert mine[1] and len(same_update) > 1, f"merge {merge_index}: order was determined"
            assert key in same_update, f"merge {merge_index}: {left}+{right} not in the first update"
            followed += 1
        known = t.id_of(new)
        before = t._rules.freq[known] if known is not None else 0
        step = t.step(pair=want)
        got = (i, t.display(step.new_id), step.count, t._rules.freq[step.new_id] - before)
        assert got == (i, new, count, actual), f"merge {merge_index}"
        i += 1
        for r in step.removals:
            assert i < len(events) and events[i][0] == "s", (
                f"event {i}: the trainer removed {t.display(r.token_id)}, the reference did not")
            got = [i, t.display(r.token_id), [t.display(x) for x in r.split], r.freq - r.merged, r.merged]
            assert got == [i, *events[i][1:]], f"event {i}"
            i += 1
        merge_index += 1
    events = golden["events"]
    size = golden["settings"]["vocab_size"] if "settings" in golden else golden["vocab_size"]
    counted = 4 + len(golden["initial"]) + sum(1 if e[0] == "m" else -1 for e in events)  # the reference's count
    if counted >= size and additional_merges(events):
        # the reference stopped by its own count, which adds one for a merge that formed a present token;
        # the Trainer counts the tokens present (docs/variants.md), so it is below the size here
        assert t.vocab_size < size, "the reference stopped by its count"
    else:  # the reference stopped by size or on an empty (or drifted to <= 0) pair table: so does the trainer
        assert t.step() is None, "the reference stopped here, the trainer would go on"
    return followed


def additional_merges(events) -> int:
    """How many merges formed a token that was present already (the reference adds one to its size each)."""
    made, again = {}, 0
    for e in events:
        if e[0] == "m":
            again += made.get(e[3]) is True
            made[e[3]] = True
        else:
            made[e[1]] = False
    return again


def final_tokens(t: Trainer) -> list:
    """Every token ever made as the reference's model file lists them: [id, str, freq, present]."""
    rules = t._rules
    return [[i, t.display(i), rules.freq[i], rules.present[i]] for i in range(len(rules.freq))]


def initial(t: Trainer) -> list:
    return [[t.display(i), t._rules.freq[i]] for i in range(4, t.initial_vocab_size)]


def line_encodings(encoder, lines) -> list:
    return [" ".join(encoder.encode_line(line)) for line in lines]


def model_encodings(t: Trainer, lines) -> list:
    encoder = Encoder(reference_model(t))
    return [" ".join(t.raw for t in encoder.encode(line).tokens) for line in lines]


@pytest.mark.parametrize("path", GOLDENS, ids=[p.stem for p in GOLDENS])
def test_trainer_and_encoder_match_the_reference(path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    settings = golden["settings"]
    assert settings["coverage"] == 0.9999  # the rule's coverage (bpe_core.training.picky.COVERAGE)
    t = reference_trainer(slice_text(golden["train"]), settings["vocab_size"], settings["threshold"])
    assert initial(t) == golden["initial"]
    followed = replay(golden, t)
    assert final_tokens(t) == golden["tokens"]
    text = picky_text(reference_model(t))
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == golden["model_sha256"], "model file differs"
    held = slice_text(golden["heldout"]).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if held and held[-1] == "":
        held.pop()
    assert model_encodings(t, held) == golden["encoding"]
    assert line_encodings(encoder_of_model(json.loads(text)), held) == golden["encoding"]
    print(f"{path.stem}: {len(t.history)} merges, {followed} set-ordered ties followed")


@pytest.mark.parametrize("case", SMALL, ids=[str(c["seed"]) for c in SMALL])
def test_small_texts_match_the_reference_on_its_rare_paths(case):
    """Small random texts (scripts/make_picky_goldens.py ``small_text``): restores, removals of A when A is
    B, merges that form a string already present (the reference's pair counts drift then, and so do the
    trainer's), and a text where the reference crashes on an empty pair table, where the trainer stops."""
    t = reference_trainer(case["text"], case["vocab_size"], case["threshold"])
    if "error" in case:
        steps = []
        while True:
            freqs = list(t._rules.freq)
            step = t.step()
            if step is None:
                break
            before = freqs[step.new_id] if step.new_id < len(freqs) else 0
            steps.append([step.count, t._rules.freq[step.new_id] - before])
        assert steps == case["events"] and t.vocab_size < case["vocab_size"]
        assert t.stop_reason == "no_pairs"
        return
    assert initial(t) == case["initial"]
    replay(case, t)
    assert final_tokens(t) == case["tokens"]
    text = picky_text(reference_model(t))
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == case["model_sha256"]
    lines = case["text"].split("\n")[:-1]
    assert line_encodings(encoder_of_model(json.loads(text)), lines) == case["encoding"]
    assert model_encodings(t, lines) == case["encoding"]


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


def test_pickybpe_has_one_home_the_trainers_rule():
    """The standalone trainer is retired: no module of bpe_core is a second PickyBPE trainer, and nothing
    (library, tests, bench, scripts, docs) imports or names it."""
    assert importlib.util.find_spec("bpe_core.variants.picky") is None
    assert importlib.util.find_spec("bpe_core.variants.picky_encode") is None
    users = [p.relative_to(ROOT).as_posix() for folder in ("bpe_core", "tests", "bench", "scripts", "docs", "app")
             for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md") and p.name != Path(__file__).name
             and any(name in p.read_text(encoding="utf-8")
                     for name in ("PickyTrainer", "PickyEncoder", "variants.picky import", "variants.picky_encode"))]
    assert users == []
