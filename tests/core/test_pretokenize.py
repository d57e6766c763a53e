"""Pre-tokenizers against the real things: str.split, HF, NLTK, tiktoken and the seeds' code."""
from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.pipelines.chain import Pipeline
from bpe_core.pretokenize.pretokenizers import (PRETOKENIZERS, SEED001_PATTERN, TIKTOKEN_PATTERNS, get_pretokenizer,
                                  lowercase_with_offsets)
from bpe_core.types import BPELensError, TrainerConfig

NAMES = ["whitespace", "whitespace-split", "wordpunct", "punkt-wordpunct", "gpt2", "cl100k", "o200k",
         "seed001", "regex", "cjk", "gpt2-glyphs", "superbpe-stage1", "superbpe-stage2", "picky"]
REAL = ["wikitext-2-raw/wiki.valid.raw", "chinese/sanguo_yanyi.txt", "bench/multilingual/ru_anna_karenina.txt",
        "bench/gutenberg/moby_dick.txt", "bench/multilingual/de_faust.txt"]
ALL_CHARS = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)


def sample(real, rel: str, n: int = 150_000) -> str:
    # Keep CRLF (as a user's encoder input may have it): read without newline translation.
    with open(real.path(rel), encoding="utf-8-sig", newline="") as f:
        return f.read(n)


def test_registry_has_the_fixed_names() -> None:
    assert list(PRETOKENIZERS) == NAMES
    for p in PRETOKENIZERS.values():
        assert p.description and "\n" not in p.description
    assert PRETOKENIZERS["punkt-wordpunct"].per_line is False
    with pytest.raises(BPELensError, match="unknown pre-tokenizer 'nope'; known: whitespace, "):
        get_pretokenizer(TrainerConfig(pretokenizer="nope"))


def test_whitespace_is_str_split_on_every_code_point() -> None:
    # Every code point once, in order: the words are the runs between whitespace characters,
    # so equal words mean the same whitespace set.
    p = PRETOKENIZERS["whitespace"]
    assert p.words(ALL_CHARS) == ALL_CHARS.split()
    pieces = p.pieces(ALL_CHARS)
    assert [x.text for x in pieces] == ALL_CHARS.split()
    assert all(ALL_CHARS[x.start:x.end] == x.text for x in pieces)


def test_whitespace_split_is_hf_on_every_code_point() -> None:
    from tokenizers.pre_tokenizers import WhitespaceSplit

    ws, p = WhitespaceSplit(), PRETOKENIZERS["whitespace-split"]
    gaps: set = set()
    for i in range(0, len(ALL_CHARS), 2000):  # HF slows down on very long words: cut in blocks
        block = ALL_CHARS[i:i + 2000]
        ours = p.pieces(block)
        assert [(x.text, (x.start, x.end)) for x in ours] == ws.pre_tokenize_str(block)
        gaps |= set(block) - {c for x in ours for c in x.text}
    assert gaps == set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
        chr(c) for c in range(0x2000, 0x200B)}
    # Python's str.split() differs exactly on U+001C..U+001F (not Unicode White_Space).
    assert PRETOKENIZERS["whitespace-split"].words("a\x1cb c") == ["a\x1cb", "c"]


def test_wordpunct_is_nltk(real) -> None:
    """NLTK's ``\\w+|[^\\w\\s]+`` with Python ``re`` (NLTK <= 3.9, the seed's; NLTK 3.10 compiles it
    with ``regex``, whose ``\\w`` differs on some marks and numbers such as '⒎' (U+248E))."""
    import regex
    from nltk.tokenize import wordpunct_tokenize

    compared = 0
    for rel in REAL:
        text = sample(real, rel, 100_000)
        ours = PRETOKENIZERS["wordpunct"].words(text)
        assert ours == re.findall(r"\w+|[^\w\s]+", text)
        engines_differ = {c for c in set(text) if bool(re.match(r"\w", c)) != bool(regex.match(r"\w", c))}
        if not engines_differ:
            assert ours == wordpunct_tokenize(text), rel
            compared += 1
    assert compared >= 3
    assert PRETOKENIZERS["wordpunct"].words("?⒎") == ["?", "⒎"]


def test_punkt_wordpunct_is_seed000(real, nltk_with_our_tables: None) -> None:
    from nltk import sent_tokenize, wordpunct_tokenize

    text = real.text("bench/gutenberg/alice_in_wonderland.txt")
    # Seed 000's create_vocab: sent_tokenize(whole text), then wordpunct per sentence.
    expected = [t for s in sent_tokenize(text) for t in wordpunct_tokenize(s)]
    p = PRETOKENIZERS["punkt-wordpunct"]
    assert p.words(text) == expected
    pieces = p.pieces(text)
    assert [x.text for x in pieces] == expected
    assert all(text[x.start:x.end] == x.text for x in pieces)


