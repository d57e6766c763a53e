"""Chinese text trains and renders (no tofu with fonts-wqy-microhei); a saved vocabulary opens in
the inspector; the command line starts the app."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from bpe_lens_app.widgets.chip_text import readable_text
from bpe_lens_app.features.training.words_model import IDS_ROLE, WordsModel
from bpe_lens_app.session.session import make_config

from tests.core.paths import find
SANGUO = find("chinese/sanguo_yanyi.txt")  # an excerpt is shipped in tests/data/real
GPT2 = find("gpt2/tokenizer.json")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not SANGUO.exists(), reason="shared Chinese corpus not present")
def test_chinese_corpus_trains_and_renders_without_tofu(qtbot, window, tmp_path):
    lines = SANGUO.read_text(encoding="utf-8").splitlines(keepends=True)[:300]
    corpus = tmp_path / "sanguo_300.txt"
    corpus.write_text("".join(lines), encoding="utf-8")
    s = window.session
    with qtbot.waitSignal(s.corpus_loaded, timeout=20000):
        s.load_corpus(corpus, make_config("char-hf", vocab_size=5000))  # whitespace-split: Han clauses
    s.step(20)
    model = window.words.model
    shown = [model.index(r, WordsModel.WORD).data() for r in range(20)]
    assert any("\u4e00" <= ch <= "\u9fff" for word in shown for ch in word)
    han = lambda text: any("\u4e00" <= ch <= "\u9fff" for ch in text)  # noqa: E731
    step = next(st for st in s.history if han(window.words.token_chips.chip(st.new_id).text))  # Han + Han
    # every character has a font: nothing is spelled out as ‹name› (what chips do instead of tofu)
    font = window.words.table.font()
    for word in shown:
        assert readable_text(word, font) == word
    assert readable_text(window.pair_chart.labels()[0], window.pair_chart.chart_font()) == window.pair_chart.labels()[0]
    word = step.changed_words[0]
    assert model.index(model.row_of(word), WordsModel.SEGMENTATION).data(IDS_ROLE) == s.segmentation(word)


@pytest.mark.skipif(not GPT2.exists(), reason="shared GPT-2 tokenizer.json not present")
def test_open_vocabulary_adds_an_inspector_tab(qtbot, window, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(GPT2), ""))
    with qtbot.waitSignal(window.session.vocabulary_opened, timeout=60000):
        window.open_vocab_action.trigger()
    assert window.tabs.count() == 2
    tab = window.tabs.widget(1)
    assert window.tabs.tabText(1).startswith("Inspect")
    assert tab.vocab_model.vocab_size == 50257
    assert "50,257 tokens" in window.statusBar().currentMessage()
    window.tabs.tabCloseRequested.emit(1)
    assert window.tabs.count() == 1
    window.tabs.tabCloseRequested.emit(0)  # the training tab stays
    assert window.tabs.count() == 1


def test_font_size_actions(qtbot, window):
    from PySide6.QtWidgets import QApplication

    before = QApplication.font().pointSizeF()
    next(a for a in window.findChildren(type(window.open_action)) if a.objectName() == "action_font_larger").trigger()
    assert QApplication.font().pointSizeF() == round(before) + 1
    next(a for a in window.findChildren(type(window.open_action)) if a.objectName() == "action_font_smaller").trigger()
    assert QApplication.font().pointSizeF() == round(before)


def test_command_line_help_and_a_bad_preset():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-m", "app", "--help"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0 and "--corpus" in out.stdout and "--preset" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "app", "--preset", "nope"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "unknown preset 'nope'" in bad.stderr.lower()


def test_gui_script_entry_point_is_main():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["gui-scripts"]["bpe-lens"] == "bpe_lens_app.__main__:main"
    from bpe_lens_app.__main__ import main

    assert callable(main)


def _view_y(plot) -> tuple:
    return tuple(plot.getViewBox().viewRange()[1])


@pytest.mark.skipif(not SANGUO.exists(), reason="shared Chinese corpus not present")
def test_history_ranges_keep_the_lines_readable_and_change_rarely(qtbot, window, tmp_path):
    lines = SANGUO.read_text(encoding="utf-8").splitlines(keepends=True)[:400]
    corpus = tmp_path / "sanguo_400.txt"
    corpus.write_text("".join(lines), encoding="utf-8")
    s = window.session
    with qtbot.waitSignal(s.corpus_loaded, timeout=20000):
        s.load_corpus(corpus, make_config("char-hf", vocab_size=6000))
    chart = window.history_chart
    ranges = []
    for _ in range(60):
        s.step()
        ranges.append(tuple(_view_y(p) for p in chart.plots))
    values = chart.values()
    for key, plot in (("units_per_token", chart.plots[3]), ("tokens_per_word", chart.plots[2])):
        lo, hi = _view_y(plot)
        line = values[key]
        assert lo <= line.min() and line.max() <= hi
        # the line (chars per token ~1.0 -> 1.1, tokens per word ~270 -> 260) spans at least a
        # fifth of its chart's height instead of lying flat in a range made for all that is possible
        assert (line.max() - line.min()) >= 0.2 * (hi - lo), (key, lo, hi, line.min(), line.max())
    assert s.merge_count == 60
    for i in range(4):  # each chart's range changed at most a few times in 60 merges
        assert len({r[i] for r in ranges}) <= (3 if i != 1 else 1), i
