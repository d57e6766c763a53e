"""A catastrophic ``--pattern`` (``(a+)+$`` on a long run of ``a`` and a ``b``): warned of when it is set,
stopped with a clear error when one line runs past the time allowed, and Cancel reaches it.

No wall-clock assertions: the time allowed is injected small, and a line of 1,000 ``a`` (3.6 s to split
unguarded, 2,000: 34 s, the cube of the length) shows the guard is what ends the call.
"""
from __future__ import annotations

import time

import pytest

from bpe_core import Encoder, Trainer, make_config
from bpe_core.cli.commands import main
from bpe_core.corpus.counting import count_block, count_words
from bpe_core.pretokenize import guard
from bpe_core.pretokenize.guard import PatternTimeout, nested_quantifiers, pattern_warnings
from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS, TIKTOKEN_PATTERNS
from bpe_core.types import BPELensError, Cancelled

BAD = r"(a+)+$"
LINE = "a" * 1000 + "b"


@pytest.mark.parametrize("pattern, found", [
    (BAD, [(0, "(a+)+")]),
    (r"^(\w+\s?)*$", [(1, r"(\w+\s?)*")]),
    (r"x(?:[ab]*c)+", [(1, "(?:[ab]*c)+")]),
    (r"((a|b)+){2,}", [(0, "((a|b)+){2,}")]),
    (r"(?P<w>\d+)*", [(0, r"(?P<w>\d+)*")]),
    (r"(a+)?", []),          # an optional group repeats nothing
    (r"(a{2})+", []),        # a fixed count inside
    (r"(a++)+", []),         # possessive inside
    (r"(?>a+)+", []),        # atomic
    (r"(a+)++", []),         # possessive outside
    (r"[(a+)+]+", []),       # a class: only characters
    (r"\(a+\)+", []),        # escaped parentheses
    (r"\w+|[^\w\s]+", []),
])
def test_nested_quantifiers_are_found(pattern, found):
    assert nested_quantifiers(pattern) == found


def test_the_known_patterns_draw_no_warning():
    for name, pattern in TIKTOKEN_PATTERNS.items():
        assert pattern_warnings(pattern) == [], name
    assert all(pattern_warnings(p.pattern.pattern) == [] for p in PRETOKENIZERS.values()
               if p.pattern is not None)


def _corpus(tmp_path, text):
    path = tmp_path / "c.txt"
    path.write_text(text, "utf-8")
    return path


def test_the_command_line_warns_when_the_pattern_is_set(tmp_path, capsys):
    path = _corpus(tmp_path, "hello world\n" * 5)
    out = tmp_path / "v.json"
    assert main(["train", str(path), "--preset", "gpt2", "--pattern", r"(?:\w+)+", "--merges", "2", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "warning: the pattern '(?:\\\\w+)+' nests a quantifier at character 0" in err, err
    assert main(["count", str(path), "--preset", "gpt2", "--pattern", BAD, "-q", "-o", str(tmp_path / "c.tsv")]) in (0, 2)
    assert "warning: the pattern '(a+)+$' nests a quantifier at character 0 ('(a+)+')" in capsys.readouterr().err


def test_a_runaway_split_stops_with_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "PATTERN_SECONDS", 0.02)
    cfg = make_config("gpt2", pretokenizer="regex", pattern=BAD, num_merges=3)
    with pytest.raises(PatternTimeout, match=r"the split pattern '\(a\+\)\+\$' took over 0.025 s on one line "
                       r"\(1,001 characters, starting 'aaaa.*'\): it may backtrack catastrophically "
                       r"\(nested quantifier at character 0: '\(a\+\)\+'\)"):
        Trainer.from_texts([LINE], cfg)
    # counting a file names it (a block counts the same in the parent or in a worker process)
    with pytest.raises(BPELensError, match=r"^c.txt \(the lines from byte 0\): the split pattern"):
        count_block("c.txt", ("ok\n" + LINE + "\n").encode(), 0, cfg, "strict")
    from bpe_core.corpus.blocks import count_jsonl
    with pytest.raises(BPELensError, match=r"^d.jsonl: the JSON line at byte 15: the split pattern"):
        count_jsonl("d.jsonl", ('{"text": "aa"}\n{"text": "' + LINE + '"}\n').encode(), 0, cfg, "strict", "text")
    # an encoder of a vocabulary trained with the pattern splits through the same guard
    t = Trainer.from_texts(["aaaa"], cfg)
    t.run()
    with pytest.raises(PatternTimeout):
        Encoder(t.model()).encode_ids(LINE)


def test_a_linear_pattern_is_not_stopped_on_a_long_line(monkeypatch):
    monkeypatch.setattr(guard, "PATTERN_SECONDS", 0.02)  # the length still buys time: 200k characters a second
    cfg = make_config("gpt2", pretokenizer="regex", pattern=r"a+|b", num_merges=3)
    assert Trainer.from_texts(["a" * 400_000 + "b"], cfg).words == ["a" * 400_000, "b"]


def test_cancel_reaches_a_runaway_split_and_stops_its_worker(tmp_path):
    """A user pattern counts in a worker process even for a small file: the caller keeps polling its
    cancel while one regex call runs, and Cancel ends that worker (no CPU left burning)."""
    import multiprocessing

    path = _corpus(tmp_path, "a" * 3000 + "b\n")  # ~100 s unguarded; the guard's 10 s never comes
    cfg = make_config("gpt2", pretokenizer="regex", pattern=BAD, lowercase_words=True)  # wrapped: still guarded
    polls = []

    def cancel() -> bool:  # True once a worker is at it
        polls.append(1)
        return bool(multiprocessing.active_children())

    from bpe_core.corpus.engines import count_local
    for count in (lambda: count_words(path, cfg, cancel=cancel),  # train, the app
                  lambda: count_local([path], cfg, workers=1, cancel=cancel)):  # bpe-lens-cli count
        with pytest.raises(Cancelled):
            count()
        for _ in range(200):  # the worker is ended, not left to run out its time (~0.05 s a poll)
            if not multiprocessing.active_children():
                break
            time.sleep(0.05)
        assert multiprocessing.active_children() == []
