"""Training further from a loaded vocabulary: its merges stay the first ranks, new ones follow.

Users have asked ``tokenizers`` for this for years (tokenizers#839). What must carry over is the
vocabulary's own way of cutting text, or the new merges are learned on words its encoder never sees:

* a vocabulary trained here (native file, or a trainer's model) keeps its stored settings: the corpus is
  counted with its pre-tokenizer, exactly as a single long run would have counted it;
* an imported one (tokenizer.json, vocab.json + merges.txt, .tiktoken, ...) keeps its **pipeline**: the
  corpus is cut by that pipeline (normalizer, pre-tokenizer and added tokens, e.g. NeoX's NFC and its
  runs of spaces), words start from the symbols its encoder starts from
  (the model's unit mapper, :attr:`bpe_core.model.BPEModel.units`), and the continued model encodes through it.

Only the stop rules come from the caller: ``merges`` counts the *new* merges, ``vocab_size`` the whole
vocabulary. Ties among the new merges follow ``tie_break`` (the model's own for a native file, else
``hf``).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, Optional, Sequence, Union

from bpe_core.model import BPEModel
from bpe_core.base.config import check_config
from bpe_core.training.config import config_of, keeps_its_pipeline
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError, Progress, TrainerConfig

PathLike = Union[str, Path]


def continued_config(model: BPEModel, *, merges: Optional[int] = None, vocab_size: Optional[int] = None,
                     **overrides) -> TrainerConfig:
    """The model's settings (:func:`config_of`) with the caller's stop rules (and other overrides)."""
    cfg = replace(config_of(model), num_merges=merges, vocab_size=vocab_size,
                  **{k: v for k, v in overrides.items() if v is not None})
    check_config(cfg)
    return cfg


def pipeline_word_counts(model: BPEModel, paths: Sequence[PathLike], *, errors: str = "strict",
                         progress: Optional[Callable[[Progress], None]] = None,
                         cancel: Optional[Callable[[], bool]] = None) -> Dict[str, int]:
    """The words of ``paths`` as ``model``'s own pipeline cuts them (lines read as tokenizers reads
    them: each keeps its ``\\n``, a ``\\r`` stays), in order of first appearance; specials left out."""
    from bpe_core.corpus.counting import read_text
    split = model.pipeline.split_words  # type: ignore[union-attr]
    counts: Dict[str, int] = {}
    get = counts.get
    for path in paths:
        text = read_text(path, errors=errors, progress=progress, cancel=cancel, as_tokenizers=True)
        for k, line in enumerate(_lf_lines(text)):
            if cancel is not None and k & 1023 == 0 and cancel():
                from bpe_core.types import Cancelled
                raise Cancelled()
            for word in split(line):
                if isinstance(word, str) and word:
                    counts[word] = get(word, 0) + 1
    if not counts:
        raise BPELensError("the vocabulary's pre-tokenizer found no words in the corpus")
    return counts


def _lf_lines(text: str):
    """Lines ending at ``\\n`` only, each keeping it (``splitlines`` would also cut at ``\\r``, ``\\x0c``, ...)."""
    lines = text.split("\n")
    last = lines.pop()
    yield from (line + "\n" for line in lines)
    if last:
        yield last


def continue_training(model: BPEModel, paths: Union[PathLike, Sequence[PathLike]], *,
                      config: Optional[TrainerConfig] = None, progress: Optional[Callable[[Progress], None]] = None,
                      cancel: Optional[Callable[[], bool]] = None, errors: str = "strict",
                      lazy_index: bool = False) -> Trainer:
    """A trainer at the end of ``model``'s merges on the corpus ``paths`` (undo stops there).

    ``config`` defaults to :func:`continued_config` (the model's settings, no stop rule); ``lazy_index``:
    :class:`Trainer`'s (``train --from`` trains and saves: a big corpus runs flat).
    """
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    cfg = config or continued_config(model)
    if keeps_its_pipeline(model):
        counts = pipeline_word_counts(model, paths, errors=errors, progress=progress, cancel=cancel)
        return Trainer(counts, cfg, symbols_fn=model.units.symbols, start=model, lazy_index=lazy_index)
    from bpe_core.corpus.files import count_words_in_files
    counts = count_words_in_files([Path(p) for p in paths], cfg, progress=progress, cancel=cancel, errors=errors)
    return Trainer(counts, cfg, start=model, lazy_index=lazy_index)