def test_gpt2_pieces_are_hf_bytelevel_boundaries(real) -> None:
    from tokenizers.pre_tokenizers import ByteLevel

    hf = ByteLevel(add_prefix_space=False, use_regex=True)
    for rel in REAL + ["bench/gutenberg/pride_and_prejudice.txt"]:  # the last is ASCII: the re twin
        text = sample(real, rel, 60_000)
        ours = PRETOKENIZERS["gpt2"].pieces(text)
        assert [(x.start, x.end) for x in ours] == [span for _, span in hf.pre_tokenize_str(text)], rel
        assert [x.text for x in ours] == [text[s:e] for s, e in ((x.start, x.end) for x in ours)]


def _tiktoken_defs(real, monkeypatch: pytest.MonkeyPatch, tmp_path) -> dict:
    """The installed tiktoken's own definitions, loaded offline from the real rank files."""
    import hashlib
    import shutil

    from tiktoken_ext import openai_public

    urls = {"r50k_base": "https://openaipublic.blob.core.windows.net/encodings/r50k_base.tiktoken",
            "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
            "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"}
    for name, url in urls.items():
        # tiktoken's cache key is the sha1 of the URL; its own expected_hash check still runs.
        shutil.copy(real.path(f"tiktoken_ranks/{name}.tiktoken"), tmp_path / hashlib.sha1(url.encode()).hexdigest())
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    return {"gpt2": openai_public.r50k_base(), "cl100k": openai_public.cl100k_base(),
            "o200k": openai_public.o200k_base()}


def test_tiktoken_patterns_and_pieces(real, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    import tiktoken

    defs = _tiktoken_defs(real, monkeypatch, tmp_path)
    text = sample(real, "wikitext-2-raw/wiki.valid.raw", 40_000) + sample(real, "chinese/sanguo_yanyi.txt", 10_000) \
        + sample(real, "bench/multilingual/ru_anna_karenina.txt", 20_000) + " It's   DONE'S 12345\r\n\n  end  "
    ascii_text = sample(real, "bench/gutenberg/pride_and_prejudice.txt", 60_000)  # takes the re twin
    assert ascii_text.isascii() and not text.isascii()
    for name, d in defs.items():
        assert TIKTOKEN_PATTERNS[name] == d["pat_str"], name
        enc = tiktoken.Encoding(name, pat_str=d["pat_str"], mergeable_ranks=d["mergeable_ranks"], special_tokens={})
        for t in (text, ascii_text):
            pieces = PRETOKENIZERS[name].words(t)
            assert "".join(pieces) == t
            # BPE never crosses a piece boundary: encoding piece by piece gives tiktoken's ids.
            assert [i for p in pieces for i in enc.encode_ordinary(p)] == enc.encode_ordinary(t), name


# Letters of contractions in both cases, digits, every kind of ASCII space, U+001C (not \s for regex)
ASCII_EDGES = st.lists(st.sampled_from(list("aZk09 '\t\r\n\x0b\x0c\x1c\x1f.,!/-_") + ["'s", "'LL", "'Re", "'d"]),
                       max_size=20).map("".join)


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "o200k"])
def test_ascii_twins_equal_the_regex_patterns(real, name: str) -> None:
    p = PRETOKENIZERS[name]
    if p._ascii is None:
        pytest.skip("Python < 3.11: no possessive quantifiers in re, so no ASCII fast path")
    text = real.text("bench/gutenberg/moby_dick.txt", 300_000) + real.text("bench/ptb/ptb.valid.txt", 100_000)
    lines = [line for line in re.findall(r"[^\n]*\n|[^\n]+\Z", text) if line.isascii()]
    assert len(lines) > 4000
    assert [w for line in lines for w in p._ascii.findall(line)] == [w for line in lines for w in p.pattern.findall(line)]

    @settings(max_examples=300, deadline=None)
    @given(ASCII_EDGES)
    def agree(t: str) -> None:
        assert p._ascii.findall(t) == p.pattern.findall(t)
        assert [(m.start(), m.end()) for m in p._ascii.finditer(t)] == [(m.start(), m.end())
                                                                         for m in p.pattern.finditer(t)]
    agree()


def test_seed001_uses_python_re(real) -> None:
    seed = re.compile(SEED001_PATTERN)  # exactly as seed 001 compiles it
    text = sample(real, "bench/gutenberg/moby_dick.txt")
    assert PRETOKENIZERS["seed001"].words(text) == seed.findall(text)
    # Python re treats U+001C..U+001F as whitespace; the regex module would not.
    assert PRETOKENIZERS["seed001"].words("a\x1c\x1db") == ["a", "\x1c\x1d", "b"]


