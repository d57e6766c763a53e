"""A workbench saved and opened again (bpe_core.workbench: to_workspace, restore): the same state after any
sequence of operations, and the restore's report - a changed corpus said, the first merge that differs named
with both merges, a missing corpus or vocabulary said in one line - as the app's workspace restore says them
(app/features/workspace/restore.py). No Qt."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core import BPELensError, Trainer, Workbench, make_config, write_vocabulary
from bpe_core.formats.workspace import Workspace, read_workspace, saved_merges, workspace_to_dict, write_workspace
from bpe_core.workbench.records import OpenAnalysis, OpenComparison, RunCorpus, Selection
from bpe_core.workbench.restore import check_corpus, corpus_problem_of, merges_difference, restore_run
from bpe_core.workbench.saved import read_bench

from .test_faults_corrupt import replace_somewhere

TEXTS = ("low lower lowest newest widest\nlow slow the cat sat on the mat\n",
         "aaa abab bab aab ba\nthe the then there\n")
PRESETS = ("char-whitespace", "gpt2")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench")
    corpora = []
    for i, text in enumerate(TEXTS):
        path = folder / f"corpus{i}.txt"
        path.write_text(text, encoding="utf-8")
        corpora.append(str(path))
    vocabularies = []
    for i, text in enumerate(TEXTS):
        trainer = Trainer.from_texts([text], make_config("gpt2", num_merges=6))
        trainer.run()
        path = folder / f"vocab{i}.json"
        write_vocabulary(trainer.model(), str(path), "native")
        vocabularies.append(str(path))
    return corpora, vocabularies


def round_trip(bench: Workbench, tmp_path) -> tuple:
    path = tmp_path / "w.bpelens"
    write_workspace(bench.to_workspace(), str(path))
    return Workbench.restore(read_workspace(str(path)), path=str(path))


# -- the round trip ---------------------------------------------------------------------------------------
OPS = st.one_of(
    st.tuples(st.just("open_run"), st.integers(0, 1), st.integers(0, 1)),
    st.tuples(st.just("open_both"), st.integers(0, 1)),
    st.tuples(st.just("step"), st.integers(1, 6)),
    st.tuples(st.just("seek"), st.integers(0, 8)),
    st.tuples(st.just("pick"), st.integers(0, 4)),
    st.tuples(st.just("switch"), st.integers(0, 3)),
    st.tuples(st.just("open_vocabulary"), st.integers(0, 1)),
    st.tuples(st.just("close_run"), st.integers(0, 3)),
    st.tuples(st.just("close_vocabulary"), st.integers(0, 3)),
    st.tuples(st.just("select"), st.sampled_from(["low", "the", None]), st.none() | st.integers(0, 9),
              st.none() | st.tuples(st.integers(0, 9), st.integers(0, 9))),
    st.tuples(st.just("encode"), st.text(max_size=8)),
    st.tuples(st.just("compare"), st.integers(0, 3), st.integers(0, 3)),
    st.tuples(st.just("analysis"), st.sampled_from(["health", "fertility"]), st.integers(0, 3), st.booleans()),
    st.tuples(st.just("close_comparison"), st.integers(0, 3)),
)
#: training moves more often than the rest: branches need steps and picks on an open run
OPS = st.one_of(OPS, st.tuples(st.just("step"), st.integers(1, 6)), st.tuples(st.just("seek"), st.integers(0, 8)),
                st.tuples(st.just("pick"), st.integers(0, 4)))


def apply(bench: Workbench, op: tuple, corpora, vocabularies) -> None:
    kind, *args = op
    run = bench.current_run
    subjects = [r.id for r in bench.runs] + [v.id for v in bench.vocabularies]

    def nth(seq, i):
        return seq[i % len(seq)] if seq else None

    if kind == "open_run":
        bench.open_run(corpora[args[0]], make_config(PRESETS[args[1]]))
    elif kind == "open_both":  # two files as one corpus, read with replacement
        bench.open_run(RunCorpus(tuple(corpora), "replace"), make_config(PRESETS[args[0]]))
    elif kind == "step" and run:
        run.timeline.step(args[0])
    elif kind == "seek" and run:
        run.timeline.seek(args[0])
    elif kind == "pick" and run and run.timeline.top_pairs:
        pair = nth(run.timeline.top_pairs, args[0])
        run.branches.pick(pair.left, pair.right)
    elif kind == "switch" and run:
        run.branches.switch(nth([b.id for b in run.branches.all()], args[0]))
    elif kind == "open_vocabulary":
        bench.open_vocabulary(vocabularies[args[0]])
    elif kind == "close_run" and bench.runs:
        bench.close_run(nth([r.id for r in bench.runs], args[0]))
    elif kind == "close_vocabulary" and bench.vocabularies:
        bench.close_vocabulary(nth([v.id for v in bench.vocabularies], args[0]))
    elif kind == "select":
        bench.select(word=args[0], token=args[1], pair=args[2])
    elif kind == "encode":
        bench.set_encode_text(args[0])
    elif kind == "compare" and subjects:
        bench.open_comparison(nth(subjects, args[0]), nth(subjects, args[1]))
    elif kind == "analysis" and subjects:
        bench.open_analysis(args[0], nth(subjects, args[1]), corpora[:1] if args[2] else ())
    elif kind == "close_comparison" and bench.comparisons:
        bench.close_comparison(nth(bench.comparisons, args[0]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, max_size=16))
def test_state_after_a_round_trip_is_the_state_before(files, tmp_path, ops):
    corpora, vocabularies = files
    bench = Workbench()
    for op in ops:
        try:
            apply(bench, op, corpora, vocabularies)
        except BPELensError:
            pass  # an operation the state refuses (a pair that cannot be picked there): nothing changed
    again, report = round_trip(bench, tmp_path)
    assert again.state() == bench.state()
    assert report.clean, report


def test_the_current_run_is_in_the_files_own_fields_so_a_one_run_reader_reads_it(files):
    corpora, vocabularies = files
    bench = Workbench()
    bench.open_run(corpora[0], make_config("gpt2")).run.timeline.step(4)
    second = bench.open_run(corpora[1], make_config("char-whitespace")).run
    second.timeline.step(2)
    bench.open_vocabulary(vocabularies[1])
    ws = bench.to_workspace()
    assert ws.corpus.path == corpora[1] and ws.position == 2 and ws.merges == saved_merges(second.timeline.history)
    assert ws.tabs == (vocabularies[1],) and ws.bench["run_id"] == "r2"
    assert [r["id"] for r in ws.bench["runs"]] == ["r1"] and ws.bench["runs"][0]["position"] == 4


# -- the restore's report ----------------------------------------------------------------------------------
def saved_bench(corpus: str, merges: int = 8, preset: str = "char-whitespace") -> Workspace:
    bench = Workbench()
    run = bench.open_run(corpus, make_config(preset)).run
    run.timeline.step(merges)
    run.hash_corpus()
    return bench.to_workspace()


def test_an_unchanged_corpus_comes_back_at_the_saved_merge_with_no_difference(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXTS[0], encoding="utf-8")
    ws = saved_bench(str(corpus))
    assert ws.corpus.sha256 is not None
    bench, report = Workbench.restore(ws)
    run = bench.current_run
    assert report.clean and report.changed_corpus is None and report.first_difference is None
    assert run.timeline.merge_count == 8 and saved_merges(run.timeline.history) == ws.merges
    assert run.refs == (ws.corpus,)  # hashed while checking: a later save needs no second pass


def test_a_changed_corpus_is_said_and_counted_as_it_is_now(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXTS[0], encoding="utf-8")
    ws = saved_bench(str(corpus))
    size = corpus.stat().st_size
    corpus.write_text(TEXTS[0] + "zzz\n", encoding="utf-8")  # more text: the first merges stay the same
    _, report = Workbench.restore(ws)
    assert report.changed_corpus == (f"{corpus} has changed since the workspace was saved "
                                     f"({size:,} bytes then, {size + 4:,} now)")
    assert report.first_difference is None and not report.clean
    run_report = report.runs[0]
    assert (run_report.position, run_report.reached, run_report.problem) == (8, 8, None)


def test_a_corpus_whose_merges_differ_reports_the_first_difference_with_both_merges(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXTS[0], encoding="utf-8")
    ws = saved_bench(str(corpus))
    other = TEXTS[0].replace("low", "wol").replace("lower", "rewol")
    assert len(other) == len(TEXTS[0])
    corpus.write_text(other, encoding="utf-8")
    _, report = Workbench.restore(ws)
    assert report.changed_corpus.endswith("has changed since the workspace was saved (same size, different content)")
    # what training on the new text takes, from the trainer itself
    fresh = Trainer.from_texts([other], make_config("char-whitespace"))
    list(fresh.iter_steps(8))
    now = saved_merges(fresh.history)
    rank = next(i for i, (a, b) in enumerate(zip(ws.merges, now)) if a != b)
    d = report.first_difference
    assert (d.rank, d.saved, d.taken) == (rank + 1, ws.merges[rank], now[rank])
    assert report.runs[0].difference_text == (
        f"From merge {rank + 1} on, training took other merges than the workspace saved: "
        f"saved {ws.merges[rank][0]!r} + {ws.merges[rank][1]!r} ({ws.merges[rank][2]}), "
        f"now {now[rank][0]!r} + {now[rank][1]!r} ({now[rank][2]}). The corpus or the settings differ "
        f"(now at merge 8 of 8).")


def test_training_that_stops_short_of_the_saved_merge_says_none(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("ab cd\n", encoding="utf-8")
    ws = saved_bench(str(corpus), merges=4)
    corpus.write_text("ab\n", encoding="utf-8")  # the same first two merges, then nothing to merge
    _, report = Workbench.restore(ws)
    d, run = report.first_difference, report.runs[0]
    assert (d.rank, d.saved, d.taken, run.reached) == (3, ws.merges[2], None, 2)
    assert run.difference_text.endswith(f"saved {ws.merges[2][0]!r} + {ws.merges[2][1]!r} (1), now none "
                                        "(training stopped). The corpus or the settings differ (now at merge 2 of 4).")


def test_a_missing_corpus_leaves_the_run_closed_and_the_rest_opens(files, tmp_path):
    corpora, vocabularies = files
    corpus = tmp_path / "gone.txt"
    corpus.write_text(TEXTS[0], encoding="utf-8")
    bench = Workbench()
    bench.open_run(str(corpus), make_config("gpt2"))
    bench.open_vocabulary(vocabularies[0])
    bench.set_encode_text("hello")
    ws = bench.to_workspace()
    corpus.unlink()
    again, report = Workbench.restore(ws)
    assert again.runs == () and report.changed_corpus == f"{corpus} is missing"
    assert report.runs[0].problem == f"{corpus} is missing"
    assert [v.path for v in again.vocabularies] == [vocabularies[0]] and again.encode_text == "hello"
    assert again.selection == Selection(None, "v1")


def test_a_vocabulary_that_cannot_be_read_is_one_line_and_its_comparisons_stay_closed(files, tmp_path):
    corpora, vocabularies = files
    gone = tmp_path / "gone.json"
    gone.write_text(open(vocabularies[0], encoding="utf-8").read(), encoding="utf-8")
    bench = Workbench()
    bench.open_vocabulary(vocabularies[1])
    bench.open_vocabulary(str(gone))
    bench.open_comparison("v1", "v2")
    bench.open_analysis("health", "v1")
    ws = bench.to_workspace()
    gone.unlink()
    again, report = Workbench.restore(ws)
    assert len(report.vocabulary_problems) == 1 and str(gone) in report.vocabulary_problems[0]
    assert "\n" not in report.vocabulary_problems[0]
    assert again.comparisons == () and again.analyses == (OpenAnalysis("health", "v1"),)
    assert again.selection.vocabulary_id is None  # v2 was current: it is not open


def test_branches_come_back_and_one_that_does_not_replay_is_said(files, tmp_path):
    corpora, _ = files
    bench = Workbench()
    run = bench.open_run(corpora[0], make_config("char-whitespace")).run
    run.timeline.step(4)
    run.timeline.seek(1)
    pair = run.timeline.top_pairs[2]
    run.branches.pick(pair.left, pair.right)
    again, report = round_trip(bench, tmp_path)
    assert report.clean and again.state() == bench.state() and len(again.current_run.branches.all()) == 2
    ws = bench.to_workspace()
    broken = dict(ws.branches[0], branches=[dict(b, merges=[["q", "q"]] * len(b["merges"]))
                                            for b in ws.branches[0]["branches"]])
    from dataclasses import replace
    again, report = Workbench.restore(replace(ws, branches=(broken,)))
    assert report.runs[0].problem.startswith("the branches cannot be restored: branch 'main' does not replay")
    assert len(again.current_run.branches.all()) == 1 and again.current_run.timeline.merge_count == ws.position


def test_a_pair_picked_where_no_merge_followed_comes_back(files):
    """Found by the round trip: a pick with nothing after it makes no new branch, so "more than one branch"
    left it out of the file, and the restore trained the rule's merge instead (a difference at merge 1)."""
    corpora, _ = files
    bench = Workbench()
    run = bench.open_run(corpora[0], make_config("char-whitespace")).run
    second = run.timeline.top_pairs[1]  # not the rule's pick
    branch, _ = run.branches.pick(second.left, second.right)
    assert branch is None and len(run.branches.all()) == 1
    again, report = Workbench.restore(bench.to_workspace())
    assert report.clean and again.state() == bench.state()


