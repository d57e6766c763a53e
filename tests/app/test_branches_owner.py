"""The training's branches have one owner (issue 24): the ties feature's commands work on the Workbench run's
branches, so the Workbench's saved form (what a workspace file holds) has the branch the user made."""
from __future__ import annotations

from bpe_core.presets import make_config


def test_a_branch_made_by_hand_is_the_workbench_runs(qtbot, make_session, window_for):
    from bpe_lens_app.main_window import RESOURCES

    window = window_for(make_session(config=make_config("byte-ascii")))
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.session.load_corpus(str(RESOURCES / "examples" / "seed001_sentence.txt"))
    window.session.step(3)
    window.session.seek(0)
    window.ties.commands.pick(32, 108)  # " " + "l" instead of "t" + "h": the old future becomes a branch
    assert len(window.ties.commands.all()) == 2
    run = window.session.workbench.run
    assert len(run.branches.all()) == 2
    assert window.session.workbench.to_workspace().branches == (window.ties.commands.branches.to_data(),)
