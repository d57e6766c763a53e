"""bpe_core.analysis.measures against its references: Rényi efficiency equal to zouharvi/tokenization-scorer's own
result (tests/data/measures/, made by scripts/make_measures_goldens.py) on GPT-2's encoding of the parallel text;
bytes per token and per-language costs against tokenizers' own encodings; Gini and parity against hand-computed
cases and an independent recount."""
from __future__ import annotations

import doctest
import json
import math
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.analysis import measures
from bpe_core.analysis.measures import (TextSize, bytes_per_token, gini, language_costs, parity, parity_gini,
                                        renyi_efficiency, renyi_entropy, text_measures, text_size, tokens_per_100_chars,
                                        tokens_per_word, vocabulary_use)
from bpe_core.analysis.variant_compare import VariantFigures
from bpe_core.types import BPELensError
from tests.core.paths import need

ROOT = Path(__file__).resolve().parents[2]
PARALLEL = ROOT / "tests" / "data" / "parallel"
GOLDEN = json.loads((ROOT / "tests" / "data" / "measures" / "renyi_gpt2_parallel.json").read_text(encoding="utf-8"))
TEXTS = GOLDEN["texts"]


def _counts(case) -> dict:
    return {int(k): v for k, v in case["counts"].items()}


# --- Rényi efficiency: the reference's own numbers --------------------------------------------------------------

@pytest.mark.parametrize("case", TEXTS, ids=[c["name"] for c in TEXTS])
def test_renyi_efficiency_equals_tokenization_scorer(case):
    counts = _counts(case)
    assert sum(counts.values()) == case["tokens"] and len(counts) == case["distinct"]
    for alpha in [*GOLDEN["alphas"], 1.0]:
        key = str(alpha)
        assert renyi_efficiency(counts, alpha) == pytest.approx(case["renyi"][key], abs=1e-9, rel=0), key
        assert renyi_efficiency(counts, alpha, vocab_size=50257) == pytest.approx(
            case["renyi_vocab_50257"][key], abs=1e-9, rel=0), key
    assert renyi_entropy(counts, 2.5) == pytest.approx(case["renyi"]["entropy_2.5"], abs=1e-9, rel=0)


def test_the_golden_covers_real_text_in_many_languages():
    names = {c["name"] for c in TEXTS}
    assert {p.stem for p in PARALLEL.glob("*.txt")} <= names and len(names) >= 15
    assert GOLDEN["reference"]["package"] == "tokenization-scorer" and GOLDEN["reference"]["version"] == "1.1.8"
    assert next(c for c in TEXTS if c["name"] == "all")["tokens"] > 200_000


def test_the_default_order_is_2_5():
    case = next(c for c in TEXTS if c["name"] == "eng")
    assert renyi_efficiency(_counts(case)) == pytest.approx(case["renyi"]["2.5"], abs=1e-9, rel=0)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(1, 1000), st.floats(1.1, 5.0))
def test_renyi_efficiency_is_one_for_an_even_use_and_below_otherwise(n, count, alpha):
    even = dict.fromkeys(range(n), count)
    assert renyi_efficiency(even, alpha) == pytest.approx(1.0, abs=1e-12)
    uneven = {**even, 0: count * 3}
    assert 0 < renyi_efficiency(uneven, alpha) < 1


def test_renyi_of_one_distinct_token_is_nan_as_the_reference():
    assert math.isnan(renyi_efficiency({5: 10}))


@pytest.mark.parametrize("call, message", [
    (lambda: renyi_efficiency({}), "no tokens"),
    (lambda: renyi_efficiency({1: 2, 2: 1}, alpha=0), "positive"),
    (lambda: renyi_efficiency({1: 2, 2: 1}, alpha=-1), "positive"),
    (lambda: renyi_efficiency({1: 2, 2: 1, 3: 1}, vocab_size=2), "smaller"),
    (lambda: renyi_efficiency({1: -2, 2: 1}), "negative"),
])
def test_bad_input_gets_one_clear_line(call, message):
    with pytest.raises(BPELensError, match=message) as info:
        call()
    assert "\n" not in str(info.value)


# --- bytes per token, tokens per 100 characters, tokens per word: against tokenizers' encodings ------------------

def _gpt2():
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(need("gpt2/tokenizer.json")))
    tok.no_truncation()
    return tok


def _byte_decoder() -> dict:
    """GPT-2's glyph -> byte table (bytes_to_unicode of openai/gpt-2's encoder.py), written out here."""
    kept = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), 256))
    glyphs, extra = {}, 0
    for b in range(256):
        if b in kept:
            glyphs[chr(b)] = b
        else:
            glyphs[chr(256 + extra)] = b
            extra += 1
    return glyphs


@pytest.fixture(scope="module")
def encoded():
    """Each parallel file: (its text, tokenizers' ids for it)."""
    tok = _gpt2()
    out = {}
    for path in sorted(PARALLEL.glob("*.txt")):
        text = path.read_bytes().decode("utf-8")
        out[path.stem] = (text, tok.encode(text, add_special_tokens=False).ids)
    return out


