"""Word-count tables and the local counting engine (issue 13): a table trains exactly as its files.

The baseline is sequential counting (``count_words_in_files``, the counts ``train`` has always
used) and, for the words themselves, the pre-tokenizer run line by line over the file read with
Python's ``open`` - a count that shares none of the block machinery.
"""
from __future__ import annotations

import bz2
import gzip
import json
import lzma
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bpe_core.corpus.blocks import Block, find_cut, plan_blocks
from bpe_core.corpus.engines import count_local, count_table
from bpe_core.corpus.files import count_words_in_files
from bpe_core.corpus.table import (check_table_config, config_for_table, is_word_table, read_table, write_parquet,
                                   write_tsv)
from bpe_core.presets import make_config
from bpe_core.pretokenize.pretokenizers import get_pretokenizer
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError, TrainerConfig

from .paths import need

pytest.importorskip("pyarrow")

THREE = ("wikitext-2-raw/wiki.valid.raw", "tinyshakespeare.txt", "chinese/sanguo_yanyi.txt")


def three_files():
    return [need(rel) for rel in THREE]


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "bpe_core", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def merges(counts, cfg, n=400):
    trainer = Trainer(counts, cfg)
    trainer.run(merges=n)
    return trainer.model().merges


@pytest.mark.parametrize("preset", ["gpt2", "hf-course", "byte-ascii"])
def test_local_engine_equals_sequential_counting(preset):
    cfg, paths = make_config(preset), three_files()
    seq = count_words_in_files(paths, cfg)
    # small blocks: hundreds of cuts, each one a chance to split a word wrongly
    counts, firsts = count_local(paths, cfg, workers=2, chunk=1 << 16)
    assert list(counts.items()) == list(seq.items())
    assert firsts == sorted(firsts) and len(firsts) == len(counts)
    one, _ = count_local(paths, cfg, workers=1, chunk=1 << 15)
    assert list(one.items()) == list(seq.items())


def test_counts_equal_an_independent_line_by_line_count():
    """hf-course (lowercase, first-seen) counted our way == the pre-tokenizer over Python's lines."""
    cfg, paths = make_config("hf-course"), three_files()
    pre, expected = get_pretokenizer(cfg), Counter()
    for p in paths:
        with open(p, encoding="utf-8-sig") as f:
            for line in f:
                expected.update(pre.words(line.lower()))
    counts, _ = count_local(paths, cfg, workers=2, chunk=1 << 16)
    assert list(counts.items()) == list(expected.items())  # Counter keeps first-seen order too


@pytest.mark.parametrize("preset", ["gpt2", "hf-course", "nltk-wordpunct"])
def test_table_trains_exactly_as_the_files(tmp_path, preset):
    cfg, paths = make_config(preset), three_files()
    counts, firsts = count_table(paths, cfg, engine="local", workers=2)
    write_parquet(tmp_path / "t.parquet", counts, firsts, cfg, [(str(p), p.stat().st_size) for p in paths])
    table = read_table(tmp_path / "t.parquet")
    assert table.config == cfg and [s[0] for s in table.sources] == [str(p) for p in paths]
    assert merges(table.counts, cfg) == merges(count_words_in_files(paths, cfg), cfg)


def test_cli_count_then_train_gives_the_files_merges(tmp_path):
    paths = three_files()
    r = cli("count", *paths, "--preset", "gpt2", "-o", tmp_path / "c.parquet")
    assert r.returncode == 0, r.stderr
    assert "words" in r.stderr and "engine local" in r.stderr
    assert is_word_table(tmp_path / "c.parquet")
    for name, corpus in (("table", [tmp_path / "c.parquet"]), ("files", paths)):
        r = cli("train", *corpus, "--preset", "gpt2", "--merges", "300", "-q", "-o", tmp_path / f"{name}.json")
        assert r.returncode == 0, r.stderr
    assert (tmp_path / "table.json").read_bytes() == (tmp_path / "files.json").read_bytes()


