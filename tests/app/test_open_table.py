"""File -> Open of a word-count table (issue 13): it trains as the corpus it was counted from,
with the table's word settings adopted when the current ones would cut words otherwise."""
from __future__ import annotations

import pytest

from bpe_core.corpus.files import count_words_in_files
from bpe_core.corpus.table import write_parquet, write_tsv
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer

from tests.core.paths import need

pytest.importorskip("pyarrow")


def shown_words(window):
    model = window.words.model
    return {model.data(model.index(r, model.WORD)): model.data(model.index(r, model.FREQ))
            for r in range(model.rowCount())}


def test_open_a_parquet_table_adopts_its_preset_and_trains_as_the_file(qtbot, window, tmp_path):
    corpus = need("tinyshakespeare.txt")
    cfg = make_config("hf-course")
    counts = count_words_in_files([corpus], cfg)
    write_parquet(tmp_path / "s.parquet", counts, [(0, i) for i in range(len(counts))], cfg,
                  [(str(corpus), corpus.stat().st_size)])
    assert window.session.config.pretokenizer != "gpt2" or not window.session.config.lowercase
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=60000):
        window.open_path(str(tmp_path / "s.parquet"))
    assert window.session.config == cfg  # the table's preset, not the session's
    assert window.words.model.rowCount() == len(counts)
    assert shown_words(window)["romeo"] == f"{counts['romeo']:,}"
    with qtbot.waitSignal(window.session.run_finished, timeout=60000):
        window.session.seek(40)
    expected = Trainer(counts, cfg)
    expected.run(merges=41)
    assert window.session.model().merges == expected.model().merges


def test_open_a_tsv_table_keeps_the_current_settings(qtbot, window, tmp_path):
    current = window.session.config
    write_tsv(tmp_path / "c.tsv", {"lower": 5, "lowest": 2, "newer": 6, "wider": 3})
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=60000):
        window.open_path(str(tmp_path / "c.tsv"))
    assert window.session.config == current
    assert shown_words(window) == {"lower": "5", "lowest": "2", "newer": "6", "wider": "3"}