def test_the_goldens_counts_are_tokenizers_encoding_of_the_files(encoded):
    for case in TEXTS:
        if case["name"] in encoded:
            text, ids = encoded[case["name"]]
            assert _counts(case) == Counter(ids)
            assert (case["bytes"], case["chars"], case["words"]) == tuple(vars(text_size(text)).values())


def test_bytes_per_token_is_the_mean_byte_length_of_the_emitted_tokens(encoded):
    tok, decode = _gpt2(), _byte_decoder()
    for name, (text, ids) in encoded.items():
        lengths = [len(tok.id_to_token(i)) for i in ids]  # one glyph per byte
        assert all(ch in decode for i in set(ids) for ch in tok.id_to_token(i))
        assert bytes(decode[ch] for i in ids for ch in tok.id_to_token(i)) == text.encode("utf-8"), name
        assert bytes_per_token(Counter(ids), text_size(text)) == pytest.approx(sum(lengths) / len(lengths), rel=1e-12)


def test_tokens_per_100_chars_and_per_word_count_tokenizers_tokens(encoded):
    text, ids = encoded["eng"]
    size = text_size(text)
    assert tokens_per_100_chars(Counter(ids), size) == pytest.approx(100 * len(ids) / len(text))
    assert tokens_per_word(Counter(ids), size) == pytest.approx(len(ids) / len(text.split()))
    m = text_measures(Counter(ids), size)
    assert (m.tokens, m.bytes_per_token) == (len(ids), bytes_per_token(Counter(ids), size))


def test_text_size_counts_bytes_chars_and_split_words():
    assert text_size("") == TextSize(0, 0, 0)
    assert text_size("日本 語\r\n\tx") == TextSize(14, 8, 3)
    with pytest.raises(BPELensError, match="empty"):
        tokens_per_word({1: 3}, text_size("   "))
    with pytest.raises(BPELensError, match="no tokens"):
        bytes_per_token({1: 0}, text_size("ab"))


# --- Gini and parity: hand-computed cases, an independent recount, properties -------------------------------------

def _gini_by_pairs(xs):
    """The textbook definition over all ordered pairs, written out separately from the module's sorted form."""
    n, total = len(xs), sum(xs)
    return sum(abs(a - b) for a in xs for b in xs) / (2 * n * total)


@pytest.mark.parametrize("xs, expected", [
    ([5], 0.0), ([10, 10, 10], 0.0), ([1, 3], 0.25), ([1, 2, 3], 2 / 9), ([0, 0, 30], 2 / 3), ([0, 1], 0.5),
    ([1, 1, 1, 5], 0.375),
])
def test_gini_hand_computed(xs, expected):
    assert gini(xs) == pytest.approx(expected, abs=1e-15)


costs = st.lists(st.integers(0, 10**6), min_size=1, max_size=30).filter(lambda xs: sum(xs) > 0)


@settings(max_examples=200, deadline=None)
@given(costs, st.integers(1, 1000))
def test_gini_properties(xs, k):
    g = gini(xs)
    assert g == pytest.approx(_gini_by_pairs(xs), abs=1e-12)
    assert 0 <= g <= (len(xs) - 1) / len(xs) + 1e-12
    assert gini([x * k for x in xs]) == pytest.approx(g, abs=1e-12)  # scale invariance
    assert gini(list(reversed(xs))) == pytest.approx(g, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10**6), st.integers(1, 30))
def test_gini_is_zero_for_equal_costs(c, n):
    assert gini([c] * n) == 0.0


def test_gini_refuses_what_has_no_answer():
    for bad in ([], [0, 0], [1, -1]):
        with pytest.raises(BPELensError):
            gini(bad)


def test_the_existing_cost_gini_agrees_with_the_measure():
    costs_ = {"a": 10, "b": 30, "c": 7}
    figures = VariantFigures("x", 0, 1.0, {}, 1, 1, 0, 0, costs_)
    assert figures.cost_gini == pytest.approx(parity_gini(costs_), abs=1e-15)


def test_parity_hand_computed():
    assert parity({"eng": 40, "deu": 50, "zho": 20}, "eng") == {"eng": 1.0, "deu": 1.25, "zho": 0.5}
    with pytest.raises(BPELensError, match="'fra' is not among"):
        parity({"eng": 1}, "fra")
    with pytest.raises(BPELensError, match="costs no tokens"):
        parity({"eng": 0, "deu": 3}, "eng")


def test_parity_and_gini_on_the_parallel_text_equal_a_recount(encoded):
    by_language = {name: Counter(ids) for name, (_, ids) in encoded.items()}
    recount = {name: len(ids) for name, (_, ids) in encoded.items()}
    assert language_costs(by_language) == recount
    premium = parity(language_costs(by_language), "eng")
    assert all(premium[lang] == recount[lang] / recount["eng"] for lang in recount)
    assert premium["eng"] == 1.0 and max(premium.values()) > 10  # GPT-2: Georgian/Tamil cost >10x English
    costs_list = list(recount.values())
    assert parity_gini(recount) == pytest.approx(_gini_by_pairs(costs_list), abs=1e-12)
    assert gini(premium.values()) == pytest.approx(parity_gini(recount), abs=1e-12)
    golden = {c["name"]: c["tokens"] for c in TEXTS if c["name"] in recount}
    assert golden == recount


