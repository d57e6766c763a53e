"""A SuperBPE continuation stops where SuperBPE's own trainer stops, at the vocabulary size; its merge index
(the parent's t, then its own merges) runs past the parent's by the inherited merges its replay left out."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bpe_core.presets import make_config
from bpe_core.workbench import RunCorpus, TrainingRun, continue_run, left_out, superbpe_config

pytest.importorskip("bpe_core.training.superbpe")


@pytest.fixture
def years(tmp_path):
    r = random.Random(7)
    words = "the cat sat on a mat and dog ran in year of big red old new house river".split()
    lines = [" ".join(r.choice(words) if r.random() > 0.25 else str(r.choice([1999, 2001, 1998, 2010, 12, 19]))
                      for _ in range(r.randint(5, 12))) + "." for _ in range(300)]
    path = tmp_path / "years.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("stop", [dict(vocab_size=330), dict(num_merges=73)])
def test_a_branch_reaches_the_runs_vocabulary_its_left_out_merges_later(years, stop):
    cfg = replace(make_config("gpt2"), **stop)
    parent = TrainingRun.open("r1", RunCorpus((years,)), cfg)
    parent.timeline.step(10_000)
    end = parent.timeline.merge_count
    assert (end, parent.timeline.vocab_size, parent.vocab_target, left_out(parent)) == (73, 330, 330, 0)
    for t in (30, 50):
        branch = continue_run("r2", parent, t, superbpe_config(cfg, t))
        model = parent.timeline.model().truncated(t)
        # the inherited merges whose new token the branch lacks: pairs that never form in stage 2's units
        kept = set(branch.timeline.base_model.tokens)
        dropped = sum(model.tokens[a] + model.tokens[b] not in kept for a, b in model.merges)
        assert dropped > 0 and left_out(branch) == dropped
        assert branch.vocab_target == 330
        branch.timeline.step(10_000)
        assert branch.timeline.vocab_size == 330 and len(branch.timeline.model().merges) == end
        assert t + branch.timeline.merge_count == end + left_out(branch)


def test_picky_with_a_number_of_merges_has_no_vocabulary_target(years):
    run = TrainingRun.open("r1", RunCorpus((years,)), make_config("gpt2", variant="picky", ios_threshold=0.9,
                                                                  num_merges=20))
    assert run.vocab_target is None and left_out(run) == 0
