"""One figure per (run, merge) at a SuperBPE branch's start (brief S3, finding 3).

At its transition merge t a branch has the parent's vocabulary less the merges its replay drops, and its
own units (stage 2's pre-tokenizer): the Variants tab's figures at t are the branch's own. The Measures curve
of the branch at t was the parent's point (stage 1's pieces), so the two views gave two numbers for one run
at one merge. Now the Measures curve starts at t with the branch's point: its value at t equals the Variants
tab's (bytes per token and tokens per word by script), on the run's corpus read line by line (stage 2's units
span whitespace, so a text encoded whole has units across line breaks: tests/core/test_variant_tokens_per_word.py).
"""
from __future__ import annotations

import pytest

from bpe_core import make_config
from bpe_core.analysis.curves import EvalText, read_eval_files, run_curves
from bpe_core.analysis.variant_compare import run_word_groups, variant_figures
from bpe_core.corpus.files import count_words_in_files
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer
from bpe_core.workbench import RunCorpus, continuation_timeline, superbpe_config

from tests.core.paths import EXAMPLES

FILES = sorted((EXAMPLES / "parallel").glob("*.txt"))
PATHS = tuple(str(p) for p in FILES)
T = 200


@pytest.fixture(scope="module")
def runs():
    config = make_config("gpt2", vocab_size=656)
    parent = Timeline(Trainer(count_words_in_files(FILES, config), config))
    parent.step(T)
    child = continuation_timeline(RunCorpus(PATHS), superbpe_config(parent.config, T), parent.model())
    child.step(100)
    parent.step(100)
    lines = tuple(EvalText(f"{t.name}:{i}", line) for t in read_eval_files(FILES)
                  for i, line in enumerate(t.text.splitlines(keepends=True)))
    return parent, child, lines


def _figures_at(child, merge, parent):
    child.seek(merge - T)
    base = variant_figures("parent", parent, groups=run_word_groups(parent, PATHS)).known_curve
    return variant_figures("superbpe", child, offset=T, base_curve=base, groups=run_word_groups(child, PATHS))


@pytest.mark.parametrize("every", [50, 30])  # t sampled by every k, and t not a multiple of k
def test_the_measures_curve_at_the_branch_start_is_the_variants_figure(runs, every):
    parent, child, lines = runs
    curves = run_curves(child, lines, every, parent=parent)
    assert curves.offset == T
    f = _figures_at(child, T, parent)
    assert f.merge == T
    at_t = [r for r in curves.rows if r.merge == T and r.group == "all" and r.measure == "bytes_per_token"]
    assert len(at_t) == 1  # one figure per (run, merge)
    assert at_t[0].value == pytest.approx(f.bytes_per_token, rel=1e-12)
    assert dict(f.curve)[T] == pytest.approx(f.bytes_per_token, rel=1e-12)  # the Variants curve's point at t
    scripts = {g[len("script:"):]: curves.value_at("tokens_per_word", T, g)
               for g in curves.groups("tokens_per_word") if g.startswith("script:")}
    assert f.tokens_per_word == pytest.approx(scripts, rel=1e-12)
    # the branch's figure at t is not the parent's (its units differ): the test tells the two apart
    p = variant_figures("parent", parent, groups=run_word_groups(parent, PATHS))
    assert dict(p.known_curve)[T] != pytest.approx(f.bytes_per_token, rel=1e-9)
    # before t the curve is the parent's, after t the branch's own (as before)
    f2 = _figures_at(child, T + 100, parent)
    assert curves.value_at("bytes_per_token", T + 100) == pytest.approx(f2.bytes_per_token, rel=1e-12)
    before = [r for r in curves.rows if r.merge < T and r.group == "all" and r.measure == "bytes_per_token"]
    assert before and before[-1].value == pytest.approx(dict(p.known_curve)[before[-1].merge], rel=1e-12)
