"""The incremental curves engine equals encoding from scratch at every sample (issue 27): plain runs of
several presets, a PickyBPE run with removals, a parity run, a SuperBPE continuation, GPT-2's tokenizer.json
and its tiktoken file; random small corpora (hypothesis)."""
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bpe_core.analysis.curve_engine import engine_curves, run_model
from bpe_core.analysis.curves import EvalText, model_curves, read_eval_files, run_curves
from bpe_core.presets import make_config
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer
from bpe_core.workbench import continue_run, superbpe_config
from bpe_core.workbench.records import RunCorpus
from bpe_core.workbench.runs import TrainingRun

from .curves_oracle import assert_same_curves, curves_by_encoding
from .paths import need

PARALLEL = Path(__file__).resolve().parents[1] / "data" / "parallel"
LANGS = ("eng", "deu", "rus", "ell", "zho", "tha", "hin", "amh")


@pytest.fixture(scope="module")
def wiki_lines():
    return need("wikitext-2-raw/wiki.valid.raw").read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.fixture(scope="module")
def texts(wiki_lines):
    return read_eval_files([PARALLEL / f"{n}.txt" for n in LANGS]) + (EvalText("wiki", "".join(wiki_lines[300:420])),)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, wiki_lines):
    path = tmp_path_factory.mktemp("curves") / "train.txt"
    parallel = "".join((PARALLEL / f"{n}.txt").read_text(encoding="utf-8") for n in LANGS)
    path.write_text("".join(wiki_lines[:300]) + parallel, encoding="utf-8")
    return str(path)


def _run(corpus, config, merges):
    run = TrainingRun.open("r", RunCorpus((corpus,)), config)
    run.timeline.step(merges)
    return run


def _same(timeline, texts, every):
    model, offset = run_model(timeline)
    got = run_curves(timeline, texts, every)
    assert_same_curves(got, curves_by_encoding(model, texts, every, offset=offset))
    return got


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["gpt2", "char-whitespace", "byte-ascii", "hf-course"])
def test_plain_runs_equal_encoding_at_every_sample(corpus, texts, preset):
    run = _run(corpus, replace(make_config(preset), num_merges=300, vocab_size=None), 300)
    got = _same(run.timeline, texts, 37)
    assert got.offset == 0 and got.series("bytes_per_token")[-1][0] == 300


def test_a_run_undone_keeps_its_reached_merges(corpus, texts):
    run = _run(corpus, replace(make_config("gpt2"), num_merges=300, vocab_size=None), 120)
    run.timeline.undo(50)
    got = _same(run.timeline, texts[:2], 25)
    assert got.series("bytes_per_token")[-1][0] == 120


@pytest.mark.slow
@pytest.mark.parametrize("preset,tau", [("char-whitespace", 0.5), ("gpt2", 0.6)])
def test_a_picky_run_with_removals(corpus, texts, preset, tau):
    cfg = replace(make_config(preset), variant="picky", ios_threshold=tau, num_merges=400, vocab_size=None)
    run = _run(corpus, cfg, 400)
    assert any(s.removals for s in run.timeline.history), "the run removes tokens"
    model, _ = run_model(run.timeline)
    assert model.algorithm == "picky"
    _same(run.timeline, texts, 29)


@pytest.mark.slow
def test_a_parity_run(texts):
    from bpe_core.variants.parity_run import ParityTrainer
    trainer = ParityTrainer.from_languages(PARALLEL, make_config("gpt2", variant="parity", num_merges=150))
    tl = Timeline(trainer)
    tl.step(150)
    _same(tl, texts, 30)


@pytest.mark.slow
def test_a_superbpe_continuation_counts_the_inherited_merges_first(corpus, texts):
    parent = _run(corpus, replace(make_config("gpt2"), num_merges=400, vocab_size=None), 200)
    child = continue_run("r2", parent, 120, superbpe_config(parent.config, 120))
    child.timeline.step(60)
    got = _same(child.timeline, texts, 50)
    model, offset = run_model(child.timeline)
    assert got.offset == offset > 0 and offset in [m for m, _ in got.series("bytes_per_token")]
    assert got.series("bytes_per_token")[-1][0] == len(model.merges)


