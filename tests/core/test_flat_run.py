"""The flat-array run (bpe_core.training.flat_run) against the step loop on the pair index: the same merges,
counts, records, undo log and words, then undo and further steps on the index built afterwards.

The golden here is the step loop, itself checked against tokenizers, tiktoken and the authors' code elsewhere
(test_vs_tokenizers*, test_superbpe_fork_goldens); the flat run is forced on small corpora by lowering its
threshold.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bpe_core.training import flat_run
from bpe_core.training.pairs import SHIFT
from bpe_core.training.trainer import Trainer
from bpe_core.types import Cancelled, TrainerConfig
from tests.core.run_ways import run_as

DATA = Path(os.environ.get("BPE_LENS_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"))
WIKI = DATA / "wikitext-2-raw" / "wiki.valid.raw"


@pytest.fixture(params=[4096, 1], ids=["heap-start", "floor-low"])
def always_flat(monkeypatch, request):
    """The flat run on any corpus; with a heap that starts with one pair (and its ties), the rest below the floor."""
    monkeypatch.setattr(flat_run, "FLAT_SYMBOLS", 0)
    monkeypatch.setattr(flat_run, "HEAP_START", request.param)


def _state(t: Trainer) -> tuple:
    m = t.model()
    steps = [(s.rank, s.left, s.right, s.new_id, s.count, s.created, s.changed_words, s.stats) for s in t.history]
    return (m.tokens, m.merges, m.merge_counts, steps, [list(s) for s in t._segs], t.stats, t.stop_reason,
            [(e[0], e[1], e[2], e[3], e[4], e[5]) for e in t._undo_log])


def _pairs(t: Trainer) -> dict:
    return dict(t._idx.counts)


def _both(words, config, **run):
    flat = Trainer(words, config, lazy_index=True)
    loop = Trainer(words, config)
    a = flat.run(**run)
    b = loop.run(**run)
    assert flat._index is None or run.get("_handed"), "the flat run built no pair index"
    return flat, loop, a, b


WORDS = st.dictionaries(st.text(alphabet="aab c", min_size=1, max_size=9), st.integers(1, 9), min_size=1, max_size=30)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=WORDS, n=st.integers(0, 40), back=st.integers(0, 10), more=st.integers(0, 10),
       min_frequency=st.sampled_from([0, 2]))
def test_flat_run_is_the_step_loop(always_flat, words, n, back, more, min_frequency):
    cfg = TrainerConfig(tie_break="hf", min_frequency=min_frequency)
    flat, loop, a, b = _both(words, cfg, merges=n)
    assert [s.new_id for s in a] == [s.new_id for s in b]
    assert _state(flat) == _state(loop)
    assert _pairs(flat) == _pairs(loop)  # the index built after the run counts what the loop's kept
    for _ in range(back):  # undo through the flat run's log, then step on the built index
        assert (flat.undo() is None) == (loop.undo() is None)
    for _ in range(more):
        x, y = flat.step(), loop.step()
        assert (x is None) == (y is None)
    assert _state(flat) == _state(loop)
    assert _pairs(flat) == _pairs(loop)
    assert flat.top_pairs(5) == loop.top_pairs(5)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=WORDS)
def test_counts_after_each_merge_are_the_pair_index(always_flat, words):
    """FlatPairs and the pair index in lock step: the same best pair, and the same counts after each merge."""
    t = Trainer(words, TrainerConfig(tie_break="hf"))
    flat = flat_run.FlatPairs([list(s) for s in t._segs], t.freqs)
    assert flat.counts() == t._idx.counts
    while True:
        best = flat.pop_best(None)
        step = t.step()
        assert (best is None) == (step is None)
        if step is None:
            break
        assert best[:2] == ((step.left << SHIFT) | step.right, step.count)
        assert flat.merge(best[0], best[2], step.new_id)[0] == list(step.changed_words)
        assert flat.counts() == t._idx.counts


def test_a_run_of_equal_tokens_merges_as_the_loop(always_flat):
    words = {"aaaaaaa": 3, "aaa": 2, "baaab": 5, "aa": 1}
    flat, loop, _, _ = _both(words, TrainerConfig(tie_break="hf"))
    assert _state(flat) == _state(loop)


def test_a_token_spelled_again_hands_the_run_over(always_flat):
    """The special "ab" is a token before any merge: merging (a, b) makes no new token, so the pair index takes
    the rest of the run (befores kept for the undo)."""
    cfg = TrainerConfig(tie_break="hf", special_tokens=("ab",))
    words = {"abab": 5, "cab": 3, "abc": 2}
    flat = Trainer(words, cfg, lazy_index=True)
    loop = Trainer(words, cfg)
    flat.run()
    loop.run()
    assert any(not s.created for s in loop.history)
    assert _state(flat) == _state(loop)
    flat.reset(), loop.reset()
    assert _state(flat) == _state(loop)


def test_vocab_size_and_the_stop_rules(always_flat):
    words = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
    for run in ({"vocab_size": 14}, {"merges": 3}, {}):
        for cfg in (TrainerConfig(tie_break="hf"), TrainerConfig(tie_break="hf", num_merges=4),
                    TrainerConfig(tie_break="hf", vocab_size=15), TrainerConfig(tie_break="hf", min_frequency=6)):
            flat, loop, _, _ = _both(words, cfg, **run)
            assert _state(flat) == _state(loop), (run, cfg)


def test_a_cancel_keeps_the_merges_done_and_the_words(always_flat):
    words = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 3

    flat = Trainer(words, TrainerConfig(tie_break="hf"), lazy_index=True)
    with pytest.raises(Cancelled):
        flat.run(cancel=cancel)
    loop = Trainer(words, TrainerConfig(tie_break="hf"))
    loop.run(merges=3)
    assert _state(flat) == _state(loop)
    assert flat.step().new_token == loop.step().new_token


def test_progress_reports_as_the_loop(always_flat):
    words = {f"w{i}x{i % 7}": 1 + i % 5 for i in range(300)}
    seen = {}
    for lazy in (True, False):
        got = []
        Trainer(words, TrainerConfig(tie_break="hf"), lazy_index=lazy).run(merges=200, progress=got.append)
        seen[lazy] = got
    assert seen[True] == seen[False]


def test_other_rules_and_a_built_index_keep_the_step_loop(always_flat):
    words = {"hug": 10, "pug": 5}
    assert not flat_run.flat_eligible(Trainer(words, TrainerConfig(tie_break="first-seen"), lazy_index=True))
    assert not flat_run.flat_eligible(Trainer(words, TrainerConfig(tie_break="hf")))
    t = Trainer(words, TrainerConfig(tie_break="hf"), lazy_index=True)
    assert flat_run.flat_eligible(t)
    t.step()  # the index is built for a step: the next run goes on with it
    assert not flat_run.flat_eligible(t)


@pytest.mark.skipif(not WIKI.exists(), reason="needs ../shared/data (wiki.valid.raw)")
def test_superbpe_stage2_on_real_text_is_the_step_loop():
    """SuperBPE's stage 2 (its filters refuse pairs) on 300 kB of wiki.valid, over the real threshold."""
    from bpe_core.corpus.counting import count_words_in_texts
    from bpe_core.presets import make_config
    from bpe_core.training import superbpe
    text = WIKI.read_text(encoding="utf-8")[:300_000]
    cfg = make_config("gpt2", variant="superbpe", transition=400, vocab_size=1500)
    first = superbpe.stage1_config(cfg)
    stage1 = Trainer(count_words_in_texts([text], first), first)
    stage1.run()
    second = superbpe.stage2_config(cfg)
    counts = count_words_in_texts([text], second)
    runs = []
    for lazy in (True, False):
        model, segments = superbpe.inherit(stage1.model(), counts, second)
        t = Trainer(counts, superbpe.stage2_config(cfg, len(model.merges)), start=model, segments=segments,
                    lazy_index=lazy)
        run_as(t, "flat" if lazy else "steps")
        assert (t._index is None) == lazy
        runs.append(t)
    flat, loop = runs
    assert len(flat.history) > 500
    assert _state(flat) == _state(loop)
    assert _pairs(flat) == _pairs(loop)