def test_train_refuses_a_table_counted_otherwise(tmp_path):
    path = need("tinyshakespeare.txt")
    assert cli("count", path, "--preset", "gpt2", "-q", "-o", tmp_path / "c.parquet").returncode == 0
    r = cli("train", tmp_path / "c.parquet", "--preset", "hf-course", "--merges", "5", "-o", tmp_path / "v.json")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "c.parquet: the words were counted with" in r.stderr and "pretokenizer='gpt2'" not in r.stderr
    assert "lowercase=False" in r.stderr and "preset 'gpt2'" in r.stderr
    # training settings that do not cut words (vocab size, tie rule, suffix) may differ
    r = cli("train", tmp_path / "c.parquet", "--preset", "gpt2", "--tie-break", "first-seen", "--merges", "5",
            "-q", "-o", tmp_path / "v.json")
    assert r.returncode == 0, r.stderr


def test_the_app_adopts_a_tables_word_settings(tmp_path):
    cfg = make_config("gpt2")
    write_parquet(tmp_path / "c.parquet", {"a": 1}, [(0, 0)], cfg)
    assert config_for_table(tmp_path / "c.parquet", make_config("char-whitespace")) == cfg
    mine = make_config("gpt2", vocab_size=700)  # same word settings: the current ones stay
    assert config_for_table(tmp_path / "c.parquet", mine) is mine
    assert config_for_table(need("tinyshakespeare.txt"), mine) is None  # a corpus


def test_tsv_round_trip_keeps_order_and_odd_words(tmp_path):
    cfg, path = make_config("gpt2"), need("wikitext-2-raw/wiki.valid.raw")
    counts = count_words_in_files([path], cfg)
    assert any("\n" in w for w in counts) and any('"' in w for w in counts)
    counts = {**counts, 'a\tb': 3, '"': 2, "\r\n": 1}
    write_tsv(tmp_path / "c.tsv", counts)
    assert is_word_table(tmp_path / "c.tsv")
    table = read_table(tmp_path / "c.tsv")
    assert table.config is None and list(table.counts.items()) == list(counts.items())


def test_tsv_as_spark_or_duckdb_write_it(tmp_path):
    (tmp_path / "no_header.tsv").write_text("the\t5\ncat\t2\n\nend\t1", encoding="utf-8")
    assert list(read_table(tmp_path / "no_header.tsv").counts.items()) == [("the", 5), ("cat", 2), ("end", 1)]
    (tmp_path / "header.tsv").write_text('word\tcount\n"say ""hi"""\t4\n', encoding="utf-8")
    assert read_table(tmp_path / "header.tsv").counts == {'say "hi"': 4}


@pytest.mark.parametrize("text, message", [
    ("the\t5\ncat\n", "bad.tsv: line 2: expected word<TAB>count, found 1 fields"),
    ("the\t5\ncat\tmany\n", "bad.tsv: line 2: the count 'many' is not a whole number"),
    ("the\t5\nthe\t2\n", "bad.tsv: line 2: the word 'the' appears twice"),
    ("the\t0\n", "bad.tsv: line 1: count 0 of 'the' is not positive"),
    ("word\tcount\n", "bad.tsv: the table holds no words"),
    ("the\t5\n\"cat\t2\n", "bad.tsv: line 2"),
])
def test_bad_tsv_lines_name_their_line(tmp_path, text, message):
    (tmp_path / "bad.tsv").write_text(text, encoding="utf-8")
    with pytest.raises(BPELensError, match=message.replace("(", r"\(")):
        read_table(tmp_path / "bad.tsv")


