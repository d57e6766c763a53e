"""A picky run maps a character its corpus lacks to ``<UNK>`` (its ``unk_id``, as picky_tokenize.py does), and
keeps doing so after a save to the native format and a reopen; a native file written before ``"unk"`` loads
as before (no unk token)."""
from __future__ import annotations

import json

from bpe_core.cli.commands import main
from bpe_core.corpus.counting import count_words_in_texts
from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.native import model_to_native, native_to_model, read_native
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer

CORPUS = "the lower newest widest low low lower tower\n" * 30
TEXT = "the snowman ☃ is lower"


def test_cli_train_picky_then_encode_an_unknown_character_before_and_after_save(tmp_path, capsys):
    (tmp_path / "c.txt").write_text(CORPUS, encoding="utf-8")
    assert main(["train", str(tmp_path / "c.txt"), "--preset", "picky", "--merges", "20", "-q",
                 "-o", str(tmp_path / "v.json")]) == 0
    capsys.readouterr()
    config = make_config("picky", vocab_size=10_000)  # the same run in the library: the model before saving
    trainer = Trainer(count_words_in_texts([CORPUS], config), config)
    trainer.run(merges=20)
    before = Encoder(trainer.model()).encode(TEXT)
    assert "<UNK>" in [t.raw for t in before.tokens] and not before.unknown
    assert main(["encode", "--vocab", str(tmp_path / "v.json"), "--text", TEXT, "--json"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert after["tokens"] == [t.raw for t in before.tokens] and after["ids"] == list(before.ids)
    reopened = read_native(str(tmp_path / "v.json"))
    assert reopened.unk_id == trainer.model().unk_id == reopened.specials["<UNK>"]


def test_a_native_file_without_unk_loads_as_before():
    config = make_config("picky", vocab_size=10_000)
    trainer = Trainer(count_words_in_texts([CORPUS], config), config)
    trainer.run(merges=5)
    data = model_to_native(trainer.model())
    data.pop("unk", None)
    old = native_to_model(json.loads(json.dumps(data)))
    assert old.unk_id is None
    assert "<UNK>" not in [t.raw for t in Encoder(old).encode(TEXT).tokens]


def test_a_bad_unk_is_refused_in_a_sentence():
    import pytest
    from bpe_core.types import BPELensError
    config = make_config("picky", vocab_size=10_000)
    data = model_to_native(Trainer(count_words_in_texts([CORPUS], config), config).model())
    assert data["unk"] == "<UNK>"
    data["unk"] = "<nope>"
    with pytest.raises(BPELensError, match="\"unk\" names '<nope>'"):
        native_to_model(data, "v.json")
