"""``bpe-lens-cli curves`` (issue 27): both forms (train CORPUS with --preset; a saved VOCAB's merge prefixes)
give the library's curves (model_curves called directly), as a table, a CSV or a Parquet table written through
the write gate; bad input is one error line; Ctrl+C writes nothing."""
from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest

from bpe_core.analysis import curves as curves_mod
from bpe_core.analysis.curves import CSV_HEADER, model_curves, read_eval_files
from bpe_core.cli.commands import main
from bpe_core.formats.detect import open_vocabulary
from bpe_core.formats.temps import TEMP_MARK

from .paths import need

PARALLEL = Path(__file__).resolve().parents[1] / "data" / "parallel"
LANGS = ("eng", "deu", "rus", "zho")
Key = Tuple[int, int, str, str]


def eval_files(*langs: str) -> List[str]:
    return [str(PARALLEL / f"{n}.txt") for n in (langs or LANGS)]


def rows_of_csv(text: str) -> Tuple[set, Dict[Key, float]]:
    """The run names and {(merge, vocab_size, group, measure): value} of a curves CSV."""
    reader = csv.reader(io.StringIO(text))
    assert tuple(next(reader)) == CSV_HEADER
    runs, rows = set(), {}
    for run, merge, size, group, measure, value in reader:
        runs.add(run)
        key = (int(merge), int(size), group, measure)
        assert key not in rows, key
        rows[key] = float(value)
    return runs, rows


def rows_of(curves) -> Dict[Key, float]:
    return {(r.merge, r.vocab_size, r.group, r.measure): r.value for r in curves.rows}


def assert_same(got: Dict[Key, float], want: Dict[Key, float]) -> None:
    assert got.keys() == want.keys()
    for k, v in want.items():
        assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-12) or (math.isnan(v) and math.isnan(got[k])), k


def run_cli(capsys, argv: Sequence[str]) -> Tuple[int, str, str]:
    code = main([str(a) for a in argv])
    got = capsys.readouterr()
    return code, got.out, got.err


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Training text: the parallel files of four languages, one after another (evaluated: three of them and
    Chinese, which it holds none of)."""
    path = tmp_path_factory.mktemp("corpus") / "train.txt"
    path.write_text("".join((PARALLEL / f"{n}.txt").read_text(encoding="utf-8") for n in ("eng", "deu", "rus", "ell")),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def vocab(corpus: Path) -> Path:
    path = corpus.parent / "v.json"
    assert main(["train", str(corpus), "--preset", "gpt2", "--vocab-size", "420", "-q", "-o", str(path)]) == 0
    return path


# -- the two forms = the library ----------------------------------------------------------------------------
def test_vocab_form_csv_is_model_curves(capsys, vocab: Path, tmp_path: Path) -> None:
    out = tmp_path / "curves.csv"
    code, stdout, err = run_cli(capsys, ["curves", vocab, "--eval", *eval_files(), "--every", 50, "--csv", out])
    assert code == 0, err
    runs, got = rows_of_csv(out.read_text(encoding="utf-8"))
    want = model_curves(open_vocabulary(str(vocab)), read_eval_files(eval_files()), 50, reference="eng")
    assert runs == {"v.json"}
    assert_same(got, rows_of(want))
    assert sorted({k[0] for k in got}) == [0, 50, 100, 150, 163]
    assert stdout == "" and f"{out}: {len(want.rows)} rows of run 'v.json'" in err


def test_training_form_is_train_then_model_curves(capsys, corpus: Path, vocab: Path, tmp_path: Path) -> None:
    """curves CORPUS --preset trains as `train` does: its curves = model_curves of train's vocabulary."""
    out = tmp_path / "run.csv"
    code, _, err = run_cli(capsys, ["curves", corpus, "--preset", "gpt2", "--vocab-size", 420, "--eval",
                                    *eval_files(), "--every", 40, "--reference", "deu", "--csv", out])
    assert code == 0, err
    assert "merging: 100.0% 163/163 merges" in err  # progress on stderr, one line per phase in a log
    runs, got = rows_of_csv(out.read_text(encoding="utf-8"))
    want = model_curves(open_vocabulary(str(vocab)), read_eval_files(eval_files()), 40, reference="deu")
    assert runs == {"gpt2"}
    assert_same(got, rows_of(want))
    assert [m for m, _ in want.series("bytes_per_token")] == [0, 40, 80, 120, 160, 163]
    assert got[(0, 257, "file:deu", "parity")] == 1.0


