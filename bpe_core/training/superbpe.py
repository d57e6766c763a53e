"""SuperBPE's stage 2 as a training rule: continue a stage-1 model on the same corpus cut into superword units.

Liu et al. (COLM 2025; PythonNut/superbpe with its tokenizers fork alisawuffles/tokenizers-superbpe,
``BpeTrainer::do_train_extend``). Stage 1 is ordinary BPE up to the transition point; stage 2 counts the
corpus again with the stage-2 pre-tokenizer (``superbpe-stage2``: only digits, runs of punctuation and
trailing spaces are cut, so units span words), replays the inherited merges on those units and learns
new merges on top, with two filters on the would-be token. Here, as in the fork:

* **the replay** (fork step 5): the inherited merges in order; one whose pair never occurs in the stage-2
  units up to its turn is *dropped from the model* (its token is not added, so later ids move down). The
  new model's ids are the fork's: specials and the stage-2 alphabet as stage 1 orders them, then the
  token of each kept merge. ``config.transition`` is the number of stage-1 merges handed over; the
  authors' scripts hand over ``head -n t merges.txt``, whose first line is ``#version``: their t is our
  ``transition = t - 1``.
* **the filters** (:func:`~bpe_core.training.superwords.allows`, asked by the trainer through
  :func:`bpe_core.training.rules.pair_filter`): no token containing a colon followed by a space, none of more than
  4 space-separated words. A pair refused is skipped and never merged.
* the new merges follow the config's tie rule (the fork's is ``hf``: highest count, then smallest ids).

The result is an ordinary :class:`~bpe_core.training.trainer.Trainer` whose base merges are the kept
inherited ones: undo stops there, and its model encodes through the stage-2 pre-tokenizer, as the
authors' tokenizer.json does.

>>> stage2_config(TrainerConfig(variant="superbpe", transition=5, num_merges=8)).num_merges
3
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

import numpy as np

from bpe_core.base.config import check_config, config_to_dict
from bpe_core.model import BPEModel
from bpe_core.training.config import alphabet_order
from bpe_core.training.memory import gc_paused
from bpe_core.training import superbpe_replay as replay
from bpe_core.training.superbpe_chunks import cut_chunks
from bpe_core.training.superwords import MAX_WORDS, allows
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError, Progress, Raw, TrainerConfig

__all__ = ["MAX_WORDS", "STAGE2_PRETOKENIZER", "allows", "inherit", "inherit_flat", "stage1_config", "stage2_config",
           "stage2_trainer", "superbpe_trainer"]

PathLike = Union[str, Path]
STAGE2_PRETOKENIZER = "superbpe-stage2"


def stage1_config(config: TrainerConfig) -> TrainerConfig:
    """Stage 1 of a SuperBPE config: plain BPE that stops at the transition point."""
    _check(config)
    if config.pretokenizer == STAGE2_PRETOKENIZER:
        raise BPELensError(f"SuperBPE's stage 1 cuts text into words: the pre-tokenizer {STAGE2_PRETOKENIZER!r} "
                           "is its stage 2's (pick a preset's pre-tokenizer for stage 1)")
    return replace(config, variant="bpe", transition=None, num_merges=config.transition, vocab_size=None)


def stage2_config(config: TrainerConfig, inherited: Optional[int] = None) -> TrainerConfig:
    """Stage 2 of a SuperBPE config: the stage-2 pre-tokenizer; ``vocab_size`` counts the whole vocabulary,
    ``num_merges`` (if set: all merges, both stages) becomes the merges left after the ``inherited`` ones
    (default: the transition point).

    A config that is stage 2's already (its pre-tokenizer is stage 2's, which stage 1 refuses: a stage-2
    trainer's own settings, as a workspace saves a SuperBPE branch) is returned as it is: deriving it again
    took the inherited merges off ``num_merges`` twice, and a restored branch stopped short."""
    _check(config)
    if config.pretokenizer == STAGE2_PRETOKENIZER:
        return config
    done = config.transition if inherited is None else inherited
    left = None if config.num_merges is None else max(0, config.num_merges - done)  # type: ignore[operator]
    return replace(config, pretokenizer=STAGE2_PRETOKENIZER, pattern=None, num_merges=left)


def _check(config: TrainerConfig) -> None:
    if config.variant != "superbpe":
        raise BPELensError(f"a SuperBPE run needs variant 'superbpe', not {config.variant!r}")
    check_config(config)
    if config.end_of_word_suffix or config.lowercase_words or config.encode_mode != "merges":
        raise BPELensError(f"SuperBPE merges across words: the preset {config.preset!r} (an end-of-word "
                           "suffix, words lowercased after cutting or a greedy encoder) cannot be continued so")


def superbpe_trainer(path_or_paths: Union[PathLike, Sequence[PathLike]], config: TrainerConfig, start: BPEModel, *,
                     progress: Optional[Callable[[Progress], None]] = None,
                     cancel: Optional[Callable[[], bool]] = None, errors: str = "strict",
                     lazy_index: bool = False) -> Trainer:
    """A trainer at the start of stage 2: ``start`` (stage 1, ``config.transition`` merges) replayed on
    the corpus cut by the stage-2 pre-tokenizer, ready to learn superword merges up to the config's stop
    rules (``vocab_size``: the whole vocabulary)."""
    _check(config)
    if start.algorithm != "merges" or start.removals:
        raise BPELensError("SuperBPE continues a plain BPE vocabulary (ranked merges, nothing removed)")
    if len(start.merges) != config.transition:
        raise BPELensError(f"the transition point is {config.transition} merges but the vocabulary has "
                           f"{len(start.merges)}")
    if start.unit != config.unit:
        raise BPELensError(f"the vocabulary is {start.unit}-level but the settings say {config.unit}")
    paths = [path_or_paths] if isinstance(path_or_paths, (str, Path)) else list(path_or_paths)
    from bpe_core.corpus.files import count_words_in_files
    cfg = stage2_config(config)
    counts = count_words_in_files([Path(p) for p in paths], cfg, progress=progress, cancel=cancel, errors=errors)
    model, segments = inherit(start, counts, cfg, cancel=cancel)
    return stage2_trainer(counts, config, model, segments, lazy_index=lazy_index)


def stage2_trainer(counts: Dict[str, int], config: TrainerConfig, model: BPEModel,
                   segments: List[List[int]], *, lazy_index: bool = False) -> Trainer:
    """The stage-2 trainer on the replay's result (``model``, ``segments``: :func:`inherit`'s), built with the
    cyclic collector off: its millions of long-lived lists would make it walk them again and again.
    ``lazy_index``: :class:`Trainer`'s (a command that runs and saves never builds the pair index)."""
    with gc_paused():
        return Trainer(counts, stage2_config(config, len(model.merges)), start=model, segments=segments,
                       lazy_index=lazy_index)


