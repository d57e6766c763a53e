"""A PickyBPE model in BPE Lens's native file: its removals, algorithm "picky" and token freqs are saved
and read back (the file encodes as the reference's tokenizer); a native file written before them still loads."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.native import model_to_native, native_to_model, read_native, write_native
from .test_picky_model import PICKY, encoded_lines, golden_model, held_lines


def test_a_picky_golden_round_trips_and_encodes_as_the_reference(tmp_path):
    golden = json.loads((PICKY / "wiki_t0.6.json").read_text(encoding="utf-8"))
    model = golden_model(golden)
    write_native(model, str(tmp_path / "v.json"))
    back = read_native(str(tmp_path / "v.json"))
    assert back.algorithm == "picky" and back.removals == model.removals
    assert back.extras["token_freqs"] == model.extras["token_freqs"]
    assert (back.tokens, back.merges, back.merge_counts) == (model.tokens, model.merges, model.merge_counts)
    assert encoded_lines(back, held_lines(golden)) == golden["encoding"]
    assert Encoder(back).encode_ids("▁x ▁▁y") == Encoder(model).encode_ids("▁x ▁▁y")  # the reference's own words


def test_a_native_file_without_removals_still_loads():
    old = {"format": "bpe-lens", "version": 1, "preset": "char-hf", "unit": "chars", "config": {},
           "merges": [["a", "b", 3]], "vocab": {"a": 0, "b": 1, "ab": 2}, "specials": {}}
    model = native_to_model(old)
    assert (model.algorithm, model.removals, model.extras) == ("merges", [], {})
    assert "removals" not in model_to_native(model) and "token_freqs" not in model_to_native(model)


def test_bad_removals_are_refused_in_a_sentence():
    import pytest
    from bpe_core.types import BPELensError
    data = model_to_native(golden_model(json.loads((PICKY / "small.json").read_text(encoding="utf-8"))["cases"][0]))
    data["removals"][0] = [1, "no such token", ["a"]]
    with pytest.raises(BPELensError, match="removal 1"):
        native_to_model(data, "v.json")


@settings(max_examples=40, deadline=None)
@given(text=st.lists(st.text("abc", min_size=1, max_size=6), min_size=1, max_size=30).map(" ".join),
       threshold=st.sampled_from([0.3, 0.5, 0.7, 0.9, 1.0]), size=st.integers(8, 20))
def test_any_picky_model_round_trips(text, threshold, size):
    from bpe_core.variants.picky_model import reference_model, reference_trainer
    trainer = reference_trainer(text, vocab_size=size, threshold=threshold)  # a text this short keeps every char
    trainer.run()
    model = reference_model(trainer)
    back = native_to_model(json.loads(json.dumps(model_to_native(model))))
    assert (back.tokens, back.merges, back.removals, back.algorithm) == (
        model.tokens, model.merges, model.removals, "picky")
    assert back.extras["token_freqs"] == model.extras["token_freqs"]
    probe = text + " cab abc aaaa"
    assert Encoder(back).encode_ids(probe) == Encoder(model).encode_ids(probe)


def test_a_byte_level_picky_run_round_trips(tmp_path):
    """A Trainer run on the gpt2 preset (byte tokens, glyphs in the file) with removals."""
    from collections import Counter
    from bpe_core import make_config
    from bpe_core.pipelines.chain import Pipeline
    from bpe_core.training.trainer import Trainer
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")[:20000] + " naïve 日本語"
    config = make_config("gpt2", variant="picky", ios_threshold=0.6)
    trainer = Trainer(dict(Counter(Pipeline(config).words(text))), config)
    trainer.run(merges=300)
    model = trainer.model()
    write_native(model, str(tmp_path / "v.json"))
    back = read_native(str(tmp_path / "v.json"))
    assert back.unit == "bytes" and back.removals == model.removals and len(back.removals) >= 20
    assert back.extras["token_freqs"] == model.extras["token_freqs"]
    assert Encoder(back).encode_ids(text) == Encoder(model).encode_ids(text)