def test_table_on_stdout(capsys, vocab: Path) -> None:
    code, stdout, err = run_cli(capsys, ["curves", vocab, "--eval", *eval_files("eng", "rus"), "--every", 100,
                                         "-q"])
    assert code == 0 and err == ""
    lines = stdout.splitlines()
    assert lines[0] == "run v.json: every 100 merges on 2 evaluation file(s) (eng, rus), parity against eng"
    assert lines[1].split() == ["merge", "vocab", "bytes/token", "tokens/100", "chars", "tokens/word", "Rényi",
                                "2.5", "Gini", "used", "dead"]
    want = model_curves(open_vocabulary(str(vocab)), read_eval_files(eval_files("eng", "rus")), 100)
    merges = [m for m, _ in want.series("bytes_per_token")]
    assert [int(line.split()[0]) for line in lines[2:]] == merges == [0, 100, 163]
    for line, m in zip(lines[2:], merges):
        cells = line.split()
        assert float(cells[2]) == pytest.approx(want.value_at("bytes_per_token", m), abs=5e-4)
        assert float(cells[5]) == pytest.approx(want.value_at("renyi_efficiency", m), abs=5e-5)
        assert float(cells[6]) == pytest.approx(want.value_at("parity_gini", m), abs=5e-5)
        assert int(cells[7]) == want.value_at("used", m) and int(cells[8]) == want.value_at("dead", m)


def test_gpt2_tokenizer_json_prefixes(capsys, tmp_path: Path) -> None:
    gpt2 = need("gpt2/tokenizer.json")
    out = tmp_path / "gpt2.csv"
    code, _, err = run_cli(capsys, ["curves", gpt2, "--eval", *eval_files("eng", "deu", "zho"), "--every", 500,
                                    "--merges", 1200, "--csv", out])
    assert code == 0, err
    runs, got = rows_of_csv(out.read_text(encoding="utf-8"))
    want = model_curves(open_vocabulary(str(gpt2)), read_eval_files(eval_files("eng", "deu", "zho")), 500,
                        upto=1200)
    assert runs == {"tokenizer.json"} and sorted({k[0] for k in got}) == [0, 500, 1000, 1200]
    assert_same(got, rows_of(want))
    assert got[(1200, 256 + 1200 + 1, "all", "used")] > 0  # the vocabulary at 1200: bytes, merges, <|endoftext|>


@pytest.mark.parametrize("variant", [["--variant", "picky", "--ios-threshold", "0.6"],
                                     ["--variant", "superbpe", "--transition", "60"]], ids=["picky", "superbpe"])
def test_training_variants_as_train_takes_them(capsys, corpus: Path, tmp_path: Path, variant) -> None:
    out, saved = tmp_path / "v.csv", tmp_path / "v.json"
    code, _, err = run_cli(capsys, ["curves", corpus, "--preset", "gpt2", "--merges", 120, *variant, "--eval",
                                    *eval_files("eng", "rus"), "--every", 30, "--csv", out])
    assert code == 0, err
    runs, got = rows_of_csv(out.read_text(encoding="utf-8"))
    assert runs == {f"gpt2 {variant[1]}"}
    assert main(["train", str(corpus), "--preset", "gpt2", "--merges", "120", *variant, "-q", "-o", str(saved)]) == 0
    model = open_vocabulary(str(saved))
    last = max(k[0] for k in got)
    assert last == len(model.merges)
    if variant[1] == "picky":  # the run's vocabulary, removals and all, = the saved one's prefixes
        assert_same(got, rows_of(model_curves(model, read_eval_files(eval_files("eng", "rus")), 30)))
    else:  # the last merge: the whole SuperBPE vocabulary
        whole = model_curves(model, read_eval_files(eval_files("eng", "rus")), last)
        assert_same({k: v for k, v in got.items() if k[0] == last}, {k: v for k, v in rows_of(whole).items()
                                                                     if k[0] == last})


