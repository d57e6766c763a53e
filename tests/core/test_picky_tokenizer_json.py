"""A PickyBPE model as tokenizer.json: with no removals (τ = 1.0) it is plain BPE and ``tokenizers`` encodes
the reference's held-out text exactly as picky_tokenize.py did; with removals the writers refuse in a sentence
(tokenizers applies every merge by rank and cannot split a removed token again)."""
from __future__ import annotations

import json

import pytest

from bpe_core.formats.detect import write_vocabulary
from bpe_core.types import BPELensError
from .test_picky_model import PICKY, golden_model, held_lines


@pytest.mark.parametrize("name", ["shakespeare_t1.0", "wiki_t1.0"])
def test_a_picky_model_without_removals_loads_in_tokenizers_and_encodes_alike(name, tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    golden = json.loads((PICKY / f"{name}.json").read_text(encoding="utf-8"))
    model = golden_model(golden)
    assert model.removals == []
    write_vocabulary(model, tmp_path / "tokenizer.json", "tokenizer.json")
    tok = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    lines = held_lines(golden)
    assert [" ".join(tok.encode(line).tokens) for line in lines] == golden["encoding"]
    from bpe_core.encoding.encoder import Encoder
    from bpe_core.formats.detect import open_vocabulary
    back = Encoder(open_vocabulary(tmp_path / "tokenizer.json"))
    assert [" ".join(t.raw for t in back.encode(line).tokens) for line in lines] == golden["encoding"]


@pytest.mark.parametrize("fmt", ["tokenizer.json", "vocab-merges", "tiktoken"])
def test_a_picky_model_with_removals_is_refused_with_the_reason(fmt, tmp_path):
    model = golden_model(json.loads((PICKY / "shakespeare_t0.9.json").read_text(encoding="utf-8")))
    with pytest.raises(BPELensError, match="cannot split a removed token") as caught:
        write_vocabulary(model, tmp_path / "out.json", fmt)
    assert "\n" not in str(caught.value) and f"{len(model.removals)} tokens removed" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_any_pipeline_with_the_references_words_gets_their_tokenizer_json_layout():
    """Not only PickyWords: a pipeline that cuts the same words (a preset with them) is written the same way."""
    from bpe_core.formats.picky_file import HF_LAYOUT, PickyWords
    from bpe_core.formats.writers import tokenizer_json_dict
    model = golden_model(json.loads((PICKY / "shakespeare_t1.0.json").read_text(encoding="utf-8")))

    class Same:
        decides_symbols = False

        def split_words(self, text):
            return PickyWords().split_words(text)

        def matched_specials(self):
            return {}
    model.pipeline = Same()
    assert tokenizer_json_dict(model)["pre_tokenizer"] == HF_LAYOUT["pre_tokenizer"]
