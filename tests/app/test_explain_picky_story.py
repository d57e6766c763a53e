"""Why this split for a PickyBPE model in the app: a removal step reads as a removal (which merge it came
after, the token and its split), also when the removed token ends the word (the caption used to read the
chip after it, past the word's end)."""
from __future__ import annotations

import json

from bpe_core.analysis.explain import explain
from bpe_lens_app.features.explain.actions import explanation_story
from bpe_lens_app.features.explain.pane import ExplainPane
from tests.core.test_picky_model import PICKY, golden_model


def _captions(pane) -> list:
    return [pane.steps_list.item(k).text() for k in range(pane.steps_list.count())]


def test_a_removal_step_is_told_as_a_removal(qtbot):
    model = golden_model(json.loads((PICKY / "shakespeare_t0.6.json").read_text(encoding="utf-8")))
    words = [w for w in explain(model, "unfortunately weather latter").words if any(s.removed for s in w.steps)]
    last = [w for w in words if any(s.removed and s.at == len(s.tokens) - len(s.result.split()) for s in w.steps)]
    assert {w.word for w in last} >= {"▁weather", "▁latter"}
    assert words and last, "a word whose last token is removed and split"
    pane = ExplainPane()
    qtbot.addWidget(pane)
    for w in words:
        pane.show_story(explanation_story(model, w))
        captions = _captions(pane)
        removed = [c for c in captions if c.startswith("removed after merge")]
        assert len(removed) == sum(s.removed for s in w.steps)
        step = next(s for s in w.steps if s.removed)
        assert f"removed after merge {step.rank + 1}: " in removed[0] and "split into" in removed[0]