def test_parity_run(capsys, tmp_path: Path) -> None:
    out = tmp_path / "p.csv"
    code, _, err = run_cli(capsys, ["curves", "--preset", "gpt2", "--variant", "parity", "--parity-mode", "ratio",
                                    "--languages", PARALLEL, "--merges", 60, "--eval", *eval_files("eng", "rus"),
                                    "--every", 20, "--csv", out, "-q"])
    assert code == 0, err
    runs, got = rows_of_csv(out.read_text(encoding="utf-8"))
    assert runs == {"gpt2 parity"} and sorted({k[0] for k in got}) == [0, 20, 40, 60]
    assert {k[2] for k in got if k[3] == "parity"} == {"file:eng", "file:rus"}


# -- outputs: the gate, Parquet ------------------------------------------------------------------------------
def test_never_writes_over_an_input(capsys, corpus: Path, vocab: Path, tmp_path: Path) -> None:
    evals = tmp_path / "eval"
    evals.mkdir()
    (evals / "eng.txt").write_bytes((PARALLEL / "eng.txt").read_bytes())
    cases = [(["curves", vocab, "--eval", evals, "--every", 50], evals / "eng.txt"),  # a folder's file
             (["curves", vocab, "--eval", evals / "eng.txt", "--every", 50], vocab),
             (["curves", corpus, "--preset", "gpt2", "--merges", 5, "--eval", evals, "--every", 5], corpus)]
    for argv, target in cases:
        for flag in ("--csv", "--parquet"):
            before = target.read_bytes()
            code, out, err = run_cli(capsys, [*argv, flag, target])
            assert (code, out) == (2, "") and err == (f"bpe-lens-cli curves: error: {target}: is an input of this "
                                                      "command; an output never replaces an input\n")
            assert target.read_bytes() == before
    assert not [p for p in tmp_path.rglob("*") if TEMP_MARK in p.name]


