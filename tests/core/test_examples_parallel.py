"""The parallel text shipped with the app (resources/examples/parallel, the example "How fair is this
tokenizer?"): a real parallel text (the same lines in every language), at least 8 languages of at least 5
scripts, each file byte for byte the excerpt of NTREX-128 in tests/data/parallel (its provenance), credited
with its licence in resources/examples/README.md, and listed in pyproject's package data so a wheel has it.

The scripts are recomputed from the letters (tests/core/test_parallel_data.py's ``script_shares``: the
Unicode character names), not read from the library under test.
"""
from __future__ import annotations

import hashlib

from bpe_core import resources

from .paths import ROOT
from .test_packaging import SETUP
from .test_parallel_data import PARALLEL, manifest, script_shares, units

SHIPPED = ROOT / "resources" / "examples" / "parallel"
README = ROOT / "resources" / "examples" / "README.md"


def shipped_files():
    return sorted(p for p in SHIPPED.iterdir() if p.suffix == ".txt")


def test_the_app_finds_the_shipped_parallel_text():
    assert resources.resource("examples", "parallel").is_dir()
    assert [p.name for p in sorted(resources.resource("examples", "parallel").glob("*.txt"))] == \
        [p.name for p in shipped_files()]


def test_at_least_eight_languages_of_at_least_five_scripts():
    files = shipped_files()
    assert len(files) >= 8
    main = {p.stem: script_shares(p.read_text(encoding="utf-8")).most_common(1)[0][0] for p in files}
    assert len(set(main.values())) >= 5, main


def test_it_is_a_parallel_text_same_lines_in_every_language():
    lines = {p.stem: units(p.read_bytes()) for p in shipped_files()}
    counts = {lang: len(u) for lang, u in lines.items()}
    assert len(set(counts.values())) == 1, counts
    n = next(iter(counts.values()))
    for i in range(n):  # a line empty in one language is empty in all (a document break), never shifted
        assert len({not u[i].strip() for u in lines.values()}) == 1, i
    # the 4-digit numbers of each English line reappear in the same line of most languages
    import re
    eng = lines["eng"]
    for i, line in enumerate(eng):
        for number in re.findall(rb"\b\d{4}\b", line):
            found = sum(number in u[i] for lang, u in lines.items() if lang != "eng")
            assert found >= (len(lines) - 1) // 2, (i, number)


def test_each_file_is_the_ntrex_excerpt_byte_for_byte():
    rows = {r["file"]: r for r in manifest()}
    for p in shipped_files():
        data = p.read_bytes()
        assert p.name in rows, p
        assert hashlib.sha256(data).hexdigest() == rows[p.name]["sha256"] == \
            hashlib.sha256((PARALLEL / p.name).read_bytes()).hexdigest()


def test_the_readme_credits_the_source_and_licence_of_every_file():
    text = README.read_text(encoding="utf-8")
    for needed in ("NTREX-128", "CC BY-SA 4.0", "MicrosoftTranslator/NTREX",
                   "8561f6a622db9edad1217683e5c83daefd8bb2bf", "Federmann", "How fair is this tokenizer?"):
        assert needed in text, needed
    for p in shipped_files():
        assert f"`parallel/{p.name}`" in text, p.name


def test_the_wheel_lists_them_as_package_data():
    assert "bpe_lens_resources.examples.parallel" in SETUP["packages"]
    assert "*.txt" in SETUP["package-data"]["bpe_lens_resources.examples.parallel"]
