"""``bpe-lens-cli tokens``: the token biography's table, filter, order and CSV, and its one-line errors."""
from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest

from bpe_core.analysis.biography import biography_csv, select, token_biography
from bpe_core.cli.commands import main
from bpe_core.formats.detect import open_vocabulary

from .paths import need
from .test_biography import lines_of
from .test_exact_encoding import tiktoken_reference


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "wiki.txt"
    data = need("wikitext-2-raw/wiki.valid.raw").read_bytes()
    path.write_bytes(data[: data.index(b"\n", 200_000) + 1])
    return path


def test_table_on_stdout(capsys, corpus: Path) -> None:
    vocab = str(need("gpt2/tokenizer.json"))
    assert main(["tokens", vocab, "--corpus", str(corpus), "-q", "--filter", "never emitted", "--top", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"corpus: {corpus.stat().st_size} bytes, ")
    assert out[1].startswith("statuses: ok ") and "special 1" in out[1]
    assert out[2].startswith("never emitted: ") and out[2].endswith("tokens, the first 5:")
    assert out[3].split() == ["id", "token", "rank", "birth", "emitted", "residue", "IoS", "bytes", "status"]
    assert len(out) == 9 and all(line.endswith("never emitted") for line in out[4:])


def test_csv_is_the_filtered_sorted_biography(capsys, corpus: Path, tmp_path: Path) -> None:
    vocab = str(need("gpt2/tokenizer.json"))
    out = tmp_path / "bio.csv"
    argv = ["tokens", vocab, "--corpus", str(corpus), "--csv", str(out), "--filter", "likely residues",
            "--sort", "residue_ratio", "--reverse"]
    assert main(argv) == 0
    got = capsys.readouterr()
    bio = token_biography(open_vocabulary(vocab), [corpus])
    want = biography_csv(bio, select(bio, "likely residues", "residue_ratio", reverse=True))
    assert out.read_text(encoding="utf-8") == want and want.count("\n") > 10
    assert got.out == ""  # the CSV is the data; the figures are status
    assert f"{out}: {want.count(chr(10)) - 1} tokens written" in got.err and "statuses: " in got.err


def test_tiktoken_file_counts_equal_tiktoken(capsys, corpus: Path) -> None:
    """A .tiktoken vocabulary encodes by whole pieces first: the counts come from its encoder, = tiktoken's."""
    assert main(["tokens", str(need("tiktoken_ranks/r50k_base.tiktoken")), "--corpus", str(corpus), "-q",
                 "--csv", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    enc = tiktoken_reference("r50k_base")
    want: Counter = Counter()
    for line in lines_of(corpus):
        want.update(enc.encode_ordinary(line))
    assert {int(r["id"]): int(r["emitted"]) for r in rows if r["emitted"] != "0"} == dict(want)


@pytest.mark.parametrize("argv,message", [
    (["--top", "-1"], "--top takes a count of rows (0 or more), not -1"),
    (["--csv", "{corpus}"], "is an input of this command; an output never replaces an input"),
])
def test_bad_arguments_are_one_error_line(capsys, corpus: Path, argv, message) -> None:
    before = corpus.read_bytes()
    vocab = str(need("gpt2/tokenizer.json"))
    code = main(["tokens", vocab, "--corpus", str(corpus), "-q", *[a.format(corpus=corpus) for a in argv]])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("bpe-lens-cli tokens: error: ") and message in err
    assert corpus.read_bytes() == before


def test_bad_inputs_are_one_error_line(capsys, tmp_path: Path, corpus: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    vocab = str(need("gpt2/tokenizer.json"))
    for argv in (["tokens", str(bad), "--corpus", str(corpus)], ["tokens", vocab, "--corpus", str(empty)],
                 ["tokens", vocab, "--corpus", str(tmp_path / "missing.txt")]):
        assert main(argv + ["-q"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("bpe-lens-cli tokens: error: "), err


def test_the_vocabulary_goes_in_the_option_as_in_health_and_replay(capsys, corpus: Path, tmp_path: Path) -> None:
    """`health --vocab V CORPUS` and `replay --vocab V CORPUS` put the vocabulary in an option and the corpus
    last; `tokens` took them the other way round (`tokens V --corpus CORPUS`). Both forms now give the same table,
    and the older one keeps working for scripts that use it."""
    vocab = str(need("gpt2/tokenizer.json"))
    outs = []
    for argv in (["tokens", "--vocab", vocab, str(corpus)], ["tokens", vocab, "--corpus", str(corpus)],
                 ["tokens", "--vocab", vocab, "--corpus", str(corpus)]):
        assert main(argv + ["-q", "--top", "3"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == outs[2] and outs[0].startswith("corpus: ")
    assert main(["tokens", "--vocab", vocab, "-q"]) == 2
    assert "error: tokens needs a corpus: tokens --vocab VOCAB CORPUS..." in capsys.readouterr().err
    assert main(["tokens", "-q"]) == 2
    assert "error: tokens needs a vocabulary" in capsys.readouterr().err