def _work(units: int, length: int, merges: int = 300) -> tuple:
    """(flat work, pair index work) of ``merges`` merges on ``units`` random units of ``length`` symbols (each
    seen once, like SuperBPE's stage-2 units): listed nodes read and listed, against symbols scanned."""
    import random
    rng = random.Random(7)
    words = {}
    while len(words) < units:
        words["".join(rng.choice("abcdefghij") for _ in range(length))] = 1
    t = Trainer(words, TrainerConfig(tie_break="hf"))
    flat = flat_run.FlatPairs([list(s) for s in t._segs], t.freqs)
    listed = flat.used
    for _ in range(merges):
        best = flat.pop_best(None)
        step = t.step(detail=False)
        flat.merge(best[0], best[2], step.new_id)
    return flat.read + flat.used - listed, t._idx.scanned


def test_merge_work_grows_with_the_occurrences_not_the_units_length():
    """The same symbols cut into units twice as long: the flat run's work stays (it reads a pair's nodes),
    where the pair index's grows with the units (it reads each listed unit whole); twice the units of one
    length: twice the work, not four times."""
    short, short_idx = _work(4000, 40)
    long, long_idx = _work(2000, 80)
    double, _ = _work(8000, 40)
    assert long < 1.25 * short, (short, long)
    assert long_idx > 1.6 * short_idx, (short_idx, long_idx)  # what the flat run spares
    assert 1.7 * short < double < 2.3 * short, (short, double)


@pytest.mark.skipif(not WIKI.exists(), reason="needs ../shared/data (wiki.valid.raw)")
@pytest.mark.parametrize("source", ["trained", "gpt2"])
def test_a_continued_vocabulary_runs_flat_as_the_loop(tmp_path, source):
    """`train --from`: a vocabulary trained on one text, or GPT-2's (50,257 tokens read from tokenizer.json),
    continued on another text, both ways."""
    from bpe_core.formats.detect import open_vocabulary
    from bpe_core.presets import make_config
    from bpe_core.training.continuing import continue_training, continued_config
    text = WIKI.read_text(encoding="utf-8")
    (tmp_path / "b.txt").write_text(text[200_000:320_000], encoding="utf-8")
    if source == "gpt2":
        gpt2 = DATA / "gpt2" / "tokenizer.json"
        if not gpt2.exists():
            pytest.skip("needs ../shared/data/gpt2/tokenizer.json")
        start = open_vocabulary(str(gpt2))
    else:
        first = Trainer.from_texts([text[:200_000]], make_config("gpt2", vocab_size=800))
        first.run()
        start = first.model()
    cfg = continued_config(start, merges=300)  # new merges
    runs = []
    for way in ("flat", "steps"):
        t = continue_training(start, [tmp_path / "b.txt"], config=cfg, lazy_index=way == "flat")
        run_as(t, way)
        runs.append(t)
    flat, loop = runs
    assert len(loop.history) == 300
    assert _state(flat) == _state(loop)
    assert flat.model().merges == loop.model().merges

