"""PickyBPE's character coverage on a small corpus. The reference's ``_filter_characters`` drops the rarest
characters while their running total stays below ``N - round(0.9999 N)``; when the rarest character alone
reaches that share its ``most_common()[-0:]`` drops *every* character (a slicing bug: nothing trains). True
to the text, nothing is dropped there (docs/variants.md lists the difference). It happens on any corpus of
5,000 to ~20,000 characters with a character seen once, such as one language of the shipped parallel text:
``--preset picky`` refused them all before."""
from __future__ import annotations

from pathlib import Path

from bpe_core.presets import make_config
from bpe_core.training.picky import covered
from bpe_core.training.trainer import Trainer

ROOT = Path(__file__).resolve().parents[2]
CFG = type("C", (), {"special_tokens": ("<UNK>",)})()


def test_the_rarest_character_alone_reaching_the_share_drops_nothing():
    words = [["a"] * 6000, ["b"], ["c", "c"]]
    assert covered(words, [1, 1, 1], CFG) == words


def test_the_rarest_characters_under_the_share_are_still_dropped():
    words = [["a"] * 30000, ["b", "a"], ["c"]]
    assert covered(words, [1, 1, 1], CFG)[1:] == [["<UNK>", "a"], ["<UNK>"]]


def test_the_picky_preset_trains_on_one_language_of_the_parallel_text():
    path = ROOT / "resources" / "examples" / "parallel" / "eng.txt"
    trainer = Trainer.from_corpus(str(path), make_config("picky", vocab_size=400))
    steps = list(trainer.iter_steps())
    assert len(steps) > 50 and all(trainer.token(i) != "<UNK>" for s in steps for i in (s.left, s.right))
