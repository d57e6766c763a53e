"""三国演义 under ``cjk-mixed``: a Han run is one word of characters, so the first merges are names.

Issue 10: with each Han character a word of its own no merge was possible on Chinese text. The
reference (``tests/reference/seed004.py``, the seed's code with the text's rule) decides what is right;
these tests train the preset and compare with it directly.
"""
from __future__ import annotations

import pytest

from bpe_core.encoding.encoder import UNKNOWN, Encoder
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer
from tests.reference import seed004

SANGUO = "chinese/sanguo_yanyi.txt"


def lens_merges(path, num_merges: int) -> list:
    t = Trainer.from_corpus(str(path), make_config("cjk-mixed", num_merges=num_merges))
    return [(t.display(s.left), t.display(s.right), s.count) for s in t.run()]


def test_a_slice_learns_names_as_the_reference_does(real, tmp_path):
    # The first 300 lines (the opening chapters) are enough for 玄德, 吕布, 董卓, 曹操.
    lines = seed004.read_lines(real.path(SANGUO))[:300]
    path = tmp_path / "sanguo_300.txt"
    path.write_text("".join(lines), encoding="utf-8")
    ours = lens_merges(path, 40)
    assert ours == seed004.train(lines, num_merges=40)["merges"]
    firsts = ["".join(m[:2]) for m in ours[:10]]
    assert firsts[0] == "玄德" and "曹操" in firsts and "吕布" in firsts, firsts


def test_chinese_encodes_into_multi_character_tokens(real, tmp_path):
    lines = seed004.read_lines(real.path(SANGUO))[:300]
    path = tmp_path / "sanguo_300.txt"
    path.write_text("".join(lines), encoding="utf-8")
    t = Trainer.from_corpus(str(path), make_config("cjk-mixed", num_merges=100))
    t.run()
    tokens = Encoder(t.model()).encode("玄德与曹操、吕布议事。").tokens
    assert [x.raw for x in tokens][:1] == ["玄德"] and "曹操" in [x.raw for x in tokens]


def test_kana_hangul_and_extension_a_are_characters_not_one_opaque_symbol():
    """Issue 10: such runs were one symbol with id -1; now they are characters (+ </w> unless Han)."""
    texts = ["日本語のテキスト、カタカナ。한국어 텍스트 㐀㐁㐀㐁", "カタカナ 한국어 㐀㐁"]
    t = Trainer.from_texts(texts, make_config("cjk-mixed", num_merges=20))
    t.run()
    enc = Encoder(t.model()).encode("カタカナ 한국어 㐀㐁 のテキスト")
    assert UNKNOWN not in enc.ids
    raws = [x.raw for x in enc.tokens]
    assert "カタカナ</w>" in raws and "한국어</w>" in raws and "㐀㐁" in raws


@pytest.mark.slow
def test_whole_book_first_merges_are_names(real):
    """The whole book against the reference (about a minute): 玄德, 孔明, 将军, 曹操, 却说, 司马..."""
    path = real.path(SANGUO)
    ref = seed004.train(seed004.read_lines(path), num_merges=30)["merges"]
    assert lens_merges(path, 30) == ref
    assert ["".join(m[:2]) for m in ref[:6]] == ["玄德", "孔明", "将军", "曹操", "却说", "司马"]
