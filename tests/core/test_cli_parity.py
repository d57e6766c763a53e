"""The CLI trains with every setting the app's dialog has, on several files as on their concatenation,
encodes text from --text, --file or a pipe, shows progress as a bar only on a terminal, and ends each
command's --help with examples."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from bpe_core import __version__, resources
from bpe_core.cli.progress import ProgressBar
from bpe_core.corpus.counting import count_words
from bpe_core.corpus.files import count_words_in_files, expand_paths
from bpe_core.presets import PRESETS, make_config
from bpe_core.types import BPELensError, Progress

LINES = resources.default_corpus().read_text(encoding="utf-8").splitlines(keepends=True)[:3000]


def cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "bpe_core", *map(str, args)], capture_output=True, text=True,
                          input=stdin, timeout=300)


@pytest.fixture(scope="module")
def split_corpus(tmp_path_factory):
    """The first 3,000 lines of the default corpus whole, and cut into three files (at line ends)."""
    folder = tmp_path_factory.mktemp("split")
    (folder / "all.txt").write_text("".join(LINES), encoding="utf-8")
    for name, part in (("a.txt", LINES[:700]), ("b.txt", LINES[700:1900]), ("c.txt", LINES[1900:])):
        (folder / name).write_text("".join(part), encoding="utf-8")
    return folder


@pytest.mark.parametrize("preset", list(PRESETS))
def test_several_files_count_as_their_concatenation(split_corpus, preset):
    config = make_config(preset)
    whole = count_words(split_corpus / "all.txt", config)
    parts = count_words_in_files(expand_paths([str(split_corpus / "[abc].txt")]), config)
    assert list(parts.items()) == list(whole.items())  # counts and first-appearance order


@pytest.mark.parametrize("preset", ["nltk-wordpunct", "gpt2", "char-hf"])
def test_training_on_several_files_gives_the_same_merges(split_corpus, tmp_path, preset):
    one, many = tmp_path / "one.json", tmp_path / "many.json"
    r = cli("train", split_corpus / "all.txt", "--preset", preset, "--merges", "150", "-q", "-o", one)
    assert r.returncode == 0, r.stderr
    r = cli("train", split_corpus / "a.txt", split_corpus / "[bc].txt", "--preset", preset, "--merges", "150",
            "-q", "-o", many)
    assert r.returncode == 0, r.stderr
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (one, many))
    assert a["merges"] == b["merges"] and a["vocab"] == b["vocab"] and len(a["merges"]) == 150


def test_every_dialog_setting_has_a_flag(split_corpus, tmp_path):
    out = tmp_path / "v.json"
    r = cli("train", split_corpus / "a.txt", "--preset", "char-whitespace", "--pattern", r"\w+|[^\w\s]+",
            "--unit", "chars", "--suffix", "</w>", "--lowercase", "--special", "<pad>", "--special", "<eos>",
            "--merges", "40", "--min-frequency", "2", "--tie-break", "hf", "-q", "-o", out)
    assert r.returncode == 0, r.stderr
    cfg = json.loads(out.read_text(encoding="utf-8"))["config"]
    assert (cfg["pretokenizer"], cfg["pattern"], cfg["unit"], cfg["end_of_word_suffix"]) == (
        "regex", r"\w+|[^\w\s]+", "chars", "</w>")
    assert cfg["lowercase"] is True and cfg["special_tokens"] == ["<pad>", "<eos>"]
    assert (cfg["num_merges"], cfg["min_frequency"], cfg["tie_break"]) == (40, 2, "hf")
    r = cli("train", split_corpus / "a.txt", "--preset", "hf-course", "--no-lowercase", "--pretokenizer",
            "whitespace", "--unit", "bytes", "--merges", "5", "-q", "-o", out)
    assert r.returncode == 0, r.stderr
    cfg = json.loads(out.read_text(encoding="utf-8"))["config"]
    assert cfg["lowercase"] is False and cfg["pretokenizer"] == "whitespace" and cfg["unit"] == "bytes"


@pytest.mark.parametrize("args, message", [
    (["--pattern", "("], "invalid pre-tokenizer pattern"),
    (["--pretokenizer", "regex"], "needs a pattern"),
    (["--pretokenizer", "gpt2", "--pattern", "a"], "--pattern needs --pretokenizer regex"),
    (["--unit", "bytes", "--suffix", "</w>"], "suffix"),
    (["--pretokenizer", "nonsense"], "invalid choice"),
])
def test_bad_settings_are_one_line_and_exit_2(split_corpus, tmp_path, args, message):
    r = cli("train", split_corpus / "a.txt", "--preset", "char-hf", *args, "-o", tmp_path / "v.json")
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.returncode == 2 and len(lines) == 1 and message in lines[0], r.stderr


def test_a_glob_that_matches_nothing_is_an_error(tmp_path):
    r = cli("train", tmp_path / "none*.txt", "--preset", "gpt2", "-o", tmp_path / "v.json")
    assert r.returncode == 2 and "no file matches" in r.stderr and "Traceback" not in r.stderr
    with pytest.raises(BPELensError, match="no file matches"):
        expand_paths([str(tmp_path / "*.nothing")])


@pytest.fixture(scope="module")
def vocab(split_corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("vocab") / "v.json"
    r = cli("train", split_corpus / "a.txt", "--preset", "gpt2", "--merges", "100", "-q", "-o", out)
    assert r.returncode == 0, r.stderr
    return out


def test_encode_reads_text_file_or_standard_input(vocab, tmp_path):
    text = "It is a truth universally acknowledged,\r\nthat a single man"
    by_text = cli("encode", "--vocab", vocab, "--text", text, "--json")
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode("utf-8"))  # CRLF kept: the file is encoded exactly
    by_file = cli("encode", "--vocab", vocab, "--file", path, "--json")
    by_pipe = subprocess.run([sys.executable, "-m", "bpe_core", "encode", "--vocab", str(vocab), "--json"],
                             input=text.encode("utf-8"), capture_output=True, timeout=300)
    assert by_text.returncode == by_file.returncode == by_pipe.returncode == 0, by_pipe.stderr
    ids = json.loads(by_text.stdout)["ids"]
    assert json.loads(by_file.stdout)["ids"] == ids == json.loads(by_pipe.stdout)["ids"]
    r = cli("encode", "--vocab", vocab, "--text", "a", "--file", path)
    assert r.returncode == 2 and "not allowed" in r.stderr


def test_progress_is_a_bar_on_a_terminal_and_one_line_in_a_log():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    log, term = io.StringIO(), Terminal()
    for stream in (log, term):
        with ProgressBar("merging", stream=stream) as bar:
            for done in range(0, 101, 10):
                bar(Progress(done, 100, "merges"))
    assert log.getvalue() == "merging: 100.0% 100/100 merges\n"
    assert "\r" in term.getvalue() and "100/100" in term.getvalue()
    failed = io.StringIO()
    with pytest.raises(RuntimeError):
        with ProgressBar("counting", stream=failed) as bar:
            bar(Progress(5, 10))
            raise RuntimeError("the error message is the only line")
    assert failed.getvalue() == ""


def test_train_logs_no_carriage_returns(split_corpus, tmp_path):
    r = cli("train", split_corpus / "a.txt", "--preset", "char-hf", "--merges", "20", "-o", tmp_path / "v.json")
    assert r.returncode == 0 and "\r" not in r.stderr
    assert "counting: 100.0%" in r.stderr and "merging: 100.0% 20/20 merges" in r.stderr


@pytest.mark.parametrize("command", ["train", "encode", "inspect", "convert", "replay"])
def test_help_ends_with_examples(command):
    r = cli(command, "--help")
    tail = r.stdout.rstrip().splitlines()[-4:]
    assert r.returncode == 0 and "examples:" in r.stdout
    assert sum(line.strip().startswith("bpe-lens-cli " + command) for line in tail) >= 2


def test_version():
    r = cli("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"bpe-lens-cli {__version__}"
