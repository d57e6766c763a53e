"""Runs that continue another run from one of its merges (SuperBPE's stage 2 as a branch at merge t):
the relation (parent, transition) kept by the Workbench, saved in a workspace and restored with the same
merges."""
from __future__ import annotations

import pytest

from bpe_core import BPELensError, Workbench, make_config
from bpe_core.formats.workspace import read_workspace, workspace_from_dict, workspace_to_dict, write_workspace
from bpe_core.workbench import continue_run, start_model, superbpe_config

TEXT = "the lower lowest newest widest of the town, the new one\n" * 4 + "a low tower and the old town\n" * 3


@pytest.fixture()
def bench(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    bench = Workbench()
    run = bench.open_run(str(corpus), make_config("char-whitespace")).run
    run.timeline.step(12)
    return bench


def _merges(run):
    return [(run.timeline.token(s.left), run.timeline.token(s.right)) for s in run.timeline.history]


def test_a_continuation_starts_from_the_parents_merge_and_is_its_branch(bench):
    parent = bench.current_run
    child = continue_run(bench.new_run_id(), parent, 5)
    bench.add_run(child, select=False)
    assert bench.current_run is parent  # the view stays on the run the user was on
    assert (child.parent, child.transition) == (parent.id, 5)
    assert bench.children(parent.id) == (child,)
    assert child.timeline.trainer.base_merges == start_model(parent, 5).merges  # stage 1 shared
    # a plain continuation of a plain run learns the parent's later merges
    child.timeline.step(7)
    assert _merges(child) == _merges(parent)[5:]


def test_saved_and_reopened_the_runs_their_relation_and_merges_come_back(bench, tmp_path):
    parent = bench.current_run
    for k, steps in ((4, 3), (8, 2)):
        child = continue_run(bench.new_run_id(), parent, k)
        bench.add_run(child, select=False)
        child.timeline.step(steps)
    path = tmp_path / "s.bpelens"
    write_workspace(bench.to_workspace(), str(path))
    again, report = Workbench.restore(read_workspace(str(path)))
    assert report.clean, report
    assert again.state() == bench.state()
    assert [(r.id, r.parent, r.transition) for r in again.runs] == [("r1", None, None), ("r2", "r1", 4),
                                                                     ("r3", "r1", 8)]
    assert [_merges(r) for r in again.runs] == [_merges(r) for r in bench.runs]


def test_the_current_run_may_be_a_continuation_too(bench, tmp_path):
    child = continue_run(bench.new_run_id(), bench.current_run, 6)
    bench.add_run(child)  # now current: saved in the file's own fields
    child.timeline.step(2)
    again, report = Workbench.restore(bench.to_workspace())
    assert report.clean and again.current_run.id == child.id
    assert (again.current_run.parent, again.current_run.transition) == ("r1", 6)
    assert _merges(again.current_run) == _merges(child)


def test_closing_a_run_closes_its_continuations_and_an_orphan_is_refused(bench):
    parent = bench.current_run
    child = continue_run(bench.new_run_id(), parent, 3)
    bench.add_run(child, select=False)
    bench.close_run(parent.id)
    assert bench.runs == ()
    with pytest.raises(BPELensError, match="continues run r1, which is not open"):
        bench.add_run(child)


def test_a_file_whose_parent_is_missing_or_transition_wrong(bench):
    child = continue_run(bench.new_run_id(), bench.current_run, 3)
    bench.add_run(child, select=False)
    d = workspace_to_dict(bench.to_workspace())
    d["bench"]["runs"][0]["parent"] = "r9"
    again, report = Workbench.restore(workspace_from_dict(d))
    assert [r.id for r in again.runs] == ["r1"]
    assert "continues run r9, which could not be opened" in report.runs[1].problem
    d["bench"]["runs"][0]["transition"] = -1
    with pytest.raises(BPELensError, match='"transition" must be the parent run\'s merge'):
        Workbench.restore(workspace_from_dict(d))


def test_a_merge_the_parent_never_reached_is_refused(bench):
    with pytest.raises(BPELensError, match="has no merge 99"):
        continue_run("r2", bench.current_run, 99)


def test_superbpe_continues_from_merge_t_across_whitespace(tmp_path):
    pytest.importorskip("bpe_core.training.superbpe", reason="helper S's stage 2 not in yet")
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT * 3, encoding="utf-8")
    bench = Workbench()
    parent = bench.open_run(str(corpus), make_config("gpt2", vocab_size=400)).run
    parent.timeline.step(30)
    child = continue_run(bench.new_run_id(), parent, 20, superbpe_config(parent.config, 20))
    bench.add_run(child, select=False)
    steps = child.timeline.step(40)
    tokens = [parent.timeline.token(s.new_id) for s in parent.timeline.history[:20]]
    model = child.timeline.model()
    inherited = [model.tokens[a] + model.tokens[b] for a, b in model.merges[:len(child.timeline.trainer.base_merges)]]
    assert set(inherited) <= set(tokens)  # stage 1 shared (ids are stage 2's own, the fork's)
    assert any(b" " in s.new_token[1:] for s in steps)  # superwords: merges across whitespace
    again, report = Workbench.restore(bench.to_workspace())
    assert report.clean, report
    assert [_merges(r) for r in again.runs] == [_merges(r) for r in bench.runs]
