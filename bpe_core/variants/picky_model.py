"""PickyBPE runs as models the reference's model file holds: the fast Trainer set up as the reference trains
(:func:`reference_trainer`, :func:`reference_model`); PickyBPE itself has one home, the Trainer's rule
(:mod:`bpe_core.training.picky`).

A thin wrapper: the model file has one home, :mod:`bpe_core.formats.picky_file` (written from and read
into a BPEModel of algorithm ``"picky"``), and the encoder one too, :mod:`bpe_core.encoding.picky`.

>>> from bpe_core.formats.picky_file import picky_text
>>> trainer = reference_trainer("aaab aaab aab", vocab_size=10, threshold=0.5)
>>> _ = trainer.run()
>>> model = json.loads(picky_text(reference_model(trainer)))
>>> [t["str"] for t in model["tokens"] if not t["present"]]
['aa', '▁aa', 'ab']
>>> encoder_of_model(model).encode_line("aaab ab")
['▁aaab', '▁', 'a', 'b']
"""
from __future__ import annotations

import json
from typing import List

from bpe_core.formats.picky_file import PickyWords, model_of_picky
from bpe_core.model import BPEModel


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
    from bpe_core.formats.picky_file import SPECIALS
    from bpe_core.training.trainer import Trainer
    from bpe_core.types import TrainerConfig
    config = TrainerConfig(variant="picky", ios_threshold=threshold, tie_break="table-order",
                           alphabet_order="first-seen", special_tokens=SPECIALS, vocab_size=vocab_size,
                           min_frequency=0)
    return Trainer(dict(Counter(PickyWords().split_words(text))), config)


def reference_model(trainer) -> BPEModel:
    """A :func:`reference_trainer` run's model with ``picky_tokenize.py``'s words: it encodes as the reference
    and writes as its model file (``write_vocabulary(model, path, "picky")``)."""
    model = trainer.model()
    model.pipeline, model.unk_id, model.algorithm = PickyWords(), model.specials.get("<UNK>"), "picky"
    return model


class _LineEncoder:
    def __init__(self, model: BPEModel) -> None:
        from bpe_core.encoding.encoder import Encoder
        self.encoder = Encoder(model)

    def encode_line(self, line: str) -> List[str]:
        """Token strings of one line, as ``picky_tokenize.py --return_type str`` writes them."""
        return [t.raw for t in self.encoder.encode(line).tokens]  # type: ignore[misc]


def encoder_of_model(model: dict) -> _LineEncoder:
    """An encoder for a model file's content (written by the reference or by ``picky_text``)."""
    return _LineEncoder(model_of_picky(model))
