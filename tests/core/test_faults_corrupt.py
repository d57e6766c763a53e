"""A corrupt file of every format (truncated, bytes flipped) is read, or refused with a
:class:`BPELensError`; never another exception, not even later, when the model it gave is used."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Dict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_core.cli.vocab import describe
from bpe_core.encoding.encoder import Encoder
from bpe_core.formats.detect import open_vocabulary, write_vocabulary
from bpe_core.formats.writers import tokenizer_json_text
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError

WORDS = {"hello": 5, "world": 3, "low": 4, "lower": 2, "newest": 6, "widest": 3, "héllo": 2}
TEXT = "hello lower newest wörld <|endoftext|> 42"


def _files(fmt: str, preset: str, name: str) -> Dict[str, bytes]:
    t = Trainer(WORDS, make_config(preset, num_merges=12))
    t.run()
    with tempfile.TemporaryDirectory() as d:
        write_vocabulary(t.model(), Path(d) / name, fmt)
        return {str(p.relative_to(d)): p.read_bytes() for p in Path(d).rglob("*") if p.is_file()}


def _sentencepiece() -> Dict[str, bytes]:
    spm = pytest.importorskip("sentencepiece")
    with tempfile.TemporaryDirectory() as d:
        text = Path(d) / "t.txt"
        text.write_text("\n".join(f"{w} " * n for w, n in WORDS.items()) * 30, encoding="utf-8")
        spm.SentencePieceTrainer.train(input=str(text), model_prefix=f"{d}/m", vocab_size=40, model_type="bpe",
                                       minloglevel=2)
        return {"m.model": Path(f"{d}/m.model").read_bytes()}


#: format -> (how to make its files, the path to open inside the folder)
CASES = {
    "native": (lambda: _files("native", "gpt2", "v.json"), "v.json"),
    "tokenizer.json": (lambda: _files("tokenizer.json", "gpt2", "tokenizer.json"), "tokenizer.json"),
    "vocab-merges": (lambda: _files("vocab-merges", "gpt2", "."), "vocab.json"),
    "tiktoken": (lambda: _files("tiktoken", "gpt2", "r.tiktoken"), "r.tiktoken"),
    "seed000": (lambda: _files("seed000", "nltk-wordpunct", "."), "."),
    "sentencepiece": (_sentencepiece, "m.model"),
}
_made: Dict[str, Dict[str, bytes]] = {}


def originals(fmt: str) -> Dict[str, bytes]:
    if fmt not in _made:
        _made[fmt] = CASES[fmt][0]()
    return _made[fmt]


def damage(data: bytes, how: str, at: float, flips) -> bytes:
    cut = int(at * len(data))
    if how == "truncate":
        return data[:cut]
    out = bytearray(data)
    for pos, value in flips:
        out[int(pos * (len(out) - 1))] = value
    return bytes(out)


def use(model) -> None:
    """What inspect, encode and convert do with a model that was read."""
    describe(model, "fuzz")
    Encoder(model).encode(TEXT)
    if model.unit == "bytes" and model.algorithm != "seed000-greedy":
        try:
            tokenizer_json_text(model)
        except BPELensError:
            pass


@pytest.mark.parametrize("fmt", list(CASES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 2), how=st.sampled_from(["truncate", "flip"]), at=st.floats(0, 1),
       flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), min_size=1, max_size=4))
def test_corrupt_file_is_read_or_refused_in_one_line(fmt: str, which: int, how: str, at: float, flips) -> None:
    files = originals(fmt)
    victim = sorted(files)[which % len(files)]
    with tempfile.TemporaryDirectory() as d:
        for name, data in files.items():
            (Path(d) / name).write_bytes(damage(data, how, at, flips) if name == victim else data)
        open_and_use(Path(d) / CASES[fmt][1], pattern=r"\w+| ?[^\w\s]+|\s+")


def open_and_use(path: Path, **kw) -> None:
    """A damaged file is refused in one clear line, or read and then used without a crash (a refusal in use
    is a BPELensError too, never a KeyError or a traceback)."""
    try:
        model = open_vocabulary(path, **kw)
    except BPELensError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    try:
        use(model)
    except BPELensError:
        pass


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**13) | st.floats(allow_nan=False)
                           | st.text(max_size=4), lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=6)


def replace_somewhere(doc, pick: float, value):
    """``doc`` with one of its values (chosen by ``pick`` among all, depth first) replaced by ``value``."""
    slots = []

    def walk(node, parent, key):
        slots.append((parent, key))
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, child in list(children):
            walk(child, node, k)

    walk(doc, None, None)
    parent, key = slots[int(pick * (len(slots) - 1))]
    if parent is None:
        return value
    parent[key] = value
    return doc


@pytest.mark.parametrize("fmt", ["native", "tokenizer.json", "vocab-merges", "seed000"])
@settings(max_examples=80, deadline=None)
@given(which=st.integers(0, 2), pick=st.floats(0, 1), value=JSON_VALUES)
def test_wrong_json_type_anywhere_is_read_or_refused(fmt: str, which: int, pick: float, value) -> None:
    import json
    files = originals(fmt)
    victims = sorted(n for n in files if n.endswith(".json"))
    victim = victims[which % len(victims)]
    with tempfile.TemporaryDirectory() as d:
        for name, data in files.items():
            if name == victim:
                data = json.dumps(replace_somewhere(json.loads(data), pick, value)).encode("utf-8")
            (Path(d) / name).write_bytes(data)
        open_and_use(Path(d) / CASES[fmt][1])


def test_a_native_merge_whose_result_is_not_in_the_vocab_is_refused(tmp_path) -> None:
    """Found by the hypothesis test above: merges naming two tokens of the vocab whose
    concatenation is not one (a KeyError when the model was used) are refused when read."""
    import json

    from bpe_core.formats.native import write_native
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer

    trainer = Trainer.from_texts(["low lower lowest"], make_config("char-hf", num_merges=2))
    trainer.run()
    path = tmp_path / "v.json"
    write_native(trainer.model(), str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["merges"][0][:2] = ["w", "l"]  # both tokens exist; "wl" does not
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BPELensError) as err:
        open_vocabulary(path)
    assert str(err.value) == f"{path}: merge 1 makes 'wl', which is not in the vocab"
