"""Workspace files (bpe_core.formats.workspace): round trip, the corpus check, corrupt files refused in
one clear line, a full disk keeping the previous file, and the merges alone as a vocabulary."""
from __future__ import annotations

import hashlib
import os
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.workspace import (CorpusRef, Workspace, corpus_change, corpus_ref, first_difference,
                                        is_workspace, merges_vocabulary, read_workspace, saved_merges,
                                        workspace_bytes, write_workspace)
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError

from .test_faults import FullDisk, snapshot
from .test_faults_corrupt import JSON_VALUES, damage, replace_somewhere

TEXT = "low lower lowest newest widest hello wörld the cat sat on the mat\n" * 3


def trained(preset: str, merges: int) -> Trainer:
    t = Trainer.from_texts([TEXT], make_config(preset, num_merges=merges))
    t.run()
    return t


def workspace(preset: str = "gpt2", merges: int = 12, position: int = 10, **kw) -> Workspace:
    t = trained(preset, merges)
    return Workspace(corpus=CorpusRef("/data/c.txt", 123, "ab" * 32), config=t.config, position=position,
                     merges=saved_merges(t.history), encode_text="hello wörld\n", tabs=("/v/tokenizer.json",),
                     view={"selected_word": "Ġlow"}, **kw)


@pytest.mark.parametrize("preset", ["gpt2", "char-hf"])
def test_round_trip_keeps_everything(tmp_path, preset):
    ws = workspace(preset, branches=({"name": "b1", "from": 4, "merges": [["a", "b", 2]]},))
    path = tmp_path / "w.bpelens"
    write_workspace(ws, str(path))
    assert read_workspace(str(path)) == ws
    assert is_workspace(str(path)) and path.read_text(encoding="utf-8").count("\n") > len(ws.merges)
    assert len(path.read_bytes()) < 4000  # small: what to redo, not the trainer's state


def test_merges_are_stored_as_token_texts_with_counts():
    from bpe_core.base.symbols import from_glyphs

    t = trained("gpt2", 5)
    model, rows = t.model(), saved_merges(t.history)
    for (left, right, count), (a, b), c in zip(rows, model.merges, model.merge_counts):
        assert (from_glyphs(left), from_glyphs(right), count) == (model.tokens[a], model.tokens[b], c)
    assert first_difference(rows, saved_merges(trained("gpt2", 5).history)) is None
    assert first_difference(rows, rows[:3]) == 3


def test_corpus_hash_is_sha256_of_the_file_streamed(tmp_path, monkeypatch):
    from bpe_core.formats import workspace as module

    monkeypatch.setattr(module, "HASH_BLOCK", 7)  # many blocks
    path = tmp_path / "c.txt"
    path.write_bytes(TEXT.encode() * 5)
    ref = corpus_ref(str(path))
    assert ref == CorpusRef(str(path), len(TEXT.encode()) * 5, hashlib.sha256(path.read_bytes()).hexdigest())
    assert corpus_change(ref, corpus_ref(str(path))) is None
    path.write_bytes(TEXT.encode() * 5 + b"!")
    assert "has changed since the workspace was saved" in corpus_change(ref, corpus_ref(str(path)))
    path.write_bytes(TEXT.upper().encode() * 5)  # same size, other content
    assert corpus_change(ref, corpus_ref(str(path))).endswith("(same size, different content)")
    assert corpus_change(ref, None) == f"{path} is missing"
    with pytest.raises(BPELensError, match="cannot read the corpus"):
        corpus_ref(str(tmp_path / "gone.txt"))


@pytest.mark.parametrize("content, message", [
    (b"", "the workspace file is damaged or cut short"),
    (b'{"format": "bpe-lens-workspace", "version": 1, "merg', "the workspace file is damaged or cut short"),
    (b"caf\xe9", "not a BPE Lens workspace (not UTF-8 text)"),
    (b"\xff\xfe\x00", "UTF-16 (little-endian, with a byte-order mark) text, not UTF-8"),  # said as UTF-16
    (b'{"format": "bpe-lens", "version": 1}', 'not a BPE Lens workspace (no "format": "bpe-lens-workspace")'),
    (b"[1, 2]", "not a BPE Lens workspace"),
    (b'{"format": "bpe-lens-workspace", "version": 9}', "workspace version 9 is not supported"),
])
def test_bad_files_get_one_clear_line(tmp_path, content, message):
    path = tmp_path / "w.bpelens"
    path.write_bytes(content)
    with pytest.raises(BPELensError) as err:
        read_workspace(str(path))
    assert message in str(err.value) and str(err.value).startswith(str(path)) and "\n" not in str(err.value)