def test_parquet_round_trip(capsys, vocab: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    argv = ["curves", vocab, "--eval", *eval_files("eng", "zho"), "--every", 60, "-q"]
    assert run_cli(capsys, [*argv, "--parquet", tmp_path / "c.parquet"])[0] == 0
    assert run_cli(capsys, [*argv, "--csv", tmp_path / "c.csv"])[0] == 0
    table = pq.read_table(tmp_path / "c.parquet")
    assert tuple(table.column_names) == CSV_HEADER
    runs, want = rows_of_csv((tmp_path / "c.csv").read_text(encoding="utf-8"))
    cols = table.to_pydict()
    got = {(m, s, g, me): v for m, s, g, me, v in zip(cols["merge"], cols["vocab_size"], cols["group"],
                                                      cols["measure"], cols["value"])}
    assert set(cols["run"]) == runs and len(got) == table.num_rows
    assert got == want  # the CSV's repr of each float reads back to the same number


def test_parquet_without_pyarrow_is_one_line(capsys, vocab: Path, tmp_path: Path, monkeypatch) -> None:
    import sys
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    out = tmp_path / "c.parquet"
    code, _, err = run_cli(capsys, ["curves", vocab, "--eval", *eval_files("eng"), "--every", 60, "--parquet", out])
    assert code == 2 and err == ("bpe-lens-cli curves: error: --parquet needs pyarrow (pip install "
                                 "bpe-lens[parquet]); or write --csv\n")
    assert not out.exists()


# -- bad input: one line, exit 2; Ctrl+C: 130, nothing written -------------------------------------------------
def test_bad_input_is_one_error_line(capsys, corpus: Path, vocab: Path, tmp_path: Path) -> None:
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9\n".encode("latin-1"))
    image = tmp_path / "image.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xd8")
    ev = eval_files("eng", "deu")
    cases = {
        "no eval": (["curves", vocab, "--every", 5], "the following arguments are required: --eval "
                                                    "(see 'bpe-lens-cli curves --help')"),
        "every 0": (["curves", vocab, "--eval", *ev, "--every", 0], "--every takes a number of merges, 1 or more, "
                                                                     "not 0"),
        "reference": (["curves", vocab, "--eval", *ev, "--every", 5, "--reference", "fra"],
                      "the reference language 'fra' is not among the evaluation texts ['eng', 'deu']"),
        "missing eval": (["curves", vocab, "--eval", tmp_path / "nope.txt", "--every", 5],
                         f"{tmp_path / 'nope.txt'}: no such file or folder"),  # the wording of every reader (issue 27)
        "not utf-8": (["curves", vocab, "--eval", bad, "--every", 5], "latin1.txt: not valid UTF-8 at byte 3 (0xE9)"),
        "binary eval": (["curves", vocab, "--eval", image, "--every", 5],
                        "image.png: looks like a binary file (NUL byte at byte 8), not text"),
        "vocab with a rule": (["curves", vocab, "--variant", "picky", "--eval", *ev, "--every", 5],
                              "--variant shapes a training run: give --preset NAME and CORPUS to train one (a saved "
                              "VOCAB is measured as it is)"),
        "vocab with two": (["curves", vocab, "--vocab-size", 300, "--tie-break", "hf", "--eval", *ev, "--every", 5],
                           "--vocab-size, --tie-break shape a training run: give --preset NAME and CORPUS to train one "
                           "(a saved VOCAB is measured as it is)"),
        "two without preset": (["curves", vocab, corpus, "--eval", *ev, "--every", 5],
                               "give one saved VOCAB to measure its merge prefixes, or CORPUS with --preset NAME to "
                               "train a run (got 2 arguments without --preset)"),
        "nothing": (["curves", "--eval", *ev, "--every", 5], "give one saved VOCAB to measure its merge prefixes, "
                    "or CORPUS with --preset NAME to train a run (got 0 arguments without --preset)"),
        "preset no corpus": (["curves", "--preset", "gpt2", "--eval", *ev, "--every", 5],
                             "give the training CORPUS (with --preset), or a saved VOCAB without --preset"),
        "rule flag": (["curves", corpus, "--preset", "gpt2", "--transition", 5, "--eval", *ev, "--every", 5],
                      "--transition is for --variant superbpe, not bpe"),
        "unreadable corpus": (["curves", tmp_path / "none.txt", "--preset", "gpt2", "--merges", 5, "--eval", *ev,
                               "--every", 5], None),
        "not a vocabulary": (["curves", bad, "--eval", *ev, "--every", 5], None),
        # a corpus given without --preset: say what to do (the user test met a bare "not a vocabulary format")
        "corpus without preset": (["curves", corpus, "--eval", *ev, "--every", 5],
                                  f"{corpus} is not a vocabulary; to train on it as a corpus give --preset "
                                  "(e.g. --preset gpt2)"),
    }
    for name, (argv, message) in cases.items():
        code, out, err = run_cli(capsys, argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (name, err)
        assert err.startswith("bpe-lens-cli curves: error: "), (name, err)
        if message is not None:
            assert err == f"bpe-lens-cli curves: error: {message}\n", name


def test_ctrl_c_writes_nothing(capsys, corpus: Path, tmp_path: Path, monkeypatch) -> None:
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(curves_mod, "run_curves", interrupted)
    out = tmp_path / "c.csv"
    code, stdout, err = run_cli(capsys, ["curves", corpus, "--preset", "gpt2", "--merges", 20, "--eval",
                                         *eval_files("eng"), "--every", 5, "--csv", out, "-q"])
    assert (code, stdout, err) == (130, "", "\ninterrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_help_says_how_corpus_and_vocab_are_told_apart(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["curves", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "With --preset, CORPUS is trained as `train` trains it" in text
    assert "without --preset, the one argument is a saved VOCAB" in text


def test_ctrl_c_in_a_real_process(vocab: Path, tmp_path: Path) -> None:
    """SIGINT (Ctrl+C) while the command waits for its evaluation text: exit 130, one line, nothing written."""
    import os
    import signal
    import subprocess
    import sys
    fifo, out = tmp_path / "eng.txt", tmp_path / "c.csv"
    os.mkfifo(fifo)
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "bpe_core", "curves", str(vocab), "--eval", str(fifo), "--every",
                             "5", "--csv", str(out)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=str(root)))
    try:
        with open(fifo, "w", encoding="utf-8") as w:  # returns once the command has opened it to read
            w.write("the tower ")
            w.flush()
            proc.send_signal(signal.SIGINT)
        # closed: a read blocked before the signal came gets its end now (the signal is delivered by the time
        # that read returns, and acted on at once), so the command cannot wait forever
        out_text, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert (proc.returncode, out_text, err.decode()) == (130, b"", "\ninterrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["eng.txt"]
