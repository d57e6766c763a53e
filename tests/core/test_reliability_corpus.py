"""Corpora of any size and shape, and processes that never outlive their parent (issue 14).

Each test names the input class it proves in docs/reliability.md ("Corpora, processes and cancelling").
"""
from __future__ import annotations

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
    """NLTK's 5 s regex limit fires on corpora of a few MB (load dependent); a limit of 0.1 ms
    makes the same failure certain on 300 kB. Our Punkt has none and still equals NLTK's words."""
    from nltk import redos, sent_tokenize, wordpunct_tokenize

    text = _shakespeare(300_000)
    expected = [t for s in sent_tokenize(text) for t in wordpunct_tokenize(s)]  # NLTK, default limit
    corpus = tmp_path / "c.txt"
    corpus.write_text(text, encoding="utf-8")
    monkeypatch.setattr(redos, "DEFAULT_TIMEOUT", 0.0001)
    with pytest.raises(TimeoutError):
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