def test_position_past_the_merges_is_refused(tmp_path):
    data = json.loads(workspace_bytes(workspace()))
    data["position"] = 99
    path = tmp_path / "w.bpelens"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BPELensError, match="position 99 is past the 12 merges saved"):
        read_workspace(str(path))


ORIGINAL = workspace_bytes(workspace())


@settings(max_examples=150, deadline=None)
@given(how=st.sampled_from(["truncate", "flip"]), at=st.floats(0, 1),
       flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), min_size=1, max_size=4))
def test_corrupt_workspace_is_read_or_refused_in_one_line(how, at, flips):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "w.bpelens"
        path.write_bytes(damage(ORIGINAL, how, at, flips))
        try:
            ws = read_workspace(str(path))
        except BPELensError as exc:
            assert str(exc) and "\n" not in str(exc)
            return
        write_workspace(ws, str(path))  # what was read can be used: saved again, read again
        assert read_workspace(str(path)) == ws


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.floats(0, 1), value=JSON_VALUES)
def test_wrong_json_type_anywhere_is_read_or_refused(pick, value):
    doc = replace_somewhere(json.loads(ORIGINAL), pick, value)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "w.bpelens"
        path.write_text(json.dumps(doc), encoding="utf-8")
        try:
            ws = read_workspace(str(path))
        except BPELensError as exc:
            assert str(exc) and "\n" not in str(exc)
            return
        write_workspace(ws, str(path))
        assert read_workspace(str(path)) == ws


def test_full_disk_keeps_the_previous_workspace(tmp_path, monkeypatch):
    path = tmp_path / "autosave.bpelens"
    write_workspace(workspace(position=3), str(path))
    before = snapshot(tmp_path)
    with monkeypatch.context() as patched, pytest.raises(BPELensError, match="No space left on device"):
        FullDisk(patched, 1)
        write_workspace(workspace(position=10), str(path))
    assert snapshot(tmp_path) == before and read_workspace(str(path)).position == 3


@pytest.mark.parametrize("preset", ["gpt2", "char-hf"])
def test_merges_alone_make_a_vocabulary_that_encodes_like_the_trainer(preset):
    t = trained(preset, 12)
    ws = workspace(preset, merges=12, position=12)
    model = merges_vocabulary(ws)
    assert len(model.merges) == 12 and model.merge_counts == [c for _, _, c in ws.merges]
    words = "lowest newest cat wörld lower low the".split()
    if preset == "char-hf":  # base characters are known only as far as the merges use them
        words = [w for w in words if set(w) <= set(model.vocab)]
        assert len(words) >= 3
    text = " ".join(words)
    mine, theirs = Encoder(model).encode(text), Encoder(t.model()).encode(text)
    assert [(tok.raw, tok.start, tok.end) for tok in mine.tokens] == \
        [(tok.raw, tok.start, tok.end) for tok in theirs.tokens]


# -- JSON that Python's json cannot take (issue 23, finding 20) -------------------------------------------
@pytest.mark.parametrize("content, message", [
    ("[" * 100_000 + "]" * 100_000, "the JSON is too deeply nested (more than 100 levels of [ and {)"),
    (None, "a number with 5000 digits at line 1 column "),
])
def test_json_python_cannot_take_is_one_line_naming_the_file(tmp_path, content, message):
    if content is None:  # a merge count of 5,000 digits
        data = json.loads(ORIGINAL)
        data["merges"][0][2] = 0
        content = json.dumps(data).replace('0]', "7" * 5000 + "]", 1)
    path = tmp_path / "w.bpelens"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BPELensError) as err:
        read_workspace(str(path))
    assert str(err.value).startswith(f"{path}: {message}") and "\n" not in str(err.value)


def test_view_state_nested_too_deeply_is_refused_before_anything_walks_it(tmp_path):
    data = json.loads(ORIGINAL)
    data["view"] = {"x": json.loads("[" * 500 + "]" * 500)}  # json reads it; later code must not recurse it
    path = tmp_path / "w.bpelens"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BPELensError, match="too deeply nested"):
        read_workspace(str(path))


