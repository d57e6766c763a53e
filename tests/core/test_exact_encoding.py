"""Our encoder gives the same ids as tiktoken / tokenizers on the real vocabularies.

References are built from the libraries themselves: tiktoken's patterns and specials come from
``tiktoken_ext.openai_public`` (its loader pointed at the local rank files), tokenizers reads the
same files. Fast tests sample every text file in ../shared/data by lines; the ``slow`` ones encode
every file whole.
"""
from __future__ import annotations

import functools
import random
import unicodedata
from pathlib import Path
from typing import Dict, List

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats import read_tiktoken, read_tokenizer_json, read_vocab_merges

from .paths import data_files, need, rel_name

TIKTOKEN = ("r50k_base", "cl100k_base", "o200k_base")
HF = ("gpt2-tokenizer.json", "gpt2-vocab+merges", "neox-20b")
MODELS = TIKTOKEN + HF

CODE = '''def encode(self, text: str) -> list[int]:\r\n\tif not text:\n\t\treturn []  # empty\n
    for i in range(10):\n        x = {"a": [1, 2.5e-3, None], 'b': f"{i!r:>4}"}\n    return x  /* c */ <div class="x">&amp;</div>\n'''
ADVERSARIAL: Dict[str, str] = {
    "emoji_zwj": "family 👨‍👩‍👧‍👦 coder 👩🏽‍💻 flag 🏳️‍🌈 heart ❤️‍🔥 keycap 1️⃣ 🇩🇪🇯🇵",
    "combining": "e\u0301 a\u0308\u0304 Z\u0324\u0354\u0367\u0311o\u0319\u0314 \u0301lead q\u0323\u0307 ḉ ñ n\u0303",
    "cjk": "中文字符测试，标点符号。日本語のテキスト、カタカナ！한국어 텍스트입니다 「引用」《书名》",
    "arabic": "مرحبا بالعالم، هذا نصٌّ عربيّ. ١٢٣٤ \u200fRTL\u200e عَرَبِيّ",
    "whitespace_runs": " " * 300 + "x" + "\t" * 50 + "y" + "\n" * 40 + "   \n  \n\t \r\n" + " " * 17 + "\u00a0\u3000 z   ",
    "crlf_tabs": "line one\r\nline two\r\n\r\n\ttabbed\t\tend\r\n\r\rlast\t",
    "code": CODE,
    "word_10k_ascii": "a" * 10_000,
    "word_10k_mixed": "".join(random.Random(7).choice("abcdefghijklmnopqrstuvwxyzÄÖéß") for _ in range(10_000)),
    "word_10k_cjk": "".join(random.Random(8).choice("的一是不了人我在有他这为之大来以个中上们") for _ in range(10_000)),
    "specials_inside": "a<|endoftext|>b <|endoftext|> <|endoftext|><|endoftext|>\n<|endoftext",
    "contractions_numbers": "don't I'll we've THEY'RE 'S 's 'd 1234567 3.14159 1,000,000 ٣٤٥ ⅫⅣ",
    "controls": "\x00\x01\x1c\x1f\x7f\u0085\u2028\u2029\ufeff\ufffd \u200b\u200c\u200d end",
    "compat": "Ａ①ﬁ ＡＢＣ ℌ㎒ Å Å ﬃ ½",
    "empty": "",
    "single_space": " ",
}


FILES = data_files()  # ../shared/data's text files, or the ones shipped in tests/data/real


