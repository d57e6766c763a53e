"""Corpora of any size and shape, and processes that never outlive their parent (issue 14).

Each test names the input class it proves in docs/reliability.md ("Corpora, processes and cancelling").
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bpe_core import make_config
from bpe_core.corpus.counting import count_words

from .paths import find

TINYSHAKESPEARE = "tinyshakespeare.txt"


def _shakespeare(size: int) -> str:
    text = find(TINYSHAKESPEARE).read_text(encoding="utf-8")
    return (text * (size // len(text) + 1))[:size]


def test_nltk_wordpunct_has_no_time_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          nltk_with_our_tables: None) -> None:
    """NLTK's 5 s regex limit fires on corpora of a few MB (load dependent); a limit of 0.1 s makes
    its whole-text scan fail on 1.1 MB for certain (per-token matches take microseconds). Our Punkt
    has no limit and still gives NLTK's words."""
    from nltk import redos, sent_tokenize, wordpunct_tokenize

    text = _shakespeare(1_100_000)
    expected = [t for s in sent_tokenize(text) for t in wordpunct_tokenize(s)]  # NLTK, default limit
    corpus = tmp_path / "c.txt"
    corpus.write_text(text, encoding="utf-8")
    monkeypatch.setattr(redos, "DEFAULT_TIMEOUT", 0.1)
    import nltk.tokenize.punkt as nltk_punkt

    if hasattr(nltk_punkt, "redos"):  # NLTK >= 3.10.4 limits Punkt's scans; 3.10.3 (our lowest) has no limit
        with pytest.raises(TimeoutError, match="a potential sentence ending"):
            sent_tokenize(text)
    counts = count_words(corpus, make_config("nltk-wordpunct"))
    assert sum(counts.values()) == len(expected)
    assert list(counts) == list(dict.fromkeys(expected))


@pytest.mark.slow
def test_nltk_wordpunct_on_6_mb(tmp_path: Path) -> None:
    """A 6 MB corpus: above the size where NLTK's 5 s limit fires under load."""
    corpus = tmp_path / "c.txt"
    corpus.write_text(_shakespeare(6_000_000), encoding="utf-8")
    counts = count_words(corpus, make_config("nltk-wordpunct"))
    assert counts["the"] > 25_000 and sum(counts.values()) > 1_300_000


@pytest.mark.parametrize("reader", ["count", "read_text", "iter_lines"])
def test_a_fifo_is_refused_before_reading(tmp_path: Path, reader: str) -> None:
    """Opening a FIFO blocks until a writer comes: it is refused at once, with one clear line."""
    import os

    from bpe_core.corpus.counting import iter_lines, read_text
    from bpe_core.types import BPELensError

    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    calls = {"count": lambda: count_words(fifo, make_config("gpt2")), "read_text": lambda: read_text(fifo),
             "iter_lines": lambda: list(iter_lines(fifo))}
    with pytest.raises(BPELensError, match=r"^pipe\.txt: is a named pipe \(FIFO\), not a regular file; "):
        calls[reader]()


def test_a_character_device_is_refused() -> None:
    from bpe_core.types import BPELensError

    with pytest.raises(BPELensError, match=r"^zero: is a character device, not a regular file"):
        count_words("/dev/zero", make_config("gpt2"))


# -- processes ---------------------------------------------------------------------------------------
def _descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc: psutil is not a dependency)."""
    import os

    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if fields[0] not in (b"Z", b"X"):
                children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _running(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X"):
                    alive.add(pid)
        except OSError:
            pass
    return alive


_COUNT_SCRIPT = """
import sys
from bpe_core import make_config
from bpe_core.corpus.counting import count_words
def said(p, done=[]):
    if not done:
        done.append(1); print("counting", flush=True)
