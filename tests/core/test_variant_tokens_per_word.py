"""Tokens per word by script in the Variants tab's figures (bpe_core/analysis/variant_compare.py) is the
Measures chart's (bpe_core/analysis/curves.py, issue 26 "compared side by side"): the tokens of each script's
pieces over the whitespace-separated words of the run's text in that script, the script groups weighed by
characters. Checked on the eight-language parallel text with gpt2, at three merges, for a plain run, a
PickyBPE run (with removals), a parity-aware run and a SuperBPE continuation: each value equals the Measures
curve's at the same merge, the run's corpus as the evaluation text.

Before, the figures counted each pre-tokenizer piece as a word: GPT-2's ``\\p{L}+`` stops at combining marks,
so a Tamil word is several pieces and Tamil read 1.2 tokens per "word" where the Measures chart reads about 8."""
from __future__ import annotations

from pathlib import Path

import pytest

from bpe_core import make_config
from bpe_core.analysis.curves import EvalText, read_eval_files, run_curves
from bpe_core.analysis.variant_compare import run_word_groups, variant_figures
from bpe_core.corpus.files import count_words_in_files
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer
from bpe_core.workbench import RunCorpus, continuation_timeline, parity_factory, superbpe_config

from tests.core.paths import EXAMPLES

FILES = sorted((EXAMPLES / "parallel").glob("*.txt"))
PATHS = tuple(str(p) for p in FILES)


def _measures(curves, merge):
    """The Measures curves' tokens per word of each script group at ``merge``, in the curves' order."""
    return {g[len("script:"):]: curves.value_at("tokens_per_word", merge, g)
            for g in curves.groups("tokens_per_word") if g.startswith("script:")}


def _run(variant: str) -> Timeline:
    config = make_config("gpt2", vocab_size=656, variant=variant)
    if variant == "parity":  # on the folder: one file per language
        tl = Timeline(parity_factory(str(EXAMPLES / "parallel"))(None, config))
    else:
        tl = Timeline(Trainer(count_words_in_files(FILES, config), config))
    tl.step(400)
    return tl


@pytest.mark.parametrize("variant", ["bpe", "picky", "parity"])
def test_a_run_counts_tokens_per_word_as_the_measures_chart_does(variant):
    tl = _run(variant)
    if variant == "picky":
        assert sum(len(s.removals) for s in tl.history) > 0  # removals happened before the merges checked
    curves = run_curves(tl, read_eval_files(FILES), 50)
    # once per run: its words and text never change (a parity-aware run's corpus is its languages folder)
    groups = run_word_groups(tl, (str(EXAMPLES / "parallel"),) if variant == "parity" else PATHS)
    for merge in (100, 250, 400):
        tl.seek(merge)
        f = variant_figures(variant, tl, groups=groups)
        want = _measures(curves, merge)
        assert list(f.tokens_per_word) == list(want)  # the same groups, largest (by characters) first
        assert f.tokens_per_word == pytest.approx(want, rel=1e-12)
    assert len(want) == 7 and f.tokens_per_word["Tamil"] > 4  # not the 1.2 tokens per GPT-2 piece


def test_a_superbpe_continuation_counts_them_as_the_measures_chart_does():
    tl = _run("bpe")
    tl.seek(200)
    child = continuation_timeline(RunCorpus(PATHS), superbpe_config(tl.config, 200), tl.model())
    child.step(150)
    tl.seek(400)
    # the run's corpus as the run reads it, one line at a time: stage 2's units span whitespace, so a text
    # encoded whole has units across line breaks that no unit of the counted corpus has (module doc)
    lines = tuple(EvalText(f"{t.name}:{i}", line) for t in read_eval_files(FILES)
                  for i, line in enumerate(t.text.splitlines(keepends=True)))
    curves = run_curves(child, lines, 50, parent=tl)
    groups = run_word_groups(child, PATHS)
    parent = variant_figures("parent", tl, groups=run_word_groups(tl, PATHS))
    for merge in (250, 300, 350):
        child.seek(merge - 200)
        f = variant_figures("superbpe", child, offset=200, groups=groups)
        want = _measures(curves, merge)
        assert f.merge == merge and list(f.tokens_per_word) == list(want)
        assert f.tokens_per_word == pytest.approx(want, rel=1e-12)
        assert f.words == parent.words  # the same words as the plain run's: the figures compare


