"""Merge trees, static reachability, corpus replay and word segmentation.

Judges: the Trainer's own merge counts on its training corpus, the Encoder's output on real
text, and invariants (a tree's leaves spell its token).
"""
from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from bpe_core.corpus.counting import iter_lines
from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.detect import open_vocabulary
from bpe_core.analysis.lineage import depth, leaf_ids, merge_ranks, merge_tree, render_tree, static_reachability
from bpe_core.model import BPEModel
from bpe_core.analysis.replay import Segmenter, replay, segment_words
from bpe_core.types import BPELensError, Cancelled

from tests.reference import seed000

from .paths import need  # ../shared/data beside the checkout


@pytest.fixture(scope="module")
def gpt2() -> BPEModel:
    return open_vocabulary(need("gpt2/vocab.json"))


def _trained(preset: str, corpus: Path, **kw) -> BPEModel:
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer
    trainer = Trainer.from_corpus(str(corpus), make_config(preset, **kw))
    trainer.run()
    return trainer.model()


# -- lineage ------------------------------------------------------------------------------------
def test_every_gpt2_tree_spells_its_token(gpt2):
    worst = 0
    for tid, raw in enumerate(gpt2.tokens):
        if tid in gpt2.special_ids:
            continue
        tree = merge_tree(gpt2, tid)
        assert b"".join(gpt2.tokens[i] for i in leaf_ids(tree)) == raw
        assert all(len(gpt2.tokens[i]) == 1 for i in leaf_ids(tree))
        ranks = merge_ranks(tree)
        assert (ranks[-1] == tree.rank) if ranks else tree.rank is None  # the top merge is the last
        worst = max(worst, depth(tree))
    assert 5 <= worst <= 64


def test_render_and_errors(gpt2):
    tree = merge_tree(gpt2, gpt2.id_of(b" Lincoln"))
    text = render_tree(tree)
    assert text.splitlines()[0].startswith("ĠLincoln  #12406  merge 12151")
    assert len(text.splitlines()) == 2 * len(leaf_ids(tree)) - 1  # a binary tree
    assert "└─ …" in render_tree(tree, max_depth=1)
    leaf = merge_tree(gpt2, gpt2.id_of(b"a"))
    assert (leaf.rank, leaf.children, depth(leaf)) == (None, (), 0)
    with pytest.raises(BPELensError, match="not in this vocabulary"):
        merge_tree(gpt2, len(gpt2.tokens))
    with pytest.raises(BPELensError, match="not in this vocabulary"):
        merge_tree(gpt2, -1)


def test_self_referencing_merge_is_cut_not_looped():
    m = BPEModel(unit="chars", tokens=["", "a"], merges=[(0, 1)])  # "" + "a" makes "a" itself
    tree = merge_tree(m, 1)
    assert any(c.cycle for c in tree.children) and "uses itself" in render_tree(tree)


def test_static_reachability_on_real_and_broken_vocabularies(gpt2):
    reach, late = static_reachability(gpt2)
    assert late == [] and reach == set(range(50256))  # everything but <|endoftext|>
    neox = open_vocabulary(need("gpt-neox-20b/20B_tokenizer.json"))
    reach, late = static_reachability(neox)
    assert late == [] and len(reach) > 50_000
    # out of order: "ab"+"c" listed before "a"+"b"; "xy" has no merge at all
    m = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc", "xy"], merges=[(3, 2), (0, 1)])
    r = replay(m, {"abc": 2})
    assert r.late_merges == (1,) and r.unreachable_tokens == (4, 5) and r.merge_counts == (0, 2)


# -- replay -------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset, corpus, kw", [
    ("gpt2", "tinyshakespeare.txt", {"vocab_size": 1200}),
    ("char-whitespace", "tinyshakespeare.txt", {"vocab_size": 900}),
    ("char-hf", "wikitext-2-raw/wiki.valid.raw", {"vocab_size": 800}),
    ("byte-ascii", "tinyshakespeare.txt", {"vocab_size": 800}),
    ("cjk-mixed", "chinese/sanguo_yanyi.txt", {"num_merges": 300}),
])
def test_replay_on_the_training_corpus_gives_the_trainers_counts(preset, corpus, kw):
    path = need(corpus)
    model = _trained(preset, path, **kw)
    result = replay(model, iter_lines(path))
    assert list(result.merge_counts) == list(model.merge_counts)
    assert result.dead_merges == () and result.unreachable_tokens == () and result.late_merges == ()


