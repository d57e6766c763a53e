"""The Health tab's fertility ("tokens / word") is the Measures chart's (issue 26, follow-up F3): a group's
tokens over the whitespace-separated words of the text in it. On the eight-language parallel text with gpt2's
vocabulary cut at a few merges, the table shows the Measures values (it counted each GPT-2 piece as a word:
Tamil 3.7 at merge 0 where the Measures chart reads 25.7); its headers say what they count."""
from __future__ import annotations

import functools

import pytest
from PySide6.QtWidgets import QFileDialog

from tests.core.paths import EXAMPLES, need

FILES = [str(p) for p in sorted((EXAMPLES / "parallel").glob("*.txt"))]


@functools.lru_cache(maxsize=1)
def gpt2():
    from bpe_core.formats.detect import open_vocabulary
    return open_vocabulary(str(need("gpt2/tokenizer.json")))


def _table(pane) -> dict:
    t = pane.fertility_table
    return {t.item(r, 0).text(): t.item(r, 2).text() for r in range(t.rowCount())}


@pytest.mark.parametrize("merge", [0, 500])
def test_the_health_tab_shows_the_measures_tokens_per_word(user_window, qtbot, monkeypatch, merge):
    from bpe_core.analysis.curves import model_curves, read_eval_files
    from bpe_lens_app.features.health.pane import HealthPane

    window = user_window()
    window.session.workbench.add_vocabulary(gpt2().truncated(merge), name=f"gpt2 at {merge}")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: (FILES[:1] + FILES[6:7], ""))
    window.findChild(type(window.open_action), "action_vocabulary_health").trigger()
    pane = window.tabs.currentWidget()
    assert isinstance(pane, HealthPane)
    qtbot.waitUntil(lambda: pane.report is not None, timeout=60000)
    shown = _table(pane)
    curves = model_curves(gpt2(), read_eval_files([FILES[0], FILES[6]]), 100, upto=merge)
    header = pane.fertility_table.horizontalHeaderItem
    assert [header(c).text() for c in range(4)] == ["file", "words", "tokens / word", "tokens / 100 chars"]
    assert "whitespace" in header(1).toolTip() and "Measures" in header(2).toolTip()
    # the title's count is the pre-tokenizer's pieces, not whitespace words: it says so (it said "words" beside
    # a table whose words are whitespace words, found by the wheel's user test)
    assert " pieces → " in pane.title.text() and " words → " not in pane.title.text()
    # the example's files break lines with CRLF: the corpus readers read "\r\n" as "\n", the Measures chart
    # keeps the "\r", so the files' tokens differ by a line's "\r"; the scripts' do not (below, by script)
    assert set(shown) == {"arb.txt", "tam.txt"}
    pane.run(gpt2().truncated(merge), FILES[:1] + FILES[6:7], by="script")
    qtbot.waitUntil(lambda: pane.report is not None and pane.report.by == "script", timeout=60000)
    shown = _table(pane)
    want = {g[len("script:"):]: curves.value_at("tokens_per_word", merge, g)
            for g in curves.groups("tokens_per_word") if g.startswith("script:")}
    assert {"Arabic", "Tamil"} <= set(want) and want["Tamil"] > 4
    for script, value in want.items():
        assert shown[script] == f"{value:.3f}", script
