"""SuperBPE's stage-2 setup, work counted: the replay's segmentations are taken as they are.

The replay (:func:`bpe_core.training.superbpe.inherit`) merges each stage-2 unit by the inherited merges
once; the stage-2 trainer then starts from those ids. It must not map every symbol again nor apply the
inherited merges to every unit a second time (on the 17.6 MB corpus the setup took 14.8 s so, 5.6 s without): the
symbols the setup's :func:`~bpe_core.base.merge.segment_all` reads stay at 0 as the corpus doubles, and the
pair index reads each replayed token once. That the replay's ids are final is checked too: merging them
again by the kept merges changes nothing.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import bpe_core.training.trainer as trainer_module
from bpe_core.base.merge import merge_table, segment_all
from bpe_core.presets import make_config
from bpe_core.training.superbpe import stage1_config, superbpe_trainer
from bpe_core.training.trainer import Trainer


def _corpus(real, tmp_path: Path, lines: int) -> Path:
    with open(real.path("wikitext-2-raw/wiki.valid.raw"), encoding="utf-8", newline="") as f:
        text = "".join(f.readline() for _ in range(lines))
    out = tmp_path / f"corpus{lines}.txt"
    out.write_text(text, encoding="utf-8", newline="")
    return out


@pytest.mark.parametrize("preset", ["gpt2", "superbpe"])
def test_the_setup_does_not_merge_the_units_again(real, tmp_path, monkeypatch, preset: str) -> None:
    read = []

    def counting(words, table):
        read.append(sum(map(len, words)))
        return segment_all(words, table)

    monkeypatch.setattr(trainer_module, "segment_all", counting)
    tokens = []
    for lines in (200, 400, 800):
        path = _corpus(real, tmp_path, lines)
        cfg = make_config(preset, variant="superbpe", transition=150, vocab_size=900)
        stage1 = Trainer.from_corpus(str(path), stage1_config(cfg))
        stage1.run()
        trainer = superbpe_trainer(path, cfg, stage1.model())
        segs = [list(trainer.segmentation(i)) for i in range(len(trainer.words))]
        tokens.append(sum(map(len, segs)))
        assert trainer.pair_index.scanned == tokens[-1]  # each replayed token read once by the first count
        tok = trainer.model().tokens
        made = [tok.index(tok[a] + tok[b]) for a, b in trainer.base_merges]
        assert segment_all(segs, merge_table(trainer.base_merges, made)) == segs  # the replay's ids are final
        assert all(isinstance(i, int) and 0 <= i < trainer.token_count for s in segs for i in s)
    assert tokens[0] < tokens[1] < tokens[2]
    assert read == []  # the inherited merges are not applied to the units a second time
