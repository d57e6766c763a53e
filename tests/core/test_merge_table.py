"""One merge table for every consumer: a merge list that repeats a pair is read as ``tokenizers`` reads it.

``tokenizers`` builds its merge map by inserting the merges in file order, so a repeated pair keeps its
*last* rank (checked with tokenizers 0.23: merges ``a b, b c, a b`` encode "abc" as ``a bc``; saving the
tokenizer drops the earlier ``a b``). The encoder, the replay's segmenter and counts, the health report
and continued training must all agree with it. The judge is ``tokenizers`` itself, on tokenizer.json
files this test writes; the merge lists are drawn with repeated pairs.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bpe_core.analysis.health import health_of_pieces
from bpe_core.analysis.replay import Segmenter, replay
from bpe_core.encoding.encoder import Encoder
from bpe_core.base.merge import merge_table, pair_ranks, shadowed_ranks
from bpe_core.formats import read_tokenizer_json
from bpe_core.training.continuing import continued_config
from bpe_core.training.trainer import Trainer

tokenizers = pytest.importorskip("tokenizers")
Merges = List[Tuple[str, str]]


def tokenizer_json(toks: List[str], merges: Merges) -> str:
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
             "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
             "vocab": {t: i for i, t in enumerate(toks)}, "merges": [f"{a} {b}" for a, b in merges]}
    return json.dumps({"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
                       "normalizer": None, "pre_tokenizer": {"type": "WhitespaceSplit"}, "post_processor": None,
                       "decoder": None, "model": model})


def both(tmp_path: Path, toks: List[str], merges: Merges):
    """(tokenizers' tokenizer, our model) of one tokenizer.json."""
    text = tokenizer_json(toks, merges)
    path = tmp_path / "tokenizer.json"
    path.write_text(text, "utf-8")
    return tokenizers.Tokenizer.from_str(text), read_tokenizer_json(str(path))


@st.composite
def merge_lists(draw) -> Tuple[List[str], Merges]:
    """Merges over a, b, c and what they make; about one in four repeats an earlier merge's pair."""
    toks, merges = ["a", "b", "c"], []
    for _ in range(draw(st.integers(0, 20))):
        if merges and draw(st.integers(0, 3)) == 0:
            merges.append(draw(st.sampled_from(merges)))
            continue
        a, b = draw(st.sampled_from(toks)), draw(st.sampled_from(toks))
        merges.append((a, b))
        if a + b not in toks:
            toks.append(a + b)
    return toks, merges


WORDS = st.lists(st.text(alphabet="abc", min_size=1, max_size=12), min_size=1, max_size=8)


def reference_tokens(hf, words: List[str]) -> Counter:
    return Counter(t for w in words for t in hf.encode(w, add_special_tokens=False).tokens)


# -- the finding: merges "a b", "b c", "a b" ---------------------------------------------------------
FINDING = (["a", "b", "c", "ab", "bc"], [("a", "b"), ("b", "c"), ("a", "b")])


def test_the_one_table_keeps_the_last_rank_of_a_repeated_pair():
    merges = [(0, 1), (1, 2), (0, 1)]
    assert pair_ranks(merges) == {(0, 1): 2, (1, 2): 1}
    assert shadowed_ranks(merges) == frozenset({0})
    assert merge_table(merges, [3, 4, 3]) == {(0, 1): (2, 3), (1, 2): (1, 4)}
    assert pair_ranks(merges[:2]) == {(0, 1): 0, (1, 2): 1}  # a limit cuts before the repeat


def test_every_consumer_splits_abc_as_tokenizers_does(tmp_path):
    hf, model = both(tmp_path, *FINDING)
    expected = hf.encode("abc").tokens
    assert expected == ["a", "bc"]  # tokenizers 0.23: the last "a b" (rank 2) comes after "b c" (rank 1)
    assert [t.raw for t in Encoder(model).encode("abc").tokens] == expected
    assert list(Segmenter(model).segment("abc")) == expected
    counts = replay(model, {"abc": 1})
    assert {model.tokens[t]: n for t, n in counts.token_counts.items()} == Counter(expected)
    trainer = Trainer({"abc": 1}, continued_config(model, merges=1),
                      symbols_fn=model.units.symbols, start=model)
    assert [trainer.token(i) for i in trainer.segmentation(0)] == expected


def test_health_names_the_merge_that_fires_for_a_repeated_pair(tmp_path):
    hf, model = both(tmp_path, *FINDING)
    report = health_of_pieces(model, [("x", {("abc", True): 2, ("ab", True): 1})])
    rows = {r.token: r for r in report.rows}
    assert rows["ab"].usage == reference_tokens(hf, ["abc", "abc", "ab"])["ab"] == 1
    assert rows["bc"].usage == 2
    assert (rows["ab"].rank, rows["ab"].merge_count, rows["ab"].status) == (3, 1, "used")
    assert report.replay.merge_counts == (0, 2, 1)  # the first "a b" never fires: a later one repeats it
    assert 1 in report.replay.dead_merges


# -- every consumer against tokenizers on drawn merge lists with repeats --------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=merge_lists(), words=WORDS)
def test_every_consumer_agrees_with_tokenizers_on_repeated_merges(tmp_path, spec, words):
    toks, merges = spec
    hf, model = both(tmp_path, toks, merges)
    expected = {w: hf.encode(w, add_special_tokens=False).tokens for w in words}
    assert [model.tokens[i] for i in Encoder(model).encode_ids(" ".join(words))] == \
        [t for w in words for t in expected[w]]
    seg = Segmenter(model)
    assert {w: list(seg.segment(w)) for w in words} == expected
    counts = Counter(words)
    reference = reference_tokens(hf, words)
    report = health_of_pieces(model, [("x", {(w, True): n for w, n in counts.items()})])
    assert {r.token: r.usage for r in report.rows if r.usage} == reference
    if not report.replay.late_merges:  # replay applies merges in rank order: exact when none is late
        assert {model.tokens[t]: n for t, n in report.replay.token_counts.items()} == reference
    trainer = Trainer(dict(counts), continued_config(model, merges=1),
                      symbols_fn=model.units.symbols, start=model)
    assert {w: [trainer.token(i) for i in trainer.segmentation(k)] for k, w in enumerate(trainer.words)} == \
        {w: expected[w] for w in trainer.words}
