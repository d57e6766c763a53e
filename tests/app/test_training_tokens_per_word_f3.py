"""The Training tab's status line ("… tokens/word") and its history chart's "tokens per word" are the Measures
chart's (issue 26, follow-up F3): the run's tokens over the whitespace-separated words of its text (the Measures
"all" group), where they divided by the trainer's pieces (GPT-2 cuts "don't" in two, a Tamil word at each mark).
The text is read once per corpus on a worker, shared with the other panes; without text (a word-count table)
both say "tokens/piece"."""
from __future__ import annotations

import re

import pytest

from tests.core.paths import EXAMPLES


def _lf_copies(tmp_path):
    """The parallel example with LF line breaks: its CRLF files' "\\r" is read away by the corpus readers and
    kept by the Measures chart (a reading, not the definition: bpe_core/analysis/variant_compare.py)."""
    out = []
    for p in sorted((EXAMPLES / "parallel").glob("*.txt")):
        out.append(tmp_path / p.name)
        out[-1].write_bytes(p.read_bytes().replace(b"\r\n", b"\n"))
    return [str(p) for p in out]


def _status(window) -> str:
    return window.controls.stats_label.text()


def test_the_status_line_and_history_show_the_measures_tokens_per_word(user_window, qtbot, tmp_path):
    from bpe_core.analysis import read_eval_files, run_curves

    files = _lf_copies(tmp_path)
    window = user_window()
    session = window.session
    with qtbot.waitSignal(session.corpus_loaded, timeout=60000):
        session.load_corpus(files)
    qtbot.waitUntil(lambda: "tokens/word" in _status(window) and "reading" not in _status(window), timeout=30000)
    for merge in (150, 300):
        session.seek(merge)
        qtbot.waitUntil(lambda: session.merge_count == merge and not session.is_running, timeout=60000)
        curves = run_curves(session.workbench.run.timeline, read_eval_files(files), 50)
        want = curves.value_at("tokens_per_word", merge, "all")
        qtbot.waitUntil(lambda: f"{want:.2f} tokens/word" in _status(window), timeout=10000)
        chart = window.history_chart
        qtbot.waitUntil(lambda: len(chart.values()["tokens_per_word"]) == merge + 1, timeout=10000)
        assert chart.values()["tokens_per_word"][merge] == pytest.approx(want, rel=1e-12)
        assert chart.values()["tokens_per_word"][0] == pytest.approx(curves.value_at("tokens_per_word", 0, "all"),
                                                                    rel=1e-12)
    assert want > session.stats.tokens_per_word * 1.2  # more than per GPT-2 piece: the pieces outnumber the words
    assert chart.total_axis.scale * want == pytest.approx(session.stats.total_tokens)  # total tokens on the right


def test_a_word_table_says_tokens_per_piece(user_window, qtbot, tmp_path):
    table = tmp_path / "counts.tsv"
    table.write_text("".join(f"{w}\t{n}\n" for w, n in (("the", 50), ("cat", 20), ("sat", 9), ("mat", 7))),
                     encoding="utf-8")
    window = user_window()
    session = window.session
    with qtbot.waitSignal(session.corpus_loaded, timeout=60000):
        session.load_corpus(str(table))
    qtbot.waitUntil(lambda: "tokens/piece" in _status(window), timeout=30000)
    value = float(re.search(r"(\d+\.\d+) tokens/piece", _status(window)).group(1))
    assert value == float(f"{session.stats.tokens_per_word:.2f}")
    assert "piece" in window.history_chart.titles[2] and "piece" in window.controls.stats_label.toolTip()
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDockWidget

    window.findChild(QAction, "action_script_curves").trigger()  # the script chart names it so too
    chart = window.findChild(QDockWidget, "dock_script_curves").widget()
    qtbot.waitUntil(lambda: chart.tracker is not None, timeout=10000)
    qtbot.waitUntil(lambda: chart.plot_widget.getPlotItem().titleLabel.text == "tokens per piece, by script",
                    timeout=10000)
    assert not chart.tracker.per_word