def test_a_runs_words_are_read_as_the_corpus_readers_read_its_text(tmp_path):
    import gzip

    from bpe_core.analysis.variant_compare import corpus_words

    langs = tmp_path / "langs"
    (langs / "dev").mkdir(parents=True)
    (langs / "eng.txt").write_text("the cat sat\n", encoding="utf-8")
    (langs / "rus.txt").write_text("Москва 42\n", encoding="utf-8")
    (langs / "dev" / "eng.txt").write_text("held out words\n", encoding="utf-8")
    (langs / "dev" / "rus.txt").write_text("нет\n", encoding="utf-8")
    # a parity-aware run's folder: its languages' training files, not the held-out ones
    assert corpus_words([str(langs)]) == {"Latin": 3, "Cyrillic": 1, "Common": 1}
    packed = tmp_path / "c.txt.gz"
    packed.write_bytes(gzip.compress("\ufeffa b\r\nc\xa0d".encode("utf-8")))
    assert corpus_words([str(packed), str(langs / "eng.txt")]) == {"Latin": 7}  # a no-break space separates too


def test_a_step_finds_no_script_and_reads_no_text_again(monkeypatch):
    """The words' scripts, the groups and the text's words are found once per run (run_word_groups); each
    figures call after a step reads the segmentations only."""
    import bpe_core.analysis.scripts as scripts
    import bpe_core.analysis.variant_compare as vc

    config = make_config("gpt2", vocab_size=400)
    tl = Timeline(Trainer(count_words_in_files(FILES[:2], config), config))
    groups = run_word_groups(tl, PATHS[:2])
    asked = []
    monkeypatch.setattr(scripts, "word_script", lambda w: asked.append(w) or "Latin")
    monkeypatch.setattr(vc, "word_script", lambda w: asked.append(w) or "Latin")
    monkeypatch.setattr(vc, "corpus_words", lambda *a, **kw: asked.append(a))
    seen = []
    for _ in range(3):
        tl.step(20)
        seen.append(variant_figures("plain", tl, groups=groups).tokens_per_word)
    assert asked == [] and seen[0] != seen[-1] and set(seen[0]) == set(seen[-1])


@pytest.mark.parametrize("preset,variant", [("gpt2", "bpe"), ("gpt2", "picky"), ("char-whitespace", "bpe"),
                                            ("char-hf", "bpe")])
def test_bytes_per_token_is_the_measures_charts_too(preset, variant, tmp_path):
    """Bytes per token is the text's bytes over the tokens, in the Variants tab as in the Measures chart. Before,
    the Variants tab divided the bytes of the run's pieces: a preset that drops whitespace (the seeds' word
    splitters, char-hf) read 1.49 bytes per token where the chart read 1.79 for the same run at the same merge.
    (hf-course is left out: it trains on lowercased words and encodes the text as it is, as its seed does.)
    A CRLF file (the parallel texts have CRLF lines) is read as the run's corpus reader reads it, in both. The
    chart is given the corpus's lines, as the run counts them (encoded whole, GPT-2's whitespace pieces join
    across line breaks: 1.6377 against 1.6493 at merge 0, the text's cutting, not the definition)."""
    config = make_config(preset, vocab_size=656, variant=variant) if preset == "gpt2" else \
        make_config(preset, num_merges=300, variant=variant)
    tl = Timeline(Trainer(count_words_in_files(FILES, config), config))
    tl.step(300)
    lines = tuple(EvalText(f"{t.name}:{i}", line + "\n") for t in read_eval_files(FILES)
                  for i, line in enumerate(t.text.split("\n")[:-1]))  # (the files end with a line end)
    assert all(t.text.endswith("\n") for t in read_eval_files(FILES))
    curves = run_curves(tl, lines, 50)
    groups = run_word_groups(tl, PATHS)
    for merge in (0, 100, 250):
        tl.seek(merge)
        f = variant_figures(variant, tl, groups=groups)
        assert f.bytes_per_token == pytest.approx(curves.value_at("bytes_per_token", merge, "all"), rel=1e-12)
        assert dict(f.curve)[merge] == pytest.approx(f.bytes_per_token, rel=1e-12)  # the curve, the same figure
