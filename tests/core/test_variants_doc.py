"""docs/variants.md: every worked example (doctest) runs, one test per section, so a failure names its variant."""
from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "variants.md"


def _sections():
    """(title, text) of each "## " section of the file."""
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return [(p.splitlines()[0].strip(), p) for p in parts]


SECTIONS = _sections()


@pytest.mark.parametrize("title, text", SECTIONS, ids=[t for t, _ in SECTIONS])
def test_the_sections_examples_run(title, text):
    test = doctest.DocTestParser().get_doctest(text, {}, f"variants.md: {title}", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_bpe_dropout_has_a_worked_example():
    text = dict(SECTIONS)["BPE-dropout"]
    assert len(doctest.DocTestParser().get_examples(text)) >= 5


def test_pickybpe_has_a_worked_example_over_the_trainer_and_its_files():
    text = dict(SECTIONS)["PickyBPE"]
    examples = doctest.DocTestParser().get_examples(text)
    sources = "".join(e.source for e in examples)
    assert len(examples) >= 12 and "variant=\"picky\"" in sources and "picky_text" in sources
    assert "write_vocabulary" in sources and "pchizhov/picky_bpe at commit" in text
