"""File → Open of the very text the window's run trains on, with a run beside it (another rule on that text).

The question says "Opening small.txt again restarts its run at merge 0 with the same settings: it discards the
12 merges trained so far and the runs that go with it: r2: PickyBPE τ=0.6 … Start the run on the same text
again?" (tests/app/test_discard_names_s2.py). After Yes the run beside stayed (brief W2's report: only a
workspace opened over the same text discarded them). What the question names goes."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.app.test_runs_beside_reopen_w import _window_with_picky_beside
from tests.app.test_workspace_same_text_w2 import _answered, _asking


def test_opening_the_same_text_again_discards_the_run_beside_the_question_named(user_window, small_corpus, qtbot,
                                                                                 monkeypatch):
    window = _window_with_picky_beside(user_window, small_corpus, qtbot, monkeypatch)
    session, feature = window.session, window.variants_feature
    assert [r.id for r in feature.runs()] == ["r1", "r2"]

    def test() -> None:
        _none, shown = _answered(window, QMessageBox.Yes, lambda: window.load_corpus(str(small_corpus)))
        assert len(shown) == 1 and "again" in shown[0] and "r2: PickyBPE" in shown[0], shown
        qtbot.waitUntil(lambda: session.is_loaded and not session.is_loading, timeout=30000)
        qtbot.waitUntil(lambda: not feature.busy, timeout=30000)
        assert [r.id for r in feature.runs()] == ["r1"]  # r2 was named as discarded: it went

    _asking(monkeypatch, test)


def test_new_settings_on_the_same_text_keep_the_run_beside(user_window, small_corpus, qtbot, monkeypatch):
    """The settings question ("New settings restart training at merge 0; the 12 merges so far are discarded")
    names only the window's run's merges: a run beside, another rule on the same text, stays comparable."""
    window = _window_with_picky_beside(user_window, small_corpus, qtbot, monkeypatch)
    session, feature = window.session, window.variants_feature
    monkeypatch.setattr("bpe_lens_app.main_window.confirm_reset", lambda *a: True)
    window.preset_box.setCurrentText("char-hf")
    window.preset_box.textActivated.emit("char-hf")  # as the user picks it in the toolbar
    qtbot.waitUntil(lambda: session.config.preset == "char-hf" and session.is_loaded and not session.is_loading,
                    timeout=30000)
    qtbot.wait(200)
    assert [r.id for r in feature.runs()] == ["r1", "r2"]
