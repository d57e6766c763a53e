"""A PickyBPE run in a workspace: the file holds config + corpus + merges, no removal events; the restore
retrains to the saved merge and the picky rule makes the same removals again (deterministic), through a
file write and read, so the restored model writes the same native file and PickyBPE model file."""
from __future__ import annotations

from pathlib import Path

from bpe_core import Workbench, make_config
from bpe_core.formats.native import model_to_native
from bpe_core.formats.picky_file import picky_text
from bpe_core.formats.workspace import read_workspace, saved_merges, write_workspace

TEXT = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")[:6000]


def test_a_picky_run_comes_back_with_the_same_removals(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(TEXT, encoding="utf-8")
    bench = Workbench()
    run = bench.open_run(str(corpus), make_config("char-hf", variant="picky", ios_threshold=0.6)).run
    run.timeline.step(300)
    removals = [(s.rank, s.removals) for s in run.timeline.history if s.removals]
    assert len(removals) >= 5, "the text should make the rule remove tokens"
    run.hash_corpus()
    before = run.timeline.trainer.model()
    write_workspace(bench.to_workspace(), str(tmp_path / "w.bpelens"))
    ws = read_workspace(str(tmp_path / "w.bpelens"))
    assert "removals" not in (tmp_path / "w.bpelens").read_text(encoding="utf-8")  # merges only
    restored, report = Workbench.restore(ws)
    timeline = restored.current_run.timeline
    assert report.clean and timeline.merge_count == 300 and saved_merges(timeline.history) == ws.merges
    assert [(s.rank, s.removals) for s in timeline.history if s.removals] == removals
    after = timeline.trainer.model()
    assert after.algorithm == "picky" and after.removals == before.removals
    assert model_to_native(after) == model_to_native(before) and picky_text(after) == picky_text(before)
