"""SuperBPE's pre-tokenizers against the reference's: the goldens cut by the authors' pipeline, and
tokenizers' Split(isolated) + ByteLevel itself (the fork leaves the pre-tokenizers stock)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.base.symbols import to_glyphs
from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
from bpe_core.pretokenize.superbpe import STAGE1_PATTERN, STAGE2_PATTERN

GOLD = Path(__file__).resolve().parents[1] / "data" / "variants" / "superbpe" / "pretokens.json"
STAGES = {"superbpe-stage1": ("stage1", STAGE1_PATTERN), "superbpe-stage2": ("stage2", STAGE2_PATTERN)}


def glyphs(words):
    return [to_glyphs(w.encode("utf-8")) for w in words]


def reference(pattern: str):
    """The authors' pre-tokenizer (utils.train_or_extend_tokenizer) in stock tokenizers."""
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import Regex, pre_tokenizers
    pre = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(pattern), behavior="isolated", invert=False),
                                   pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True,
                                                            use_regex=False)])
    return lambda text: [w for w, _ in pre.pre_tokenize_str(text)]


@pytest.mark.parametrize("name", list(STAGES))
def test_goldens_held_out_lines(name: str) -> None:
    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    key, pattern = STAGES[name]
    assert gold[f"{key}_regex"] == pattern
    pre = PRETOKENIZERS[name]
    for line, want in zip(gold["lines"], gold[key], strict=True):
        assert glyphs(pre.words(line)) == want, line
    text = "".join(gold["lines"])
    assert glyphs(pre.words_in_lines(text)) == [w for ws in gold[key] for w in ws]


@pytest.mark.parametrize("name", list(STAGES))
def test_real_text_with_crlf_as_tokenizers_cuts_it(name: str, real) -> None:
    ref = reference(STAGES[name][1])
    pre = PRETOKENIZERS[name]
    for rel in ("wikitext-2-raw/wiki.test.raw", "bench/multilingual/ru_anna_karenina.txt",
                "chinese/sanguo_yanyi.txt", "bench/gutenberg/moby_dick.txt"):
        with open(real.path(rel), encoding="utf-8-sig", newline="") as f:
            text = f.read(60_000)
        lines = [ln + "\n" for ln in text.split("\n")[:-1]]
        lines += [ln.rstrip("\r\n") + "\r\n" for ln in lines[:50]]  # CRLF, as tokenizers reads a CRLF file
        for line in lines:
            assert glyphs(pre.words(line)) == ref(line), (rel, line)
        assert glyphs(pre.words_in_lines("".join(lines))) == [w for ln in lines for w in ref(ln)]


_CHARS = st.sampled_from(list("ab Zé1 2,.-:;\t\r\n/'\"(") + ["  ", "\u00a0", "\u3000", "世", "٣", "\u0301", "𝔘"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_CHARS, max_size=40).map("".join))
def test_any_text_as_tokenizers_cuts_it(text: str) -> None:
    for name, (_, pattern) in STAGES.items():
        assert glyphs(PRETOKENIZERS[name].words(text)) == reference(pattern)(text), name
        pieces = PRETOKENIZERS[name].pieces(text)
        assert "".join(p.text for p in pieces) == text
        assert all(text[p.start:p.end] == p.text for p in pieces)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(max_codepoint=127), max_size=40))
def test_the_ascii_twin_agrees_with_regex(text: str) -> None:
    for name in STAGES:
        pre = PRETOKENIZERS[name]
        assert pre.words(text) == [m.group() for m in pre.pattern.finditer(text)]
