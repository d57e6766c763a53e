"""``bpe-lens-cli train --variant``: the rules' flags, their one-line errors, and one output per run."""
from __future__ import annotations

import json
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


def test_superbpe_trains_both_stages_into_one_file(corpus: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "s.json"
    assert main(["train", str(corpus), "--preset", "superbpe", "--variant", "superbpe", "--transition", "200",
                 "--vocab-size", "600", "-q", "-o", str(out)]) == 0
    model = open_vocabulary(out)
    cfg = make_config("superbpe", variant="superbpe", transition=200, vocab_size=600)
    stage1 = Trainer.from_corpus(str(corpus), stage1_config(cfg))
    stage1.run()
    trainer = superbpe_trainer(corpus, cfg, stage1.model())
    trainer.run()
    want = trainer.model()
    assert model.tokens == want.tokens and model.merges == want.merges and len(model.tokens) == 600
    assert len(model.merges) > 200 and any(t.count(b" ") >= 2 for t in model.tokens if isinstance(t, bytes))
    stored = json.loads(out.read_text(encoding="utf-8"))["config"]
    assert (stored["variant"], stored["transition"], stored["pretokenizer"]) == ("superbpe", 200, "superbpe-stage2")


def test_picky_flags_reach_the_config(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    assert main(["train", str(corpus), "--preset", "gpt2", "--variant", "picky", "--ios-threshold", "0.9",
                 "--merges", "20", "-q", "-o", str(out)]) == 0
    stored = json.loads(out.read_text(encoding="utf-8"))["config"]
    assert (stored["variant"], stored["ios_threshold"]) == ("picky", 0.9)


def test_parity_reads_languages(tmp_path: Path) -> None:
    table = tmp_path / "langs.tsv"
    table.write_text("language\tword\tcount\nen\tlower\t3\nen\tnewest\t2\nde\tneueste\t2\nru\tновый\t2\n",
                     encoding="utf-8")
    out = tmp_path / "par.json"
    assert main(["train", "--preset", "gpt2", "--variant", "parity", "--parity-mode", "ratio", "--languages",
                 str(table), "--merges", "4", "-q", "-o", str(out)]) == 0
    assert len(open_vocabulary(out).merges) == 4


@pytest.mark.parametrize("flags,message", [
    (["--ios-threshold", "0.5"], "--ios-threshold is for --variant picky, not bpe"),
    (["--variant", "superbpe", "--ios-threshold", "0.5", "--transition", "3"],
     "--ios-threshold is for --variant picky, not superbpe"),
    (["--transition", "5"], "--transition is for --variant superbpe, not bpe"),
    (["--variant", "picky", "--transition", "5"], "--transition is for --variant superbpe, not picky"),
    (["--variant", "superbpe"], "--variant superbpe needs --transition N"),
    (["--variant", "superbpe", "--transition", "-1"], "--transition must be 0 or more, not -1"),
    (["--variant", "superbpe", "--transition", "50", "--merges", "10"],
     "--transition 50 is above the target of 10 merges"),
    (["--variant", "superbpe", "--transition", "300", "--vocab-size", "300"],
     "--transition 300 is above the target vocab size 300"),
    (["--variant", "superbpe", "--transition", "250", "--vocab-size", "300"],
     "--transition 250 is above the target: stage 1 ends with"),
    (["--languages", "x.tsv"], "--languages is for --variant parity, not bpe"),
    (["--parity-mode", "ratio"], "--parity-mode is for --variant parity, not bpe"),
    (["--variant", "parity"], "--variant parity reads --languages: drop CORPUS"),
    (["--variant", "picky", "--ios-threshold", "1.5"], "the IoS threshold must be between 0 and 1, not 1.5"),
    (["--variant", "superbpe", "--transition", "50000", "--vocab-size", "90000"],
     "stage 1 stopped after"),
])
def test_bad_combinations_are_one_line_errors(corpus: Path, tmp_path: Path, capsys, flags, message) -> None:
    out = tmp_path / "x.json"
    assert main(["train", str(corpus), "--preset", "superbpe", *flags, "-q", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("bpe-lens-cli train: error: ")
    assert not out.exists()


def test_parity_without_languages_and_variants_with_from(corpus: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "x.json"
    assert main(["train", "--preset", "gpt2", "--variant", "parity", "-o", str(out)]) == 2
    assert "--variant parity needs --languages DIR_OR_TABLE" in capsys.readouterr().err
    assert main(["train", "--preset", "gpt2", "-o", str(out)]) == 2
    assert "the following arguments are required: CORPUS" in capsys.readouterr().err
    vocab = tmp_path / "v.json"
    assert main(["train", str(corpus), "--preset", "gpt2", "--merges", "5", "-q", "-o", str(vocab)]) == 0
    assert main(["train", str(corpus), "--from", str(vocab), "--variant", "picky", "--merges", "5", "-o",
                 str(out)]) == 2
    assert "--variant trains from a preset: drop --from" in capsys.readouterr().err