def inherit(start: BPEModel, counts: Dict[str, int], cfg: TrainerConfig, *,
            cancel: Optional[Callable[[], bool]] = None) -> Tuple[BPEModel, List[List[int]]]:
    """The fork's replay of ``start``'s merges on the stage-2 words ``counts``: the model of the kept
    merges (the fork's ids) and each word's token ids in it after them (the words ``cfg.min_word_count``
    keeps, in order: what :class:`~bpe_core.training.trainer.Trainer` takes as ``segments``).

    A word is cut where no inherited token holds the two units on either side of a space (no merge can join
    there), each distinct chunk is merged by rank (the same as the fork's merge-by-merge replay: a merge's pair
    forms only after the merges that make its parts), and a merge is kept when its pair was ever adjacent
    (:func:`inherit_flat`; the work: :mod:`~bpe_core.training.superbpe_replay`).
    """
    model, ids, lens = inherit_flat(start, counts, cfg, cancel=cancel)
    # one int object per id, shared by every unit (4M ints of their own would take 112 MB more); the last is -1
    shared = np.array([*range(len(model.tokens)), -1], dtype=object)[ids]
    del ids
    flat = shared.tolist()
    del shared
    ends = np.cumsum(lens).tolist()
    with gc_paused():  # millions of lists that outlive the replay: no collections over them
        return model, [flat[a:b] for a, b in zip([0] + ends, ends)]


