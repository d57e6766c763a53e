"""The command line with PickyBPE's model file: ``convert --to picky`` writes the reference's bytes,
``encode --vocab`` and ``inspect`` open the reference's model file by its content."""
from __future__ import annotations

import hashlib
import json

from bpe_core.cli.commands import main
from bpe_core.formats.native import write_native
from .test_picky_model import PICKY, golden_model, held_lines


def test_convert_to_picky_then_encode_with_it(tmp_path, capsys):
    golden = json.loads((PICKY / "shakespeare_t0.6.json").read_text(encoding="utf-8"))
    write_native(golden_model(golden), str(tmp_path / "v.json"))
    assert main(["convert", str(tmp_path / "v.json"), str(tmp_path / "model.json"), "--to", "picky"]) == 0
    data = (tmp_path / "model.json").read_bytes()
    assert hashlib.sha256(data).hexdigest() == golden["model_sha256"]
    capsys.readouterr()
    line = held_lines(golden)[3]
    assert main(["encode", "--vocab", str(tmp_path / "model.json"), "--text", line, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tokens"] == golden["encoding"][3].split()
    assert main(["inspect", str(tmp_path / "model.json")]) == 0
    assert "picky" in capsys.readouterr().out


def test_convert_a_picky_model_with_removals_to_tokenizer_json_says_why(tmp_path, capsys):
    golden = json.loads((PICKY / "wiki_t0.9.json").read_text(encoding="utf-8"))
    write_native(golden_model(golden), str(tmp_path / "v.json"))
    assert main(["convert", str(tmp_path / "v.json"), str(tmp_path / "t.json"), "--to", "tokenizer.json"]) != 0
    err = capsys.readouterr().err
    assert "error: " in err and "cannot split a removed token" in err and not (tmp_path / "t.json").exists()


def test_a_model_with_its_own_pipeline_is_not_written_as_the_references_file(tmp_path, capsys):
    """The reference's file holds no pipeline: a run on a preset (char-hf) would encode otherwise there."""
    (tmp_path / "c.txt").write_text("the lower newest widest low low lower tower\n" * 30, encoding="utf-8")
    assert main(["train", str(tmp_path / "c.txt"), "--preset", "char-hf", "--variant", "picky", "--ios-threshold",
                 "0.6", "--merges", "20", "-q", "-o", str(tmp_path / "v.json")]) == 0
    capsys.readouterr()
    assert main(["convert", str(tmp_path / "v.json"), str(tmp_path / "model.json"), "--to", "picky"]) != 0
    err = capsys.readouterr().err
    assert "picky_tokenize.py" in err and "save as native" in err and not (tmp_path / "model.json").exists()


def test_a_pipeline_that_cuts_the_references_words_is_written():
    """Not only PickyWords: any pipeline giving picky_tokenize.py's words (a preset with them) passes the check."""
    from bpe_core.formats.picky_file import PickyWords, cuts_as_reference
    from bpe_core.pipelines.hf import HFPipeline
    from bpe_core.formats.picky_file import HF_LAYOUT
    golden = json.loads((PICKY / "small.json").read_text(encoding="utf-8"))["cases"][0]
    model = golden_model(golden)
    assert cuts_as_reference(model)

    class Same:
        decides_symbols = False

        def split_words(self, text):
            return PickyWords().split_words(text)
    model.pipeline = Same()
    assert cuts_as_reference(model)
    model.pipeline = HFPipeline(None, HF_LAYOUT["pre_tokenizer"])  # tokenizers' Metaspace: no second ▁
    assert not cuts_as_reference(model)
