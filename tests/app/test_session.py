"""The session alone: commands in, facts out, mirrors that match the trainer."""
from __future__ import annotations

from bpe_lens_app.session.session import Session


def test_load_reports_the_corpus(loaded_session: Session):
    s = loaded_session
    assert s.corpus.unique_words == len(s.words) > 10
    assert s.merge_count == 0 and s.history == []
    assert s.top_pairs and s.top_pairs[0].count >= s.top_pairs[-1].count


def test_step_and_undo_keep_mirrors_in_sync(qtbot, loaded_session: Session):
    s = loaded_session
    with qtbot.waitSignal(s.steps_applied) as blocker:
        s.step()
    (step,) = blocker.args[0]
    assert step.rank == 1 and s.merge_count == 1
    for i in step.changed_words:
        assert step.new_id in s.segmentation(i)
    with qtbot.waitSignal(s.steps_undone):
        s.undo()
    assert s.merge_count == 0
    assert s.timeline == [step] and s.history == []  # the undone step stays on the timeline


def test_long_seek_runs_on_a_worker_in_batches(qtbot, loaded_session: Session):
    s = loaded_session
    batches = []
    s.steps_applied.connect(batches.append)
    with qtbot.waitSignal(s.run_finished, timeout=20000) as done:
        s.seek(60)
    assert done.args[0].kind == "seek"
    assert s.merge_count == sum(len(b) for b in batches) == 60
    assert [st.rank for b in batches for st in b] == list(range(1, 61))
    assert s.model().merges == [(st.left, st.right) for st in s.history]
    # the mirrors hold what the trainer holds
    for i in range(len(s.words)):
        assert s.segmentation(i) == s.core.trainer.segmentation(i)


def test_word_history_ends_at_the_current_segmentation(qtbot, loaded_session: Session):
    s = loaded_session
    s.step(15)
    i = next(i for i, w in enumerate(s.words) if w.endswith("newest"))
    hist = s.word_history(i)
    assert hist[-1][1] == s.segmentation(i)
    # the start, then exactly the merges that changed this word, in order
    assert [step for step, _ in hist] == [None] + [st for st in s.history if i in st.changed_words]


def test_bad_file_reports_an_error_and_keeps_the_corpus(qtbot, loaded_session: Session, tmp_path):
    s = loaded_session
    s.step(3)
    with qtbot.waitSignal(s.error_raised, timeout=10000) as err:
        s.load_corpus(tmp_path / "missing.txt")
    assert "missing.txt" in err.args[0]
    assert s.merge_count == 3 and s.is_loaded and not s.is_loading


def test_tokens_are_the_trainers_ids_under_the_seed000_preset(qtbot, session, small_corpus):
    """Seed 000's model renumbers its tokens; chips show the trainer's ids, which segmentations use."""
    from bpe_core.presets import make_config

    with qtbot.waitSignal(session.corpus_loaded, timeout=10000):
        session.load_corpus(small_corpus, make_config("nltk-wordpunct"))
    for i, word in enumerate(session.words[:20]):
        assert "".join(session.display(t) for t in session.segmentation(i)) == word + "</w>"


def test_the_model_during_a_run_has_the_published_merges(qtbot, loaded_session: Session):
    s = loaded_session
    models = []
    s.steps_applied.connect(lambda steps: models.append((s.merge_count, s.model())))
    with qtbot.waitSignal(s.run_finished, timeout=20000):
        s.seek(45)
    assert models and all(len(m.merges) == k for k, m in models)


def test_run_to_target_replays_the_known_merges_then_trains_on(qtbot, loaded_session: Session):
    """Issue 23, finding 2: known merges short of the target (a long step, not a run to its end) replay from the
    records, then the run waits for the trainer there and trains on; it is a run throughout (Cancel stays on)."""
    s = loaded_session
    with qtbot.waitSignal(s.run_finished, timeout=20000):
        s.step(30)  # a worker step: no stop rule met
    qtbot.wait(300)  # the read-ahead may know a few more
    known = len(s.core.steps)
    s.reset()
    running, kinds = [], []
    s.steps_applied.connect(lambda steps: running.append(s.is_running and s.run_kind == "run"))
    s.run_started.connect(kinds.append)
    with qtbot.waitSignal(s.run_finished, timeout=60000) as end:
        s.run_to_target()
        assert s.is_running and s.run_kind == "run"
    assert end.args[0].reason == s.stop_reason == "min_frequency" and s.merge_count > known
    assert running and all(running) and kinds[0] == "run"
    assert s.core.trainer.merge_count == s.merge_count == len(s.core.steps)