count_words(sys.argv[1], make_config("gpt2"), workers=2, progress=said)
print("finished", flush=True)
"""


@pytest.fixture(scope="module")
def big_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.txt"
    path.write_text(_shakespeare(40_000_000), encoding="utf-8")
    return path


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_no_worker_outlives_a_killed_parent(big_corpus: Path, sig: str) -> None:
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-c", _COUNT_SCRIPT, str(big_corpus)], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "counting\n"
        deadline = time.monotonic() + 20
        while len(family := _descendants(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # workers start on the first submitted block
        # the two workers (forked: a script with no other thread), and with forkserver/spawn the server too
        assert len(family) >= 2, family
        proc.send_signal(getattr(signal, sig))
        proc.wait(10)
        deadline = time.monotonic() + 5
        while _running(family) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(family), f"still running after {sig} of their parent: {_running(family)}"
    finally:
        proc.kill()
        proc.wait()


def test_training_from_a_script_on_stdin(tmp_path: Path) -> None:
    """``python - < script.py``: forkserver/spawn would re-import '<stdin>' and fail; the merges are
    right, with no traceback and no warning."""
    import subprocess
    import sys

    from bpe_core import Trainer

    corpus = tmp_path / "c.txt"
    corpus.write_text(_shakespeare(3_000_000), encoding="utf-8")
    script = ("import warnings; warnings.simplefilter('error')\n"
              "from bpe_core import Trainer, make_config\n"
              f"t = Trainer.from_corpus({str(corpus)!r}, make_config('gpt2', num_merges=20))\n"
              "t.run(merges=20)\nprint(t.model().merges)\n")
    out = subprocess.run([sys.executable, "-"], input=script, cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    here = Trainer(count_words(corpus, make_config("gpt2"), workers=1), make_config("gpt2", num_merges=20))
    here.run(merges=20)
    assert out.stdout == f"{here.model().merges}\n"


@pytest.mark.parametrize("delay", [0.3, 0.45, 0.6, 1.2])
def test_ctrl_c_while_the_pool_starts_is_one_line(big_corpus: Path, tmp_path: Path, delay: float) -> None:
    """The terminal sends SIGINT to the whole process group: workers ignore it, the CLI says one line."""
    import os
    import signal
    import subprocess
    import sys
    import time

    cli = Path(sys.executable).with_name("bpe-lens-cli")
    if not cli.exists():
        pytest.skip("bpe-lens-cli is not installed beside this Python")
    proc = subprocess.Popen([str(cli), "train", str(big_corpus), "--preset", "gpt2", "-q", "-o",
                             str(tmp_path / "out.json")], stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        err = proc.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:  # a hang: no process of the group is left running after the test
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"bpe-lens-cli did not end within 60 s of Ctrl+C at {delay} s")
    assert proc.returncode == 130
    assert [line for line in err.splitlines() if line.strip()] == ["interrupted"], err


# -- one huge line --------------------------------------------------------------------------------
def _one_line(size: int) -> str:
    """Real text of every kind (English, WikiText's ' @-@ ' and numbers, Chinese) on ONE line."""
    parts = [find(TINYSHAKESPEARE), find("wikitext-2-raw/wiki.valid.raw"), find("chinese/sanguo_yanyi.txt")]
    text = " ".join(p.read_text(encoding="utf-8-sig") for p in parts if p.exists())
    text = text.replace("\r", " ").replace("\n", " ")
    return (text * (size // len(text) + 1))[:size]


def _cut_safe() -> list[str]:
    from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS

    return [name for name, pre in PRETOKENIZERS.items() if pre.cut_at_space]


@pytest.mark.parametrize("name", _cut_safe())
def test_a_single_line_cut_in_blocks_counts_as_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     name: str) -> None:
    """Cut every 4 kB (hundreds of cuts, each before a space after [A-Za-z0-9]): same counts, same order."""
    from bpe_core.corpus import counting
    from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
    from bpe_core.types import TrainerConfig

    text = _one_line(400_000)
    corpus = tmp_path / "line.txt"
    corpus.write_text(text, encoding="utf-8")
    monkeypatch.setattr(counting, "BLOCK_BYTES", 4096)
    got = count_words(corpus, TrainerConfig(pretokenizer=name), workers=1)
    expected = dict(Counter(PRETOKENIZERS[name].words(text)))
    assert list(got.items()) == list(expected.items())


@pytest.mark.parametrize("workers", [1, 2])
def test_a_5_mb_single_line_counts_as_whole(tmp_path: Path, workers: int) -> None:
    from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
    from bpe_core.types import TrainerConfig

    text = _one_line(5_000_000)
    corpus = tmp_path / "line.txt"
    corpus.write_text(text, encoding="utf-8")
    got = count_words(corpus, TrainerConfig(pretokenizer="gpt2"), workers=workers)
    assert list(got.items()) == list(Counter(PRETOKENIZERS["gpt2"].words(text)).items())


def test_a_user_pattern_is_never_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's regex may match across a space ('a b'): its lines stay whole."""
    from bpe_core.corpus import counting
    from bpe_core.types import TrainerConfig

    corpus = tmp_path / "line.txt"
    corpus.write_text("a b " * 10_000, encoding="utf-8")
    monkeypatch.setattr(counting, "BLOCK_BYTES", 64)
    assert count_words(corpus, TrainerConfig(pretokenizer="regex", pattern=r"a b"), workers=1) == {"a b": 10_000}


@pytest.mark.parametrize("workers", [1, 2])
def test_cancel_while_reading_a_huge_line_returns_fast(tmp_path: Path, workers: int) -> None:
    """The app cancels within 100 ms, also inside one 40 MB line (bound here: 1 s, for loaded machines)."""
    import threading
    import time

    from bpe_core.types import Cancelled, TrainerConfig

    corpus = tmp_path / "line.txt"
    corpus.write_text(_one_line(40_000_000), encoding="utf-8")
    asked: list[float] = []
    started = threading.Event()

    def progress(_p: object) -> None:
        if not started.is_set():
            started.set()
            threading.Timer(0.2, lambda: asked.append(time.monotonic())).start()

    with pytest.raises(Cancelled):
        count_words(corpus, TrainerConfig(pretokenizer="gpt2"), workers=workers, progress=progress,
                    cancel=lambda: bool(asked))
    assert asked, "counting finished before the cancel"
    assert time.monotonic() - asked[0] < 1.0
