"""Journey (issue 27): File → Examples → "How fair is this tokenizer?" under a new user's defaults opens the
shipped parallel text (8 languages) with GPT-2's byte-level preset, trains it to 2,000 merges and opens the
Measures chart on the same language files with "parity" picked (against English, Tamil's line shown); the
group picker lists every language, and each language's premium drawn at the last merge and at merge 1,000
equals an independent recount: the run's tokenizer saved as tokenizer.json, cut to that merge, encoding each
file with Hugging Face ``tokenizers``. Then a parity-aware run on the same languages, to the same merge, is
added beside it and drawn as a second line: Tamil near parity, a Gini far below the plain run's."""
from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton

from bpe_core.analysis.curves import ALL

TITLE = "How fair is this tokenizer?"
LANGS = ["eng", "arb", "deu", "hin", "kor", "rus", "tam", "zho"]  # English (the reference) first


def _drawn(pane):
    out = []
    for item in pane.plot.listDataItems():
        xs, ys = item.getData()
        out.append((item.name(), [(int(x), float(y)) for x, y in zip(xs, ys)]))
    return out


def _token_counts(model, merges: int, files) -> dict:
    """Each file's token count by ``tokenizers`` with the model's tokenizer.json cut to ``merges`` merges."""
    tokenizers = pytest.importorskip("tokenizers")
    from bpe_core.formats.writers import tokenizer_json_dict

    data = tokenizer_json_dict(model)
    data["model"]["merges"] = data["model"]["merges"][:merges]
    tok = tokenizers.Tokenizer.from_str(json.dumps(data))
    return {p.stem: len(tok.encode(p.read_bytes().decode("utf-8"), add_special_tokens=False).ids) for p in files}


def test_how_fair_is_this_tokenizer(user_window, qtbot):
    from bpe_lens_app.features.examples import EXAMPLES

    window = user_window()
    s = window.session
    entry = next(a for a in window.examples_menu.actions() if a.text() == TITLE)
    entry.trigger()
    qtbot.waitUntil(lambda: window.tabs.tabText(window.tabs.currentIndex()) == "Measures", timeout=120000)
    pane = window.tabs.currentWidget()
    cancel = pane.findChild(QPushButton, "measures_cancel")
    qtbot.waitUntil(lambda: bool(pane.curves) and not cancel.isVisible(), timeout=300000)

    example = next(e for e in EXAMPLES if e.title == TITLE)
    files = example.eval_files()
    assert [p.stem for p in files] == LANGS
    # the run: the 8 files, GPT-2's preset, trained to its 2,000 merges
    assert sorted(s.corpus.paths) == sorted(str(p) for p in files)
    assert window.preset_box.currentText() == "gpt2" and s.merge_count == 2000
    # the chart: parity against English, on the same files, Tamil's line first
    assert pane.findChild(QLabel, "measures_files").text().startswith("eng.txt, arb.txt, deu.txt")
    measure, group = pane.findChild(QComboBox, "measures_measure"), pane.findChild(QComboBox, "measures_group")
    assert measure.currentData() == "parity" and group.currentData() == "file:tam"
    assert sorted(group.itemData(i) for i in range(group.count())) == sorted(f"file:{lang}" for lang in LANGS)
    assert "(parity against eng)" in pane.findChild(QLabel, "measures_note").text()
    model = s.workbench.run.timeline.model()
    last, middle = _token_counts(model, 2000, files), _token_counts(model, 1000, files)
    for lang in LANGS:
        group.setCurrentIndex(group.findData(f"file:{lang}"))
        (name, points), = _drawn(pane)
        assert name.startswith("r1: plain BPE (gpt2)")
        merges = [m for m, _ in points]
        assert merges[0] == 0 and merges[-1] == 2000 and 1000 in merges and merges[1] == 100
        values = dict(points)
        assert values[2000] == pytest.approx(last[lang] / last["eng"], rel=1e-12)
        assert values[1000] == pytest.approx(middle[lang] / middle["eng"], rel=1e-12)
    # Tamil: three times English's bytes at merge 0, and after its lowest premium the merges serve others
    group.setCurrentIndex(group.findData("file:tam"))
    tam = dict(_drawn(pane)[0][1])
    assert tam[0] > 3 and min(tam.values()) < tam[2000] < tam[0]

    # beside it, a parity-aware run on the same languages to the same merge: a second line on the chart
    qtbot.waitUntil(lambda: len(pane.curves) == 2 and not cancel.isVisible(), timeout=300000)
    fair_run = next(r for r in s.workbench.bench.runs if r is not s.workbench.run)
    assert fair_run.config.variant == "parity" and fair_run.timeline.merge_count == 2000
    fair = _token_counts(fair_run.timeline.model(), 2000, files)
    (plain_name, plain), (fair_name, fair_points) = _drawn(pane)
    assert plain_name.startswith("r1: plain BPE") and fair_name.startswith(f"{fair_run.id}: parity-aware BPE")
    assert dict(fair_points)[2000] == pytest.approx(fair["tam"] / fair["eng"], rel=1e-12)
    assert dict(fair_points)[2000] < 1.1 < 2 < dict(plain)[2000]  # Tamil: about English's cost, not twice it
    # the Gini of the 8 costs, one line per run: the parity-aware run's is far lower
    measure.setCurrentIndex(measure.findData("parity_gini"))
    assert group.currentData() == ALL
    (_, plain), (_, fair_points) = _drawn(pane)
    costs = {lang: fair[lang] for lang in LANGS}
    from bpe_core.analysis.measures import parity_gini
    assert dict(fair_points)[2000] == pytest.approx(parity_gini(costs), rel=1e-12)
    assert dict(fair_points)[2000] < 0.02 < 0.1 < dict(plain)[2000]
    assert pane.here.value() == 2000  # the window's merge


def test_opening_another_text_cancels_the_run_beside(user_window, qtbot):
    """While the parity-aware run beside trains, opening another example stops it: the status bar says so and
    no second run joins the new text's."""
    from bpe_lens_app.features.examples import EXAMPLES

    window = user_window()
    s, bar = window.session, window.statusBar()
    actions = {a.text(): a for a in window.examples_menu.actions()}
    actions[TITLE].trigger()
    qtbot.waitUntil(lambda: "Training a parity-aware BPE run beside it" in bar.currentMessage(), timeout=120000)
    seed = EXAMPLES[0]
    actions[seed.title].trigger()
    qtbot.waitUntil(lambda: s.corpus is not None and s.corpus.path == str(seed.path) and not s.is_loading,
                    timeout=60000)
    qtbot.waitUntil(lambda: bar.currentMessage() == "The parity-aware BPE run beside was cancelled", timeout=30000)
    qtbot.wait(300)
    assert [r.config.variant for r in s.workbench.bench.runs] == ["bpe"] and s.config == seed.config()
    from bpe_lens_app.runtime.worker import wait_for_kept
    wait_for_kept(60000)  # the curves of the text left behind, cancelled: no thread outlives the test
