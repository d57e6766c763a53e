"""Every bad input of the formats and the CLI ends in one line on stderr and exit 2, before any
work, and never replaces an input. Each case asserts the exact message (docs/reliability.md)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core.cli.commands import main
from bpe_core.formats.detect import open_vocabulary, write_vocabulary
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(capsys, *argv: str) -> str:
    code, _, err = run(capsys, *argv)
    prefix = f"bpe-lens-cli {argv[0]}: error: "  # issue 25: the line names the program and the subcommand
    assert code == 2 and err.count("\n") == 1 and err.startswith(prefix), err
    return err[len(prefix):].rstrip("\n")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    p = tmp_path / "c.txt"
    p.write_text("the lower newest widest low low lower\n" * 20, encoding="utf-8")
    return p


def train(corpus: Path, *extra: str):
    return ("train", str(corpus), "--preset", "gpt2", "--merges", "5", "-q", *extra)


# -- outputs: checked before any work, an output never replaces an input --------------------------
def test_output_is_the_corpus(capsys, corpus: Path) -> None:
    before = corpus.read_bytes()
    assert one_error(capsys, *train(corpus, "-o", str(corpus))) == \
        f"{corpus}: is an input of this command; an output never replaces an input"
    link, hard = corpus.with_name("link.json"), corpus.with_name("hard.json")
    link.symlink_to(corpus)
    os.link(corpus, hard)
    for out in (link, hard):
        assert one_error(capsys, *train(corpus, "-o", str(out))).endswith("an output never replaces an input")
    assert corpus.read_bytes() == before and link.is_symlink()


@pytest.mark.parametrize("out, message", [
    ("", "the output path is empty"),
    ("/proc/x.json", "/proc/x.json: is under /proc, a system folder; choose a path in your own folders"),
    ("/sys/x.json", "/sys/x.json: is under /sys, a system folder; choose a path in your own folders"),
    ("{tmp}", "{tmp}: is a folder, expected a file path"),
    ("{tmp}/no/v.json", "{tmp}/no/v.json: folder {tmp}/no does not exist"),
])
def test_bad_output_fails_before_training(capsys, corpus: Path, monkeypatch, out: str, message: str) -> None:
    import bpe_core.corpus.files as files

    def no_counting(*a, **k):
        raise AssertionError("counting started before the output was checked")

    monkeypatch.setattr(files, "count_words_in_files", no_counting)
    tmp = str(corpus.parent)
    assert one_error(capsys, *train(corpus, "-o", out.format(tmp=tmp))) == message.format(tmp=tmp)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_folder(capsys, corpus: Path) -> None:
    ro = corpus.parent / "ro"
    ro.mkdir(mode=0o555)
    assert one_error(capsys, *train(corpus, "-o", str(ro / "v.json"))) == \
        f"{ro / 'v.json'}: folder {ro} is not writable"


def test_convert_never_replaces_its_input(capsys, tmp_path: Path) -> None:
    model = BPEModel(unit="bytes", tokens=[b"a", b"b", b"ab"], merges=[(0, 1)])
    write_vocabulary(model, tmp_path, "vocab-merges")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert one_error(capsys, "convert", str(tmp_path / "vocab.json"), str(tmp_path), "--to", "vocab-merges") == \
        f"{tmp_path / 'vocab.json'}: is an input of this command; an output never replaces an input"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_symlinked_output_is_written_through(capsys, corpus: Path) -> None:
    target = corpus.with_name("real.json")
    target.write_text("old", encoding="utf-8")
    link = corpus.with_name("link.json")
    link.symlink_to(target)
    assert run(capsys, *train(corpus, "-o", str(link)))[0] == 0
    assert link.is_symlink() and len(open_vocabulary(target).merges) == 5


# -- numbers and patterns ---------------------------------------------------------------------------
@pytest.mark.parametrize("flag, value, message", [
    ("--min-word-count", "-3", "min word count must be 0 or more, not -3"),
    ("--min-frequency", "-1", "min frequency must be 0 or more, not -1"),
    ("--vocab-size", "-5", "vocab size must be 0 or more, not -5"),
    ("--merges", "-2", "num merges must be 0 or more, not -2"),
])
def test_negative_numbers_are_refused(capsys, corpus: Path, flag: str, value: str, message: str) -> None:
    out = corpus.with_name("v.json")
    assert one_error(capsys, *train(corpus, "-o", str(out), flag, value)) == message
    assert not out.exists()


def test_pattern_that_finds_no_words(capsys, tmp_path: Path) -> None:
    corpus = tmp_path / "h.txt"
    corpus.write_text("hello world\n", encoding="utf-8")
    assert one_error(capsys, *train(corpus, "-o", str(tmp_path / "v.json"), "--pattern", "x*")) == \
        f"{corpus.name}: the pre-tokenizer 'regex' found no words"


def test_inspect_negative_top(capsys, tmp_path: Path) -> None:
    write_vocabulary(BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)]), tmp_path / "v.json", "native")
    assert one_error(capsys, "inspect", str(tmp_path / "v.json"), "--top", "-1") == "--top must be 0 or more, not -1"


# -- encode -----------------------------------------------------------------------------------------
def test_encode_text_with_an_undecodable_byte(tmp_path: Path) -> None:
    vocab = tmp_path / "v.json"
    write_vocabulary(BPEModel(unit="bytes", tokens=[b"a", b"b", b"ab"], merges=[(0, 1)]), vocab, "native")
    env = dict(os.environ, PYTHONPATH=str(ROOT), LC_ALL="C.UTF-8")
    argv = [os.fsencode(sys.executable), b"-m", b"bpe_core", b"encode", b"--vocab", os.fsencode(vocab),
            b"--text", b"ab\xffcd"]
    proc = subprocess.run(argv, capture_output=True, env=env)
    assert proc.returncode == 2 and proc.stderr == b"bpe-lens-cli encode: error: --text: not valid UTF-8 at byte 2\n"


def test_encode_says_which_characters_it_dropped(capsys, tmp_path: Path) -> None:
    vocab = tmp_path / "v.json"
    write_vocabulary(BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)]), vocab, "native")
    code, out, err = run(capsys, "encode", "--vocab", str(vocab), "--text", "abxaé")
    assert code == 0 and out == "ab(2) a(0)\n"
    assert err == 'warning: dropped 2 span(s) with no token in this vocabulary: "x", "\\u00e9"\n'
    code, out, _ = run(capsys, "encode", "--vocab", str(vocab), "--text", "abx", "--json")
    assert out == '{"ids": [2], "tokens": ["ab"], "unknown": [{"start": 2, "end": 3, "text": "x"}]}\n'


# -- vocabulary files: each class of damage is one line ---------------------------------------------
def native(vocab, merges=(), **extra) -> str:
    import json
    return json.dumps({"format": "bpe-lens", "version": 1, "unit": "chars", "vocab": vocab,
                       "merges": merges if isinstance(merges, dict) else list(merges), **extra})


# JSON that Python's json cannot take (a RecursionError, a ValueError past 4,300 digits): one line
DEEP = "[" * 100_000 + "]" * 100_000
LONG = "7" * 5000
TOO_DEEP = ": the JSON is too deeply nested (more than 100 levels of [ and {): a corrupt or hostile file"


def too_long(name: str, content: str) -> str:
    start = content.index("-" + LONG) if "-" + LONG in content else content.index(LONG)  # where the number starts
    return (f"{name}: a number with 5000 digits at line 1 column {start + 1}: too long for an id "
            "or a count (a corrupt or hand-edited file)")


def nested_pre_tokenizer(depth: int) -> str:
    import json
    pre: dict = {"type": "ByteLevel", "add_prefix_space": False}
    for _ in range(depth):
        pre = {"type": "Sequence", "pretokenizers": [pre]}
    return json.dumps({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "pre_tokenizer": pre})


_LONG_NATIVE = native({"a": 0, "b": 1}).replace('"b": 1', '"b": ' + LONG)
_LONG_HF = '{"model": {"type": "BPE", "vocab": {"a": -' + LONG + '}, "merges": []}}'
JSON_TOO_MUCH = [
    ("n.json", DEEP, "n.json" + TOO_DEEP),
    ("n.json", _LONG_NATIVE, too_long("n.json", _LONG_NATIVE)),
    ("tokenizer.json", _LONG_HF, too_long("tokenizer.json", _LONG_HF)),
    ("tokenizer.json", nested_pre_tokenizer(150), "tokenizer.json" + TOO_DEEP),
    ("vocab.json", '{"a": ' + LONG + "}", too_long("vocab.json", '{"a": ' + LONG + "}")),
    ("freqs.json", "[" * 5000 + "]" * 5000, "freqs.json" + TOO_DEEP),
]


@pytest.mark.parametrize("name, content, message", [
    ("n.json", native([]), 'n.json: "vocab" is a JSON array, expected an object'),
    ("n.json", native({"a": 0}, merges={}), 'n.json: "merges" is a JSON object, expected an array'),
    ("n.json", native({"a": 0, "b": 10**12}), "n.json: id 1000000000000 is far beyond its 2 entries "
                                                 "(a corrupt or hand-edited file)"),
    ("n.json", native({"a": 0, "b": 0}), 'n.json: id 0 is given to two tokens in "vocab"'),
    ("n.json", native({"a": 0, "b": "1"}), "n.json: token 'b' has a bad id '1'"),
    ("n.json", native({"a": 0, "b": True}), "n.json: token 'b' has a bad id True"),
    ("n.json", native({"a": 0, "b": 1}, [["a", 7]]), "n.json: merge 1 is not [left, right, count]"),
    ("n.json", native({"a": 0}, specials={"<s>": 5}), "n.json: special token '<s>' has id 5, which the vocab "
                                                        "gives to 'no token'"),
    ("n.json", native({"a": 0}, config=[1]), 'n.json: "config" is a JSON array, expected an object'),
    ("vocab.json", '{"a": 0, "b": 1000000000000}', "vocab.json: id 1000000000000 is far beyond its 2 entries "
                                                    "(a corrupt or hand-edited file)"),
    ("vocab.json", '{"a": 0, "b": 0}', "vocab.json: id 0 is given to two entries of the vocabulary"),
    ("tokenizer.json", '{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [], "unk_token": 3}}',
     "tokenizer.json: model.unk_token is 3, not a string"),
    ("r.tiktoken", "YQ== 0\nYg== 0\n", "r.tiktoken line 2: rank 0 is already given on line 1"),
    ("r.tiktoken", "YQ== 0\nYQ== 1\n", "r.tiktoken line 2: token YQ== already has rank 0 (line 1)"),
    ("r.tiktoken", "YQ== 0\nYg== 99999999999\n", "r.tiktoken: id 99999999999 is far beyond its 2 entries "
                                                  "(a corrupt or hand-edited file)"),
    ("r.tiktoken", "YQ== 0\nYg== -1\n", "r.tiktoken line 2 is not 'base64 rank': 'Yg== -1'"),
    ("latin1.txt", "caf\xe9 1\n", "latin1.txt: not valid UTF-8 at byte 3 (BPE Lens reads UTF-8 vocabulary files)"),
    *JSON_TOO_MUCH,
])
def test_damaged_vocabulary_is_one_line(capsys, tmp_path: Path, monkeypatch, name, content, message) -> None:
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes(content.encode("latin-1" if name == "latin1.txt" else "utf-8"))
    if name == "vocab.json":
        Path("merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    with pytest.raises(BPELensError) as err:
        open_vocabulary(name, pattern=r"\w+")
    assert str(err.value) == message
    for command in (["inspect", name, "--pattern", r"\w+"], ["convert", name, "out.json", "--to", "native",
                                                              "--pattern", r"\w+"]):
        assert one_error(capsys, *command) == message
    assert not Path("out.json").exists()


@pytest.mark.parametrize("content, message", [(DEEP, "vocab.json" + TOO_DEEP),
                                              ('{"a": ' + LONG + "}", too_long("vocab.json", '{"a": ' + LONG + "}"))])
def test_every_command_reading_a_vocabulary_says_what_json_it_cannot_take(capsys, tmp_path: Path, monkeypatch,
                                                                          content: str, message: str) -> None:
    """Through merges.txt (the reader finds vocab.json beside it) and through each command that reads one."""
    monkeypatch.chdir(tmp_path)
    Path("vocab.json").write_text(content, encoding="utf-8")
    Path("merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    write_vocabulary(BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)]), tmp_path / "ok.json", "native")
    for vocab, said in (("vocab.json", message), ("merges.txt", "merges.txt: " + message)):
        for command in (["encode", "--vocab", vocab, "--text", "ab"], ["explain", "--vocab", vocab, "--text", "ab"],
                        ["diff", vocab, "ok.json"], ["diff", "ok.json", vocab], ["inspect", vocab]):
            assert one_error(capsys, *command) == said, command


def test_the_cli_process_exits_2_with_one_line_on_deeply_nested_json(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text(DEEP, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "bpe_core", "encode", "--vocab", "deep.json", "--text", "ab"],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (2, "bpe-lens-cli encode: error: deep.json" + TOO_DEEP + "\n")


def test_a_jsonl_corpus_line_json_cannot_take_is_one_line(capsys, tmp_path: Path) -> None:
    deep, long = tmp_path / "d.jsonl", tmp_path / "n.jsonl"
    deep.write_text('{"text": "hello"}\n' + DEEP + "\n", encoding="utf-8")
    long.write_text('{"text": "hello", "n": ' + LONG + "}\n", encoding="utf-8")
    for corpus, message in ((deep, "d.jsonl: the JSON line at byte 18" + TOO_DEEP),
                            (long, "n.jsonl: the JSON line at byte 0: a number with 5000 digits at line 1 column 24: "
                                   "too long for an id or a count (a corrupt or hand-edited file)")):
        out = tmp_path / "t.tsv"
        assert one_error(capsys, "count", str(corpus), "--field", "text", "--preset", "gpt2", "-q",
                         "-o", str(out)) == message
        assert not out.exists()


# -- UTF-16 is said to be UTF-16, with how to convert it (issue 23, finding 22) ----------------------------
UTF16 = [("\ufeffthe lower newest\n".encode("utf-16-le"), "UTF-16 (little-endian, with a byte-order mark)", "UTF-16"),
         ("\ufeffthe lower newest\n".encode("utf-16-be"), "UTF-16 (big-endian, with a byte-order mark)", "UTF-16"),
         ("\ufeff你好，世界\n".encode("utf-16-le"), "UTF-16 (little-endian, with a byte-order mark)", "UTF-16"),
         ("the lower newest\n".encode("utf-16-le") * 9, "UTF-16 (little-endian, no byte-order mark)", "UTF-16LE"),
         ("the lower newest\n".encode("utf-16-be") * 9, "UTF-16 (big-endian, no byte-order mark)", "UTF-16BE"),
         ("\ufeffthe lower\n".encode("utf-32-le"), "UTF-32 (little-endian, with a byte-order mark)", "UTF-32")]


def utf16_message(path: Path, seen: str, iconv: str, shown: str = "") -> str:
    out = path.with_name(f"{path.stem}-utf8{path.suffix}")
    return (f"{shown or path.name}: {seen} text, not UTF-8; BPE Lens reads UTF-8 text: convert it with  "
            f"iconv -f {iconv} -t UTF-8 {path} > {out}")


@pytest.mark.parametrize("data, seen, iconv", UTF16)
def test_a_utf16_corpus_is_said_to_be_utf16_with_how_to_convert(capsys, tmp_path: Path, data, seen, iconv) -> None:
    corpus = tmp_path / "notes.txt"
    corpus.write_bytes(data)
    out = tmp_path / "v.json"
    assert one_error(capsys, *train(corpus, "-o", str(out))) == utf16_message(corpus, seen, iconv)
    assert one_error(capsys, "count", str(corpus), "--preset", "gpt2", "-q", "-o", str(tmp_path / "t.tsv")) == \
        utf16_message(corpus, seen, iconv)
    assert not out.exists() and not (tmp_path / "t.tsv").exists()


def test_the_conversion_said_works(capsys, tmp_path: Path) -> None:
    import shlex
    import shutil

    if shutil.which("iconv") is None:
        pytest.skip("no iconv here")
    corpus = tmp_path / "notes.txt"
    corpus.write_bytes(("\ufeff" + "the lower newest widest low low lower\n" * 20).encode("utf-16-le"))
    command = one_error(capsys, *train(corpus, "-o", str(tmp_path / "v.json"))).split("convert it with  ")[1]
    subprocess.run(command, shell=True, check=True)
    converted = Path(shlex.split(command)[-1])
    assert run(capsys, *train(converted, "-o", str(tmp_path / "v.json")))[0] == 0


def test_a_compressed_utf16_corpus_is_decompressed_first_in_the_command(capsys, tmp_path: Path) -> None:
    import gzip

    corpus = tmp_path / "notes.txt.gz"
    corpus.write_bytes(gzip.compress("\ufeffthe lower\n".encode("utf-16-le")))
    assert one_error(capsys, *train(corpus, "-o", str(tmp_path / "v.json"))) == \
        ("notes.txt.gz: UTF-16 (little-endian, with a byte-order mark) text, not UTF-8; BPE Lens reads UTF-8 text: "
         f"convert it with  zcat {corpus} | iconv -f UTF-16 -t UTF-8 > {tmp_path / 'notes-utf8.txt'}")


def test_a_big_utf16_corpus_read_in_ranges_is_said_alike(capsys, tmp_path: Path) -> None:
    corpus = tmp_path / "big.txt"
    corpus.write_bytes(("\ufeff" + "the lower newest widest low low lower\n" * 60_000).encode("utf-16-le"))
    assert one_error(capsys, "count", str(corpus), "--preset", "gpt2", "-q", "--workers", "2",
                     "-o", str(tmp_path / "t.tsv")) == utf16_message(corpus, *UTF16[0][1:])


@pytest.mark.parametrize("name, text", [("tokenizer.json", '{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}'),
                                        ("r.tiktoken", "YQ== 0\nYg== 1\n"),
                                        ("n.json", native({"a": 0, "b": 1}))])
def test_a_utf16_vocabulary_is_said_to_be_utf16(capsys, tmp_path: Path, monkeypatch, name: str, text: str) -> None:
    monkeypatch.chdir(tmp_path)
    Path(name).write_bytes(("\ufeff" + text).encode("utf-16-le"))
    message = utf16_message(Path(name), "UTF-16 (little-endian, with a byte-order mark)", "UTF-16")
    with pytest.raises(BPELensError) as err:
        open_vocabulary(name)
    assert str(err.value) == message
    assert one_error(capsys, "encode", "--vocab", name, "--text", "ab") == message


def test_a_utf16_partner_file_is_said_to_be_utf16(tmp_path: Path) -> None:
    (tmp_path / "vocab.json").write_bytes('\ufeff{"a": 0, "b": 1, "ab": 2}'.encode("utf-16-le"))
    (tmp_path / "merges.txt").write_text("#version: 0.2\na b\n", encoding="utf-8")
    with pytest.raises(BPELensError) as err:
        open_vocabulary(tmp_path / "merges.txt")
    assert str(err.value).endswith(utf16_message(tmp_path / "vocab.json", "UTF-16 (little-endian, with a byte-order "
                                                                          "mark)", "UTF-16", shown="vocab.json"))


# -- sizes and patterns that would train silently to nothing (issue 23, finding 22) ---------------------
@pytest.mark.parametrize("preset, size, message", [
    ("gpt2", "0", "vocab size 0 is below the 257 tokens training starts with (every byte and 1 special token); "
                  "no merge would be learned: give a vocab size of 257 or more (257 + the merges you want)"),
    ("byte-ascii", "255", "vocab size 255 is below the 256 tokens training starts with (every byte); no merge would "
                          "be learned: give a vocab size of 256 or more (256 + the merges you want)"),
])
def test_a_vocab_size_below_the_bytes_is_refused_before_counting(capsys, corpus: Path, monkeypatch, preset, size,
                                                                   message) -> None:
    import bpe_core.corpus.files as files

    monkeypatch.setattr(files, "count_words_in_files", lambda *a, **k: pytest.fail("counted before refusing"))
    out = corpus.with_name("v.json")
    argv = ("train", str(corpus), "--preset", preset, "--vocab-size", size, "-q", "-o", str(out))
    assert one_error(capsys, *argv) == message and not out.exists()


def test_a_vocab_size_below_the_alphabet_is_refused_after_counting(capsys, corpus: Path) -> None:
    out = corpus.with_name("v.json")
    argv = ("train", str(corpus), "--preset", "char-hf", "--vocab-size", "5", "-q", "-o", str(out))
    assert one_error(capsys, *argv) == ("vocab size 5 is below the 11 tokens training starts with (the corpus's "
                                        "alphabet); no merge would be learned: give a vocab size of 11 or more "
                                        "(11 + the merges you want)")
    assert not out.exists()


def test_a_vocab_size_equal_to_the_start_trains_zero_merges_as_asked(capsys, corpus: Path) -> None:
    out = corpus.with_name("v.json")
    assert run(capsys, "train", str(corpus), "--preset", "gpt2", "--vocab-size", "257", "-q", "-o", str(out))[0] == 0
    assert open_vocabulary(out).merges == []


def test_continuing_below_the_vocabulary_is_refused(capsys, corpus: Path) -> None:
    base, out = corpus.with_name("base.json"), corpus.with_name("more.json")
    assert run(capsys, *train(corpus, "-o", str(base)))[0] == 0
    assert one_error(capsys, "train", str(corpus), "--from", str(base), "--vocab-size", "100", "-q",
                     "-o", str(out)) == ("vocab size 100 is below the 262 tokens training starts with (the vocabulary "
                                         "it continues); no merge would be learned: give a vocab size of 262 or more "
                                         "(262 + the merges you want)")
    assert not out.exists()


@pytest.mark.parametrize("argv, flag", [
    (("train", "{corpus}", "--preset", "gpt2", "--merges", "5", "--pattern", "", "-o", "{out}"), "--pattern"),
    (("train", "{corpus}", "--preset", "gpt2", "--merges", "5", "--pretokenizer", "regex", "--pattern", "",
      "-o", "{out}"), "--pattern"),
    (("count", "{corpus}", "--preset", "gpt2", "--pattern", "", "-o", "{out}"), "--pattern"),
    (("encode", "--vocab", "{vocab}", "--text", "ab", "--pattern", ""), "--pattern"),
    (("diff", "{vocab}", "{vocab}", "--pattern-a", ""), "--pattern-a"),
])
def test_an_empty_pattern_is_refused(capsys, corpus: Path, argv, flag) -> None:
    vocab, out = corpus.with_name("ok.json"), corpus.with_name("v.json")
    write_vocabulary(BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)]), vocab, "native")
    filled = [a.format(corpus=corpus, out=out, vocab=vocab) for a in argv]
    assert one_error(capsys, *filled) == f"{flag} is empty: give a regular expression, or leave the option out"
    assert not out.exists()


def test_encode_file_in_utf16_is_said_not_encoded_with_nuls(capsys, tmp_path: Path) -> None:
    vocab, text = tmp_path / "v.json", tmp_path / "t.txt"
    write_vocabulary(BPEModel(unit="bytes", tokens=[b"a", b"b", b"ab"], merges=[(0, 1)]), vocab, "native")
    text.write_bytes("abab\n".encode("utf-16-le") * 4)  # no byte-order mark: valid UTF-8, full of NULs
    assert one_error(capsys, "encode", "--vocab", str(vocab), "--file", str(text)) == \
        utf16_message(text, "UTF-16 (little-endian, no byte-order mark)", "UTF-16LE", shown=str(text))


def test_a_vocabulary_that_is_a_pipe_is_refused_not_waited_on(capsys, tmp_path: Path) -> None:
    """A FIFO given as a vocabulary (or as the merges.txt beside a vocab.json) blocked forever in open()."""
    fifo = tmp_path / "v.json"
    os.mkfifo(fifo)
    said = f"{fifo}: is not a regular file (a pipe, a device or a socket); a vocabulary is read from a file"
    assert one_error(capsys, "inspect", str(fifo)) == said
    pair = tmp_path / "pair"
    pair.mkdir()
    (pair / "vocab.json").write_text('{"a": 0, "b": 1, "ab": 2}', encoding="utf-8")
    os.mkfifo(pair / "merges.txt")
    assert one_error(capsys, "inspect", str(pair / "vocab.json")) == \
        f"{pair / 'vocab.json'}: merges.txt is not a regular file (a pipe, a device or a socket); " \
        "a vocabulary is read from a file"
