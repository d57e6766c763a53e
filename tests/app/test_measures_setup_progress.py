"""The Measures bar while the curves engine sets up (issue 27): the engine reports "reading" and "pieces"
before its merges; the bar stays at the subject's start then, and never runs backwards."""
from pathlib import Path

from bpe_core.presets import make_config
from bpe_core.workbench.records import RunCorpus
from bpe_core.workbench.runs import TrainingRun
from bpe_lens_app.features.measures.subjects import Subject, compute_all

PARALLEL = Path(__file__).resolve().parents[1] / "data" / "parallel"


def test_the_bar_never_runs_backwards_through_the_setup(tmp_path, monkeypatch):
    from bpe_core.analysis import curve_pieces
    monkeypatch.setattr(curve_pieces, "CHECK_EVERY", 20)  # the setup reports often on a small text
    run = TrainingRun.open("r", RunCorpus((str(PARALLEL / "eng.txt"),)), make_config("gpt2"))
    run.timeline.step(40)
    seen = []
    compute_all([Subject("a", timeline=run.timeline, reach=40), Subject("b", timeline=run.timeline, reach=40)],
                [str(PARALLEL / "eng.txt"), str(PARALLEL / "deu.txt")], 10, progress=seen.append)
    done = [p.done for p in seen]
    assert len(done) > 10 and done == sorted(done) and done[-1] == seen[-1].total == 80
