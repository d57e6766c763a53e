"""docs/measures.md: its worked examples (doctests) run, one test per section after the shared setup, and every
measure of bpe_core.analysis.measures has its section with its source paper."""
from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "measures.md"
TEXT = DOC.read_text(encoding="utf-8")
SETUP, *PARTS = re.split(r"^## ", TEXT, flags=re.M)
SECTIONS = [(p.splitlines()[0].strip(), p) for p in PARTS]


def _run(text: str, name: str, globs: dict) -> tuple:
    """The examples of ``text`` run with ``globs``: (their results, the names they leave)."""
    test = doctest.DocTestParser().get_doctest(text, globs, f"measures.md: {name}", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, clear_globs=False)
    return runner.summarize(verbose=False), test.globs


@pytest.mark.parametrize("title, text", SECTIONS, ids=[t for t, _ in SECTIONS])
def test_the_sections_examples_run(title, text):
    setup, globs = _run(SETUP, "setup", {})
    assert setup.failed == 0 and setup.attempted >= 5
    assert _run(text, title, globs)[0].failed == 0


@pytest.mark.parametrize("title, paper", [
    ("Bytes per token", "Gallé"), ("Tokens per 100 characters and tokens per word", "Rust et al."),
    ("Rényi efficiency", "Zouhar et al."), ("Parity (tokenization premium)", "Petrov"),
    ("Gini coefficient of the per-language costs", "Gini"), ("Used, dead and under-used tokens", "Magikarp"),
])
def test_each_measure_has_a_worked_example_and_its_source(title, paper):
    text = dict(SECTIONS)[title]
    assert paper in text and doctest.DocTestParser().get_examples(text)


def test_the_doc_says_how_to_read_the_curves():
    assert "How to read the curves" in dict(SECTIONS)
