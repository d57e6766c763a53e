"""PickyBPE's words ("▁" + each whitespace-separated string) have one home: the "picky" pre-tokenizer
(bpe_core/pretokenize/metaspace.py). The model file's pipeline (formats/picky_file.PickyWords) and the Trainer
set up as the reference trains (variants/picky_model.reference_trainer) cut text through it, with the same
result as before on the goldens' held-out and training texts (CRLF, tabs, NBSP and every str.isspace
character): ``str.split()``'s words, each piece spanning its word, its "▁" on the word's first character."""
from __future__ import annotations

import json

import pytest

from bpe_core.formats.picky_file import PickyWords
from bpe_core.pretokenize.metaspace import MetaspaceWords
from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
from bpe_core.variants.picky_model import reference_trainer
from .test_variant_picky import GOLDENS, slice_text

SPACES = "".join(chr(c) for c in range(0x3001) if chr(c).isspace()) + "\u2028\u2029\u202f\u205f\u3000"
PROBE = f" To be,\tor\u3000not\x1cto-be:\u2028▁that's\r\n\u00a0the  question.\x85 42{SPACES}end\r"


def expected_pieces(text: str) -> list:
    """What PickyWords cut before it went through the pre-tokenizer: ``str.split()`` and each word's place."""
    out, pos = [], 0
    for word in text.split():
        start = text.index(word, pos)
        pos = start + len(word)
        out.append(("\u2581" + word, start, pos, [(start, start + 1)] + [(i, i + 1) for i in range(start, pos)]))
    return out


def texts():
    yield "probe", PROBE
    for path in GOLDENS[:2]:  # one per corpus (the slices are the same at each threshold)
        golden = json.loads(path.read_text(encoding="utf-8"))
        yield path.stem + " held out", slice_text(golden["heldout"])
        yield path.stem + " train", slice_text(golden["train"])[:200_000]


@pytest.mark.parametrize("name,text", list(texts()), ids=lambda x: x if len(x) < 40 else "")
def test_picky_words_cut_as_before_and_as_the_pre_tokenizer(name, text):
    words = PickyWords()
    got = [(p.text, p.start, p.end, p.meta["align"]) for p in words.split(text)]
    assert got == expected_pieces(text)
    assert words.split_words(text) == ["\u2581" + w for w in text.split()]
    pre = PRETOKENIZERS["picky"]
    assert [(p.text, p.start, p.end) for p in pre.pieces(text)] == [g[:3] for g in got]
    assert pre.words(text) == words.split_words(text)


def test_the_cut_has_one_home(monkeypatch):
    calls = []
    for name in ("words", "pieces"):
        real = getattr(MetaspaceWords, name)
        monkeypatch.setattr(MetaspaceWords, name,
                            lambda self, text, _real=real, _name=name: calls.append(_name) or _real(self, text))
    PickyWords().split("a b")
    PickyWords().split_words("a b")
    reference_trainer("a b a", vocab_size=8, threshold=0.9)
    assert calls == ["pieces", "words", "words"]
