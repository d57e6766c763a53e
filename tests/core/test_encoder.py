"""Encoder algorithms on small models, checked against tokenizers / tiktoken where they apply."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List

import pytest
from hypothesis import given, settings, strategies as st

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats import read_tokenizer_json
from bpe_core.pipelines.tiktoken import RegexPipeline
from bpe_core.pipelines.hf import HFPipeline
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError

try:  # the judge of the tests that compare with Hugging Face; the other tests run without it
    import tokenizers
    from tokenizers import Tokenizer, models, normalizers as N, pre_tokenizers as P, trainers
except ImportError:
    tokenizers = None
needs_tokenizers = pytest.mark.skipif(tokenizers is None, reason="tokenizers (the judge here) is not installed")

CORPUS = ["The quick brown fox jumps over the lazy dog.", "Lower, lowest; newer & wider: 1234 tokens!",
          "naïve café résumé — “quotes” and 'single' ones", "中文字符 日本語 한국어", "don't stop\tbelieving\n"] * 5
ODD = ["zzz qqq Xylophone!", "naïve e\u0301 ÉCOLE 12,345.6", "  lead and trail  ", "中文 字 ☃☃ 👨‍👩‍👧",
       "[MASK] a[MASK]b  [MASK]  <tag>x</tag>", "", " ", "tab\tnew\nline\r\nend", "a" * 300]


def ws_model(tokens: List[str], merges, **kw) -> BPEModel:
    vocab = {t: i for i, t in enumerate(tokens)}
    return BPEModel(unit="chars", tokens=tokens, merges=[(vocab[a], vocab[b]) for a, b in merges],
                    pipeline=HFPipeline(None, {"type": "WhitespaceSplit"}), **kw)


def test_lowest_rank_first_then_leftmost() -> None:
    m = ws_model(["a", "b", "c", "ab", "bc", "aa"], [("b", "c"), ("a", "b"), ("a", "a")])
    assert [t.raw for t in Encoder(m).encode("abc").tokens] == ["a", "bc"]
    assert [t.raw for t in Encoder(m).encode("aaa").tokens] == ["aa", "a"]  # equal ranks: leftmost
    assert [t.raw for t in Encoder(m, merges_limit=0).encode("abc").tokens] == ["a", "b", "c"]


def test_separate_end_of_word_suffix_and_decode() -> None:
    m = ws_model(["l", "o", "w", "</w>", "lo", "low", "low</w>"], [("l", "o"), ("lo", "w"), ("low", "</w>")],
                 end_of_word_suffix="</w>")
    enc = Encoder(m).encode("low lo")
    assert [(t.raw, t.start, t.end) for t in enc.tokens] == [("low</w>", 0, 3), ("lo", 4, 6), ("</w>", 6, 6)]
    assert Encoder(m).decode(enc.ids) == "low lo"
    assert Encoder(m).encode_ids("low lo") == enc.ids


def test_unknown_chars_dropped_and_marked_without_unk() -> None:
    m = ws_model(["a", "b"], [])
    enc = Encoder(m).encode("axb yb")
    assert enc.ids == [0, 1, 1] == Encoder(m).encode_ids("axb yb")
    assert enc.unknown == ((1, 2), (4, 5))


def test_unk_and_fuse_unk() -> None:
    m = ws_model(["<unk>", "a"], [], unk_id=0)
    assert Encoder(m).encode_ids("axyа") == [1, 0, 0, 0]
    m.fuse_unk = True
    enc = Encoder(m).encode("axya")
    assert enc.ids == [1, 0, 1] and (enc.tokens[1].start, enc.tokens[1].end) == (1, 3)


def test_byte_fallback_tokens_and_decode() -> None:
    toks = ["a"] + [f"<0x{b:02X}>" for b in range(256)]
    m = ws_model(toks, [], byte_fallback=True)
    ids = Encoder(m).encode_ids("aé")
    assert ids == [0, 1 + 0xC3, 1 + 0xA9]
    enc = Encoder(m).encode("aé")
    assert [(t.start, t.end) for t in enc.tokens] == [(0, 1), (1, 2), (1, 2)]  # bytes share the char
    assert Encoder(m).decode(ids) == "aé"


def test_ignore_merges_takes_whole_word() -> None:
    m = ws_model(["a", "b", "c", "ab", "abc", "bc"], [("b", "c"), ("a", "b")], ignore_merges=True)
    assert Encoder(m).encode_ids("abc") == [4]
    m2 = ws_model(["a", "b", "c", "ab", "abc", "bc"], [("b", "c"), ("a", "b")])
    assert Encoder(m2).encode_ids("abc") == [0, 5]


def test_bytes_spans_partial_characters() -> None:
    toks = [bytes([b]) for b in range(256)] + ["\u00e4".encode()[:1] + b"x"]
    m = BPEModel(unit="bytes", tokens=toks, merges=[], pipeline=None, algorithm="tiktoken")
    enc = Encoder(m).encode("a€b")
    assert len(enc) == 5 and [(t.start, t.end) for t in enc.tokens] == [(0, 1), (1, 2), (1, 2), (1, 2), (2, 3)]
    assert Encoder(m).decode(enc.ids) == "a€b"
    assert Encoder(m).decode(enc.ids[:2]) == "a\ufffd"  # a partial character decodes as replacement


def test_no_pipeline_is_one_piece() -> None:
    m = BPEModel(unit="chars", tokens=["a", " ", "a "], merges=[(0, 1)])
    assert Encoder(m).encode_ids("a a ") == [2, 2]
    assert [(t.start, t.end) for t in Encoder(m).encode("a a ").tokens] == [(0, 2), (2, 4)]


def test_unknown_algorithm_is_an_error() -> None:
    m = BPEModel(unit="chars", tokens=["a"], algorithm="nonsense")  # type: ignore[arg-type]
    with pytest.raises(BPELensError, match="nonsense"):
        Encoder(m)


def test_decode_rejects_unknown_ids() -> None:
    m = BPEModel(unit="chars", tokens=["a", None], merges=[])
    with pytest.raises(BPELensError, match="token id 5"):
        Encoder(m).decode([0, 5])
    with pytest.raises(BPELensError, match="token id 1"):
        Encoder(m).decode([1])


def test_word_cache_is_bounded() -> None:
    m = ws_model(["a", "b"], [])
    enc = Encoder(m)
    enc.CACHE_SIZE = 10
    enc.encode_ids(" ".join("ab"[i % 2] * (i + 1) for i in range(50)))
    assert len(enc._cache) <= 10


# -- tokenizers-trained character models: every pipeline component against tokenizers itself -------
def _train(tmp: Path, model_kw: Dict, trainer_kw: Dict, normalizer, pre, decoder=None, added=()) -> Path:
    tok = Tokenizer(models.BPE(**model_kw))
    tok.normalizer, tok.pre_tokenizer = normalizer, pre
    if decoder is not None:
        tok.decoder = decoder
    tok.train_from_iterator(CORPUS, trainers.BpeTrainer(vocab_size=180, show_progress=False, **trainer_kw))
    if added:
        tok.add_tokens(list(added))
    path = tmp / "tokenizer.json"
    tok.save(str(path))
    return path


def _hf_configs() -> tuple:
    """Tokens added on top, and tokenizers pipelines (model kw, trainer kw, normalizer, pre-tokenizer)."""
    added = [tokenizers.AddedToken("[MASK]", special=True, lstrip=True, rstrip=True, normalized=False),
             tokenizers.AddedToken("<tag>", single_word=True, normalized=True),
             tokenizers.AddedToken("é", normalized=True)]
    configs = {
        "bert-suffix-unk": (dict(unk_token="[UNK]", end_of_word_suffix="</w>"),
                            dict(special_tokens=["[UNK]"], end_of_word_suffix="</w>"),
                            N.BertNormalizer(lowercase=True), P.BertPreTokenizer()),
        "prefix-fuse-unk": (dict(unk_token="[UNK]", continuing_subword_prefix="##", fuse_unk=True),
                            dict(special_tokens=["[UNK]"], continuing_subword_prefix="##"),
                            N.Sequence([N.NFKD(), N.Lowercase()]), P.Whitespace()),
        "metaspace-nfkc": (dict(), dict(), N.NFKC(), P.Metaspace(prepend_scheme="first")),
        "digits-punct-split": (dict(unk_token="[UNK]"), dict(special_tokens=["[UNK]"]),
                               N.Sequence([N.Strip(), N.Replace("  ", " ")]),
                               P.Sequence([P.Digits(individual_digits=True), P.Punctuation(),
                                           P.Split(" ", behavior="merged_with_next")])),
        "no-unk-drops": (dict(), dict(), None, P.WhitespaceSplit()),
        "bytelevel-ignore-merges": (dict(ignore_merges=True), dict(initial_alphabet=P.ByteLevel.alphabet()),
                                    N.NFC(), P.ByteLevel(add_prefix_space=True)),
    }
    return added, configs


ADDED, CONFIGS = _hf_configs() if tokenizers is not None else ([], {})


@needs_tokenizers
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_trained_tokenizer_json_matches_tokenizers(tmp_path: Path, name: str) -> None:
    model_kw, trainer_kw, norm, pre = CONFIGS[name]
    path = _train(tmp_path, model_kw, trainer_kw, norm, pre, added=ADDED)
    hf = Tokenizer.from_file(str(path))
    enc = Encoder(read_tokenizer_json(str(path)))
    for text in CORPUS[:5] + ODD:
        ours = enc.encode(text)
        assert ours.ids == hf.encode(text, add_special_tokens=False).ids, (name, text)
        assert ours.ids == enc.encode_ids(text)
        assert all(0 <= t.start <= t.end <= len(text) for t in ours.tokens)


@needs_tokenizers
def test_byte_fallback_file_matches_tokenizers(tmp_path: Path) -> None:
    vocab = {"<unk>": 0, **{f"<0x{b:02X}>": 1 + b for b in range(256)}}
    for ch in "▁abcdeh":
        vocab[ch] = len(vocab)
    vocab["ab"] = len(vocab)
    d = {"version": "1.0", "added_tokens": [], "normalizer": None,
         "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
         "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
                                                      {"type": "ByteFallback"}, {"type": "Fuse"},
                                                      {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
         "model": {"type": "BPE", "vocab": vocab, "merges": [["a", "b"]], "unk_token": "<unk>",
                   "byte_fallback": True, "fuse_unk": True}}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    hf = Tokenizer.from_file(str(path))
    enc = Encoder(read_tokenizer_json(str(path)))
    for text in ["ab cab", "é中 ab", "x\ny"]:
        ids = hf.encode(text, add_special_tokens=False).ids
        assert enc.encode_ids(text) == ids
        assert enc.decode(ids) == hf.decode(ids)


@needs_tokenizers
def test_prefix_decode_joins_word_pieces(tmp_path: Path) -> None:
    model_kw, trainer_kw, norm, pre = CONFIGS["prefix-fuse-unk"]
    enc = Encoder(read_tokenizer_json(str(_train(tmp_path, model_kw, trainer_kw, norm, pre))))
    assert enc.decode(enc.encode_ids("lower lowest tokens")) == "lower lowest tokens"
    enc.model.token_info(enc.encode_ids("lowest")[-1])  # merge_result works with a prefix


# -- the two algorithms against the libraries on random vocabularies --------------------------
words = st.text(alphabet="abc", min_size=1, max_size=40)


@st.composite
def merge_lists(draw):
    """Merges over a, b, c and what they make; a pair may repeat (tokenizers keeps its last rank)."""
    toks, merges = ["a", "b", "c"], []
    for _ in range(draw(st.integers(0, 25))):
        a, b = draw(st.sampled_from(toks)), draw(st.sampled_from(toks))
        merges.append((a, b))
        if a + b not in toks:
            toks.append(a + b)
    return toks, merges


@needs_tokenizers
@settings(max_examples=80, deadline=None)
@given(spec=merge_lists(), text=st.lists(words, max_size=6).map(" ".join))
def test_merges_algorithm_matches_tokenizers(spec, text: str) -> None:
    toks, merges = spec
    hf = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(toks)}, merges=merges))
    hf.pre_tokenizer = P.WhitespaceSplit()
    assert Encoder(ws_model(toks, merges)).encode_ids(text) == hf.encode(text, add_special_tokens=False).ids


@settings(max_examples=80, deadline=None)
@given(extra=st.lists(st.text(alphabet="abc", min_size=2, max_size=6), unique=True, max_size=30),
       text=st.lists(words, max_size=6).map(" ".join))
def test_tiktoken_algorithm_matches_tiktoken(extra: List[str], text: str) -> None:
    tiktoken = pytest.importorskip("tiktoken")
    ranks = {bytes([b]): b for b in range(256)}
    for t in extra:
        ranks[t.encode()] = len(ranks)
    ref = tiktoken.Encoding("t", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={})
    tokens: List = [None] * len(ranks)
    for t, r in ranks.items():
        tokens[r] = t
    m = BPEModel(unit="bytes", tokens=tokens, pipeline=RegexPipeline(r"\S+|\s+", {}), algorithm="tiktoken")
    assert Encoder(m).encode_ids(text) == ref.encode_ordinary(text)


# -- tiktoken's split: the stdlib-`re` twins and the cutting between covered and other text ------
MIXED = st.text(st.sampled_from(list("aZsdtlvrem '\t\n\r  .,/019") +
                                ["é", "’", "“", "—", "中", "\u00a0", "\u3000", "\x1c", "ſ", "K", "İ", "µ", "ª", "²",
                                 "½", "×", "\x85", "\u2028", "\u202f", "\u0301", "Ⅻ", "😀", "\u2044"]),
                max_size=40)


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base", "o200k_base"])
@settings(max_examples=300, deadline=None)
@given(text=MIXED)
def test_split_words_equals_the_full_pattern(name: str, text: str) -> None:
    import regex

    from bpe_core.formats.tiktoken_file import KNOWN_ENCODINGS
    from bpe_core.pipelines.tiktoken import COVERED, covered_twin
    pattern = KNOWN_ENCODINGS[name][0]
    full = regex.compile(pattern)
    assert RegexPipeline(pattern, {}).split_words(text) == full.findall(text)
    twin = covered_twin(pattern)
    if twin is not None:  # None on Python < 3.11 (no possessive quantifiers in re)
        covered = "".join(c for c in text if c in COVERED)
        assert twin.findall(covered) == full.findall(covered)


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base", "o200k_base"])
def test_covered_twin_on_every_covered_character(name: str) -> None:
    import regex

    from bpe_core.formats.tiktoken_file import KNOWN_ENCODINGS
    from bpe_core.pipelines.tiktoken import COVERED, covered_twin
    pattern = KNOWN_ENCODINGS[name][0]
    twin, full = covered_twin(pattern), regex.compile(pattern)
    if twin is None:
        pytest.skip("re has no possessive quantifiers before Python 3.11")
    for c in COVERED:
        for text in (c, c + c, "'" + c, " " + c + "a", "A" + c + " ", c + "\n", "1" + c + "s"):
            assert twin.findall(text) == full.findall(text), (hex(ord(c)), text)