def test_a_file_written_before_workbenches_opens_as_run_r1_with_its_tabs(files, tmp_path):
    corpora, vocabularies = files
    trainer = Trainer.from_texts([open(corpora[0], encoding="utf-8").read()], make_config("gpt2"))
    list(trainer.iter_steps(5))
    from bpe_core.formats.workspace import corpus_ref
    ws = Workspace(corpus_ref(corpora[0]), make_config("gpt2"), 5, saved_merges(trainer.history),
                   encode_text="hi", tabs=tuple(vocabularies), view={"selected_word": "low", "current_tab": 1})
    bench, report = Workbench.restore(ws)
    assert report.clean and [r.id for r in bench.runs] == ["r1"] and bench.current_run.timeline.merge_count == 5
    assert [(v.id, v.path) for v in bench.vocabularies] == [("v1", vocabularies[0]), ("v2", vocabularies[1])]
    assert bench.selection == Selection("r1", None, "low") and bench.encode_text == "hi"


# -- the steps one by one (as the app runs them on workers) ----------------------------------------------
def test_the_steps_one_by_one_give_what_restore_gives(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXTS[0], encoding="utf-8")
    ws = saved_bench(str(corpus))
    saved = read_bench(ws).runs[0]
    assert corpus_problem_of(saved) is None
    check = check_corpus(saved)
    assert check.change is None and check.refs == (ws.corpus,)
    run, report = restore_run(saved, refs=check.refs, change=check.change)
    assert run.timeline.merge_count == 8 and report.first_difference is None
    other = tmp_path / "other.txt"
    other.write_text(TEXTS[1], encoding="utf-8")  # "Choose another corpus…"
    run, report = restore_run(saved, corpus=RunCorpus((str(other),)))
    assert report.first_difference.rank == 1 and run.corpus.paths == (str(other),)
    assert merges_difference(ws.merges, ws.merges) is None


