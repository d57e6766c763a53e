"""The Training tab's "Tokens per word by script" chart is the Measures chart's (issue 26, follow-up F3): on the
eight-language parallel text under a new user's defaults (gpt2), the chart counted each GPT-2 piece as a word
(Tamil 1.34 at merge 150 where the Measures chart reads 9.29). Now it divides each script's tokens by the
whitespace-separated words of the text in that script, the words read once per corpus on a worker, shared with
the Variants tab (the text is not read again when both are open, nor at a step)."""
from __future__ import annotations

import re

import pytest

from tests.core.paths import EXAMPLES

FILES = [str(p) for p in sorted((EXAMPLES / "parallel").glob("*.txt"))]


def _note(chart) -> dict:
    """The scripts and values the note under the chart shows."""
    return {name: float(value) for name, value in re.findall(r"(\w+) (\d+\.\d+)", chart.note.text())}


def open_chart(user_window, qtbot, files, merge=None):
    """A new user's window with View → Tokens per word by script open, ``files`` loaded and their text's words
    read (and the run at ``merge``); the window and the chart."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDockWidget

    window = user_window()
    session = window.session
    window.findChild(QAction, "action_script_curves").trigger()
    chart = window.findChild(QDockWidget, "dock_script_curves").widget()
    with qtbot.waitSignal(session.corpus_loaded, timeout=60000):
        session.load_corpus(files)
    qtbot.waitUntil(lambda: chart.tracker is not None and chart.tracker.per_word, timeout=30000)
    if merge is not None:
        session.seek(merge)
        qtbot.waitUntil(lambda: session.merge_count == merge and not session.is_running, timeout=60000)
        qtbot.waitUntil(lambda: chart.tracker.last_merge == merge, timeout=10000)
    return window, chart


def test_the_chart_shows_the_measures_tokens_per_word_by_script(user_window, qtbot, monkeypatch):
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QTableWidget

    from tests.app.test_variants_tokens_per_word_f1 import _shown

    from bpe_core.analysis import read_eval_files, run_curves
    from bpe_lens_app.session import text_words

    reads = []
    real = text_words.corpus_words
    monkeypatch.setattr(text_words, "corpus_words", lambda *a, **kw: reads.append(a) or real(*a, **kw))
    window, chart = open_chart(user_window, qtbot, FILES)
    session = window.session
    assert chart.plot_widget.getPlotItem().titleLabel.text == "tokens per word, by script"
    for merge in (150, 300):
        session.seek(merge)
        qtbot.waitUntil(lambda: session.merge_count == merge and not session.is_running, timeout=60000)
        qtbot.waitUntil(lambda: chart.tracker.last_merge == merge, timeout=10000)
        curves = run_curves(session.workbench.run.timeline, read_eval_files(FILES), 50)
        want = {g[len("script:"):]: curves.value_at("tokens_per_word", merge, g)
                for g in curves.groups("tokens_per_word") if g.startswith("script:")}
        assert list(chart.curves) == list(want)  # the Measures groups, largest by characters first
        assert chart.values() == pytest.approx(want, rel=1e-12)
        assert _note(chart) == {g: float(f"{v:.2f}") for g, v in want.items()}
    assert want["Tamil"] > 4  # not 1.34: a GPT-2 piece is not a word
    # the Variants tab on the same run divides by the same words, read once for both, and not again at a step
    window.findChild(QAction, "action_compare_variants").trigger()
    table = window.variants_feature.tab.findChild(QTableWidget, "variant_table")
    qtbot.waitUntil(lambda: "Tamil" in _shown(table, 0), timeout=30000)
    assert _shown(table, 0) == _note(chart)
    for _ in range(3):
        session.step()
    qtbot.waitUntil(lambda: chart.tracker.last_merge == 303, timeout=10000)
    assert [r for r in reads if list(r[0]) == FILES] == [(tuple(FILES), "strict")]  # (and the default corpus's)
