"""The Health report's fertility (tokens per word) is the Measures chart's (issue 26, follow-up F3): a group's
tokens over the whitespace-separated words of the text in that group (a script, a file). Checked on the
eight-language parallel text with gpt2's vocabulary cut at a few merges, against
:func:`bpe_core.analysis.curves.model_curves`.

Before, each pre-tokenizer piece counted as a word: GPT-2 cuts a Tamil word at each combining mark, so Tamil
read near one token per "word" under gpt2's first merges where the Measures chart reads many."""
from __future__ import annotations

import functools

import pytest

from bpe_core.analysis.curves import model_curves, read_eval_files
from bpe_core.analysis.health import health_of_pieces, vocabulary_health
from bpe_core.formats.detect import open_vocabulary

from tests.core.paths import EXAMPLES, need

FILES = sorted((EXAMPLES / "parallel").glob("*.txt"))
MERGES = (0, 200, 1000)


@functools.lru_cache(maxsize=1)
def gpt2():
    return open_vocabulary(str(need("gpt2/tokenizer.json")))


@functools.lru_cache(maxsize=1)
def measures():
    return model_curves(gpt2(), read_eval_files(FILES), 100, upto=max(MERGES))


@pytest.mark.parametrize("merge", MERGES)
def test_fertility_by_script_is_the_measures_charts_tokens_per_word(merge):
    report = vocabulary_health(gpt2().truncated(merge), FILES, by="script")
    got = {f.group: f.tokens_per_word for f in report.fertility}
    curves = measures()
    want = {g[len("script:"):]: curves.value_at("tokens_per_word", merge, g)
            for g in curves.groups("tokens_per_word") if g.startswith("script:")}
    assert len(want) == 7
    assert {g: got[g] for g in want} == pytest.approx(want, rel=1e-12)
    assert got["Tamil"] > 4


@pytest.mark.parametrize("merge", MERGES[1:])
def test_fertility_by_file_is_the_measures_charts_tokens_per_word(merge, tmp_path):
    """The example's files end their lines with CRLF: the corpus readers (Health's) read a line break as
    "\\n", the Measures chart keeps the bytes, so a file's "\\r" tokens differ (a reading, not the
    definition: the script groups above hold no "\\r"). Compared on the files with LF line breaks."""
    files = []
    for p in FILES:
        files.append(tmp_path / p.name)
        files[-1].write_bytes(p.read_bytes().replace(b"\r\n", b"\n"))
    report = vocabulary_health(gpt2().truncated(merge), files, by="file")
    got = {f.group: f.tokens_per_word for f in report.fertility}
    curves = model_curves(gpt2(), read_eval_files(files), 100, upto=merge)
    want = {p.name: curves.value_at("tokens_per_word", merge, "file:" + p.stem) for p in files}
    assert got == pytest.approx(want, rel=1e-12)


def test_without_the_text_the_report_says_it_counts_pieces():
    """Pieces alone (no text) cannot tell where a word starts: the report divides by pieces and says so."""
    from bpe_core.model import BPEModel
    m = BPEModel(unit="chars", tokens=list("ab") + ["ab"], merges=[(0, 1)])
    report = health_of_pieces(m, [("x", {("ab", True): 3, ("b", True): 1})])
    assert not report.per_word and report.fertility[0].words == 4
    text = health_of_pieces(m, [("x", {("ab", True): 3, ("b", True): 1})], words=[{"Latin": 2}])
    assert text.per_word and text.fertility[0].words == 2 and text.fertility[0].tokens_per_word == 2.0
