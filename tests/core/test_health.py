"""Vocabulary health and fertility (issue 11): cross-checked against `replay`, tiktoken and an
independent count of words and characters (the GPT-2 regex run by the `regex` module)."""
from __future__ import annotations

import csv
import functools
import json
from collections import Counter
from pathlib import Path
from typing import Dict, List

import pytest
import regex

from bpe_core.analysis.health import health_of_pieces, vocabulary_health
from bpe_core.analysis.replay import replay
from bpe_core.cli.commands import main as cli_main
from bpe_core.corpus.counting import iter_lines
from bpe_core.formats.detect import open_vocabulary
from bpe_core.model import BPEModel

from .paths import need
from .test_exact_encoding import tiktoken_reference

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


@functools.lru_cache(maxsize=None)
def gpt2() -> BPEModel:
    return open_vocabulary(str(need("gpt2/tokenizer.json")))


@functools.lru_cache(maxsize=None)
def wiki_report():
    return vocabulary_health(gpt2(), [need("wikitext-2-raw/wiki.valid.raw")])


def test_gpt2_wikitext_health_equals_replay() -> None:
    """The health figures are replay's own, computed on the same text read line by line."""
    path = need("wikitext-2-raw/wiki.valid.raw")
    ref = replay(gpt2(), iter_lines(path))
    report = wiki_report()
    assert report.replay.merge_counts == ref.merge_counts
    assert report.replay.dead_merges == ref.dead_merges
    assert report.replay.unreachable_tokens == ref.unreachable_tokens
    assert report.replay.consumed_tokens == ref.consumed_tokens
    status = report.status_counts()
    assert status["dead"] == len(ref.dead_merges) == 28445
    assert status["consumed"] == len(ref.consumed_tokens)
    assert status["unreachable"] == 0 and status["special"] == 1
    assert sum(status.values()) == 50257
    by_id = {r.id: r for r in report.rows}
    for rank in ref.dead_merges[:50]:
        assert by_id[gpt2().merge_result[rank - 1]].status == "dead"


def test_gpt2_wikitext_usage_equals_tiktoken() -> None:
    """Token usage = tiktoken's token counts on the same lines (GPT-2 ids are r50k ranks)."""
    enc = tiktoken_reference("r50k_base")
    path = need("wikitext-2-raw/wiki.valid.raw")
    expected: Counter = Counter()
    for line in iter_lines(path):
        expected.update(enc.encode_ordinary(line))
    report = wiki_report()
    got = {r.id: r.usage for r in report.rows if r.usage}
    assert got == dict(expected)
    assert report.tokens == sum(expected.values()) == ref_tokens_after(path)
    assert {r.id for r in report.rows if r.status == "used"} == set(expected)


def ref_tokens_after(path: Path) -> int:
    return replay(gpt2(), iter_lines(path)).tokens_after


def excerpt(tmp_path: Path, rel: str, lines: int) -> Path:
    """The first ``lines`` lines of a real file, as a file (its bytes unchanged)."""
    data = need(rel).read_bytes()
    cut = 0
    for _ in range(lines):
        cut = data.index(b"\n", cut) + 1
    out = tmp_path / Path(rel).name
    out.write_bytes(data[:cut])
    return out


def reference_fertility(path: Path) -> Dict[str, int]:
    enc = tiktoken_reference("r50k_base")
    words = chars = tokens = 0
    for line in iter_lines(path):
        pieces = regex.findall(GPT2_PATTERN, line)
        words += len(line.split())  # whitespace-separated words, as the Measures chart counts them (issue 26)
        chars += sum(map(len, pieces))
        tokens += len(enc.encode_ordinary(line))
    return {"words": words, "chars": chars, "tokens": tokens}


def test_fertility_english_chinese_russian_by_file(tmp_path: Path) -> None:
    files = [excerpt(tmp_path, "tinyshakespeare.txt", 1500), excerpt(tmp_path, "chinese/sanguo_yanyi.txt", 150),
             excerpt(tmp_path, "bench/multilingual/ru_anna_karenina.txt", 150)]
    report = vocabulary_health(gpt2(), files, by="file")
    assert report.by == "file"
    rows = {f.group: f for f in report.fertility}
    assert list(rows) == [p.name for p in files]
    for path in files:
        ref = reference_fertility(path)
        got = rows[path.name]
        assert (got.words, got.chars, got.tokens) == (ref["words"], ref["chars"], ref["tokens"]), path.name
    en, zh, ru = (rows[p.name] for p in files)
    # GPT-2 is an English vocabulary: Chinese and Russian cost far more tokens per character
    # (here: 30.3, 107.9 and 220.1 tokens per 100 characters)
    assert 2 * en.tokens_per_100_chars < ru.tokens_per_100_chars < zh.tokens_per_100_chars
    assert zh.tokens_per_word > ru.tokens_per_word > en.tokens_per_word


def test_fertility_by_script_splits_the_same_text(tmp_path: Path) -> None:
    files = [excerpt(tmp_path, "chinese/sanguo_yanyi.txt", 100),
             excerpt(tmp_path, "bench/multilingual/ru_anna_karenina.txt", 100)]
    by_script = {f.group: f for f in vocabulary_health(gpt2(), files, by="script").fertility}
    by_file = vocabulary_health(gpt2(), files, by="file").fertility
    assert {"Han", "Cyrillic", "Common"} <= set(by_script)
    assert sum(f.tokens for f in by_script.values()) == sum(f.tokens for f in by_file)
    assert sum(f.words for f in by_script.values()) == sum(f.words for f in by_file)
    assert by_script["Han"].tokens_per_100_chars > by_script["Cyrillic"].tokens_per_100_chars


def test_statuses_on_a_small_model() -> None:
    m = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc", "bc", "<s>", "cb"],
                 merges=[(0, 1), (3, 2), (1, 2)], specials={"<s>": 6})
    report = health_of_pieces(m, [("x", {("abc", True): 3, ("bb", True): 1})])
    assert {r.token: r.status for r in report.rows} == {
        "a": "unused", "b": "used", "c": "unused", "ab": "consumed", "abc": "used", "bc": "dead",
        "<s>": "special", "cb": "unreachable"}


def test_cli_health_csv_json_and_errors(tmp_path: Path, capsys) -> None:
    model = tmp_path / "m.json"
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower lowest\nнизкий\n", encoding="utf-8")
    assert cli_main(["train", str(corpus), "-o", str(model), "--preset", "gpt2", "--vocab-size", "270", "-q"]) == 0
    capsys.readouterr()
    out_csv = tmp_path / "t.csv"
    assert cli_main(["health", "--vocab", str(model), str(corpus), "--csv", str(out_csv), "--json", "-q"]) == 0
    data = json.loads(capsys.readouterr().out)
    ref = replay(open_vocabulary(str(model)), iter_lines(corpus))
    assert data["summary"]["dead_merges"] == len(ref.dead_merges) == 0
    assert data["by"] == "script" and {f["group"] for f in data["fertility"]} >= {"Latin", "Cyrillic"}
    rows: List[dict] = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert len(rows) == open_vocabulary(str(model)).vocab_size
    assert sum(int(r["usage"]) for r in rows) == ref.tokens_after
    assert cli_main(["health", "--vocab", str(model), str(corpus), "--csv", str(corpus), "-q"]) == 2
    assert "input" in capsys.readouterr().err
    assert cli_main(["health", "--vocab", str(model), str(tmp_path / "none*.txt"), "-q"]) == 2