def read_raw(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as f:  # keep \r\n, BOMs: adversarial too
        return f.read()


def sample(path: Path, windows: int = 6, lines: int = 12, max_chars: int = 2500) -> str:
    """A few windows of consecutive lines spread over the file (the whole file when small)."""
    text = read_raw(path)
    if len(text) <= windows * max_chars:
        return text
    all_lines = text.splitlines(keepends=True)
    step = max(1, len(all_lines) // windows)
    parts = ["".join(all_lines[i:i + lines])[:max_chars] for i in range(0, len(all_lines), step)][:windows]
    return "".join(parts)


@functools.lru_cache(maxsize=None)
def tiktoken_reference(name: str):
    import tiktoken
    import tiktoken_ext.openai_public as op
    from tiktoken.load import load_tiktoken_bpe
    local = str(need(f"tiktoken_ranks/{name}.tiktoken"))
    loader = op.load_tiktoken_bpe
    op.load_tiktoken_bpe = lambda *a, **k: load_tiktoken_bpe(local)  # no network: the local file
    try:
        spec = getattr(op, name)()
    finally:
        op.load_tiktoken_bpe = loader
    return tiktoken.Encoding(spec["name"], pat_str=spec["pat_str"], mergeable_ranks=spec["mergeable_ranks"],
                             special_tokens=spec["special_tokens"])


@functools.lru_cache(maxsize=None)
def hf_reference(name: str):
    from tokenizers import Tokenizer, pre_tokenizers
    from tokenizers.models import BPE
    if name == "gpt2-vocab+merges":
        tok = Tokenizer(BPE.from_file(str(need("gpt2/vocab.json")), str(need("gpt2/merges.txt"))))
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.add_special_tokens(["<|endoftext|>"])
    else:
        path = need("gpt2/tokenizer.json" if name == "gpt2-tokenizer.json" else "gpt-neox-20b/20B_tokenizer.json")
        tok = Tokenizer.from_file(str(path))
        tok.no_truncation()  # the gpt2 file carries a leftover max_length 50
    return tok


def reference_ids(name: str, text: str, ordinary: bool = False) -> List[int]:
    if name in TIKTOKEN:
        enc = tiktoken_reference(name)
        return enc.encode_ordinary(text) if ordinary else enc.encode(text, allowed_special="all")
    # add_special_tokens=False: the post-processors (ByteLevel) add no tokens, only trim offsets
    return hf_reference(name).encode(text, add_special_tokens=False).ids


@functools.lru_cache(maxsize=None)
def our_encoder(name: str) -> Encoder:
    if name in TIKTOKEN:
        return Encoder(read_tiktoken(str(need(f"tiktoken_ranks/{name}.tiktoken"))))
    if name == "gpt2-vocab+merges":
        return Encoder(read_vocab_merges(str(need("gpt2/merges.txt"))))
    path = need("gpt2/tokenizer.json" if name == "gpt2-tokenizer.json" else "gpt-neox-20b/20B_tokenizer.json")
    return Encoder(read_tokenizer_json(str(path)))


def assert_same(ours: List[int], ref: List[int], text: str, what: str) -> None:
    if ours == ref:
        return
    i = next((k for k, (a, b) in enumerate(zip(ours, ref)) if a != b), min(len(ours), len(ref)))
    pytest.fail(f"{what}: ids differ at token {i}: ours {ours[max(0, i - 3):i + 4]} vs "
                f"reference {ref[max(0, i - 3):i + 4]} (lengths {len(ours)} / {len(ref)})")


@pytest.mark.parametrize("case", sorted(ADVERSARIAL))
@pytest.mark.parametrize("name", MODELS)
def test_adversarial_ids(name: str, case: str) -> None:
    text = ADVERSARIAL[case]
    enc = our_encoder(name)
    assert_same(enc.encode_ids(text), reference_ids(name, text), text, f"{name}/{case}")
    assert enc.encode(text).ids == enc.encode_ids(text)


@pytest.mark.parametrize("name", TIKTOKEN)
def test_encode_ordinary_matches(name: str) -> None:
    text = "".join(v for k, v in ADVERSARIAL.items() if k != "specials_inside") + sample(need("tinyshakespeare.txt"))
    assert "<|" not in text  # encode_ordinary reads specials as text; ours always cuts them out
    assert_same(our_encoder(name).encode_ids(text), reference_ids(name, text, ordinary=True), text, name)


@pytest.mark.parametrize("path", FILES, ids=[rel_name(p) for p in FILES])
@pytest.mark.parametrize("name", MODELS)
def test_corpus_sample_ids(name: str, path: Path) -> None:
    text = sample(path)
    assert_same(our_encoder(name).encode_ids(text), reference_ids(name, text), text, f"{name}/{path.name}")


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=[rel_name(p) for p in FILES])
@pytest.mark.parametrize("name", MODELS)
def test_corpus_full_file_ids(name: str, path: Path) -> None:
    # every text file in ../shared/data, whole: ~6 minutes, part of the default run (CI);
    # `pytest -m "not slow"` leaves it out for a quick local pass
    text = read_raw(path)
    assert_same(our_encoder(name).encode_ids(text), reference_ids(name, text), text, f"{name}/{path.name}")


def tiles(text: str, tokens) -> str:
    """The input text rebuilt from token spans; partial-character tokens share a span."""
    out, pos = [], 0
    for t in tokens:
        assert 0 <= t.start <= t.end <= len(text), (t, len(text))
        assert t.start <= pos, f"gap before {t}"
        out.append(text[max(pos, t.start):t.end])
        pos = max(pos, t.end)
    return "".join(out)


@pytest.mark.parametrize("name", ("r50k_base", "o200k_base", "gpt2-tokenizer.json", "neox-20b"))
def test_spans_tile_the_text(name: str) -> None:
    text = "".join(ADVERSARIAL.values()) + sample(need("chinese/sanguo_yanyi.txt"), 2)
    enc = our_encoder(name).encode(text)
    if name == "neox-20b":  # NFC changes the text: spans stay in bounds and in order
        starts = [t.start for t in enc.tokens]
        assert starts == sorted(starts) and all(0 <= t.start <= t.end <= len(text) for t in enc.tokens)
        return
    assert tiles(text, enc.tokens) == text
    for t in enc.tokens:  # a byte token's bytes lie inside the UTF-8 of the characters it spans
        if isinstance(t.raw, bytes):
            assert t.raw in text[t.start:t.end].encode(), t


def test_spans_equal_tokenizers_offsets_for_gpt2() -> None:
    text = ADVERSARIAL["emoji_zwj"] + ADVERSARIAL["combining"] + ADVERSARIAL["crlf_tabs"] + " <|endoftext|>x"
    ours = [(t.start, t.end) for t in our_encoder("gpt2-tokenizer.json").encode(text).tokens]
    assert ours == hf_reference("gpt2-tokenizer.json").encode(text, add_special_tokens=False).offsets


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=80) | \
    st.lists(st.sampled_from(["a", " ", "  ", "\n", "\r\n", "\t", "é", "e\u0301", "中", "👨‍👩‍👧", "'s", "12345",
                              "<|endoftext|>", "Hello", "ـ", "😀"]), max_size=30).map("".join)