def inherit_flat(start: BPEModel, counts: Dict[str, int], cfg: TrainerConfig, *,
                 cancel: Optional[Callable[[], bool]] = None) -> Tuple[BPEModel, np.ndarray, np.ndarray]:
    """:func:`inherit` flat: the model, every kept word's ids in the model one after the other (int64) and each
    word's number of ids (int64)."""
    from bpe_core.pipelines.chain import Pipeline
    units = Pipeline(cfg).units
    least = max(1, cfg.min_word_count)
    words = [w for w, c in counts.items() if c >= least]
    special = set(start.specials.values())
    joins = _joins([t for i, t in enumerate(start.tokens) if i not in special and t is not None])
    ids = {t: i for i, t in enumerate(start.tokens) if t is not None and i not in special}
    ranks = {(a, b): (r, ids[start.tokens[a] + start.tokens[b]])  # type: ignore[operator]
             for r, (a, b) in enumerate(start.merges)}
    free = _free(joins, cfg.unit)
    data, lens, occurrences, per_word = cut_chunks(words, free, _space_cutter(joins, cfg.unit), cancel)
    plain = getattr(units, "plain", None)  # another mapper than base.units' is cut word by word
    base = len(start.tokens)  # the strangers' ids start here
    unit_ids, lens, alphabet = replay.chunk_units(data, lens, units.symbols, ids, base, plain)
    strangers = [u for u in alphabet if u not in ids]
    table = replay.rank_table(ranks, base + len(strangers))
    if plain == "bytes":
        merged, lens, seen = replay.merge_pieces(data, lens, unit_ids, joins, table, cancel)  # type: ignore[arg-type]
    else:
        merged, lens, seen = replay.merge_by_rank(unit_ids, lens, table, cancel)
    pairs = {(a, b) for a, b in (start.merges[r] for r in np.flatnonzero(seen).tolist())}
    model = _kept_model(start, cfg, dict.fromkeys(alphabet), pairs)
    # start's ids -> the model's (every id below ``base``), then the strangers' (``base + k``)
    new = {t: i for i, t in enumerate(model.tokens)}
    final = [new.get(t, -1) for t in start.tokens] + [new[u] for u in strangers]
    flat, word_lens = replay.expand(np.array(final, np.int64)[merged], lens, occurrences, per_word)
    return model, flat, word_lens


def _joins(tokens: List[Raw]) -> Set[Raw]:
    """Every two adjacent units inside some token: the only places a merge can join."""
    out: Set[Raw] = set()
    for t in tokens:
        out.update(t[i:i + 2] for i in range(len(t) - 1))  # type: ignore[index]
    return out


def _free(joins: Set[Raw], unit: str) -> List[str]:
    """The ASCII characters no token joins to a following space (a word is cut before such a space)."""
    space: Raw = b" " if unit == "bytes" else " "
    return [chr(c) for c in range(128) if chr(c) != " " and
            (bytes([c]) if unit == "bytes" else chr(c)) + space not in joins]  # type: ignore[operator]


def _space_cutter(joins: Set[Raw], unit: str) -> Callable[[str], List[str]]:
    """Cuts a word before each space that follows an ASCII character no token joins to a space (``" the"
    " cat"``): no merge can cross there, so each chunk is segmented alone (and once)."""
    import re
    free = _free(joins, unit)
    if not free:
        return lambda word: [word]
    return re.compile("(?<=[" + "".join(re.escape(c) for c in free) + "])(?= )").split


def _kept_model(start: BPEModel, cfg: TrainerConfig, alphabet: Dict[Raw, None],
                seen: Set[Tuple[int, int]]) -> BPEModel:
    """The model of the merges the fork keeps, with the fork's ids: specials and the stage-2 alphabet as
    the trainer orders them, then each kept merge's new token."""
    tokens: List[Raw] = []
    ids: Dict[Raw, int] = {}
    specials: Dict[str, int] = {}

    def add(raw: Raw) -> int:
        if raw not in ids:
            ids[raw] = len(tokens)
            tokens.append(raw)
        return ids[raw]

    def add_specials() -> None:
        for text in cfg.special_tokens:
            specials[text] = add(text)

    if cfg.specials_position == "first":
        add_specials()
    for sym in alphabet_order(dict(alphabet), cfg):
        add(sym)
    if cfg.specials_position == "after-alphabet":
        add_specials()
    old = start.tokens
    merges: List[Tuple[int, int]] = []
    counts: List[Optional[int]] = []
    for (a, b), count in zip(start.merges, start.merge_counts):
        if (a, b) not in seen or old[a] not in ids or old[b] not in ids:
            continue  # the fork: "not found in queue" / "not found in word_to_id": skipped, left out
        merges.append((ids[old[a]], ids[old[b]]))  # type: ignore[index]
        counts.append(count)
        add(old[a] + old[b])  # type: ignore[operator]
    return BPEModel(unit=cfg.unit, tokens=tokens, merges=merges, merge_counts=counts, specials=specials,
                    name=cfg.preset, source_format="native", config=config_to_dict(cfg))
