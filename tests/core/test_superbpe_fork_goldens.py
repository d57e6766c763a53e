"""SuperBPE stage 2 against the authors' fork's own run (tests/data/variants/superbpe/stage2.json).

The goldens were made by the fork alisawuffles/tokenizers-superbpe at 757f2a5 (its Rust ``do_train_extend``,
built offline: tests/data/README.md, "SuperBPE goldens") on wiki.valid.raw with vocabulary 2,000, after the
authors' ``head -n t merges.txt`` at t = 1,000 and 1,500; the held-out encodings come from the
tokenizer.json the fork wrote, encoded by stock ``tokenizers`` 0.20.1 and 0.23.3 and by the fork's own encoder. The authors' t counts the ``#version``
line, so our transition is t − 1.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpe_core.base.symbols import to_glyphs
from bpe_core.encoding.encoder import Encoder
from bpe_core.presets import make_config
from bpe_core.training.superbpe import superbpe_trainer
from bpe_core.training.trainer import Trainer
from tests.core.run_ways import run_as

GOLD = Path(__file__).resolve().parents[1] / "data" / "variants" / "superbpe" / "stage2.json"


def gold() -> dict:
    return json.loads(GOLD.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def stage1(real):
    """Stage 1 once, to the full vocabulary, as the authors train it before cutting it with head -n t."""
    doc = gold()
    path = str(real.path(doc["corpus"]["train"]))
    trainer = Trainer.from_corpus(path, make_config("superbpe", vocab_size=doc["setting"]["vocab_size"]))
    trainer.run()
    return doc, path, trainer.model()


@pytest.fixture(scope="module", params=[("1000", "steps"), ("1000", "flat"), ("1500", "steps"), ("1500", "flat")],
                ids=lambda p: "-".join(p))
def run(request, stage1):
    """Our stage 2 at the authors' t: the fork's inherited merges are the first t − 1 of stage 1; trained step by
    step on the pair index (the app's way) and over flat arrays (the ``train`` command's way, forced here)."""
    doc, path, full = stage1
    t, way = request.param
    entry = doc["transitions"][t]
    assert entry["fork_ran"] and entry["deterministic_two_runs"]
    cfg = make_config("superbpe", variant="superbpe", transition=entry["inherited_merges"],
                      vocab_size=doc["setting"]["vocab_size"])
    trainer = superbpe_trainer(path, cfg, full.truncated(entry["inherited_merges"]), lazy_index=way == "flat")
    run_as(trainer, way)
    return doc, entry, trainer


def test_stage2_merges_are_the_forks(run) -> None:
    _, entry, trainer = run
    model = trainer.model()
    ours = [f"{to_glyphs(model.tokens[a])} {to_glyphs(model.tokens[b])}" for a, b in model.merges]
    assert ours == entry["merges"]
    kept = [f"{to_glyphs(model.tokens[a])} {to_glyphs(model.tokens[b])}" for a, b in trainer.base_merges]
    assert len(kept) == entry["inherited_kept"] and entry["inherited_dropped"] == ["Ġ Ċ"]
    assert any(m.count("Ġ") >= 3 for m in ours[len(kept):])  # superwords were learned


def test_stage2_vocabulary_is_the_forks(run) -> None:
    _, entry, trainer = run
    assert {to_glyphs(t): i for i, t in enumerate(trainer.model().tokens)} == entry["vocab"]


def test_stage2_encodes_the_held_out_text_as_the_forks_tokenizer(run) -> None:
    doc, entry, trainer = run
    want = entry["encode_heldout"]["reference"]
    for other in ("stock", "fork"):  # tokenizers 0.20.1, today's, and the fork's own encoder agree
        assert entry["encode_heldout"][other]["ids"] == want["ids"]
    model = trainer.model()
    got = Encoder(model).encode_ids(doc["heldout_text"])
    assert got == want["ids"]
    assert [to_glyphs(model.tokens[i]) for i in got] == want["tokens"]