def test_replay_gpt2_on_wikitext_matches_the_encoder(gpt2):
    lines = list(iter_lines(need("wikitext-2-raw/wiki.test.raw")))
    seen = []
    t0 = time.perf_counter()
    result = replay(gpt2, lines, progress=seen.append)
    elapsed = time.perf_counter() - t0
    assert elapsed < 60, elapsed  # ~4 s here; incremental, not a recount per merge
    enc = Encoder(gpt2)
    encoded = Counter(i for line in lines for i in enc.encode_ids(line) if i not in gpt2.special_ids)
    assert Counter(result.token_counts) == encoded
    assert result.tokens_after == sum(encoded.values()) and result.unknown_units == 0
    assert result.tokens_before == sum(len(line.encode()) for line in lines)  # bytes
    assert 0 < len(result.dead_merges) < 50_000
    for rank in result.dead_merges[:500]:
        assert result.merge_counts[rank - 1] == 0
    for tid in result.consumed_tokens:  # made here, never left standing
        assert result.merge_counts[gpt2.created_by[tid] - 1] > 0 and encoded[tid] == 0
    assert seen[0].done == 0 and seen[-1].done == seen[-1].total == 50_000 and seen[-1].unit == "merges"
    assert all(a.done <= b.done for a, b in zip(seen, seen[1:]))


def test_replay_cancel_words_and_errors(gpt2, tmp_path):
    with pytest.raises(Cancelled):
        replay(gpt2, ["hello world\n"] * 10, cancel=lambda: True)
    chars = BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)])
    r = replay(chars, {"abé": 2, "ba": 1})
    assert r.merge_counts == (2,) and r.unknown_units == 2 and r.token_counts == {2: 2, 1: 1, 0: 1}
    with pytest.raises(BPELensError, match="no words"):
        replay(gpt2, [])
    trio = tmp_path / "trio"
    seed000.train_texts(["low lower lowest newer wider"], merges=5)["tokenizer"].save(str(trio.mkdir() or trio))
    with pytest.raises(BPELensError, match="no merge list"):
        replay(open_vocabulary(trio), ["low lower"])


# -- segmentation (continuing training) ---------------------------------------------------------
def _words(model: BPEModel, text: str, limit: int = 4000) -> list:
    out = []
    for line in text.splitlines(keepends=True):
        out += [p.text for p in model.pipeline.split(line) if p.special is None]
    return list(dict.fromkeys(out))[:limit]


@pytest.mark.parametrize("source", ["gpt2", "neox", "cl100k", "char-whitespace", "char-hf"])
def test_segmentation_equals_the_encoder_per_word(gpt2, source):
    text = need("wikitext-2-raw/wiki.test.raw").read_text(encoding="utf-8")[:200_000]
    if source == "gpt2":
        model = gpt2
    elif source == "neox":
        model = open_vocabulary(need("gpt-neox-20b/20B_tokenizer.json"))
    elif source == "cl100k":
        model = open_vocabulary(need("tiktoken_ranks/cl100k_base.tiktoken"))
    else:
        model = _trained(source, need("tinyshakespeare.txt"), vocab_size=900)
    seg, enc = Segmenter(model), Encoder(model)
    words = _words(model, text)
    assert len(words) > 1000
    table = segment_words(model, words)
    for w in words:
        if all(i >= 0 for i in seg.segment_ids(w)):
            assert list(seg.segment_ids(w)) == enc.encode_ids(w), w
        raws = table[w]
        joined = b"".join(raws) if model.unit == "bytes" else "".join(raws)  # type: ignore[arg-type]
        assert joined == (w.encode() if model.unit == "bytes" else w + model.end_of_word_suffix)


def test_segment_keeps_units_the_vocabulary_lacks():
    m = BPEModel(unit="chars", tokens=["l", "o", "w", "lo", "low", "</w>", "low</w>"],
                 merges=[(0, 1), (3, 2), (4, 5)], end_of_word_suffix="</w>")
    seg = Segmenter(m)
    assert seg.segment("low") == ("low</w>",)
    assert seg.segment("lowé") == ("low", "é", "</w>")
    assert seg.segment_ids("lowé") == (4, -1, 5)
