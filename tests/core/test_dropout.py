"""BPE-dropout (bpe_core.encoding.dropout): the same distribution as tokenizers' BPE(dropout=p), and exact limits.

The distribution test is a two-sample chi-square homogeneity test per word: our 10,000 seeded samples against
10,000 that ``tokenizers`` drew (tests/data/variants/dropout/gpt2_wiki_valid.json, made by
scripts/make_dropout_goldens.py with tokenizers itself), segmentations seen fewer than 5 times in both samples
together pooled into one bin; no word may reject at alpha = 0.001. The power tests show the same test rejects
a wrong p and the approximation that forgets skipped merges. A slow test draws fresh samples from tokenizers.
"""
from __future__ import annotations

import heapq
import json
import math
import random
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from bpe_core.encoding.dropout import DropoutEncoder, dropout_segment, sample_words, shares, text_words
from bpe_core.encoding.encoder import Encoder
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError
from tests.core.paths import need

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "variants" / "dropout" / "gpt2_wiki_valid.json"
ALPHA = 0.001


# -- the chi-square test ------------------------------------------------------------------------------
def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(a, x): a series below a + 1, a continued fraction above."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1.0 - total * math.exp(log_front)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_sf(stat: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom >= stat)."""
    return _gamma_q(df / 2, stat / 2)


