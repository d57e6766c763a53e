"""Offline Punkt: our tables are NLTK's, and our splitting equals nltk.sent_tokenize."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core.pretokenize import punkt
from bpe_core.pretokenize.punkt import load_params
from bpe_core.types import BPELensError

REPO_TABLES = punkt.PUNKT_DIR

# The official nltk_data punkt_tab English tables (see resources/punkt_tab/english/README.md).
OFFICIAL = {
    "abbrev_types.txt": "92a3e070f43d9b4c5534758ca40ad7343b04e7e29bfe0c2eb658a39445a4f779",
    "collocations.tab": "8e2da1225e4dd2cc9dba261ee231ccb134859e21b46006e7f472c5ee269af0cf",
    "sent_starters.txt": "f3f8535483e1dba487241b764945168123bca3209a9645e59acd1225dc76edac",
    "ortho_context.tab": "4bbcca25ed3d3f06c02402abf8419b9f033b8adc06e7b482eca4e45f81a5dc4c",
}

SAMPLES = [
    ("wikitext-2-raw/wiki.valid.raw", 400_000),
    ("bench/gutenberg/pride_and_prejudice.txt", 300_000),
    ("bench/gutenberg/alice_in_wonderland.txt", 0),  # CRLF + BOM in the file
    ("bench/multilingual/fr_les_miserables_t1_fantine.txt", 150_000),
]


def test_tables_are_the_official_ones() -> None:
    for name, digest in OFFICIAL.items():
        data = (punkt.PUNKT_DIR / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest, name
    params = punkt.load_params()
    assert (len(params.abbrev_types), len(params.sent_starters), len(params.collocations),
            len(params.ortho_context)) == (156, 39, 37, 20366)
    assert {"mr", "u.s", "dr"} <= params.abbrev_types
    assert ("##number##", "international") in params.collocations


def test_params_equal_nltk_loader(nltk_with_our_tables: None) -> None:
    from nltk.tokenize import PunktTokenizer

    theirs = PunktTokenizer("english")._params
    ours = punkt.load_params()
    assert ours.abbrev_types == theirs.abbrev_types
    assert ours.collocations == theirs.collocations
    assert ours.sent_starters == theirs.sent_starters
    assert dict(ours.ortho_context) == dict(theirs.ortho_context)


@pytest.mark.parametrize("rel,limit", SAMPLES)
def test_sentences_equal_nltk_sent_tokenize(nltk_with_our_tables: None, real, rel: str, limit: int) -> None:
    import nltk

    text = real.text(rel, limit)
    ours = punkt.sentences(text)
    assert ours == nltk.sent_tokenize(text, "english")
    assert len(ours) > 100


def test_sentence_spans_cut_the_same_sentences(real) -> None:
    text = real.text("wikitext-2-raw/wiki.test.raw", 200_000)
    spans = punkt.sentence_spans(text)
    assert [text[s:e] for s, e in spans] == punkt.sentences(text)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def test_abbreviations_do_not_end_sentences() -> None:
    text = "Mr. Smith paid $5.5 million to the U.S. government. Dr. Jones agreed."
    assert punkt.sentences(text) == ["Mr. Smith paid $5.5 million to the U.S. government.", "Dr. Jones agreed."]
    assert punkt.sentences("") == []


def test_works_without_any_nltk_data(tmp_path: Path, real) -> None:
    # A fresh interpreter whose nltk finds no data anywhere: plain nltk fails, we do not.
    code = (
        "import nltk\n"
        "nltk.data.path[:] = []  # also ignore any system-wide nltk_data\n"
        "try:\n"
        "    nltk.sent_tokenize('A b. C d.')\n"
        "    print('nltk found data')\n"
        "except LookupError:\n"
        "    print('nltk has no data')\n"
        "from bpe_core.pretokenize.punkt import sentences\n"
        "print(sentences('Mr. Smith left. He came back.'))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NLTK", "PYTHON"))}
    env.update(NLTK_DATA=str(tmp_path / "nowhere"), HOME=str(tmp_path), PYTHONPATH=str(real.repo))
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["nltk has no data", "['Mr. Smith left.', 'He came back.']"]


def test_missing_tables_name_the_folder(tmp_path: Path) -> None:
    (tmp_path / "abbrev_types.txt").write_text("mr")
    with pytest.raises(BPELensError, match="Punkt tables missing .*collocations.tab"):
        punkt.load_params(tmp_path)


def _group_writable_tables(tmp_path: Path) -> Path:
    """The shipped tables as a checkout made with umask 002 has them (files 0664, folders 0775)."""
    import shutil

    copy = tmp_path / "checkout" / "punkt_tab" / "english"
    shutil.copytree(REPO_TABLES, copy)
    for path in [tmp_path / "checkout", copy.parent, copy, *copy.iterdir()]:
        path.chmod(0o775 if path.is_dir() else 0o664)
    return copy


def test_nltk_loads_the_tests_private_copy_of_group_writable_tables(tmp_path: Path, monkeypatch) -> None:
    """Issue 25: NLTK >= 3.10.4 refuses group-writable data files, so 5 tests failed and 3 errored in such
    a checkout. The tests hand NLTK's own loader a private copy instead."""
    from nltk.data import FileSystemPathPointer
    from nltk.tokenize.punkt import load_punkt_params

    from tests.reference import private_copy

    import nltk

    shared = _group_writable_tables(tmp_path)
    (tmp_path / "private").mkdir(mode=0o700)
    copy = private_copy(shared, tmp_path / "private" / "english")
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "private")])  # NLTK reads only below its roots
    assert load_punkt_params(FileSystemPathPointer(str(copy))).abbrev_types == load_params().abbrev_types


def test_seed000_reference_splits_sentences_from_a_group_writable_checkout(tmp_path: Path, monkeypatch) -> None:
    from tests.reference import seed000

    monkeypatch.setattr(seed000, "PUNKT_DIR", _group_writable_tables(tmp_path))
    monkeypatch.setattr(seed000, "_PUNKT", None)
    monkeypatch.setattr(seed000, "_TABLES", None)
    assert seed000.sent_tokenize("Mr. Bennet replied that he had not. But she told him all.") == [
        "Mr. Bennet replied that he had not.", "But she told him all."]