class TestUserRegex:
    def test_matches_are_the_words(self) -> None:
        p = get_pretokenizer(TrainerConfig(pretokenizer="regex", pattern=r"(\p{L})\p{L}*|(\d)"))
        assert p.words("héllo 42!") == ["héllo", "4", "2"]  # whole matches, not groups
        assert [(x.text, x.start, x.end) for x in p.pieces("ab 1")] == [("ab", 0, 2), ("1", 3, 4)]

    def test_empty_matches_are_dropped(self) -> None:
        p = get_pretokenizer(TrainerConfig(pretokenizer="regex", pattern=r"\w*"))
        assert p.words("ab, c") == ["ab", "c"]

    @pytest.mark.parametrize("pattern,message", [
        (None, "the 'regex' pre-tokenizer needs a pattern"),
        ("", "the 'regex' pre-tokenizer needs a pattern"),
        ("(ab", r"invalid pre-tokenizer pattern '\(ab': missing \) at position 3"),
        ("[a-", "invalid pre-tokenizer pattern '\\[a-': "),
        (r"\b", r"pre-tokenizer pattern '\\\\b' only matches the empty string"),
        ("(?=a)", "only matches the empty string"),
    ])
    def test_bad_patterns(self, pattern, message) -> None:
        with pytest.raises(BPELensError, match=message) as e:
            get_pretokenizer(TrainerConfig(pretokenizer="regex", pattern=pattern))
        assert "\n" not in str(e.value)

    def test_registry_entry_without_pattern(self) -> None:
        with pytest.raises(BPELensError, match="needs a pattern"):
            PRETOKENIZERS["regex"].words("x")


def _seed004_preprocess(text: str) -> str:
    """Seed 004's BPE.preprocess, verbatim (reference for the CJK splitter)."""
    pattern = re.compile(r'([^\u4e00-\u9fff\w\s])|(\s+)')
    tokens = pattern.split(text)
    tokens = [t for t in tokens if t and t.strip() != '']
    processed = []
    for token in tokens:
        if re.match(r'[\u4e00-\u9fff]+', token):
            processed.append(' '.join(list(token)))
        elif re.match(r'[a-zA-Z0-9]+', token):
            processed.append(' '.join(list(token)) + ' </w>')
        else:
            processed.append(token)
    return ' '.join(processed)


SEED004_CORPUS = [
    "自然语言处理是人工智能的一个重要分支。",
    "BPE 是一种常用的分词算法，广泛应用于 NLP 领域。",
    "Python 是一种简单易学的编程语言，非常适合快速开发。",
    "Machine learning is a subset of artificial intelligence.",
    "Byte Pair Encoding is widely used in large language models.",
    "Natural language processing enables computers to understand human language.",
    "我爱自然语言处理，也喜欢 Python 编程。",
    "The quick brown fox jumps over the lazy dog.",
]


class TestCJK:
    cfg = TrainerConfig(pretokenizer="cjk", end_of_word_suffix="</w>")

    def symbols(self, text: str) -> list:
        p, chain = PRETOKENIZERS["cjk"], Pipeline(self.cfg)
        return [s for w in p.words(text) for s in chain.initial_symbols(w)]

    def test_same_symbols_as_the_seed_where_the_seed_is_right(self, real) -> None:
        for text in SEED004_CORPUS:
            assert self.symbols(text) == _seed004_preprocess(text).split(), text
        # Real Chinese: lines without mixed Han+Latin runs or non-ASCII-led \w runs.
        lines = real.text("chinese/sanguo_yanyi.txt").splitlines()[:600]
        checked = 0
        for line in lines:
            runs = re.findall(r"[^\W]+", line)
            if any(re.search(r"[\u4e00-\u9fff]", r) and re.search(r"[^\u4e00-\u9fff]", r) for r in runs):
                continue
            assert self.symbols(line) == _seed004_preprocess(line).split()
            checked += 1
        assert checked > 500

    def test_rules(self) -> None:
        """Issue 10: a Han run is one word of characters; every other word-character run (accents, kana,
        Hangul, underscore...) gets </w>; a punctuation character is one symbol."""
        p = PRETOKENIZERS["cjk"]
        text = "我爱Python编程！école _x 3.14…カタカナ 한국어㐀㐁"
        assert p.words(text) == ["我爱", "Python", "编程", "！", "école", "_x", "3", ".", "14", "…", "カタカナ",
                                 "한국어", "㐀㐁"]
        assert [Pipeline(self.cfg).initial_symbols(w) for w in ["Python", "编程", "！", "école", "_x", "カタカナ", "㐀㐁"]] == [
            ["P", "y", "t", "h", "o", "n", "</w>"], ["编", "程"], ["！"], ["é", "c", "o", "l", "e", "</w>"],
            ["_", "x", "</w>"], ["カ", "タ", "カ", "ナ", "</w>"], ["㐀", "㐁"]]
        pieces = p.pieces(text)
        assert [x.text for x in pieces] == p.words(text)
        assert [x.suffix for x in pieces] == [False, True, False, False, True, True, True, False, True, False,
                                              True, True, False]
        assert all(text[x.start:x.end] == x.text for x in pieces)
        with pytest.raises(BPELensError, match="'cjk' pre-tokenizer works on characters"):
            Pipeline(TrainerConfig(pretokenizer="cjk", unit="bytes")).initial_symbols("a")

    def test_same_words_as_the_reference(self, real) -> None:
        from tests.reference.seed004 import BPE

        ref = BPE()
        lines = real.text("chinese/sanguo_yanyi.txt").splitlines()[:300] + SEED004_CORPUS + [
            "中文abc_x 3.14 élan naïve café，……「你好」日本語のテキスト、한국어 e\u0301 ⺀ 𠀀x"]
        for line in lines:
            assert [" ".join(self.symbols(w)) for w in PRETOKENIZERS["cjk"].words(line)] == ref.words(line), line


