"""The app's half of issue 23's inputs (finding 20): a vocabulary whose JSON Python cannot take (nested
thousands deep, a number of thousands of digits) is one message in the window, never "Unexpected
error: RecursionError", and nothing changes (tabs, trained merges)."""
from __future__ import annotations

import pytest

from bpe_core.formats.detect import write_vocabulary
from bpe_core.model import BPEModel

LONG = "7" * 5000
HF = '{"model": {"type": "BPE", "vocab": {"a": ' + LONG + '}, "merges": []}}'


@pytest.mark.parametrize("content, message", [
    ("[" * 100_000 + "]" * 100_000,
     "the JSON is too deeply nested (more than 100 levels of [ and {): a corrupt or hostile file"),
    (HF, f"a number with 5000 digits at line 1 column {HF.index(LONG) + 1}: too long for an id or a count "
         "(a corrupt or hand-edited file)"),
])
def test_json_python_cannot_take_is_one_message_and_nothing_changes(qtbot, loaded_window, tmp_path, content, message):
    w = loaded_window
    good = tmp_path / "good.json"
    write_vocabulary(BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)]), good, "native")
    with qtbot.waitSignal(w.session.vocabulary_opened, timeout=10000):
        w.open_vocabulary_path(str(good))
    w.session.step(2)
    tabs = [w.tabs.tabText(i) for i in range(w.tabs.count())]
    bad = tmp_path / "tokenizer.json"
    bad.write_text(content, encoding="utf-8")
    with qtbot.waitSignal(w.session.error_raised, timeout=10000):
        w.open_vocabulary_path(str(bad))
    assert w.error_box.isVisible() and w.error_box.text() == f"{bad}: {message}"
    assert w.statusBar().currentMessage() == w.error_box.text()
    w.error_box.close()
    assert [w.tabs.tabText(i) for i in range(w.tabs.count())] == tabs and w.session.merge_count == 2


def test_a_utf16_corpus_is_said_to_be_utf16_and_the_corpus_stays(qtbot, loaded_window, tmp_path):
    """Finding 22: Windows tools save UTF-16; the window says so and how to convert, not "a binary file"."""
    w = loaded_window
    w.session.step(2)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(("\ufeff" + "the lower newest\n" * 30).encode("utf-16-le"))
    with qtbot.waitSignal(w.session.error_raised, timeout=10000):
        w.session.load_corpus(notes)
    assert w.error_box.isVisible() and w.error_box.text() == (
        "notes.txt: UTF-16 (little-endian, with a byte-order mark) text, not UTF-8; BPE Lens reads UTF-8 text: "
        f"convert it with  iconv -f UTF-16 -t UTF-8 {notes} > {tmp_path / 'notes-utf8.txt'}")
    w.error_box.close()
    assert w.session.corpus.name == "small.txt" and w.session.merge_count == 2
