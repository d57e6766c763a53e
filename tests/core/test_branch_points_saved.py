"""Branches of a run that start past the run's position (SuperBPE's stage 2 from merge 200 while the parent
was undone to 100): the workspace keeps the parent's known merges up to the furthest branch point, so the
branches reopen at their merges; the Variants chart draws a branch's shared stretch from the parent's
known records (exact values), not a straight line from the parent's position."""
from __future__ import annotations

from pathlib import Path

import pytest

from bpe_core import Workbench, make_config
from bpe_core.analysis.variant_compare import variant_figures
from bpe_core.formats.workspace import read_workspace, write_workspace
from bpe_core.workbench import continue_run, superbpe_config

PARALLEL = Path(__file__).resolve().parents[1] / "data" / "parallel"


def _merges(run):
    return [(run.timeline.token(s.left), run.timeline.token(s.right)) for s in run.timeline.history]


@pytest.fixture(scope="module")
def bench():
    bench = Workbench()
    parent = bench.open_run(str(PARALLEL / "eng.txt"), make_config("gpt2", vocab_size=900)).run
    parent.timeline.step(60)
    for rid, k, steps in (("r2", 40, 3), ("r3", 60, 5)):
        child = continue_run(bench.new_run_id(), parent, k, superbpe_config(parent.config, k))
        bench.add_run(child, select=False)
        child.timeline.step(steps)
    parent.timeline.undo(30)  # the parent at merge 30, below both branch points
    return bench


def test_saved_with_the_parent_undone_below_its_branches_they_reopen_at_their_merges(bench, tmp_path):
    path = tmp_path / "w.bpelens"
    write_workspace(bench.to_workspace(), str(path))
    again, report = Workbench.restore(read_workspace(str(path)))
    assert report.clean, report
    assert [(r.id, r.parent, r.transition, r.timeline.merge_count) for r in again.runs] == \
        [("r1", None, None, 30), ("r2", "r1", 40, 3), ("r3", "r1", 60, 5)]
    assert [_merges(r) for r in again.runs] == [_merges(r) for r in bench.runs]
    parent = again.runs[0]
    assert len(parent.timeline.steps) >= 60  # the parent knows its merges up to the furthest branch again
    assert again.state() == bench.state()


def test_the_file_keeps_the_merges_up_to_the_furthest_branch_point_position_unchanged(bench):
    ws = bench.to_workspace()
    assert ws.position == 30 and len(ws.merges) == 60
    alone = Workbench()  # a run without branches saves its merges up to its position, as before
    run = alone.open_run(str(PARALLEL / "eng.txt"), make_config("gpt2", vocab_size=900)).run
    run.timeline.step(20)
    run.timeline.undo(5)
    assert len(alone.to_workspace().merges) == 15


def test_the_shared_stretch_is_the_parents_known_records(bench):
    parent, r2, r3 = bench.runs
    tl = parent.timeline
    p = variant_figures("parent", tl)
    assert p.merge == 30 and p.curve[-1][0] == 30  # the parent's own line ends where it stands
    known = dict(p.known_curve)
    assert sorted(known) == list(range(len(tl.steps) + 1))
    here = tl.merge_count
    tl.seek(60)
    at60 = dict(variant_figures("parent at 60", tl).curve)
    tl.seek(here)
    assert known == at60  # exact: the records' totals, not a line
    f = variant_figures("r3", r3.timeline, offset=60, base_curve=p.known_curve)
    assert dict(f.curve[:60]) == {k: at60[k] for k in range(60)}
    assert [k for k, _ in f.curve] == list(range(66))


def test_a_branch_and_its_parent_divide_by_the_same_words_and_the_note_says_what_still_differs():
    """Issue 26: one definition (the Measures chart's) for every run. Before, the parent divided by its pieces
    (Latin 3.73 tokens per word) and the branch by its units' words (4.00); now both by the text's words."""
    from bpe_core.analysis.scripts import word_script
    from bpe_core.analysis.variant_compare import run_word_groups, tokens_per_word_note

    bench = Workbench()
    parent = bench.open_run(str(PARALLEL / "eng.txt"), make_config("gpt2", vocab_size=900)).run
    parent.timeline.step(50)
    child = continue_run("r2", parent, 50, superbpe_config(parent.config, 50))  # no merges of its own yet
    p = variant_figures("p", parent.timeline, groups=run_word_groups(parent.timeline, parent.corpus.paths))
    c = variant_figures("c", child.timeline, offset=50, groups=run_word_groups(child.timeline, child.corpus.paths))
    text = (PARALLEL / "eng.txt").read_text(encoding="utf-8")
    assert p.words == c.words == {"Latin": sum(word_script(w) == "Latin" for w in text.split())}
    assert c.bytes_per_token == pytest.approx(p.bytes_per_token)  # the same text in as many tokens
    # ... of which the branch counts the punctuation inside its units as Latin, the parent in no script's row
    assert p.tokens_per_word["Latin"] < c.tokens_per_word["Latin"] < 1.1 * p.tokens_per_word["Latin"]
    assert (p.units_span_words, c.units_span_words) == (False, True)
    note = tokens_per_word_note([p, c])
    assert "same words" in note and "punctuation" in note and "bytes per token" in note
    assert tokens_per_word_note([p, p]) == "" and tokens_per_word_note([c]) == ""