def test_word_symbols_default_and_bytes() -> None:
    def symbols(word: str, **settings) -> list:  # the gpt2 pre-tokenizer's chain: its unit mapper
        return Pipeline(TrainerConfig(pretokenizer="gpt2", **settings)).initial_symbols(word)

    assert symbols(" hé") == [" ", "h", "é"]
    assert symbols("ab", end_of_word_suffix="</w>") == ["a", "b", "</w>"]
    assert symbols(" é", unit="bytes") == [b" ", b"\xc3", b"\xa9"]
    with pytest.raises(BPELensError, match="end-of-word suffix .*needs unit 'chars'"):
        symbols("a", unit="bytes", end_of_word_suffix="</w>")


def test_glyph_pieces_are_gpt2_words_as_glyphs(real) -> None:
    """gpt2-glyphs rewrites each GPT-2 word into byte glyphs; the span is the word's, align maps glyphs."""
    from bpe_core.base.symbols import to_glyphs

    text = sample(real, "wikitext-2-raw/wiki.valid.raw", 5_000) + sample(real, "chinese/sanguo_yanyi.txt", 2_000)
    glyph, gpt2 = PRETOKENIZERS["gpt2-glyphs"], PRETOKENIZERS["gpt2"]
    pieces = glyph.pieces(text)
    assert [x.text for x in pieces] == glyph.words(text) == [to_glyphs(w.encode()) for w in gpt2.words(text)]
    assert glyph.words_in_lines(text) == [to_glyphs(w.encode()) for w in gpt2.words_in_lines(text)]
    for x in pieces:
        assert to_glyphs(text[x.start:x.end].encode()) == x.text and len(x.meta["align"]) == len(x.text)
    assert glyph.words(" the é") == ["Ġthe", "ĠÃ©"]


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("regex", "punkt-wordpunct", "gpt2-glyphs", "picky")])
def test_pieces_are_the_words_with_spans(real, name: str) -> None:
    p = PRETOKENIZERS[name]
    text = sample(real, "wikitext-2-raw/wiki.valid.raw", 30_000) + sample(real, "chinese/sanguo_yanyi.txt", 5_000)
    pieces = p.pieces(text)
    assert [x.text for x in pieces] == p.words(text)
    assert all(text[x.start:x.end] == x.text for x in pieces)


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("regex", "punkt-wordpunct")])
def test_words_in_lines_is_words_per_line(real, name: str) -> None:
    p = PRETOKENIZERS[name]
    text = real.text("bench/gutenberg/frankenstein.txt", 60_000) + "\n\n  \n \t tail  "
    lines = re.findall(r"[^\n]*\n|[^\n]+\Z", text)  # file-iteration lines (only "\n" ends one)
    assert "".join(lines) == text
    per_line = [w for line in lines for w in p.words(line)]
    assert p.words_in_lines(text) == per_line
    if p.line_local:
        assert p.words(text) == per_line


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAİẞΣσςﬃ ǅ\u0130\u1e9eK.\n"), max_size=40))
def test_lowercase_with_offsets(text: str) -> None:
    lowered, index = lowercase_with_offsets(text)
    assert lowered == text.lower()
    assert len(index) == len(lowered) + 1 and index[-1] == len(text)
    assert list(index) == sorted(index)
    for i, ch in enumerate(text):  # each original character owns len(ch.lower()) positions
        assert list(index).count(i) == len(ch.lower())


def test_split_lowercased_reports_original_spans() -> None:
    text = "İSTANBUL ﬃX Straße"
    pieces = PRETOKENIZERS["whitespace"].split(text, lowercase=True)
    assert [x.text for x in pieces] == text.lower().split()
    assert [text[x.start:x.end] for x in pieces] == ["İSTANBUL", "ﬃX", "Straße"]