def test_parity_gini_of_some_languages():
    assert parity_gini({"a": 1, "b": 3, "c": 100}, ["a", "b"]) == 0.25
    with pytest.raises(BPELensError, match="no cost for language"):
        parity_gini({"a": 1}, ["a", "z"])


# --- used / dead / under-used ------------------------------------------------------------------------------------

def test_vocabulary_use_hand_computed():
    u = vocabulary_use({0: 50, 1: 49, 2: 1, 3: 0}, vocab_size=4)
    assert (u.used, u.under_used, u.dead, u.under_used_below) == (3, 1, 1, 2.5)
    # a text shorter than the vocabulary: even use is below one emission, nothing can be called under-used
    short = vocabulary_use({0: 1, 1: 1}, vocab_size=100)
    assert (short.used, short.under_used, short.dead) == (2, 0, 98)
    assert vocabulary_use({0: 90, 1: 9, 2: 1}, vocab_size=3, share=0.5).under_used == 2
    with pytest.raises(BPELensError, match="more than the vocabulary"):
        vocabulary_use({0: 1, 1: 1}, vocab_size=1)


def test_vocabulary_use_of_gpt2_on_english_is_a_recount(encoded):
    text, ids = encoded["eng"]
    c = Counter(ids)
    u = vocabulary_use(c, 50257)
    assert u.used == len(set(ids)) and u.dead == 50257 - len(set(ids))
    assert u.under_used == sum(1 for n in c.values() if n < 0.1 * len(ids) / 50257)


def test_the_modules_examples_run():
    assert doctest.testmod(measures).failed == 0


# --- RenyiTally: the same value kept up to date as counts change (what the curves call between merges) ----------

from bpe_core.analysis.measures import RenyiTally  # noqa: E402

updates = st.lists(st.tuples(st.integers(0, 30), st.integers(-50, 200)), min_size=1, max_size=200)


@settings(max_examples=150, deadline=None)
@given(updates, st.sampled_from([1.0, 1.5, 2.5, 3.0]))
def test_tally_equals_a_recount_after_any_changes(changes, alpha):
    tally, counts = RenyiTally(alpha=alpha), Counter()
    for token, delta in changes:
        delta = max(delta, -counts[token])          # a count never goes below 0
        tally.add(token, delta)
        counts[token] += delta
    live = {t: n for t, n in counts.items() if n}
    assert tally.counts == live and tally.total == sum(live.values()) and tally.distinct == len(live)
    if len(live) >= 2:
        assert tally.efficiency() == pytest.approx(renyi_efficiency(live, alpha), abs=1e-12)
        assert tally.efficiency(50257) == pytest.approx(renyi_efficiency(live, alpha, 50257), abs=1e-12)


def test_tally_stays_within_1e_9_of_the_reference_over_a_long_run_of_merges():
    """GPT-2's counts on all 15 languages, then 200,000 merge-like changes (two tokens lose f, a third gains f; or
    back, as a removal): the tally still equals tokenization-scorer's definition on the final table."""
    import random
    rng = random.Random(27)
    case = next(c for c in TEXTS if c["name"] == "all")
    counts = _counts(case)
    tally = RenyiTally(counts)
    assert tally.efficiency() == pytest.approx(case["renyi"]["2.5"], abs=1e-9, rel=0)
    keys, changes = sorted(counts), 0
    while changes < 200_000:
        a, b, c = rng.sample(keys, 3)
        if rng.random() < 0.5:                       # a merge: (a, b) -> c, f times
            f = min(counts.get(a, 0), counts.get(b, 0), rng.randint(1, 50))
            moves = ((a, -f), (b, -f), (c, f))
        else:                                        # a removal: c -> (a, b), f times
            f = min(counts.get(c, 0), rng.randint(1, 50))
            moves = ((c, -f), (a, f), (b, f))
        if f == 0:
            continue
        for t, d in moves:
            tally.add(t, d)
            counts[t] = counts.get(t, 0) + d
            if not counts[t]:
                del counts[t]
        changes += 1
    assert len(counts) > 1000 and tally.terms > 2 * 400_000
    assert tally.efficiency() == pytest.approx(renyi_efficiency(counts), abs=1e-9, rel=0)


def test_tally_reads_in_constant_work_and_updates_in_two_terms():
    for size in (1000, 2000, 4000):
        tally = RenyiTally({t: t % 97 + 1 for t in range(size)})
        before = tally.terms
        for _ in range(10):
            tally.efficiency()
        assert tally.terms == before                # reading computes no term, whatever the table's size
        tally.add(5, 3)
        assert tally.terms == before + 2            # one change: the old and the new count's terms


def test_tally_refuses_a_negative_count_and_keeps_its_state():
    tally = RenyiTally({1: 2, 2: 5})
    with pytest.raises(BPELensError, match="below 0"):
        tally.add(1, -3)
    assert tally.counts == {1: 2, 2: 5} and tally.total == 7
    with pytest.raises(BPELensError, match="no tokens"):
        RenyiTally().efficiency()
