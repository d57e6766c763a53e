"""Every model of a PickyBPE run saves to the native file and reopens (issue 26's user test: the app's model at
merge 140, built from the Timeline's records while the trainer read ahead, held 394 tokens but the 257
``token_freqs`` of merge 0, and encode / inspect / Open vocabulary refused the file). The model at any merge,
by any path (the trainer standing there, the records after a read-ahead, a jump, a seek back), is the fresh
run's model at that merge: the same tokens, merges, removals and token freqs, and the same native file."""
from __future__ import annotations

import json
from dataclasses import replace

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.native import model_to_native, native_to_model, read_native, write_native
from bpe_core.presets import make_config
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer

from .test_timeline import _counts, fresh

CONFIG = replace(make_config("gpt2"), num_merges=400, variant="picky", ios_threshold=0.6)
PROBE = "The quick brown fox jumps over the lazy dog; elizabeth's something, 1984."


def _reopened(model, tmp_path, name):
    path = tmp_path / f"{name}.json"
    write_native(model, str(path))
    return read_native(str(path))


def _same_as_fresh(model, k, tmp_path):
    ref = fresh(CONFIG, k).model()
    assert len(model.extras["token_freqs"]) == len(model.tokens)
    assert model.extras["token_freqs"] == ref.extras["token_freqs"], f"token freqs at merge {k}"
    assert (model.tokens, model.merges, model.removals) == (ref.tokens, ref.merges, ref.removals)
    assert json.dumps(model_to_native(model)) == json.dumps(model_to_native(ref))
    back = _reopened(model, tmp_path, f"m{k}")
    assert back.extras["token_freqs"] == ref.extras["token_freqs"] and back.removals == ref.removals
    assert Encoder(back).encode_ids(PROBE) == Encoder(ref).encode_ids(PROBE)


def test_the_model_from_the_records_after_a_read_ahead_reopens(tmp_path):
    tl = Timeline(Trainer(_counts(CONFIG), CONFIG))
    tl.step(20)
    move = tl.read_ahead(300)  # the app's read-ahead: the trainer goes on, the position stays
    assert move is not None
    tl.apply(tl.walk(move), show=False)
    assert tl.trainer.merge_count > 140
    for k in (140, 60, 141, 0, 250, 139):  # steps shown from the records (jumps), forward and back
        tl.jump(k)
        assert tl.merge_count == k and tl.is_lagging == (tl.trainer.merge_count != k)
        model = tl.model()
        assert any(s.removals for s in tl.history) or k < 60
        _same_as_fresh(model, k, tmp_path)


def test_the_model_after_seeks_and_undo_reopens(tmp_path):
    tl = Timeline(Trainer(_counts(CONFIG), CONFIG))
    tl.seek(200)
    tl.undo(30)
    _same_as_fresh(tl.model(), 170, tmp_path)
    tl.jump(90)  # the trainer stays at 170: the records give the model
    _same_as_fresh(tl.model(), 90, tmp_path)
    tl.seek(120)
    _same_as_fresh(tl.model(), 120, tmp_path)


def test_a_file_with_wrong_token_freqs_is_still_refused_in_a_sentence():
    model = fresh(CONFIG, 140).model()
    data = model_to_native(model)
    data["token_freqs"] = data["token_freqs"][:257]
    try:
        native_to_model(data, "v.json")
    except Exception as e:  # BPELensError
        assert "token_freqs" in str(e) and "\n" not in str(e)
    else:
        raise AssertionError("a short token_freqs was accepted")


def test_a_branchs_model_is_its_merges_with_their_removals(tmp_path):
    """Branches.model_of (the ties compare's tokenizers) on a PickyBPE run: the branch's merges with the removals
    and token freqs of those merges (before: the position's removals and freqs on all the branch's merges)."""
    from bpe_core.training.branches import Branches
    tl = Timeline(Trainer(_counts(CONFIG), CONFIG))
    branches = Branches(tl)
    tl.seek(200)
    tl.seek(100)
    _same_as_fresh(branches.model_of(0), 200, tmp_path)
    step = tl.steps[100]
    new, _ = branches.pick(step.right, step.left) if tl.trainer.pair_index.count(step.right, step.left) > 0 \
        else branches.pick(tl.top_pairs[1].left, tl.top_pairs[1].right)
    assert new is not None and branches.current_id != 0
    _same_as_fresh(branches.model_of(0), 200, tmp_path)  # the old future, from its records
    mine = branches.model_of(branches.current_id)
    assert len(mine.extras["token_freqs"]) == len(mine.tokens)
    assert mine.removals == [(s.rank, r.token_id, r.split) for s in branches.steps_of(branches.current_id)
                             for r in s.removals]


def test_a_restored_workspaces_picky_run_saves_at_any_merge(tmp_path):
    """A PickyBPE run saved in a workspace and restored (retrained to its merge), then moved from the records:
    its model at an earlier merge is a fresh run's there, and its native file reopens."""
    from bpe_core import Workbench
    from bpe_core.formats.workspace import read_workspace, write_workspace
    from .test_workspace_picky import TEXT
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    config = make_config("char-hf", variant="picky", ios_threshold=0.6)
    bench = Workbench()
    run = bench.open_run(str(corpus), config).run
    run.timeline.step(300)
    run.hash_corpus()
    write_workspace(bench.to_workspace(), str(tmp_path / "w.bpelens"))
    restored, report = Workbench.restore(read_workspace(str(tmp_path / "w.bpelens")))
    tl = restored.current_run.timeline
    assert report.clean and tl.merge_count == 300
    for k in (150, 299, 37):
        tl.jump(k)  # the trainer stays at 300: the records give the model
        model = tl.model()
        ref = Trainer.from_corpus(str(corpus), tl.config)
        ref.run(merges=k)
        want = ref.model()
        assert model.extras["token_freqs"] == want.extras["token_freqs"] and model.removals == want.removals
        back = _reopened(model, tmp_path, f"r{k}")
        assert (back.tokens, back.merges, back.extras["token_freqs"]) == (want.tokens, want.merges,
                                                                          want.extras["token_freqs"])


def test_the_picky_presets_records_give_the_fresh_runs_token_freqs(tmp_path, real):
    """The 'picky' preset (the reference's reading, <UNK>, table-order ties) from the records, equal parts merged
    ('-' '-' in '---' counts twice but merges once) included: the token freqs of a fresh run at each merge."""
    config = make_config("picky", variant="picky", ios_threshold=0.6)
    with open(real.path("wikitext-2-raw/wiki.valid.raw"), encoding="utf-8", newline="") as f:
        text = "".join(f.readline() for _ in range(300))
    corpus = tmp_path / "c.txt"
    corpus.write_text(text + "\n--- ---- ----- <UNK> x<UNK>y\n", encoding="utf-8")
    tl = Timeline(Trainer.from_corpus(str(corpus), config))
    tl.step(250)
    for k in (249, 120, 1, 200):
        tl.jump(k)
        ref = Trainer.from_corpus(str(corpus), config)
        ref.run(merges=k)
        want = ref.model()
        model = tl.model()
        assert (model.extras["token_freqs"], model.removals, model.unk_id) == \
            (want.extras["token_freqs"], want.removals, want.unk_id), k
        assert _reopened(model, tmp_path, f"p{k}").extras["token_freqs"] == want.extras["token_freqs"]
