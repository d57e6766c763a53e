"""The Trainer's picky rule (``TrainerConfig(variant="picky")``) gives a model that writes and encodes as the
reference: set up as the reference trains (``variants.picky_model.reference_trainer``), on the goldens' small texts (tests/data/variants/picky/small.json, made by pchizhov/picky_bpe), the
reference's words (``▁`` + each whitespace word, first-seen order, its four specials first), stepped through
the reference's merges (its choices at ties that set order decided), give the reference's removals, its model
file byte for byte (``picky_text(Trainer.model())``) and ``picky_tokenize.py``'s encoding.

The same on the six long goldens (tinyshakespeare and wiki.valid.raw slices, τ = 0.6, 0.9, 1.0: their rare
characters become ``<UNK>`` by the reference's coverage, which the Trainer's rule applies too), with the
held-out slices' encodings.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.detect import write_vocabulary
from bpe_core.formats.picky_file import picky_text
from bpe_core.training.trainer import Trainer
from bpe_core.variants.picky_model import reference_model, reference_trainer
from .test_picky_model import GOLDENS, SMALL, held_lines, slice_text


def reference_run(case: dict) -> Trainer:
    trainer = reference_trainer(case["text"], case["vocab_size"], case["threshold"])
    removed = []
    for e in case["events"]:
        if e[0] == "m":
            step = trainer.step(pair=(trainer._ids[e[1]], trainer._ids[e[2]]))
            assert step is not None and step.count == e[4], f"merge {e[1]}+{e[2]}"
            removed += [(trainer.display(r.token_id), [trainer.display(x) for x in r.split]) for r in step.removals]
    assert removed == [(e[1], e[2]) for e in case["events"] if e[0] == "s"]
    return trainer


@pytest.mark.parametrize("path", GOLDENS, ids=[p.stem for p in GOLDENS])
def test_a_trainer_run_on_a_long_golden_writes_and_encodes_as_the_reference(path, tmp_path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    case = {"text": slice_text(golden["train"]), "vocab_size": golden["settings"]["vocab_size"],
            "threshold": golden["settings"]["threshold"], "events": golden["events"]}
    trainer = reference_run(case)
    assert trainer.step() is None, "the reference stopped here"
    model = reference_model(trainer)
    write_vocabulary(model, tmp_path / "model.json", "picky")
    assert hashlib.sha256((tmp_path / "model.json").read_bytes()).hexdigest() == golden["model_sha256"]
    encoder = Encoder(model)
    assert [" ".join(t.raw for t in encoder.encode(line).tokens) for line in held_lines(golden)] == golden["encoding"]


@pytest.mark.parametrize("case", SMALL, ids=[str(c["seed"]) for c in SMALL])
def test_a_trainer_run_writes_and_encodes_as_the_reference(case, tmp_path):
    model = reference_model(reference_run(case))
    assert hashlib.sha256(picky_text(model).encode("utf-8")).hexdigest() == case["model_sha256"]
    write_vocabulary(model, tmp_path / "model.json", "picky")
    assert hashlib.sha256((tmp_path / "model.json").read_bytes()).hexdigest() == case["model_sha256"]
    encoder = Encoder(model)
    lines = case["text"].split("\n")[:-1]
    assert [" ".join(t.raw for t in encoder.encode(line).tokens) for line in lines] == case["encoding"]


@pytest.mark.parametrize("preset", ["gpt2", "char-whitespace", "char-hf"])
def test_the_encoder_gives_each_training_word_the_trainers_own_segmentation(preset):
    """On any preset (bytes, a separate </w>, HF characters), a picky run's model encodes every word it was
    trained on as the run left it, removals included."""
    from pathlib import Path
    from bpe_core import make_config
    from bpe_core.pipelines.chain import Pipeline
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")[:20000]
    config = make_config(preset, variant="picky", ios_threshold=0.6)
    trainer = Trainer(dict(Counter(Pipeline(config).words(text))), config)
    trainer.run(merges=300)
    model = trainer.model()
    assert model.algorithm == "picky" and len(model.removals) >= 20
    encoder = Encoder(model)
    assert [encoder.encode_ids(w) for w in trainer.words] == [list(trainer.segmentation(i))
                                                              for i in range(len(trainer.words))]
