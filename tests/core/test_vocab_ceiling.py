"""The "at most" of a PickyBPE run's label is the core's arithmetic (brief S3, finding 4): a PickyBPE run
stopping at a number of merges ends with at most its vocabulary at merge 0 plus its merges (each merge adds a
token, each removal takes one out), kept beside :attr:`TrainingRun.vocab_target`; the app only words it."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from bpe_core.presets import make_config
from bpe_core.workbench import RunCorpus, TrainingRun

APP_VARIANTS_PANE = Path(__file__).resolve().parents[2] / "app" / "features" / "variants" / "pane.py"


@pytest.fixture
def corpus(tmp_path):
    r = random.Random(3)
    words = "the cat sat on a mat and dog ran in year of big red old new house river".split()
    path = tmp_path / "c.txt"
    path.write_text("\n".join(" ".join(r.choice(words) for _ in range(8)) for _ in range(200)) + "\n",
                    encoding="utf-8")
    return RunCorpus((str(path),))


@pytest.mark.parametrize("settings, ceiling", [
    (dict(variant="picky", ios_threshold=0.6, num_merges=40), 257 + 40),  # the merges end first: at most that
    (dict(variant="picky", ios_threshold=0.6, num_merges=40, vocab_size=280), None),  # the size comes first
    (dict(variant="picky", ios_threshold=0.6, num_merges=40, vocab_size=400), 257 + 40),
    (dict(variant="picky", ios_threshold=0.6, vocab_size=300), None),  # no number of merges: the size is its end
    (dict(num_merges=40), None),  # plain BPE: its end is known exactly (vocab_target)
])
def test_a_picky_run_says_the_most_tokens_it_ends_with(corpus, settings, ceiling):
    run = TrainingRun.open("r1", corpus, make_config("gpt2", **settings))
    assert run.timeline.initial_vocab == 257
    assert run.vocab_ceiling == ceiling
    run.timeline.step(40)
    if ceiling is not None:  # and it holds: the vocabulary never passes it
        assert run.timeline.vocab_size <= ceiling


def test_the_app_holds_no_ceiling_arithmetic():
    text = APP_VARIANTS_PANE.read_text(encoding="utf-8")
    assert "initial_vocab" not in text and "def picky_ceiling" not in text