def homogeneity(ours: Counter, theirs: Counter) -> Tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of the two-sample chi-square test; bins seen < 5 times pooled."""
    keys = set(ours) | set(theirs)
    big = [k for k in keys if ours[k] + theirs[k] >= 5]
    small = [k for k in keys if ours[k] + theirs[k] < 5]
    rows = [(ours[k], theirs[k]) for k in sorted(big)]
    if small:
        pooled = (sum(ours[k] for k in small), sum(theirs[k] for k in small))
        if sum(pooled) < 5 and rows:  # too small a bin even pooled: join it to the smallest bin
            i = min(range(len(rows)), key=lambda r: sum(rows[r]))
            rows[i] = (rows[i][0] + pooled[0], rows[i][1] + pooled[1])
        else:
            rows.append(pooled)
    if len(rows) < 2:
        return 0.0, 0, 1.0
    n1, n2 = sum(r[0] for r in rows), sum(r[1] for r in rows)
    stat = 0.0
    for a, b in rows:
        col = a + b
        for obs, n in ((a, n1), (b, n2)):
            exp = n * col / (n1 + n2)
            stat += (obs - exp) ** 2 / exp
    df = len(rows) - 1
    return stat, df, chi2_sf(stat, df)


def test_chi2_sf_matches_the_tables():
    # critical values at 0.001 and 0.05 from standard chi-square tables
    for stat, df, p in ((10.828, 1, 0.001), (18.467, 4, 0.001), (29.588, 10, 0.001), (3.841, 1, 0.05),
                        (43.773, 30, 0.05), (59.703, 30, 0.001)):
        assert chi2_sf(stat, df) == pytest.approx(p, rel=2e-3)


# -- the models --------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def gpt2() -> BPEModel:
    from bpe_core.formats.detect import open_vocabulary
    return open_vocabulary(str(need("gpt2/tokenizer.json")))


def wiki(chars: int = 3000) -> str:
    return need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8")[:chars]


@lru_cache(maxsize=None)
def _tiny() -> BPEModel:
    from bpe_core import Trainer, make_config
    trainer = Trainer.from_texts(["low lower lowest newer wider", "slow slower"],
                                 make_config("char-whitespace", num_merges=12))
    list(trainer.run())
    return trainer.model()


# -- exact limits and determinism ------------------------------------------------------------------
def test_p0_is_the_plain_encoding_on_wiki_text():
    text = wiki()
    assert DropoutEncoder(gpt2(), 0.0, seed=5).encode(text) == Encoder(gpt2()).encode(text)
    assert DropoutEncoder(_tiny(), 0.0, seed=5).encode("slowest lower") == Encoder(_tiny()).encode("slowest lower")


def test_p1_gives_the_units():
    text = wiki()
    units = Encoder(gpt2(), merges_limit=0).encode(text)
    assert DropoutEncoder(gpt2(), 1.0, seed=5).encode(text) == units
    assert DropoutEncoder(_tiny(), 1.0, seed=0).encode("lowest").ids == Encoder(_tiny(), merges_limit=0).encode("lowest").ids


def test_same_seed_same_samples_other_seed_other_samples():
    text = wiki(1000)
    a = DropoutEncoder(gpt2(), 0.1, seed=42).encode(text)
    assert a == DropoutEncoder(gpt2(), 0.1, seed=42).encode(text)
    assert a != DropoutEncoder(gpt2(), 0.1, seed=43).encode(text)
    assert a != Encoder(gpt2()).encode(text)  # 0.1 changes some of ~250 words
    enc = DropoutEncoder(gpt2(), 0.1, seed=42)
    assert enc.encode(text) == a and enc.encode(text) != a  # the second call draws on


def test_repeat_starts_each_encoding_from_the_seed():
    text = wiki(600)
    enc = DropoutEncoder(gpt2(), 0.3, seed=8, repeat=True)
    first = DropoutEncoder(gpt2(), 0.3, seed=8).encode(text)
    assert enc.encode(text) == first and enc.encode(text) == first and enc.encode_ids(text) == first.ids


def test_merges_limit_limits_the_merges_dropout_can_make():
    text = wiki(600)
    for model in (gpt2(), _r50k()):
        assert DropoutEncoder(model, 1e-9, seed=1, merges_limit=300).encode(text).ids == \
            Encoder(gpt2(), merges_limit=300).encode(text).ids
    limited = sample_words(gpt2(), [" mechanism"], 0.2, seed=1, n=200, merges_limit=300)[" mechanism"]
    assert all(i < 256 + 300 for seg in limited for i in seg)


def _r50k() -> BPEModel:
    from bpe_core.formats.detect import open_vocabulary
    return open_vocabulary(str(need("tiktoken_ranks/r50k_base.tiktoken")))


def test_encode_ids_agrees_with_encode():
    text = wiki(800)
    assert DropoutEncoder(gpt2(), 0.2, seed=1).encode_ids(text) == DropoutEncoder(gpt2(), 0.2, seed=1).encode(text).ids


def test_spans_tile_the_text():
    text = wiki(1500)
    toks = DropoutEncoder(gpt2(), 0.3, seed=9).encode(text).tokens
    # the bytes of one character ("–" is 3) split apart each get the whole character's span: spans overlap
    # there, never leave a gap, never go back
    assert [t.start for t in toks] == sorted(t.start for t in toks)
    covered = sorted({i for t in toks for i in range(t.start, t.end)})
    assert covered == list(range(len(text)))
    assert all(t.display == gpt2().display(t.id) for t in toks)


def test_tiktoken_file_samples_as_gpt2():
    """r50k_base is GPT-2's vocabulary: its recovered merges have GPT-2's ranks, so a seed gives the same sample."""
    from bpe_core.formats.detect import open_vocabulary
    r50k = open_vocabulary(str(need("tiktoken_ranks/r50k_base.tiktoken")))
    text = wiki(1200)
    assert DropoutEncoder(r50k, 0.25, seed=3).encode(text).ids == DropoutEncoder(gpt2(), 0.25, seed=3).encode(text).ids


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=60), p=st.floats(0, 1), seed=st.integers(0, 2**32))
def test_every_sample_decodes_to_the_text(text, p, seed):
    enc = DropoutEncoder(gpt2(), p, seed=seed)
    assert enc.decode(enc.encode_ids(text.encode("utf-8", "replace").decode())) == text.encode("utf-8", "replace").decode()


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="lowersn idt", max_size=40), p=st.floats(0, 1), seed=st.integers(0, 2**32))
def test_chars_model_samples_decode_to_the_text(text, p, seed):
    enc = DropoutEncoder(_tiny(), p, seed=seed)
    assert enc.decode(enc.encode_ids(text)) == Encoder(_tiny()).decode(Encoder(_tiny()).encode_ids(text))


def test_bad_settings_and_vocabularies_are_refused():
    for p in (-0.1, 1.5, float("nan"), "x"):
        with pytest.raises(BPELensError, match="dropout must be"):
            DropoutEncoder(_tiny(), p)
    greedy = BPEModel(unit="chars", tokens=["a"], algorithm="seed000-greedy", extras={"vocab_to_idx": {"a": 0, "<unk>": 0},
                                                                                      "freqs": {}})
    with pytest.raises(BPELensError, match="ranked merges"):
        DropoutEncoder(greedy, 0.1)
    with pytest.raises(BPELensError, match="ranked merges"):
        DropoutEncoder(BPEModel(unit="chars", tokens=["a"], algorithm="picky"), 0.1)
    with pytest.raises(BPELensError, match="at least 1"):
        sample_words(_tiny(), ["low"], 0.1, seed=1, n=0)


def test_text_words_and_shares():
    assert text_words(gpt2(), "the cat, the dog") == ["the", " cat", ",", " the", " dog"]
    counts = sample_words(gpt2(), [" mechanism"], 0.3, seed=2, n=500)[" mechanism"]
    rows = shares(counts)
    assert sum(c for _, c, _ in rows) == 500 and math.isclose(sum(s for _, _, s in rows), 1.0)
    assert [s for _, _, s in rows] == sorted((s for _, _, s in rows), reverse=True)


def test_the_skip_draws_follow_word_rs():
    """merge_all pops (rank, pos); a popped entry draws; the first kept one brings the skipped back, then is
    checked. Here: 'a b c' with ab (rank 0) and bc (rank 1); skipping ab then keeping bc gives a + bc."""
    table = {(0, 1): (0, 3), (1, 2): (1, 4)}
    draws: List[bool] = [True, False, False]  # skip ab; keep bc (ab returns); ab pops again, stale
    assert dropout_segment([0, 1, 2], table, iter(draws).__next__) == ([0, 4], [0, 1])
    # skipping ab twice in a row with nothing kept between: the heap empties and ab is lost
    assert dropout_segment([0, 1], {(0, 1): (0, 3)}, iter([True]).__next__) == ([0, 1], [0, 1])
    # a stale entry that is kept brings the skipped ones back (its draw counts)
    calls = []
    def skip():
        calls.append(1)
        return False
    assert dropout_segment([0, 1, 2], table, skip) == ([3, 2], [0, 2]) and len(calls) == 2  # ab, then stale bc


# -- the same distribution as tokenizers ---------------------------------------------------------------
def _golden() -> dict:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def _theirs(golden: dict, p: str, word: str) -> Counter:
    return Counter({tuple(int(x) for x in k.split()): v for k, v in golden["segmentations"][p][word].items()})


@lru_cache(maxsize=None)
def _ours(p: float, seed: int, n: int) -> Dict[str, Counter]:
    return sample_words(gpt2(), [w["word"] for w in _golden()["words"]], p, seed=seed, n=n)


def test_golden_words_are_real_and_plain_encodings_agree():
    golden = _golden()
    text = need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8")
    assert len(golden["words"]) == 20 and golden["samples_per_word"] == 10_000
    for w in golden["words"]:
        assert w["word"] in text and 6 <= len(w["word"].strip()) <= 14
        assert Encoder(gpt2()).encode_ids(w["word"]) == w["plain"]


@pytest.mark.parametrize("p", ["0.1", "0.3"])
def test_distribution_matches_tokenizers(p):
    golden = _golden()
    ours = _ours(float(p), 2020, golden["samples_per_word"])
    results = {w["word"]: homogeneity(ours[w["word"]], _theirs(golden, p, w["word"])) for w in golden["words"]}
    rejected = {w: r for w, r in results.items() if r[2] < ALPHA}
    assert not rejected, rejected
    assert sum(len(ours[w]) > 3 for w in ours) >= 15  # several segmentations per word: the test has bins


def test_the_test_rejects_a_wrong_p():
    golden = _golden()
    ours = _ours(0.3, 2020, golden["samples_per_word"])
    assert all(homogeneity(ours[w["word"]], _theirs(golden, "0.1", w["word"]))[2] < ALPHA for w in golden["words"])


def _forgetting_segment(ids: Sequence[int], table, rng: random.Random, p: float) -> Tuple[int, ...]:
    """The approximation word.rs is not: a skipped merge is gone for good (never pushed back)."""
    cur = list(ids)
    heap = [(table[(a, b)][0], i) for i, (a, b) in enumerate(zip(cur, cur[1:])) if (a, b) in table]
    heapq.heapify(heap)
    alive = [True] * len(cur)
    nxt = list(range(1, len(cur) + 1))
    prv = list(range(-1, len(cur) - 1))
    while heap:
        rank, i = heapq.heappop(heap)
        if rng.random() < p:
            continue
        j = nxt[i]
        if not alive[i] or j >= len(cur) or table.get((cur[i], cur[j]), (None,))[0] != rank:
            continue
        cur[i] = table[(cur[i], cur[j])][1]
        alive[j] = False
        k = nxt[i] = nxt[j]
        if k < len(cur):
            prv[k] = i
            if (cur[i], cur[k]) in table:
                heapq.heappush(heap, (table[(cur[i], cur[k])][0], i))
        if prv[i] >= 0 and (cur[prv[i]], cur[i]) in table:
            heapq.heappush(heap, (table[(cur[prv[i]], cur[i])][0], prv[i]))
    return tuple(c for c, a in zip(cur, alive) if a)


def test_the_test_rejects_forgetting_skipped_merges():
    golden = _golden()
    enc = Encoder(gpt2())
    rng = random.Random(7)
    rejected = 0
    for w in golden["words"]:
        ids = enc.start_ids(w["word"])[0]
        approx = Counter(_forgetting_segment(ids, enc.merge_table, rng, 0.3) for _ in range(10_000))
        rejected += homogeneity(approx, _theirs(golden, "0.3", w["word"]))[2] < ALPHA
    assert rejected >= 10


@pytest.mark.slow
@pytest.mark.parametrize("p", [0.1, 0.3])
def test_distribution_matches_fresh_tokenizers_samples(p):
    """Fresh samples from tokenizers (unseeded): 20 words x 2 settings are 40 tests, so the family is held to
    alpha = 0.001 (Bonferroni: each word at 0.001 / 40); the golden test above holds each word to 0.001."""
    tokenizers = pytest.importorskip("tokenizers")
    spec = json.loads(need("gpt2/tokenizer.json").read_text(encoding="utf-8"))
    spec["model"]["dropout"] = p
    tok = tokenizers.Tokenizer.from_str(json.dumps(spec))
    words = [w["word"] for w in _golden()["words"]]
    ours = sample_words(gpt2(), words, p, seed=99, n=10_000)
    for word in words:
        theirs = Counter(tuple(e.ids) for e in tok.encode_batch([word] * 10_000, add_special_tokens=False))
        assert homogeneity(ours[word], theirs)[2] >= ALPHA / 40, word
