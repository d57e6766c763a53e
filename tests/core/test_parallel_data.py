"""The shipped parallel text (tests/data/parallel): present, intact, aligned, and of the scripts recorded.

The corpus is an excerpt of NTREX-128 (the same 96 lines of every language; provenance and licence in
tests/data/README.md, section "Parallel text"). ``MANIFEST.tsv`` beside the files records, for each
language, its file's SHA-256, line count and main script; these tests recompute all of it from the
bytes, with the script of each letter taken from its Unicode character name (``unicodedata``), so
that nothing here depends on the library under test.
"""
import csv
import hashlib
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

PARALLEL = Path(__file__).resolve().parents[1] / "data" / "parallel"
README = PARALLEL.parent / "README.md"
MANIFEST = PARALLEL / "MANIFEST.tsv"

# Letters whose name does not start with their script's name, or that belong to no one script.
_COMMON = {"KATAKANA-HIRAGANA", "MICRO", "MODIFIER", "FEMININE", "MASCULINE"}
_RENAMED = {"CJK": "Han", "IDEOGRAPHIC": "Han"}


def script_of(ch: str) -> str:
    """The script of the letter ``ch`` from its Unicode name ("" for letters shared by scripts)."""
    words = unicodedata.name(ch, "").split(" ")
    if words[0] in ("FULLWIDTH", "HALFWIDTH"):
        words = words[1:]
    head = words[0]
    if head in _COMMON:
        return ""
    return _RENAMED.get(head, head.title())


def script_shares(text: str) -> Counter:
    """How many letters of ``text`` each script has (marks, digits, punctuation and spaces not counted)."""
    counts = Counter(script_of(ch) for ch in text if unicodedata.category(ch).startswith("L"))
    counts.pop("", None)
    return counts


def units(data: bytes) -> list:
    """The aligned units of a file: its lines, each ended by CRLF as in the source."""
    assert data.endswith(b"\r\n"), "the excerpt ends with a whole line"
    return data[:-2].split(b"\r\n")


def manifest() -> list:
    with MANIFEST.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_manifest_lists_every_file_and_nothing_else():
    rows = manifest()
    listed = sorted(r["file"] for r in rows)
    on_disk = sorted(p.name for p in PARALLEL.glob("*.txt"))
    assert listed == on_disk
    assert len({r["lang"] for r in rows}) == len(rows)


def test_at_least_eight_languages_and_five_scripts():
    rows = manifest()
    assert len(rows) >= 8
    assert len({r["main_script"] for r in rows}) >= 5


@pytest.mark.parametrize("row", manifest(), ids=lambda r: r["lang"])
def test_file_is_the_recorded_bytes(row):
    data = (PARALLEL / row["file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == row["sha256"]
    assert len(data) == int(row["bytes"])
    assert 5_000 <= len(data) <= 40_000


@pytest.mark.parametrize("row", manifest(), ids=lambda r: r["lang"])
def test_file_is_utf8_without_bom_and_its_main_script_is_the_recorded_one(row):
    data = (PARALLEL / row["file"]).read_bytes()
    text = data.decode("utf-8")  # raises on invalid UTF-8
    assert not text.startswith("\ufeff")
    shares = script_shares(text)
    assert shares.most_common(1)[0][0] == row["main_script"]
    total = sum(shares.values())
    assert sorted(s for s, n in shares.items() if n / total >= 0.01) == sorted(row["scripts"].split(","))


def test_every_language_has_the_same_aligned_lines():
    rows = manifest()
    counts = {r["lang"]: len(units((PARALLEL / r["file"]).read_bytes())) for r in rows}
    assert set(counts.values()) == {int(rows[0]["lines"])}, counts
    assert all(int(r["lines"]) == counts[r["lang"]] for r in rows)


def test_no_line_is_empty_in_one_language_only():
    """An empty or whitespace-only line in some languages but not others would mean a shifted alignment."""
    by_lang = {r["lang"]: units((PARALLEL / r["file"]).read_bytes()) for r in manifest()}
    n = len(next(iter(by_lang.values())))
    for i in range(n):
        empty = {lang for lang, lines in by_lang.items() if not lines[i].strip()}
        assert not empty or empty == set(by_lang), (i, sorted(empty))


def test_numbers_agree_line_by_line_with_english():
    """Line i carries the same content everywhere: a 4-digit number of the English line (a year, a
    count) appears in the same line of most languages (translations may spell some out, e.g. "1930s")."""
    by_lang = {r["lang"]: units((PARALLEL / r["file"]).read_bytes()) for r in manifest()}
    eng = [line.decode("utf-8") for line in by_lang.pop("eng")]

    def numbers(text):
        digits = "".join(str(unicodedata.digit(c)) if unicodedata.digit(c, None) is not None else " "
                         for c in text)
        return {w for w in digits.split() if len(w) == 4}

    checked = 0
    for i, line in enumerate(eng):
        wanted = numbers(line)
        if not wanted:
            continue
        checked += 1
        agree = sum(bool(wanted & numbers(lines[i].decode("utf-8"))) for lines in by_lang.values())
        assert agree >= len(by_lang) * 0.6, (i, line)
    assert checked >= 5


def test_readme_records_every_file_with_its_hash():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Parallel text"):]
    for row in manifest():
        assert f"`parallel/{row['file']}`" in section
        assert row["sha256"] in section


PARITY = PARALLEL.parent / "variants" / "parity"


@pytest.mark.parametrize("golden", sorted(PARITY.glob("*.json")), ids=lambda p: p.stem)
def test_parity_goldens_were_made_from_these_files(golden):
    """The parity-aware BPE goldens (scripts/make_parity_goldens.py) name the exact slices of the shipped
    parallel text they were trained and evaluated on; an edit to a parallel file would orphan them."""
    import json
    g = json.loads(golden.read_text(encoding="utf-8"))
    for spec in g["files"].values():
        first, last = spec["lines"]
        data = b"".join((PARALLEL.parent.parent.parent / spec["source"]).read_bytes()
                        .splitlines(keepends=True)[first - 1:last])
        assert hashlib.sha256(data).hexdigest() == spec["sha256"], spec
    assert len(g["merges"]) == len(g["steps"]["lang"]) == len(g["steps"]["freq"])
    assert not any(g["recount"][k] for k in ("freq_not_exact", "lengths_not_exact", "merge_not_exact_argmax"))
