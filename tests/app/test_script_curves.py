"""Per-language curves while training (issue 11): a corpus mixing English and Chinese shows one
tokens-per-word curve per script, whose values equal a recount from the words' segmentations over the text's
whitespace-separated words (the Measures chart's definition, issue 26: it counted the pieces before)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from bpe_lens_app.features.training.script_curves_pane import ScriptCurvesChart  # noqa: E402

ENGLISH = "The cat sat on the mat, and the other cats watched the mat from the tower.\n"
CHINESE = "却说曹操引兵追赶刘备，关羽张飞与赵云护着玄德。\n"


def group(w: str):
    """Han when ``w`` has a CJK ideograph, Latin when it has an ASCII letter (this corpus has no other
    letters), else no curve."""
    return "Han" if any("\u4e00" <= c <= "\u9fff" for c in w) else \
        "Latin" if any(c.isascii() and c.isalpha() for c in w) else None


def recount(session) -> dict:
    """Tokens per word per script from scratch: the tokens of each group's pieces over the whitespace-separated
    words of the corpus's text in that group."""
    tokens = {"Latin": 0, "Han": 0}
    for i, (w, f) in enumerate(zip(session.words, session.freqs)):
        if group(w):
            tokens[group(w)] += f * len(session.segmentation(i))
    words = {"Latin": 0, "Han": 0}
    for path in session.corpus.paths:
        for w in open(path, encoding="utf-8").read().split():
            if group(w):
                words[group(w)] += 1
    return {g: tokens[g] / words[g] for g in words}


def read(qtbot, chart) -> None:
    """Wait for the text's words (read on a worker): the curves divide by them."""
    qtbot.waitUntil(lambda: chart.tracker is not None and chart.tracker.per_word, timeout=10000)


@pytest.fixture
def mixed_window(qtbot, window, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text((ENGLISH * 3 + CHINESE * 2) * 5, encoding="utf-8")
    action = window.findChild(type(window.open_action), "action_script_curves")
    assert action in window.menus["view"].actions() and not action.isChecked()
    action.trigger()  # shown before the corpus: tracked from merge 0
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.session.load_corpus(str(path))
    return window


def chart_of(window) -> ScriptCurvesChart:
    chart = window.findChild(ScriptCurvesChart)
    assert chart is not None and chart.isVisible()
    return chart


def test_two_curves_with_the_recounted_values(qtbot, mixed_window) -> None:
    session, chart = mixed_window.session, chart_of(mixed_window)
    read(qtbot, chart)
    assert list(chart.curves) == ["Latin", "Han"]
    assert chart.values() == pytest.approx(recount(session))
    session.step()
    session.step(5)
    with qtbot.waitSignal(session.run_finished, timeout=20000):
        session.step(60)  # a worker run: several frames
    assert session.merge_count == 66
    got, want = chart.values(), recount(session)
    assert got == pytest.approx(want, rel=1e-12) and got["Han"] != got["Latin"]
    x, _y = chart.curves["Han"].getData()
    assert list(x) == list(range(67))  # a point at every merge, bulk steps included (issue 23, finding 6)
    assert "Latin" in chart.note.text() and "Han" in chart.note.text()


def test_undo_and_seek_keep_the_curves_exact(qtbot, mixed_window) -> None:
    session, chart = mixed_window.session, chart_of(mixed_window)
    read(qtbot, chart)
    session.step(10)
    session.undo(4)
    assert chart.values() == pytest.approx(recount(session))
    x, _y = chart.curves["Latin"].getData()
    assert x[-1] == 6 == session.merge_count
    with qtbot.waitSignal(session.run_finished, timeout=20000):
        session.step(40)
    session.seek(3)  # a jump back through the records
    qtbot.waitUntil(lambda: session.merge_count == 3, timeout=10000)
    assert chart.values() == pytest.approx(recount(session))
    session.reset()
    qtbot.waitUntil(lambda: session.merge_count == 0, timeout=10000)
    assert chart.values() == pytest.approx(recount(session))


def test_switched_on_late_tracks_from_there(qtbot, window, tmp_path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text((ENGLISH + CHINESE) * 4, encoding="utf-8")
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.session.load_corpus(str(path))
    window.session.step(5)
    window.findChild(type(window.open_action), "action_script_curves").trigger()
    chart = chart_of(window)
    read(qtbot, chart)
    assert chart.values() == pytest.approx(recount(window.session))
    assert "tracked from merge 5" in chart.note.text()


def test_a_large_corpus_finds_scripts_on_a_worker(qtbot, window, tmp_path, monkeypatch) -> None:
    import bpe_lens_app.features.training.script_curves_pane as module
    import threading
    monkeypatch.setattr(module, "SYNC_WORDS", 0)
    threads = []
    real = module.word_groups
    monkeypatch.setattr(module, "word_groups", lambda *a: threads.append(threading.current_thread()) or real(*a))
    path = tmp_path / "mixed.txt"
    path.write_text((ENGLISH + CHINESE) * 4, encoding="utf-8")
    window.findChild(type(window.open_action), "action_script_curves").trigger()
    chart = chart_of(window)
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=10000):
        window.session.load_corpus(str(path))
    read(qtbot, chart)
    assert threads and threads[0] is not threading.main_thread()
    window.session.step(3)
    assert list(chart.curves) == ["Latin", "Han"] and chart.values() == pytest.approx(recount(window.session))
