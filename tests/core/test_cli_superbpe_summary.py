"""``train --variant superbpe``: the summary says what the file holds (issue 26's user test: "761 merges, vocab
1500" for a file of 1,243 merges, the stage-2 replay having dropped 18 of the 500 stage-1 merges as the fork
does), and a transition that leaves stage 2 no room is refused before any training when the settings tell
the alphabet (every byte: vocab size minus the alphabet floor)."""
from __future__ import annotations

from pathlib import Path

import pytest

from bpe_core.cli.commands import main
from bpe_core.formats.detect import open_vocabulary
from bpe_core.presets import make_config
from bpe_core.training.superbpe import stage1_config, superbpe_trainer
from bpe_core.training.trainer import Trainer


@pytest.fixture()
def corpus(real, tmp_path) -> Path:
    with open(real.path("wikitext-2-raw/wiki.valid.raw"), encoding="utf-8", newline="") as f:
        text = "".join(f.readline() for _ in range(300))
    path = tmp_path / "c.txt"
    path.write_text(text, encoding="utf-8", newline="")
    return path


def test_the_summary_counts_the_merges_the_file_holds(corpus: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "s.json"
    assert main(["train", str(corpus), "--preset", "gpt2", "--variant", "superbpe", "--transition", "400",
                 "--vocab-size", "1000", "-o", str(out)]) == 0
    model = open_vocabulary(out)
    cfg = make_config("gpt2", variant="superbpe", transition=400, vocab_size=1000)
    stage1 = Trainer.from_corpus(str(corpus), stage1_config(cfg))
    stage1.run()
    trainer = superbpe_trainer(corpus, cfg, stage1.model())
    kept, stage2 = len(trainer.base_merges), len(trainer.run())
    total = len(model.merges)
    assert total == kept + stage2 and 0 < kept < 400, "the replay should drop some stage-1 merges on this text"
    line = capsys.readouterr().err.replace("\r", "\n").splitlines()[-1]
    assert line.startswith(f"{out}: {total} merges (stage 1: {kept} of the 400 handed over kept, the "
                           f"replay dropped {400 - kept} as the fork does; stage 2: {stage2}), vocab 1000, "), line


def test_a_transition_with_no_room_left_is_refused_before_training(corpus: Path, tmp_path: Path, capsys,
                                                                   monkeypatch) -> None:
    runs = []
    real_run = Trainer.run
    monkeypatch.setattr(Trainer, "run", lambda self, *a, **k: runs.append(self) or real_run(self, *a, **k))
    out = tmp_path / "x.json"
    assert main(["train", str(corpus), "--preset", "gpt2", "--variant", "superbpe", "--transition", "1243",
                 "--vocab-size", "1500", "-q", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert runs == [] and not out.exists()  # refused before stage 1 trained (failed before: it trained first)
    assert err.count("\n") == 1 and err.startswith("bpe-lens-cli train: error: ")
    assert "--transition 1243 is above the target: stage 1 ends with 1500 tokens, --vocab-size is 1500" in err
    assert "257 tokens" in err and "1242" in err, err  # the room: 1500 - 257 tokens = 1243 merges, stage 2 none
    assert main(["train", str(corpus), "--preset", "gpt2", "--variant", "superbpe", "--transition", "1242",
                 "--vocab-size", "1500", "-q", "-o", str(out)]) == 0
    assert len(open_vocabulary(out).tokens) == 1500
