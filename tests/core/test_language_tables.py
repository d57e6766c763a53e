"""Word-count tables with a language column (bpe_core/corpus/languages.py): read per language for parity-aware
BPE, and read by the plain table reader as the union of the languages (counts summed), so one table trains both."""
import pytest

from bpe_core.corpus.languages import read_language_table, write_language_parquet, write_language_tsv
from bpe_core.corpus.table import read_table
from bpe_core.types import BPELensError

COUNTS = {"en": {" the": 3, " a": 1, " 2024": 2}, "de": {" die": 2, " 2024": 1}}


@pytest.mark.parametrize("write, name", [(write_language_tsv, "t.tsv"), (write_language_parquet, "t.parquet")])
def test_round_trip_per_language(tmp_path, write, name):
    write(tmp_path / name, COUNTS)
    assert read_language_table(tmp_path / name) == COUNTS


@pytest.mark.parametrize("write, name", [(write_language_tsv, "t.tsv"), (write_language_parquet, "t.parquet")])
def test_the_plain_reader_sums_the_languages(tmp_path, write, name):
    write(tmp_path / name, COUNTS)
    table = read_table(tmp_path / name)
    assert table.counts == {" the": 3, " a": 1, " 2024": 3, " die": 2}
    assert list(table.counts) == [" the", " a", " 2024", " die"]  # first seen, languages in order


def test_plain_tables_are_read_as_before(tmp_path):
    (tmp_path / "p.tsv").write_text("word\tcount\nthe\t3\n", encoding="utf-8")
    assert read_table(tmp_path / "p.tsv").counts == {"the": 3}
    with pytest.raises(BPELensError, match="appears twice"):
        (tmp_path / "d.tsv").write_text("the\t3\nthe\t1\n", encoding="utf-8")
        read_table(tmp_path / "d.tsv")
    with pytest.raises(BPELensError, match="header language<TAB>word<TAB>count"):
        read_language_table(tmp_path / "p.tsv")


def test_a_language_table_still_refuses_a_word_twice_in_one_language(tmp_path):
    (tmp_path / "t.tsv").write_text("language\tword\tcount\nen\tthe\t3\nen\tthe\t1\n", encoding="utf-8")
    with pytest.raises(BPELensError, match="line 3: the word 'the' appears twice in language 'en'"):
        read_table(tmp_path / "t.tsv")
