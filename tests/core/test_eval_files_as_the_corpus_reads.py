"""An evaluation text reaches each model as that model's corpus reader reads the same file.

The Measures chart and `curves --eval` read their files with :func:`~bpe_core.analysis.curve_rows.read_eval_files`
(the file's text as it is), and the curves engine gives each model the text as its own corpus reader would
(:func:`~bpe_core.analysis.curve_rows.as_read_by`): for a config that reads text (the seeds' presets: Python's
``open()``), the BOM cut and CRLF/CR lines as "\\n"; for one that reads files as tokenizers does (gpt2, char-hf,
superbpe), the bytes as they are. Before, every model got the "\\r"s and the BOM: a CRLF file counted one token
more per line in the chart than in the run's own figures, and a BOM file a stray U+FEFF token. Real CRLF text:
*Les Misérables* in ../shared/data (FACTS.md)."""
from __future__ import annotations

from pathlib import Path

from bpe_core.analysis.curve_rows import as_read_by, read_eval_files
from bpe_core.analysis.curves import model_curves
from bpe_core.corpus.counting import read_text
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer


def _crlf_text(real) -> bytes:
    data = Path(real.path("bench/gutenberg/les_miserables.txt")).read_bytes()[:100_000].removeprefix(b"\xef\xbb\xbf")
    assert b"\r\n" in data
    return data[:data.rindex(b"\r\n") + 2]


def _model(data: bytes, preset: str):
    trainer = Trainer.from_texts([data.decode("utf-8").replace("\r\n", "\n")], make_config(preset, num_merges=200))
    trainer.run()
    return trainer.model()


def test_a_text_reading_model_gets_the_text_its_corpus_reader_gives(real, tmp_path: Path) -> None:
    crlf = tmp_path / "fra.txt"
    crlf.write_bytes(b"\xef\xbb\xbf" + _crlf_text(real) + b"last line\rafter a lone CR")
    texts = read_eval_files([crlf])
    (seen,) = as_read_by(_model(_crlf_text(real), "char-whitespace"), texts)
    same = seen.text == read_text(crlf)  # (a bool: pytest's diff of two 100 kB texts takes minutes)
    assert ("\r" in seen.text, seen.text[:1] == "\ufeff", same) == (False, False, True)
    (raw,) = as_read_by(_model(_crlf_text(real), "gpt2"), texts)  # tokenizers' reading: the file as it is
    assert raw.text == texts[0].text and "\r\n" in raw.text and raw.text[:1] == "\ufeff"


def test_the_curves_of_a_crlf_file_equal_those_of_its_lf_twin_for_a_text_reading_model(real, tmp_path: Path) -> None:
    data = _crlf_text(real)
    (tmp_path / "crlf").mkdir()
    (tmp_path / "lf").mkdir()
    (tmp_path / "crlf" / "fra.txt").write_bytes(b"\xef\xbb\xbf" + data)
    (tmp_path / "lf" / "fra.txt").write_bytes(data.replace(b"\r\n", b"\n"))
    for preset, equal in (("char-whitespace", True), ("gpt2", False)):
        model = _model(data, preset)
        rows = [model_curves(model, read_eval_files([tmp_path / kind]), 50).rows for kind in ("crlf", "lf")]
        same = rows[0] == rows[1]
        assert same == equal and len(rows[0]) > 3, preset
