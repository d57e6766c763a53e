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


@pytest.mark.parametrize("title, needed", [
    ("Curves over vocabulary size", ("run_curves(", "model_curves(", "merges_limit", "file:", "script:")),
    ("Token biography", ("token_biography(", "LiteToken", "PickyBPE", "Magikarp", "likely residue")),
    ("How fair is this tokenizer?", ("File → Examples", "Petrov", "run_curves(", "parity_gini", "Foroutan")),
])
def test_the_curves_biography_and_example_sections(title, needed):
    """Issue 27's sections: each has worked examples (run by the test above) calling the library, and cites
    its sources."""
    text = dict(SECTIONS)[title]
    assert doctest.DocTestParser().get_examples(text)
    for word in needed:
        assert word in text, word


def test_how_to_read_quotes_the_examples_figures():
    """The figures "How to read the curves" quotes (Tamil's drift, Rényi's peak) round the worked example's
    outputs in "How fair is this tokenizer?" (which the doctest checks)."""
    fair, read = dict(SECTIONS)["How fair is this tokenizer?"], dict(SECTIONS)["How to read the curves"]
    tam = re.search(r'at\("parity", "file:tam"\)\n\[([^\]]*)\]', fair).group(1).split(", ")
    assert f"falls from {float(tam[0]):.2f} to {float(tam[1]):.2f} in\n  100 merges" in read
    assert f"climbs back to {float(tam[-1]):.2f} by merge 2,000" in read
    peak = re.search(r"^\((\d+), 0\.\d+\)$", fair, flags=re.M).group(1)
    assert f"peaks at merge\n  {peak}." in read


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
