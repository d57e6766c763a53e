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


def test_the_gpt2_figures_quoted_in_the_parity_section_are_the_goldens():
    """The premiums, the cost and the Gini the doc quotes for GPT-2 come from tokenizers' counts in the golden."""
    import json
    from bpe_core.analysis.measures import TextSize, parity, parity_gini, text_measures
    golden = json.loads((DOC.parents[1] / "tests" / "data" / "measures" / "renyi_gpt2_parallel.json")
                        .read_text(encoding="utf-8"))
    files = [c for c in golden["texts"] if "bytes" in c]
    costs = {c["name"]: c["tokens"] for c in files}
    premium = parity(costs, "eng")
    text = dict(SECTIONS)["Parity (tokenization premium)"]
    quoted = {"deu": "German", "jpn": "Japanese", "zho": "Chinese", "rus": "Russian", "hin": "Hindi", "tha": "Thai",
              "kat": "Georgian", "tam": "Tamil"}
    for code, name in quoted.items():
        assert f"{name} {premium[code]:.2f}×" in text
    assert f"English costs {costs['eng']:,} tokens" in text and f"is {parity_gini(costs):.3f}" in text
    tam = next(c for c in files if c["name"] == "tam")
    m = text_measures({int(k): v for k, v in tam["counts"].items()}, TextSize(tam["bytes"], tam["chars"], tam["words"]))
    assert f"at\n{m.bytes_per_token:.2f} bytes per token" in text
    assert f"{m.tokens_per_100_chars:.0f}\n  tokens per 100 characters" in DOC.read_text(encoding="utf-8")
