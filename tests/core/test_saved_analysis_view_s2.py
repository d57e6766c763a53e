"""A workspace keeps how an analysis was set: the merge a run's analysis looks at (``at``) and its view (a
filter, a sort). A file written before them reads as before; a bad one is refused in one line."""
from __future__ import annotations

import json

import pytest

from bpe_core import BPELensError, Workbench, write_vocabulary
from bpe_core.formats.workspace import read_workspace, write_workspace
from bpe_core.model import BPEModel
from bpe_core.workbench.records import OpenAnalysis
from bpe_core.workbench.saved import SavedBench, read_bench, to_workspace


@pytest.fixture
def vocabulary(tmp_path):
    model = BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)], name="tiny")
    path = tmp_path / "tiny.json"
    write_vocabulary(model, str(path), "native")
    return str(path)


def _saved_again(bench: SavedBench, tmp_path):
    path = tmp_path / "ws.bpelens"
    write_workspace(to_workspace(bench), str(path))
    return read_bench(read_workspace(str(path))), path


def test_an_analysis_keeps_its_merge_and_view(vocabulary, tmp_path):
    bench = Workbench()
    bench.open_vocabulary(vocabulary)
    bench.open_analysis("biography", "v1", [vocabulary], at=7)
    saved = bench.saved()
    [a] = saved.analyses
    assert a.at == 7
    view = (("preset", "likely residues"), ("sort", "emitted"), ("descending", True), ("text", "ab"))
    again, _ = _saved_again(SavedBench(saved.runs, saved.current_run, saved.vocabularies,
                                       analyses=(OpenAnalysis(a.kind, a.subject_id, a.corpus, 7, view),)), tmp_path)
    assert again.analyses == (OpenAnalysis("biography", "v1", a.corpus, 7, view),)


def test_an_analysis_written_before_at_and_view_reads_as_before(vocabulary, tmp_path):
    bench = Workbench()
    bench.open_vocabulary(vocabulary)
    bench.open_analysis("health", "v1", [vocabulary])
    again, path = _saved_again(bench.saved(), tmp_path)
    d = json.loads(path.read_text(encoding="utf-8"))
    assert set(d["bench"]["analyses"][0]) == {"kind", "subject_id", "corpus"}  # as older files have it
    assert again.analyses == (OpenAnalysis("health", "v1", (vocabulary,)),)


@pytest.mark.parametrize("extra, said", [({"at": -1}, '"at" must be a merge'),
                                         ({"at": True}, '"at" must be a merge'),
                                         ({"view": ["a"]}, '"view" must name plain values'),
                                         ({"view": {"sort": [1]}}, '"view" must name plain values')])
def test_a_bad_at_or_view_is_refused_in_one_line(vocabulary, tmp_path, extra, said):
    bench = Workbench()
    bench.open_vocabulary(vocabulary)
    bench.open_analysis("biography", "v1", [vocabulary])
    _, path = _saved_again(bench.saved(), tmp_path)
    d = json.loads(path.read_text(encoding="utf-8"))
    d["bench"]["analyses"][0].update(extra)
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(BPELensError) as err:
        read_bench(read_workspace(str(path)))
    assert said in str(err.value) and "\n" not in str(err.value)
