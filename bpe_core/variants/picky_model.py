"""PickyBPE runs as models the reference's model file holds: the fast Trainer set up as the reference trains
(:func:`reference_trainer`, :func:`reference_model`) and the standalone PickyTrainer's run.

A thin wrapper: the model file has one home, :mod:`bpe_core.formats.picky_file` (written from and read
into a BPEModel of algorithm ``"picky"``), and the encoder one too, :mod:`bpe_core.encoding.picky`.

>>> from bpe_core.variants.picky import PickyTrainer
>>> trainer = PickyTrainer("aaab aaab aab", vocab_size=10, threshold=0.5)
>>> steps = trainer.train()
>>> model = json.loads(model_text(trainer))
>>> [t["str"] for t in model["tokens"] if not t["present"]]
['aa', '▁aa', 'ab']
>>> encoder_of_model(model).encode_line("aaab ab")
['▁aaab', '▁', 'a', 'b']
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, List, Optional

from bpe_core.formats.picky_file import PickyWords, model_of_picky, picky_dict
from bpe_core.model import BPEModel

if TYPE_CHECKING:
    from bpe_core.variants.picky import PickyTrainer


def trainer_model(trainer: "PickyTrainer") -> BPEModel:
    """The trainer's run as a picky BPEModel: every token ever made by id, merges, removals, final freqs."""
    tokens: List[Optional[str]] = [None] * len(trainer.strs)
    for i in trainer.order:
        tokens[i] = trainer.strs[i]
    merges, removals = [], []
    for event in trainer.events:
        if event[0] == "merge":
            merges.append(tuple(event[1]))
        else:
            removals.append((len(merges), event[1], tuple(event[2])))
    specials = {trainer.strs[i]: i for i in trainer.order if trainer.special[i]}
    return BPEModel(unit="chars", tokens=tokens, merges=merges, specials=specials, pipeline=PickyWords(),
                    algorithm="picky", unk_id=specials.get("<UNK>"), removals=removals,
                    extras={"token_freqs": list(trainer.freq)})


def reference_trainer(text: str, vocab_size: int, threshold: float):
    """The fast Trainer set up as ``bpe_trainer.py`` trains: its words (``▁`` + each whitespace word, in
    first-seen order), its four specials first, characters in first-seen order, its pair-table tie order,
    PickyBPE with τ = ``threshold`` (the rule applies the reference's character coverage, 0.9999: its rarest
    characters become ``<UNK>``). :func:`reference_model` makes the run's model the reference's file can hold.

    >>> t = reference_trainer("aaab aaab aab", vocab_size=10, threshold=0.5)
    >>> _ = t.run(); [t.display(s.new_id) for s in t.history]
    ['aa', '▁aa', 'ab', '▁aaab', 'aa', '▁aa', '▁aab']
    """
    from collections import Counter
    from bpe_core.formats.picky_file import SPECIALS, WHITESPACE
    from bpe_core.training.trainer import Trainer
    from bpe_core.types import TrainerConfig
    config = TrainerConfig(variant="picky", ios_threshold=threshold, tie_break="table-order",
                           alphabet_order="first-seen", special_tokens=SPECIALS, vocab_size=vocab_size,
                           min_frequency=0)
    return Trainer({WHITESPACE + w: c for w, c in Counter(text.split()).items()}, config)


def reference_model(trainer) -> BPEModel:
    """A :func:`reference_trainer` run's model with ``picky_tokenize.py``'s words: it encodes as the reference
    and writes as its model file (``write_vocabulary(model, path, "picky")``)."""
    model = trainer.model()
    model.pipeline, model.unk_id, model.algorithm = PickyWords(), model.specials.get("<UNK>"), "picky"
    return model


def model_dict(trainer: "PickyTrainer") -> dict:
    """The model as ``BPE._dump`` builds it (integer keys; JSON makes them strings)."""
    return picky_dict(trainer_model(trainer))


def model_text(trainer: "PickyTrainer") -> str:
    """The model file's text, byte for byte what the reference writes (``json.dump(..., indent=4)``)."""
    return json.dumps(model_dict(trainer), indent=4)


class _LineEncoder:
    def __init__(self, model: BPEModel) -> None:
        from bpe_core.encoding.encoder import Encoder
        self.encoder = Encoder(model)

    def encode_line(self, line: str) -> List[str]:
        """Token strings of one line, as ``picky_tokenize.py --return_type str`` writes them."""
        return [t.raw for t in self.encoder.encode(line).tokens]  # type: ignore[misc]


def encoder_of_model(model: dict) -> _LineEncoder:
    """An encoder for a model file's content (written by the reference or by ``model_text``)."""
    return _LineEncoder(model_of_picky(model))