@pytest.mark.parametrize("bench, message", [
    ({"runs": 3}, 'the workbench part: "runs" must be a list'),
    ({"runs": [{"id": "r2"}]}, 'saved run 1: "config" (the training settings) is missing'),
    ({"vocabularies": [{"path": "v.json"}]}, "vocabulary 1 must give its id, path, pattern and name"),
    ({"comparisons": [["v1", "v2", "v3"]]}, "comparison 1 must be two ids"),
    ({"analyses": [{"kind": "health", "subject_id": "v1", "corpus": ["a.txt"]}]},
     "analysis 1 must give its kind, subject id and corpus files"),
    ({"selection": {"token": "3"}}, "\"token\" must be a token id, not '3'"),
    ({"selection": {"pair": [1]}}, '"pair" must be two token ids, not [1]'),
    ({"decode_errors": "ignore"}, '"decode_errors" must be one of strict, replace, not \'ignore\''),
    ({"more_files": [{"path": "b.txt"}]}, '"more_files" must give each file\'s path, size and sha256'),
])
def test_a_bad_workbench_part_is_refused_in_one_line(tmp_path, bench, message):
    ws = saved_bench(str(_corpus(tmp_path)), merges=2)
    ws_path = tmp_path / "w.bpelens"
    data = workspace_to_dict(ws)
    data["bench"] = bench
    ws_path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BPELensError) as info:
        Workbench.restore(read_workspace(str(ws_path)), path=str(ws_path))
    assert message in str(info.value) and str(ws_path) in str(info.value) and "\n" not in str(info.value)