@pytest.mark.parametrize("name", MODELS)
@PROPERTY
@given(text=texts)
def test_property_ids_and_round_trip(name: str, text: str) -> None:
    enc = our_encoder(name)
    ids = enc.encode_ids(text)
    assert_same(ids, reference_ids(name, text), text, name)
    expect = unicodedata.normalize("NFC", text) if name == "neox-20b" else text
    assert enc.decode(ids) == expect


def test_r50k_equals_gpt2_files() -> None:
    """FACTS: r50k_base is GPT-2: same ids, and the recovered merges are GPT-2's merges."""
    a, b = our_encoder("r50k_base").model, our_encoder("gpt2-vocab+merges").model
    assert a.merges == b.merges
    text = sample(need("tinyshakespeare.txt"))
    assert our_encoder("r50k_base").encode_ids(text) == our_encoder("gpt2-vocab+merges").encode_ids(text)


@pytest.mark.parametrize("limit", [0, 1, 50, 1000])
def test_merges_limit_agrees_between_algorithms(limit: int) -> None:
    """With the first k merges only, tiktoken ranks and GPT-2 merges still agree (r50k == GPT-2)."""
    text = sample(need("tinyshakespeare.txt"), 2) + ADVERSARIAL["emoji_zwj"]
    tk = Encoder(our_encoder("r50k_base").model, merges_limit=limit).encode_ids(text)
    mg = Encoder(our_encoder("gpt2-vocab+merges").model, merges_limit=limit).encode_ids(text)
    assert tk == mg
    if limit == 0:
        assert len(tk) == len(text.encode())
