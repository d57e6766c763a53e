"""Why this split, for a PickyBPE model: the steps are the encoder's own event replay (merges and the
removals that split a token again), ending in the encoder's tokens, on the reference's held-out text."""
from __future__ import annotations

import json

from bpe_core.analysis.explain import explain
from bpe_core.encoding.encoder import Encoder
from .test_picky_model import PICKY, golden_model, held_lines


def test_steps_replay_merges_and_removals_to_the_encoders_tokens():
    golden = json.loads((PICKY / "shakespeare_t0.6.json").read_text(encoding="utf-8"))
    model = golden_model(golden)
    text = "\n".join(held_lines(golden)[:60])
    result = explain(model, text)
    assert result.ids == Encoder(model).encode_ids(text)
    removals = [(w, s) for w in result.words for s in w.steps if s.removed]
    assert removals, "the held-out text has words a removal splits"
    for word, step in removals:
        before = word.steps[word.steps.index(step) - 1].tokens if word.steps.index(step) else word.units
        assert step.left in before and step.left not in step.tokens[step.at:step.at + len(step.result.split())]
        assert model.tokens[model.vocab[step.left]] == "".join(step.result.split())
        assert (step.rank, model.vocab[step.left]) in {(r - 1, t) for r, t, _ in model.removals}
    for w in result.words:
        assert (w.steps[-1].tokens if w.steps else w.units if len(w.tokens) > 1 else w.tokens) == w.tokens
    whole = [w for w in result.words if not w.steps and len(w.units) > 1]
    assert whole and all("present token" in w.why_stop for w in whole)
    assert any(s.get("removed") for w in result.to_json()["words"] for s in w["steps"])
