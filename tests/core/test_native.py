"""Native files: trained and imported vocabularies round-trip and encode exactly as before."""
from __future__ import annotations

import json

import pytest

from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.detect import open_vocabulary
from bpe_core.formats.native import dumps_native, model_to_native, read_native, write_native
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError

from .paths import EXAMPLES, need

TEXT = ("The Lord of the Rings — “quoted” 自然语言处理 🙂👍🏽 naïve café\r\n\tcode: x += 1;    "
        "<|endoftext|> end   \n")


@pytest.mark.parametrize("rel", [
    "tiktoken_ranks/r50k_base.tiktoken",
    "tiktoken_ranks/cl100k_base.tiktoken",
    "gpt2/tokenizer.json",
    "gpt-neox-20b/20B_tokenizer.json",
])
def test_imported_vocabulary_round_trips_through_native(tmp_path, rel):
    model = open_vocabulary(str(need(rel)))
    out = tmp_path / "v.json"
    write_native(model, str(out))
    back = read_native(str(out))
    assert [t for t in back.tokens] == [t for t in model.tokens]
    assert back.merges == model.merges
    lines = (need("wikitext-2-raw/wiki.test.raw")).read_text(encoding="utf-8").splitlines(True)[:300]
    for text in [TEXT, "".join(lines)]:
        assert Encoder(back).encode_ids(text) == Encoder(model).encode_ids(text)


@pytest.mark.parametrize("preset", ["gpt2", "char-whitespace", "nltk-wordpunct", "cjk-mixed", "hf-course"])
def test_trained_vocabulary_round_trips(tmp_path, preset):
    corpus = EXAMPLES / "seed004_mixed.txt" if preset == "cjk-mixed" else need("wikitext-2-raw/wiki.valid.raw")
    t = Trainer.from_corpus(str(corpus), make_config(preset, num_merges=150))
    t.run()
    model = t.model()
    out = tmp_path / "v.json"
    write_native(model, str(out))
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [m[2] for m in data["merges"]] == [s.count for s in t.history]
    back = read_native(str(out))
    assert back.merges == model.merges and back.tokens == model.tokens
    for text in [TEXT, "It is a truth universally acknowledged. 我爱 Python 编程！"]:
        assert Encoder(back).encode(text).tokens == Encoder(model).encode(text).tokens


@pytest.mark.parametrize("preset", ["gpt2", "char-whitespace", "cjk-mixed"])
def test_native_text_is_json_dumps_text(tmp_path, preset):
    """The fast writer's text is the json module's own ``dumps(indent=1, ensure_ascii=False)``, byte for byte."""
    corpus = EXAMPLES / "seed004_mixed.txt" if preset == "cjk-mixed" else need("wikitext-2-raw/wiki.valid.raw")
    t = Trainer.from_corpus(str(corpus), make_config(preset, num_merges=300))
    t.run()
    data = model_to_native(t.model())
    out = tmp_path / "v.json"
    write_native(t.model(), str(out))
    assert out.read_text(encoding="utf-8") == json.dumps(data, ensure_ascii=False, indent=1) + "\n"


@pytest.mark.parametrize("data", [
    {"merges": [["a\"\\\n\x01", "é\u2028 ", None], ["<|x|>", "\t", 0]], "vocab": {"a": 1, "\x7f": 2}, "z": [1, {"q": []}]},
    {"merges": [[], ["x", 1.5, True, False], "s", 3, ("t", "u")], "vocab": {"a": 1, "b": 2.0, "c": None}},
    {"merges": [], "vocab": {}},
    {"vocab": {"b": 1, "a": 0}, "x": "y", "merges": [["a", "b", None]]},
    {"merges": [[["nested"]]], "vocab": {"a": 1}},
    {"merges": [["a", "b", 1]], "vocab": {1: 2, "a": 3}},
    {"merges": [["a", "b", 1]], "vocab": {"a": 0}, "config": {"pattern": "\x00bpe-lens-table\x00m"}},
])
def test_native_text_odd_tables(data):
    assert dumps_native(data) == json.dumps(data, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("content, message", [
    ('{"format": "bpe-lens", "version": 2, "vocab": {}, "merges": []}', "version"),
    ('{"format": "bpe-lens", "version": 1, "merges": []}', 'missing "vocab"'),
    ('{"format": "bpe-lens", "version": 1, "vocab": {"a": 0}, "merges": [["a", "b", 3]]}', "not in the vocab"),
    ('{"format": "bpe-lens", "version": 1, "vocab": {"a": -4}, "merges": []}', "bad id"),
    ('{"format": "bpe-lens", "version": 1, "unit": "bytes", "vocab": {"a b": 0}, "merges": []}', "glyphs"),
    ('{"format": "bpe-lens", "version": 1, "vocab": {"a": 0}, "merges": [["a"]]}', "merge 1"),
    ('{"format": "bpe-lens", "version": 1, "vo', "JSON"),
])
def test_bad_native_files(tmp_path, content, message):
    p = tmp_path / "bad.json"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(BPELensError, match=message):
        read_native(str(p))
