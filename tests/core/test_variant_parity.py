"""Parity-aware BPE is identical to cimeister/parity-aware-bpe's own runs (tests/data/variants/parity)."""
import json
from pathlib import Path

import pytest

from bpe_core.variants.parity import ParityBPE, word_counts

DATA = Path(__file__).resolve().parents[1] / "data"


def _texts(golden, part):
    out = []
    for lang in golden["languages"]:
        a, b = golden["files"][f"{part}.{lang}"]["lines"]
        raw = (DATA / "parallel" / f"{lang}.txt").read_bytes().splitlines(keepends=True)[a - 1:b]
        out.append(word_counts(b"".join(raw).decode("utf-8")))
    return out


def _trainer(name, golden):
    train, dev = _texts(golden, "train"), _texts(golden, "dev")
    if name == "window":
        return ParityBPE(train, dev, variant="window", window_size=100, alpha=2)
    if name == "hybrid":
        return ParityBPE(train, dev, global_merges=200)
    if name == "plain":
        return ParityBPE(train, dev, global_merges=1000)
    if name == "ratio":
        return ParityBPE(train, dev, ratio=[1] * 6)
    return ParityBPE(train, dev)


@pytest.mark.parametrize("name", ["base", "window", "hybrid", "ratio", "plain"])
def test_identical_to_reference(name):
    golden = json.loads((DATA / "variants" / "parity" / f"{name}.json").read_text(encoding="utf-8"))
    t = _trainer(name, golden)
    for i, pair in enumerate(golden["merges"]):
        s = t.step()
        assert s is not None, i
        assert (list(s.pair), s.lang, s.lengths, s.freq) == (
            pair, golden["steps"]["lang"][i], golden["steps"]["lengths"][i], golden["steps"]["freq"][i]), i
    assert t.dev_lengths == golden["recount"]["final_dev_lengths"]


def test_worked_example_doctest():
    import doctest

    from bpe_core.variants import parity
    assert doctest.testmod(parity).failed == 0
