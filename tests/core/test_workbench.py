"""The Workbench (bpe_core.workbench): operations, the events they report (each carrying its subject), the
selection, and what closing a subject closes with it. No Qt."""
from __future__ import annotations

import pytest

import bpe_core
from bpe_core import BPELensError, Workbench, make_config, write_vocabulary
from bpe_core.workbench.records import (AnalysisClosed, AnalysisOpened, ComparisonClosed, ComparisonOpened,
                                        EncodeTextChanged, OpenAnalysis, OpenComparison, RunClosed, RunCorpus,
                                        RunOpened, Selection, SelectionChanged, VocabularyClosed, VocabularyOpened)
from bpe_core.workbench.runs import count_corpus

TEXT = "low lower lowest newest widest\nlow slow the cat sat on the mat\n"


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(TEXT, encoding="utf-8")
    return str(path)


@pytest.fixture
def vocab_file(tmp_path, corpus):
    bench = Workbench()
    run = bench.open_run(corpus, make_config("char-whitespace")).run
    run.timeline.step(5)
    path = tmp_path / "vocab.json"
    write_vocabulary(run.timeline.model(), str(path), "native")
    return str(path)


def recorded(bench: Workbench) -> list:
    events: list = []
    bench.subscribe(events.append)
    return events


def test_the_facade_exports_the_workbench_and_its_records():
    for name in ("Workbench", "TrainingRun", "RestoreReport", "RunCorpus", "OpenVocabulary", "OpenComparison",
                 "OpenAnalysis", "Selection", "VocabularyOpened", "VocabularyClosed"):
        assert name in bpe_core.__all__ and getattr(bpe_core, name).__doc__


def test_open_run_counts_the_corpus_makes_it_current_and_says_so(corpus):
    bench = Workbench()
    events = recorded(bench)
    opened = bench.open_run(corpus, make_config("gpt2"))
    run = opened.run
    assert isinstance(opened, RunOpened) and run.id == "r1" and run.corpus == RunCorpus((corpus,))
    assert events == [opened, SelectionChanged(Selection(run_id="r1"))]
    assert bench.current_run is run and run.timeline.merge_count == 0 and run.config == make_config("gpt2")
    assert run.timeline.words[:3] == ["low", " lower", " lowest"]


def test_a_run_counted_elsewhere_is_added_as_it_is(corpus):
    bench = Workbench()
    timeline = count_corpus(RunCorpus((corpus,)), make_config("gpt2"))  # a worker's job in the app
    run = bench.open_run(corpus, timeline=timeline).run
    assert run.timeline is timeline


