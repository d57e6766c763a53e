"""The compare feature records its comparisons in the Workbench (issue 24): a comparison tab of two open
subjects is an open comparison; closing the tab closes it. When a compared vocabulary closes, the Workbench
drops the comparison but the tab stays: it is a snapshot of the diff, and what the user reads does not vanish."""
from __future__ import annotations

from bpe_core.formats.native import write_native
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer


def _vocabulary(tmp_path) -> str:
    trainer = Trainer.from_texts(["low lower lowest newest"], make_config("char-hf", num_merges=4))
    trainer.run()
    path = tmp_path / "mine.json"
    write_native(trainer.model(), str(path))
    return str(path)


def _compared(qtbot, window, tmp_path):
    from bpe_lens_app.features.compare.actions import CURRENT

    window.session.seek(5)
    qtbot.waitUntil(lambda: window.session.merge_count == 5 and not window.session.is_running, timeout=10000)
    window.open_vocabulary_path(_vocabulary(tmp_path))
    qtbot.waitUntil(lambda: window.tabs.count() == 2, timeout=10000)
    vocabulary = window.session.workbench.vocabularies()[0]
    window.compare_feature.compare(window.session.model(), vocabulary.model, CURRENT, f"Inspect: {vocabulary.name}")
    qtbot.waitUntil(lambda: window.tabs.count() == 3, timeout=10000)
    return vocabulary


def test_a_comparison_tab_is_an_open_comparison_until_it_closes(qtbot, loaded_window, tmp_path):
    window = loaded_window
    vocabulary = _compared(qtbot, window, tmp_path)
    bench = window.session.workbench.bench
    assert [(c.a_id, c.b_id) for c in bench.comparisons] == [(window.session.workbench.run.id, vocabulary.id)]
    window.close_tab(2)
    assert bench.comparisons == ()


def test_closing_a_compared_vocabulary_keeps_the_comparison_tab(qtbot, loaded_window, tmp_path):
    window = loaded_window
    _compared(qtbot, window, tmp_path)
    window.close_tab(1)  # the inspector of the compared vocabulary
    assert window.session.workbench.bench.comparisons == ()
    assert window.tabs.count() == 2 and window.tabs.tabText(1).startswith("Compare: ")
