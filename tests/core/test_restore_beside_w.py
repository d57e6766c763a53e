"""Runs opened beside the window's run (another rule on the same text: PickyBPE, parity-aware BPE on its
languages) are saved in a workspace; the core says which saved runs those are (:func:`runs_beside`) and opens
each again as saved, trained to its saved merge (:func:`reopen_run`). A parity-aware run's corpus is its
languages folder: reopened from it, not refused as "a folder". No Qt."""
from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

from bpe_core import Timeline, TrainingRun, Workbench, make_config
from bpe_core.formats.workspace import saved_merges
from bpe_core.workbench import RunCorpus, describe, parity_factory, read_bench, reopen_run, runs_beside

DATA = Path(__file__).resolve().parent.parent / "data"
CORPUS = DATA / "real" / "tinyshakespeare.txt"


def _languages(tmp_path) -> str:
    folder = tmp_path / "langs"
    folder.mkdir()
    for name in ("eng", "rus", "ell"):
        text = (DATA / "parallel" / f"{name}.txt").read_text(encoding="utf-8")[:4000]
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return str(folder)


def _bench(tmp_path):
    """The window's plain run at merge 12, a SuperBPE-free PickyBPE run beside it at merge 20, a parity-aware
    run on three languages at merge 7."""
    corpus = tmp_path / "c.txt"
    shutil.copy(CORPUS, corpus)
    wb = Workbench()
    wb.open_run(str(corpus), make_config("gpt2"))
    main = wb.current_run
    main.timeline.seek(12)
    picky = TrainingRun.open(wb.new_run_id(), RunCorpus((str(corpus),)),
                             replace(main.config, variant="picky", ios_threshold=0.6))
    picky.timeline.seek(20)
    wb.add_run(picky, select=False)
    languages = _languages(tmp_path)
    trainer = parity_factory(languages)(None, replace(main.config, variant="parity", parity_mode="ratio"))
    parity = TrainingRun(wb.new_run_id(), RunCorpus((os.path.abspath(languages),)), Timeline(trainer))
    parity.timeline.seek(7)
    wb.add_run(parity, select=False)
    return wb, picky, parity


def test_the_runs_beside_are_named_and_reopen_as_saved(tmp_path):
    wb, picky, parity = _bench(tmp_path)
    bench = read_bench(wb.to_workspace())
    beside = runs_beside(bench)
    assert [r.id for r in beside] == [picky.id, parity.id]
    for saved, before in zip(beside, (picky, parity)):
        run, report = reopen_run(saved)
        assert report.problem is None and report.first_difference is None, report
        assert run is not None and run.config == before.config
        assert run.timeline.merge_count == before.timeline.merge_count
        assert saved_merges(run.timeline.history) == saved_merges(before.timeline.history)


def test_a_parity_run_whose_languages_are_gone_is_one_line(tmp_path):
    wb, _picky, parity = _bench(tmp_path)
    bench = read_bench(wb.to_workspace())
    shutil.rmtree(parity.corpus.paths[0])
    saved = runs_beside(bench)[1]
    run, report = reopen_run(saved)
    assert run is None and report.problem and "\n" not in report.problem
    assert parity.corpus.paths[0] in report.problem


def test_the_restore_offer_says_what_the_runs_are(tmp_path):
    wb, _picky, _parity = _bench(tmp_path)
    text = describe(wb.to_workspace())
    # (a parity-aware run names its mode since ad2b997: two such runs read apart)
    assert "2 runs beside it (r2 PickyBPE τ=0.6, r3 parity-aware BPE in ratio mode)" in text, text


def test_training_to_the_saved_merge_reports_progress_and_can_be_cancelled(tmp_path):
    """The slow part of reopening a run is training it to its merge: it reports merges done of the saved
    merge and stops when asked (as counting does), not only the corpus count."""
    import pytest

    from bpe_core.types import Cancelled

    wb, picky, _parity = _bench(tmp_path)
    saved = runs_beside(read_bench(wb.to_workspace()))[0]
    seen = []
    run, _report = reopen_run(saved, progress=seen.append)
    merges = [p for p in seen if p.unit == "merges"]
    assert merges and merges[-1].done == merges[-1].total == saved.position == 20, merges[-3:]
    assert run.timeline.merge_count == 20

    def cancel() -> bool:
        return any(p.unit == "merges" and p.done >= 5 for p in seen)

    seen.clear()
    with pytest.raises(Cancelled):
        reopen_run(saved, progress=seen.append, cancel=cancel)
    assert max(p.done for p in seen if p.unit == "merges") < 20