# -- the corpus path: the workspace file's folder, shown absolute (issue 23, finding 21) ----------------
def _written(tmp_path, corpus_path, tabs=()):
    data = json.loads(ORIGINAL)
    data["corpus"]["path"], data["tabs"] = corpus_path, list(tabs)
    folder = tmp_path / "projects" / "mine"
    folder.mkdir(parents=True)
    path = folder / "w.bpelens"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_relative_corpus_path_is_read_against_the_workspace_folder(tmp_path, monkeypatch):
    path = _written(tmp_path, "data/c.txt", tabs=["../v/tokenizer.json", "/abs/t.json"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the app's working directory has nothing to do with it
    ws = read_workspace(str(path))
    assert ws.corpus.path == str(path.parent / "data" / "c.txt")
    assert ws.tabs == (str(tmp_path / "projects" / "v" / "tokenizer.json"), "/abs/t.json")
    monkeypatch.chdir(tmp_path)  # a workspace given by a relative name: still its own folder
    assert read_workspace("projects/mine/w.bpelens").corpus.path == str(path.parent / "data" / "c.txt")


def test_the_workbench_part_keeps_its_data_and_its_paths_are_read_against_the_workspace_folder(tmp_path):
    bench = {"run_id": "r2", "more_files": [{"path": "data/b.txt", "size": 3, "sha256": None}],
             "runs": [{"id": "r1", "corpus": {"path": "../d.txt", "size": 1, "sha256": None}, "config": {},
                       "merges": [["a", "b", 2]], "branches": [{"path": "not a file: data"}]}],
             "vocabularies": [{"id": "v1", "path": "v.json", "pattern": None}, {"id": "v2", "path": "/abs/t.json"}],
             "analyses": [{"kind": "health", "subject_id": "v1", "corpus": [{"path": "h.txt"}]}]}
    ws = workspace(bench=bench)
    path = tmp_path / "w.bpelens"
    write_workspace(ws, str(path))
    got = read_workspace(str(path)).bench
    assert got["more_files"][0]["path"] == str(tmp_path / "data" / "b.txt")
    assert got["runs"][0]["corpus"]["path"] == str(tmp_path.parent / "d.txt")
    assert [v["path"] for v in got["vocabularies"]] == [str(tmp_path / "v.json"), "/abs/t.json"]
    assert got["analyses"][0]["corpus"] == [{"path": str(tmp_path / "h.txt")}]
    assert got["runs"][0]["branches"] == [{"path": "not a file: data"}]  # data, not walked
    assert workspace_bytes(workspace()) == ORIGINAL  # no workbench part: the file is as before
    assert "bench" not in json.loads(ORIGINAL)


def test_a_path_climbing_out_is_shown_as_the_absolute_path_it_names(tmp_path):
    path = _written(tmp_path, "../" * 40 + "etc/passwd")
    assert read_workspace(str(path)).corpus.path == "/etc/passwd"


def test_what_is_not_a_regular_file_is_refused_in_words(tmp_path):
    from bpe_core.formats.workspace import corpus_problem

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    regular = tmp_path / "c.txt"
    regular.write_text("a b\n", encoding="utf-8")
    assert corpus_problem(str(regular)) is None
    assert corpus_problem(str(tmp_path / "gone.txt")) == f"{tmp_path / 'gone.txt'} is missing"
    assert corpus_problem(str(tmp_path)) == f"{tmp_path} is a folder, not a corpus file"
    assert corpus_problem(str(fifo)) == f"{fifo} is not a regular file (a pipe, a device or a socket); " \
                                        "BPE Lens reads a corpus from a regular file only"
    assert corpus_problem("/dev/null") == "/dev/null is not a regular file (a pipe, a device or a socket); " \
                                          "BPE Lens reads a corpus from a regular file only"


def test_a_corpus_path_holding_a_nul_is_a_problem_in_words_not_a_crash():
    from bpe_core.formats.workspace import corpus_problem

    # a damaged workspace can name one ("\u0000" in its JSON): os.stat raised ValueError, which nothing caught
    assert corpus_problem("data/a\x00b.txt") == "'data/a\\x00b.txt' cannot be a file name (it holds a NUL character)"


def test_a_workspace_that_is_a_pipe_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "w.bpelens"
    os.mkfifo(fifo)
    with pytest.raises(BPELensError) as err:
        read_workspace(str(fifo))
    assert str(err.value) == f"{fifo}: not a BPE Lens workspace (not a regular file)"
    other = tmp_path / "pipe"
    os.mkfifo(other)
    assert not is_workspace(str(other))  # looked at by name only: never opened
