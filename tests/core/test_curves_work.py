"""The curves engine's work, counted (no timings): a whole curve costs about the evaluation text's pieces once
plus the pieces each merge changes, and each sample O(groups + distinct tokens), not the text."""
from dataclasses import replace

import pytest

from bpe_core.analysis.curve_engine import engine_curves, run_model
from bpe_core.analysis.curves import EvalText
from bpe_core.presets import make_config
from bpe_core.workbench.records import RunCorpus
from bpe_core.workbench.runs import TrainingRun

from .paths import need


@pytest.fixture(scope="module")
def lines():
    return need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.fixture(scope="module")
def model(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("work") / "train.txt"
    path.write_text("".join(lines[:1500]), encoding="utf-8")
    run = TrainingRun.open("r", RunCorpus((str(path),)), replace(make_config("gpt2"), num_merges=1500, vocab_size=None))
    run.timeline.step(1500)
    return run_model(run.timeline)[0]


def _work(model, text, every):
    work = {}
    engine_curves(model, [EvalText("eval", text)], every, work=work)
    return work


def test_doubling_the_evaluation_text_at_most_doubles_the_merge_work(model, lines):
    one = _work(model, "".join(lines[2000:2600]), 100)
    two = _work(model, "".join(lines[2000:3200]), 100)
    for key in ("pieces", "symbols"):
        assert one[key] > 1000
        assert two[key] / one[key] <= 2.3, (key, one[key], two[key])


def test_the_same_text_twice_costs_the_merges_nothing_more(model, lines):
    text = "".join(lines[2000:2600])
    one, two = _work(model, text, 100), _work(model, text + text, 100)
    assert (one["pieces"], one["symbols"]) == (two["pieces"], two["symbols"])  # distinct pieces are kept once


def test_halving_every_adds_samples_that_cost_the_table_not_the_text(model, lines):
    text = "".join(lines[2000:2600])
    coarse, fine = _work(model, text, 100), _work(model, text, 50)
    assert (coarse["pieces"], coarse["symbols"]) == (fine["pieces"], fine["symbols"])
    assert (coarse["samples"], fine["samples"]) == (16, 31)
    words = len(text.split())
    per_sample = fine["sample_tokens"] / fine["samples"]  # token-table entries read per sample
    assert per_sample <= 1500 + 257 and per_sample < words / 5
    assert fine["sample_tokens"] <= 2.1 * coarse["sample_tokens"]
