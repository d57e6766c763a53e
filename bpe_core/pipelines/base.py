"""The one contract every text pipeline keeps: :class:`TextPipeline`.

A pipeline cuts text into :class:`~bpe_core.types.Piece` objects (normalized text + the span it
came from; specials whole). Four families implement it: a vocabulary trained here
(:class:`~bpe_core.pipelines.chain.Pipeline`, the trainer's own chain), a ``tokenizer.json``
(:class:`~bpe_core.pipelines.hf.HFPipeline`), a tiktoken file
(:class:`~bpe_core.pipelines.tiktoken.RegexPipeline`) and a SentencePiece model
(:class:`~bpe_core.pipelines.sentencepiece.SentencePiecePipeline`). The encoder, the replay and
the writers call these members directly: no ``getattr`` probing for optional methods.

>>> from bpe_core.pipelines.chain import Pipeline
>>> from bpe_core.types import TrainerConfig
>>> isinstance(Pipeline(TrainerConfig(), {}), TextPipeline)
True
"""
from __future__ import annotations

from typing import Dict, List, Optional, Protocol, Union, runtime_checkable

from bpe_core.types import Piece


@runtime_checkable
class TextPipeline(Protocol):
    #: True when the pipeline carries the unit mapper its pieces start from (a vocabulary trained here:
    #: the config's unit and the pre-tokenizer's suffix rule, :attr:`~bpe_core.pipelines.chain.Pipeline.units`);
    #: False when the model's unit and affixes decide (every imported format).
    decides_symbols: bool

    def split(self, text: str) -> List[Piece]:
        """Pieces of ``text`` with spans into it; specials come out whole with their id."""
        ...

    def split_words(self, text: str) -> List[Union[str, int]]:
        """The same pieces' texts (str) and specials' ids (int), without spans: the fast path."""
        ...

    def matched_specials(self) -> Optional[Dict[str, int]]:
        """Special texts this pipeline cuts out of text whole (a writer lists them as added tokens);
        None: the model's own specials."""
        ...


class ImportedSymbols:
    """The symbol half of :class:`TextPipeline` for the imported families: the model's unit and
    affixes decide (:attr:`bpe_core.model.BPEModel.units`)."""

    decides_symbols = False