def test_several_files_are_one_corpus_and_decode_errors_are_kept(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("low low\n", encoding="utf-8")
    b.write_bytes(b"lower caf\xe9\n")  # not UTF-8: read with replacement
    bench = Workbench()
    run = bench.open_run(RunCorpus((str(a), str(b)), "replace"), make_config("char-whitespace")).run
    assert run.corpus.name == "a.txt + b.txt" and run.saved().decode_errors == "replace"
    assert "caf\ufffd" in run.timeline.words
    with pytest.raises(BPELensError, match="decode with replacement"):
        bench.open_run(RunCorpus((str(a), str(b))), make_config("char-whitespace"))


def test_vocabularies_open_with_ids_and_close_with_their_id(vocab_file):
    bench = Workbench()
    events = recorded(bench)
    first = bench.open_vocabulary(vocab_file).vocabulary
    second = bench.add_vocabulary(first.model, name="in memory").vocabulary
    assert (first.id, first.path, second.id, second.path, second.name) == ("v1", vocab_file, "v2", None, "in memory")
    assert bench.current_vocabulary is second and bench.vocabularies == (first, second)
    assert [t.raw for t in first.encoder.encode("low").tokens] == [t.raw for t in
                                                                   second.encoder.encode("low").tokens]
    closed = bench.close_vocabulary("v2")
    assert closed == VocabularyClosed("v2") and bench.current_vocabulary is first
    assert [type(e) for e in events] == [VocabularyOpened, SelectionChanged, VocabularyOpened, SelectionChanged,
                                         VocabularyClosed, SelectionChanged]
    assert events[0].vocabulary is first and events[-1].selection.vocabulary_id == "v1"
    with pytest.raises(BPELensError, match="no vocabulary 'v2' is open"):
        bench.close_vocabulary("v2")
    assert bench.open_vocabulary(vocab_file).vocabulary.id == "v3"  # a fresh id: v2 was closed, not reused
    assert len({v.id for v in bench.vocabularies}) == len(bench.vocabularies)


def test_closing_a_subject_closes_its_comparisons_and_analyses_first(corpus, vocab_file):
    bench = Workbench()
    run = bench.open_run(corpus, make_config("char-whitespace")).run
    vocab = bench.open_vocabulary(vocab_file).vocabulary
    events = recorded(bench)
    assert bench.open_comparison(run.id, vocab.id) == ComparisonOpened(OpenComparison("r1", "v1"))
    assert bench.open_analysis("health", "v1", [corpus]) == AnalysisOpened(OpenAnalysis("health", "v1", (corpus,)))
    bench.open_analysis("fertility", "r1")
    bench.close_vocabulary("v1")
    assert events[3:] == [ComparisonClosed(OpenComparison("r1", "v1")),
                          AnalysisClosed(OpenAnalysis("health", "v1", (corpus,))), VocabularyClosed("v1"),
                          SelectionChanged(Selection(run_id="r1"))]
    assert bench.comparisons == () and bench.analyses == (OpenAnalysis("fertility", "r1"),)
    bench.close_run("r1")
    assert events[-3:] == [AnalysisClosed(OpenAnalysis("fertility", "r1")), RunClosed("r1"),
                           SelectionChanged(Selection())]
    assert bench.runs == () and bench.current_run is None


def test_comparisons_and_analyses_need_open_subjects(corpus):
    bench = Workbench()
    bench.open_run(corpus, make_config("gpt2"))
    with pytest.raises(BPELensError, match="no run or vocabulary 'v9' is open"):
        bench.open_comparison("r1", "v9")
    with pytest.raises(BPELensError, match="no run or vocabulary 'r2' is open"):
        bench.open_analysis("health", "r2")
    assert bench.comparisons == () and bench.analyses == ()


def test_select_changes_only_the_parts_given(corpus, vocab_file):
    bench = Workbench()
    bench.open_run(corpus, make_config("gpt2"))
    bench.open_vocabulary(vocab_file)
    events = recorded(bench)
    bench.select(word="low", pair=[3, 4])
    bench.select(token=7)
    assert bench.selection == Selection("r1", "v1", "low", 7, (3, 4))
    bench.select(vocabulary_id=None)  # the training in front
    assert bench.selection == Selection("r1", None, "low", 7, (3, 4)) and events[-1].selection == bench.selection
    with pytest.raises(BPELensError, match="no training run 'r7' is open"):
        bench.select(run_id="r7")


def test_a_second_run_becomes_current_and_its_view_starts_empty(corpus, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("aaa bbb aaa\n", encoding="utf-8")
    bench = Workbench()
    bench.open_run(corpus, make_config("gpt2"))
    bench.select(word="low", token=3)
    second = bench.open_run(str(other), make_config("char-hf")).run
    assert second.id == "r2" and bench.selection == Selection(run_id="r2")
    bench.close_run("r2")
    assert bench.current_run.id == "r1"


def test_set_encode_text_reports_the_text():
    bench = Workbench()
    events = recorded(bench)
    assert bench.set_encode_text("héllo") == EncodeTextChanged("héllo") and bench.encode_text == "héllo"
    assert events == [EncodeTextChanged("héllo")]


def test_an_observer_unsubscribes():
    bench = Workbench()
    events: list = []
    stop = bench.subscribe(events.append)
    bench.set_encode_text("a")
    stop()
    bench.set_encode_text("b")
    assert events == [EncodeTextChanged("a")]


def test_a_run_corpus_is_checked():
    with pytest.raises(ValueError, match="at least one file"):
        RunCorpus(())
    with pytest.raises(ValueError, match="decode errors"):
        RunCorpus(("a.txt",), "ignore")


def test_saving_a_run_again_converts_only_the_merges_taken_since(corpus, monkeypatch):
    """An autosave every few seconds of a long run: the work is the new merges, not the whole history."""
    import bpe_core.formats.workspace as workspace

    bench = Workbench()
    run = bench.open_run(corpus, make_config("char-whitespace")).run
    converted = []
    real = workspace.saved_merge
    monkeypatch.setattr(workspace, "saved_merge", lambda step: converted.append(step.rank) or real(step))
    run.timeline.step(8)
    first = run.saved().merges
    run.timeline.step(4)
    second = run.saved().merges
    assert converted == list(range(1, 13)) and second[:8] == first and len(second) == 12


def test_files_names_every_file_open_once(corpus, vocab_file, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("x y\n", encoding="utf-8")
    bench = Workbench()
    bench.open_run(corpus, make_config("gpt2"))
    bench.add_vocabulary(bench.open_vocabulary(vocab_file).vocabulary.model)  # in memory: no file
    bench.open_analysis("health", "v1", [str(other), corpus])
    assert bench.files() == (corpus, vocab_file, str(other))


def test_the_face_names_what_callers_import_and_each_name_loads_from_its_home():
    import bpe_core.workbench as face

    for name in face.__all__:
        value = getattr(face, name)
        assert value is not None and name in dir(face)
    assert face.Workbench is Workbench and face.reopen_run.__module__ == "bpe_core.workbench.restore"
    with pytest.raises(AttributeError):
        face.nothing_here
