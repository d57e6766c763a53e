"""An evaluation file reads as the corpus readers read the same file: the BOM cut, CRLF and CR lines as "\\n".

The Measures chart and `curves --eval` read their texts with :func:`~bpe_core.analysis.curve_rows.read_eval_files`;
a run's own text goes through the corpus readers (:mod:`bpe_core.corpus.counting`: universal newlines, as Python's
``open()`` reads text, and a UTF-8 BOM cut off). Before, an evaluation file kept its ``\\r`` and its BOM: the same
CRLF file counted one token more per line as evaluation text than as corpus text, and a BOM file a stray
``\\ufeff`` token. Real CRLF text: *Les Misérables* in ../shared/data (FACTS.md)."""
from __future__ import annotations

from pathlib import Path

from bpe_core.analysis.curve_rows import read_eval_files
from bpe_core.analysis.curves import model_curves
from bpe_core.corpus.counting import read_text
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer


def _crlf_text(real) -> bytes:
    data = Path(real.path("bench/gutenberg/les_miserables.txt")).read_bytes()[:100_000].removeprefix(b"\xef\xbb\xbf")
    assert b"\r\n" in data
    return data[:data.rindex(b"\r\n") + 2]


def test_a_crlf_file_with_a_bom_reads_as_the_corpus_reads_it(real, tmp_path: Path) -> None:
    data = _crlf_text(real)
    crlf = tmp_path / "fra.txt"
    crlf.write_bytes(b"\xef\xbb\xbf" + data + b"last line\rafter a lone CR")
    (text,) = read_eval_files([crlf])
    same = text.text == read_text(crlf)  # (a bool: pytest's diff of two 200 kB texts takes minutes)
    assert ("\r" in text.text, text.text[:1] == "\ufeff", same) == (False, False, True)


def test_the_curves_of_a_crlf_file_equal_those_of_its_lf_twin(real, tmp_path: Path) -> None:
    data = _crlf_text(real)
    (tmp_path / "crlf").mkdir()
    (tmp_path / "lf").mkdir()
    (tmp_path / "crlf" / "fra.txt").write_bytes(b"\xef\xbb\xbf" + data)
    (tmp_path / "lf" / "fra.txt").write_bytes(data.replace(b"\r\n", b"\n"))
    trainer = Trainer.from_texts([data.decode("utf-8").replace("\r\n", "\n")], make_config("gpt2", num_merges=200))
    trainer.run()
    model = trainer.model()
    rows = [model_curves(model, read_eval_files([tmp_path / kind]), 50).rows for kind in ("crlf", "lf")]
    same = rows[0] == rows[1]
    assert same and len(rows[0]) > 10
