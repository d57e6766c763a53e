"""The comparison tab (View → Compare vocabularies…) and the inspector's "Train further on a corpus…".

Expected values are computed here, independently of bpe_core.analysis.diff: the first divergent merge by a
plain loop over both models' merges as bytes, the differing spans from both encoders' token boundaries.
"""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QTimer  # noqa: E402

from bpe_core import Encoder  # noqa: E402
from bpe_lens_app.demo import demo_byte_model  # noqa: E402
from bpe_lens_app.features.compare.pane import CompareTab  # noqa: E402

from tests.core.paths import EXAMPLES, need  # noqa: E402

TEXT_A = "the theory of the other thing: there, then, these, those. the thermal theatre\n" * 4
TEXT_B = "tokenization tokenizer tokens token; the tokens of a tokenizer\n" * 4
PROBE = "the tokenizer thinks"


def merge_bytes(model):
    as_bytes = [t if isinstance(t, bytes) else t.encode() for t in model.tokens]
    return [(as_bytes[a], as_bytes[b]) for a, b in model.merges]


def expected_divergence(a, b):
    ma, mb = merge_bytes(a), merge_bytes(b)
    for k in range(max(len(ma), len(mb))):
        if k >= len(ma) or k >= len(mb) or ma[k] != mb[k]:
            return k
    return None


def expected_spans(a, b, text):
    cuts = []
    for m in (a, b):
        toks = Encoder(m).encode(text).tokens
        cuts.append({0, len(text)} | {t.end for t in toks})
    common = sorted(cuts[0] & cuts[1])
    return [(s, e) for s, e in zip(common, common[1:]) if any(p in cuts[0] or p in cuts[1] for p in range(s + 1, e))]


@pytest.fixture(scope="module")
def models():
    return demo_byte_model(TEXT_A, merges=30), demo_byte_model(TEXT_B, merges=30)


def open_compare(qtbot, window, a, b):
    feature = window.compare_feature
    feature.compare(a, b, "A-small", "B-small")
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), CompareTab), timeout=15000)
    return window.tabs.currentWidget()


def test_small_vocabularies_first_divergent_merge_and_highlight(qtbot, window, models):
    a, b = models
    tab = open_compare(qtbot, window, a, b)
    k = expected_divergence(a, b)
    assert k is not None
    assert f"First divergent merge: {k:,} (0-based rank)" in tab.summary.text()
    # the merges side by side start at the divergence
    assert tab.merges_model.index(0, 0).data() == f"{k:,}"
    tab.text_edit.setPlainText(PROBE)
    tab.encode_text()
    spans = expected_spans(a, b, PROBE)
    assert spans and tab.highlighted_spans() == spans
    assert "differs in" in tab.text_info.text() and repr(PROBE[spans[0][0]:spans[0][1]]) in tab.text_info.text()
    assert "font-weight:600" in tab.rows[0].toHtml() or "font-weight:600" in tab.rows[1].toHtml()


def test_token_lists_filter_and_trees(qtbot, window, models):
    a, b = models
    tab = open_compare(qtbot, window, a, b)
    bytes_a = {t if isinstance(t, bytes) else t.encode() for i, t in enumerate(a.tokens) if i not in a.special_ids}
    bytes_b = {t if isinstance(t, bytes) else t.encode() for i, t in enumerate(b.tokens) if i not in b.special_ids}
    assert tab.tokens_model.rowCount() == len(bytes_a & bytes_b)
    tab.select_kind("only B")
    assert tab.tokens_model.rowCount() == len(bytes_b - bytes_a)
    tab.filter.setText("tok")
    rows = [tab.tokens_model.token(r) for r in range(tab.tokens_model.rowCount())]
    assert rows and all(b"tok" in t for t in rows)
    tab.tokens_view.setCurrentIndex(tab.tokens_model.index(0, 0))
    assert "not in this vocabulary" in tab.tree_captions[0].text()
    assert tab.trees[1].root() is not None and tab.tree_captions[1].text().startswith("B: id")
    both = sorted(t for t in bytes_a & bytes_b if len(t) > 1)
    assert both and tab.show_trees_for_text(both[0].decode())  # a merged token both sides have
    assert tab.trees[0].root() is not None and tab.trees[1].root() is not None


def test_dialog_compares_an_inspector_tab_with_the_current_training(qtbot, loaded_window, models):
    w = loaded_window
    w.session.workbench.add_vocabulary(models[0], name="small A")  # its inspector tab opens
    feature = w.compare_feature
    QTimer.singleShot(0, lambda: feature.dialog.accept())
    feature.choose()
    qtbot.waitUntil(lambda: isinstance(w.tabs.currentWidget(), CompareTab), timeout=15000)
    tab = w.tabs.currentWidget()
    assert (tab.name_a, tab.name_b) == ("Inspect: small A", "Current training")
    assert tab.diff.a.model is models[0]


def test_train_further_from_gpt2_then_compare_shows_the_new_merges(qtbot, window, monkeypatch):
    from PySide6.QtWidgets import QFileDialog
    from bpe_core.formats.detect import open_vocabulary
    gpt2 = open_vocabulary(need("gpt2/tokenizer.json"))
    inspector = window.inspector(window.session.workbench.add_vocabulary(gpt2, name="gpt2").id)
    corpus = EXAMPLES / "seed004_zh_en_de.txt"  # Chinese: plenty of byte pairs GPT-2 never merged
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(corpus), "")))
    with qtbot.waitSignal(window.session.corpus_loaded, timeout=60000):
        inspector.further_button.click()  # the inspector's own action
    s = window.session
    assert s.model().merges == gpt2.merges and s.target_merges == 1000
    with qtbot.waitSignal(s.steps_applied, timeout=20000):
        s.step(5)
    trained = s.model()
    assert len(trained.merges) == 50005 and trained.merges[:50000] == gpt2.merges
    QTimer.singleShot(0, lambda: window.compare_feature.dialog.accept())
    window.compare_feature.choose()  # defaults: the continued vocabulary vs the current training
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), CompareTab), timeout=30000)
    tab = window.tabs.currentWidget()
    assert tab.name_a == "Continued from: gpt2" and tab.name_b == "Current training"
    assert tab.diff.first_divergent_merge == 50000
    assert tab.merges_model.rowCount() == 5 and tab.merges_model.index(0, 1).data() == "—"
    new_tokens = {trained.tokens[step.new_id] for step in s.history if step.created}
    tab.select_kind("only B")
    assert {tab.tokens_model.token(r) for r in range(tab.tokens_model.rowCount())} == new_tokens


def test_table_models_contract(qtmodeltester, qtbot, window, models):
    tab = open_compare(qtbot, window, *models)
    qtmodeltester.check(tab.merges_model)
    qtmodeltester.check(tab.tokens_model)
    tab.select_kind("only A")
    qtmodeltester.check(tab.tokens_model)


def test_an_unreadable_file_says_so(qtbot, window, tmp_path, models):
    bad = tmp_path / "not_a_vocabulary.json"
    bad.write_text("{ not json", encoding="utf-8")
    window.compare_feature.compare(models[0], str(bad), "A", "bad")
    qtbot.waitUntil(lambda: window.compare_feature.error_box is not None, timeout=15000)
    assert "Could not compare" in window.compare_feature.error_box.text()
    assert not any(isinstance(window.tabs.widget(i), CompareTab) for i in range(window.tabs.count()))
