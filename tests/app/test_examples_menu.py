"""File → Examples: readable names, and each example opens with its own seed's preset."""
from __future__ import annotations

from bpe_lens_app.features.examples.catalog import EXAMPLES, EXAMPLES_DIR


def test_every_example_file_is_listed_with_a_readable_name():
    files = [e for e in EXAMPLES if not e.path.is_dir()]  # a folder (the parallel text) is a guided example's
    assert sorted(e.file for e in files) == sorted(p.name for p in EXAMPLES_DIR.glob("*.txt"))
    readme = (EXAMPLES_DIR / "README.md").read_text(encoding="utf-8")
    for e in EXAMPLES:
        assert e.path.exists() and e.file in readme and e.title in readme
    assert any(e.title == "Seed 004: Chinese + English (cjk-mixed)" for e in EXAMPLES)


def test_examples_open_with_their_own_preset(qtbot, window):
    s = window.session
    actions = window.examples_menu.actions()
    assert [a.text() for a in actions] == [e.title for e in EXAMPLES]
    for action, example in zip(actions, EXAMPLES):
        if example.measure is not None:
            continue  # a guided example trains and opens the Measures chart: tests/app/test_example_fair.py
        with qtbot.waitSignal(s.corpus_loaded, timeout=20000):
            action.trigger()
        assert s.config == example.config()
        assert s.corpus.path == str(example.path)
        assert window.preset_box.currentText() == example.preset
    # the Chinese example reads as characters, not byte glyphs
    assert any("\u4e00" <= ch <= "\u9fff" for w in s.words for ch in w)