def test_corrupt_parquet_tables(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    cfg = make_config("gpt2")
    write_parquet(tmp_path / "good.parquet", {"a": 2, "b": 1}, [(0, 0), (0, 1)], cfg)
    data = (tmp_path / "good.parquet").read_bytes()
    (tmp_path / "cut.parquet").write_bytes(data[: len(data) // 2])
    with pytest.raises(BPELensError, match=r"cut.parquet: not a readable Parquet table"):
        read_table(tmp_path / "cut.parquet")
    pq.write_table(pa.table({"token": ["a"], "count": [1]}), tmp_path / "cols.parquet")
    with pytest.raises(BPELensError, match=r"cols.parquet: the table has no word column \(columns: token, count\)"):
        read_table(tmp_path / "cols.parquet")
    pq.write_table(pa.table({"word": ["a", "b"], "count": [1.5, 2.0]}), tmp_path / "float.parquet")
    with pytest.raises(BPELensError, match=r"float.parquet: the count column holds double, not integers"):
        read_table(tmp_path / "float.parquet")
    pq.write_table(pa.table({"word": ["a", None], "count": [1, 2]}), tmp_path / "null.parquet")
    with pytest.raises(BPELensError, match=r"null.parquet: the word column has 1 empty values"):
        read_table(tmp_path / "null.parquet")
    t = pa.table({"word": ["a"], "count": [1]}).replace_schema_metadata({b"bpe_lens": b"{not json"})
    pq.write_table(t, tmp_path / "meta.parquet")
    with pytest.raises(BPELensError, match=r"meta.parquet: unreadable BPE Lens metadata"):
        read_table(tmp_path / "meta.parquet")
    r = cli("train", tmp_path / "cut.parquet", "--preset", "gpt2", "-o", tmp_path / "v.json")
    assert r.returncode == 2 and r.stderr.startswith(
        "bpe-lens-cli train: error: cut.parquet: not a readable Parquet table")


def test_rows_from_another_tool_are_put_in_first_seen_order(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"word": ["b", "a", "c"], "count": [1, 2, 3], "file": [0, 0, 1],
                             "offset": [9, 4, 0]}), tmp_path / "spark.parquet")
    table = read_table(tmp_path / "spark.parquet")
    assert list(table.counts) == ["a", "b", "c"] and table.config is None


def test_a_table_with_other_files_is_refused(tmp_path):
    cfg = make_config("gpt2")
    write_parquet(tmp_path / "c.parquet", {"a": 1}, [(0, 0)], cfg)
    with pytest.raises(BPELensError, match="c.parquet: a word-count table trains alone"):
        count_words_in_files([tmp_path / "c.parquet", need("tinyshakespeare.txt")], cfg)
    check_table_config("c.parquet", read_table(tmp_path / "c.parquet"), make_config("gpt2", vocab_size=5))  # same words


@pytest.mark.parametrize("suffix, opener", [(".gz", gzip.open), (".bz2", bz2.open), (".xz", lzma.open)])
def test_compressed_inputs_count_as_the_plain_file(tmp_path, suffix, opener):
    src = need("tinyshakespeare.txt")
    packed = tmp_path / ("shakespeare.txt" + suffix)
    with opener(packed, "wb") as f:
        f.write(src.read_bytes())
    cfg = make_config("gpt2")
    plain, _ = count_local([src], cfg, workers=2, chunk=1 << 16)
    counts, _ = count_local([packed, src], cfg, workers=2, chunk=1 << 16)
    assert list(counts) == list(plain) and counts == {w: 2 * n for w, n in plain.items()}


def test_zstandard_missing_names_the_extra(tmp_path, monkeypatch):
    path = tmp_path / "s.txt.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 20)
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import zstandard raises ImportError
    with pytest.raises(BPELensError) as err:
        count_words_in_files([path], make_config("gpt2"))
    assert str(err.value) == "s.txt.zst: Zstandard-compressed; reading it needs the zstd extra: pip install 'bpe-lens[zstd]'"


def test_zstandard_input(tmp_path):
    src = need("tinyshakespeare.txt")
    path = tmp_path / "s.txt.zst"
    zstandard = pytest.importorskip("zstandard", reason="the zstd extra is not installed")
    data, zc = src.read_bytes(), zstandard.ZstdCompressor()
    path.write_bytes(zc.compress(data[:400_000]) + zc.compress(data[400_000:]))  # two frames
    cfg = make_config("gpt2")
    assert list(count_local([path], cfg, workers=1)[0].items()) == list(count_words_in_files([src], cfg).items())
    (tmp_path / "cut.zst").write_bytes(path.read_bytes()[:5000])
    with pytest.raises(BPELensError, match=r"cut.zst: corrupt zstd data \(the last frame is truncated\)"):
        count_words_in_files([tmp_path / "cut.zst"], cfg)


def test_jsonl_field_counts_each_record_as_a_text(tmp_path):
    lines = need("tinyshakespeare.txt").read_text(encoding="utf-8").split("\n\n")
    with gzip.open(tmp_path / "docs.jsonl.gz", "wt", encoding="utf-8") as f:
        for i, text in enumerate(lines):
            f.write(json.dumps({"id": i, "text": text}) + "\n")
    cfg = make_config("gpt2")
    pre, expected = get_pretokenizer(cfg), Counter()
    for text in lines:
        expected.update(pre.words(text))  # as Trainer.from_texts / tokenizers' train_from_iterator
    counts, _ = count_local([tmp_path / "docs.jsonl.gz"], cfg, text_field="text", workers=2, chunk=1 << 14)
    assert list(counts.items()) == list(expected.items())
    r = cli("count", tmp_path / "docs.jsonl.gz", "--field", "text", "--preset", "gpt2", "-q",
            "-o", tmp_path / "c.parquet")
    assert r.returncode == 0, r.stderr
    assert list(read_table(tmp_path / "c.parquet").counts.items()) == list(expected.items())
    r = cli("count", tmp_path / "docs.jsonl.gz", "--field", "body", "--preset", "gpt2", "-o", tmp_path / "d.parquet")
    assert r.returncode == 2 and "docs.jsonl.gz: the JSON line at byte 0: no field 'body'" in r.stderr
    (tmp_path / "bad.jsonl").write_text('{"text": "a"}\n{"text": \n', encoding="utf-8")
    r = cli("count", tmp_path / "bad.jsonl", "--field", "text", "--preset", "gpt2", "-o", tmp_path / "e.parquet")
    assert r.returncode == 2 and "bad.jsonl: the JSON line at byte 14: Expecting value" in r.stderr


def test_cuts_fall_only_at_safe_places(tmp_path):
    path = tmp_path / "line.txt"
    path.write_bytes(b"ab cd\xc3\xa9 ef\n" + b"x" * 70_000 + b" y\nz")
    with open(path, "rb") as f:
        assert find_cut(f, 1, at_space=True) == 2  # before the space after "b"
        assert find_cut(f, 3, at_space=True) == 11  # "\xa9 " is no cut (not ASCII): after the "\n"
        assert find_cut(f, 13, at_space=False) == 70_014  # after the second "\n", past a window
        assert find_cut(f, 13, at_space=True) == 70_011  # before the space after the last "x"
        assert find_cut(f, 70_015, at_space=True) is None
    cfg = make_config("gpt2")
    blocks = list(plan_blocks([path], cfg, chunk=4))
    assert all(isinstance(b, Block) for b in blocks) and blocks[-1].end == path.stat().st_size
    assert [b.start for b in blocks[1:]] == [b.end for b in blocks[:-1]]


def test_count_errors_are_one_line(tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "blank.txt").write_bytes(b"  \n\n")
    (tmp_path / "bin.txt").write_bytes(b"abc\0def")
    for name, message in (("empty.txt", "empty.txt: the file is empty"),
                          ("blank.txt", "blank.txt: the file contains only whitespace"),
                          ("bin.txt", "bin.txt: looks like a binary file (NUL byte at byte 3)")):
        r = cli("count", tmp_path / name, "--preset", "gpt2", "-o", tmp_path / "c.parquet")
        assert r.returncode == 2 and r.stderr.strip() == f"bpe-lens-cli count: error: {message}, not text".replace(
            "empty, not text", "empty").replace("whitespace, not text", "whitespace"), r.stderr
    r = cli("count", tmp_path / "blank.txt", "--preset", "gpt2", "--scheduler", "tcp://x:1", "-o", tmp_path / "c.parquet")
    assert r.returncode == 2 and "--scheduler needs --engine dask" in r.stderr
    r = cli("count", tmp_path / "nope*.txt", "--preset", "gpt2", "-o", tmp_path / "c.parquet")
    assert r.returncode == 2 and "no file matches this pattern" in r.stderr


def test_parts_merged_in_any_order_give_the_first_seen_order():
    """What Dask does: blocks finish in any order and are reduced in a tree; sorting by first
    appearance must still give sequential counting's order."""
    import random

    from bpe_core.corpus.blocks import count_block_part, merge_parts, ordered
    cfg, paths = make_config("byte-ascii"), three_files()
    parts = [count_block_part(b, cfg) for b in plan_blocks(paths, cfg, chunk=1 << 16)]
    random.Random(13).shuffle(parts)
    tree = [merge_parts(parts[i:i + 3]) for i in range(0, len(parts), 3)]
    counts, firsts = ordered(merge_parts(tree[::-1]))
    assert list(counts.items()) == list(count_words_in_files(paths, cfg).items())
    assert firsts == sorted(firsts)