@pytest.mark.slow
def test_gpt2_tokenizer_json_and_its_tiktoken_file(texts):
    from bpe_core.formats.hf_json import read_tokenizer_json
    from bpe_core.formats.tiktoken_file import read_tiktoken
    for model in (read_tokenizer_json(str(need("gpt2/tokenizer.json"))),
                  read_tiktoken(str(need("tiktoken_ranks/r50k_base.tiktoken")))):
        for upto, every in ((2000, 333), (None, 10000)):
            got = model_curves(model, texts, every, upto=upto)
            assert_same_curves(got, curves_by_encoding(model, texts, every, upto=upto))


def test_a_model_whose_merge_list_repeats_a_pair_is_computed_by_encoding():
    from bpe_core.model import BPEModel
    m = BPEModel(unit="chars", tokens=["a", "b", "ab", "ab2"], merges=[(0, 1), (0, 1)])
    texts = [EvalText("x", "ab ab a b")]
    got = model_curves(m, texts, 1)
    assert got.notes and "encoding" in got.notes[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(train=st.lists(st.text(alphabet="abcab é\n", min_size=1, max_size=12), min_size=1, max_size=12),
       evals=st.lists(st.text(alphabet="abcdé \n", min_size=1, max_size=30), min_size=1, max_size=3),
       every=st.integers(1, 7), preset=st.sampled_from(["gpt2", "char-whitespace", "byte-ascii"]),
       picky=st.booleans())
def test_random_small_corpora(train, evals, every, preset, picky):
    cfg = make_config(preset)
    if picky:
        cfg = replace(cfg, variant="picky", ios_threshold=0.6)
    texts = [EvalText(f"t{i}", e) for i, e in enumerate(evals) if e.strip()]
    if not texts:
        return
    counts = {}
    for w in " ".join(train).split():
        counts[w] = counts.get(w, 0) + 1
    if not counts:
        return
    tl = Timeline(Trainer(counts, replace(cfg, num_merges=40, vocab_size=None)))
    tl.step(40)
    model, offset = run_model(tl)
    assert_same_curves(engine_curves(model, texts, every), curves_by_encoding(model, texts, every))


@pytest.mark.slow
def test_a_superbpe_continuation_with_its_parent_counts_the_parents_merges_to_t(corpus, texts):
    """Rows before t = the parent's curves (stage-1 cut); rows from t = the child's own merges at t + j (stage-2
    cut; at t its start, as the Variants tab gives it: tests/core/test_branch_start_figure.py), each equal to
    encoding from scratch, also when stage 2 dropped inherited merges (t != the merges kept)."""
    parent = _run(corpus, replace(make_config("gpt2"), num_merges=400, vocab_size=None), 300)
    t = 250
    child = continue_run("r2", parent, t, superbpe_config(parent.config, t))
    child.timeline.step(40)
    got = run_curves(child.timeline, texts, 30, parent=parent.timeline)
    assert got.offset == t
    merges = [m for m, _ in got.series("bytes_per_token")]
    assert merges == [0, 30, 60, 90, 120, 150, 180, 210, 240, 250, 270, 290]
    pmodel, _ = run_model(parent.timeline)
    before = curves_by_encoding(pmodel, texts, 30, upto=t)
    cmodel, kept = run_model(child.timeline)
    at = {}  # the child's own merge -> the oracle's curves up to it (its last sample is that merge)
    for r in got.rows:
        if r.merge < t:
            want = before.value_at(r.measure, r.merge, r.group)
        else:
            local = kept + r.merge - t
            if local not in at:
                at[local] = curves_by_encoding(cmodel, texts, 10_000, upto=local)
            want = at[local].value_at(r.measure, local, r.group)
        assert want == pytest.approx(r.value, abs=1e-9), r