def test_a_run_named_twice_is_refused(tmp_path):
    ws = saved_bench(str(_corpus(tmp_path)), merges=2)
    run = dict(workspace_to_dict(ws), id="r1")
    with pytest.raises(BPELensError, match="names a run twice"):
        read_bench(Workspace(ws.corpus, ws.config, ws.position, ws.merges, bench={"run_id": "r1", "runs": [run]}))


def _corpus(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(TEXTS[0], encoding="utf-8")
    return path


def test_comparison_and_analysis_records_are_plain_data():
    assert OpenComparison("r1", "v1") == OpenComparison("r1", "v1")
    assert OpenAnalysis("health", "v1", ("a.txt",)) != OpenAnalysis("health", "v1")


@pytest.fixture(scope="module")
def full_doc(files):
    corpora, vocabularies = files
    bench = Workbench()
    bench.open_run(corpora[0], make_config("gpt2")).run.timeline.step(2)
    run = bench.open_run(corpora[1], make_config("char-whitespace")).run
    run.timeline.step(3)
    run.timeline.seek(1)
    pair = run.timeline.top_pairs[1]
    run.branches.pick(pair.left, pair.right)
    bench.open_vocabulary(vocabularies[0])
    bench.open_comparison("r1", "v1")
    bench.open_analysis("health", "r2", corpora)
    bench.select(word="the", token=3, pair=(1, 2))
    return workspace_to_dict(bench.to_workspace())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.floats(0, 1), value=st.none() | st.booleans() | st.integers(-3, 10**13) | st.text(max_size=4)
       | st.just("a\x00b") | st.lists(st.integers(0, 3), max_size=3)
       | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
def test_a_wrong_value_anywhere_in_the_workbench_part_is_read_or_refused_in_one_line(full_doc, tmp_path, pick, value):
    doc = dict(full_doc, bench=replace_somewhere(full_doc["bench"], pick, value))
    path = tmp_path / "w.bpelens"
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        ws = read_workspace(str(path))
        bench = read_bench(ws, str(path))
        problems = [corpus_problem_of(run) for run in bench.runs]
    except BPELensError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert all(p is None or "\n" not in p for p in problems)
    assert read_bench(read_workspace(str(path))) == bench  # what was read reads the same again


def test_a_corpus_chosen_instead_is_counted_and_one_checked_already_is_not_hashed_again(tmp_path, monkeypatch):
    import bpe_core.workbench.restore as restore

    corpus = _corpus(tmp_path)
    ws = saved_bench(str(corpus))
    check = check_corpus(read_bench(ws).runs[0])  # on a worker, before asking the user
    hashed = []
    real = restore.corpus_ref
    monkeypatch.setattr(restore, "corpus_ref", lambda path, **kw: hashed.append(path) or real(path, **kw))
    bench, report = Workbench.restore(ws, checks={"r1": check})
    assert hashed == [] and report.clean and bench.current_run.refs == check.refs
    other = tmp_path / "other.txt"
    other.write_text(TEXTS[1], encoding="utf-8")  # "Choose another corpus…"
    bench, report = Workbench.restore(ws, corpora={"r1": RunCorpus((str(other),))})
    assert hashed == [] and bench.current_run.corpus.paths == (str(other),)
    assert report.changed_corpus is None and report.first_difference.rank == 1
