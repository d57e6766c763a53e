"""A SuperBPE branch saved in a workspace comes back with the settings it ran with: its saved settings are its
stage-2 trainer's (the stage-2 pre-tokenizer, ``num_merges`` already counted after its inherited merges), and the
restore derived stage 2 from them a second time, subtracting the inherited merges again. With a number of merges
set (the app's default), a branch from merge 300 of 2,000 came back stopping at 1,700, and one from merge 2,000
came back with none of its merges ("training stopped") - found by the user test of the wheel."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bpe_core.formats.workspace import saved_merges
from bpe_core.presets import make_config
from bpe_core.workbench import RunCorpus, TrainingRun, continue_run, superbpe_config
from bpe_core.workbench.restore import restore_run

pytest.importorskip("bpe_core.training.superbpe")


@pytest.fixture
def text(tmp_path):
    r = random.Random(11)
    words = "the cat sat on a mat and dog ran in year of big red old new house river".split()
    lines = [" ".join(r.choice(words) if r.random() > 0.2 else str(r.choice([1999, 2001, 12, 19]))
                      for _ in range(r.randint(5, 12))) + "." for _ in range(300)]
    path = tmp_path / "text.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("stop", [dict(num_merges=73), dict(vocab_size=330), dict(num_merges=73, vocab_size=400)])
@pytest.mark.parametrize("t,own", [(30, 5), (50, 0), (60, 2)])
def test_a_restored_superbpe_branch_runs_as_the_saved_one(text, stop, t, own):
    cfg = replace(make_config("gpt2"), **stop)
    parent = TrainingRun.open("r1", RunCorpus((text,)), cfg)
    parent.timeline.step(10_000)
    branch = continue_run("r2", parent, t, superbpe_config(cfg, t))
    branch.timeline.step(own)
    saved = branch.saved()
    restored, report = restore_run(saved, parent=parent)
    assert report.difference_text == "" or report.difference_text is None, report.difference_text
    assert restored.config == branch.config
    assert restored.vocab_target == branch.vocab_target
    assert restored.timeline.merge_count == branch.timeline.merge_count == min(own, branch.timeline.merge_count)
    for tl in (branch.timeline, restored.timeline):
        tl.step(10_000)
    assert saved_merges(restored.timeline.history) == saved_merges(branch.timeline.history)
    assert restored.timeline.vocab_size == branch.timeline.vocab_size


def test_stage_one_refuses_stage_twos_pre_tokenizer():
    from bpe_core.training.superbpe import STAGE2_PRETOKENIZER, stage1_config
    from bpe_core.types import BPELensError

    cfg = make_config("gpt2", variant="superbpe", transition=10, vocab_size=400)
    with pytest.raises(BPELensError, match="stage 1 cuts text into words"):
        stage1_config(replace(cfg, pretokenizer=STAGE2_PRETOKENIZER, pattern=None))
