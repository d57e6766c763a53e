"""The ``re`` twin of the GPT-2 pattern for BMP text gives the ``regex`` pattern's words, exactly."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pretokenize.bmp_twin import ASTRAL, BMP_TWINS, compile_bmp_twin
from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS, TIKTOKEN_PATTERNS

GPT2 = PRETOKENIZERS["gpt2"]
TWIN = compile_bmp_twin(BMP_TWINS["gpt2"])
BMP = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]


def test_the_twin_is_the_gpt2_pattern_with_classes_spelled_out() -> None:
    spelled = (BMP_TWINS["gpt2"].replace("[^{S}]", r"\S").replace("[^{S}{L}{N}]", r"[^\s\p{L}\p{N}]")
               .replace("[{L}]", r"\p{L}").replace("[{N}]", r"\p{N}").replace("[{S}]", r"\s"))
    assert spelled == TIKTOKEN_PATTERNS["gpt2"]


def test_every_bmp_character_splits_alike() -> None:
    """Each of the 63k BMP characters alone and beside letters, digits, spaces, a newline and an apostrophe."""
    pattern = GPT2.pattern
    for c in BMP:
        for t in (c, f"a{c}b", f" {c}{c} x\n", f"1{c}2", f"{c} \n", f"'{c}s", f"  {c}", f"{c}  ", f"\n{c}\t"):
            assert TWIN.findall(t) == pattern.findall(t), repr(t)


EDGES = list("aZé9٣½ 'sSt\t\r\n\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2000\u2028\u202f\u3000.,!-_\u0301\u00ad\u200b中文ⅫⅫ")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(EDGES + ["'s", "'LL", "'re", "'d", "ß", "\ufeff"]), max_size=24).map("".join))
def test_edge_strings_split_alike(t: str) -> None:
    assert TWIN.findall(t) == GPT2.pattern.findall(t)
    assert [m.span() for m in TWIN.finditer(t)] == [m.span() for m in GPT2.pattern.finditer(t)]


def test_counting_uses_the_twin_and_finds_the_regex_words(real) -> None:
    """words_in_lines on real non-ASCII text (accents, Cyrillic, Han; and one astral line, left to regex)."""
    text = "".join(real.text(rel, 200_000) for rel in ("wikitext-2-raw/wiki.valid.raw", "chinese/sanguo_yanyi.txt",
                                                      "bench/multilingual/ru_anna_karenina.txt",
                                                      "bench/multilingual/de_faust.txt")) + "emoji 🙂 line\nlast"
    lines = re.findall(r"[^\n]*\n|[^\n]+\Z", text)
    assert sum(not line.isascii() and max(line) < ASTRAL for line in lines) > 2000
    assert GPT2.words_in_lines(text) == [w for line in lines for w in GPT2.pattern.findall(line)]
    assert GPT2._bmp is not None  # compiled on the first non-ASCII line
