"""What ``train`` and ``curves`` share: the training options (the preset and every setting of the app's
training dialog) and the trainer they make, counted from the corpus as ``train`` counts it.

``curves CORPUS --preset P`` trains its run exactly as ``train CORPUS --preset P`` would: the same flags,
the same config (:func:`bpe_core.cli.commands.train_config`) and the same trainer (:func:`new_trainer`).
"""
from __future__ import annotations

import argparse
from typing import Callable, List, Optional

from bpe_core.cli.progress import ProgressBar
from bpe_core.cli.train_variants import variant_trainer
from bpe_core.types import TIE_BREAKS, TrainerConfig


def add_training_options(p: argparse.ArgumentParser,
                         after_preset: Optional[Callable[[argparse.ArgumentParser], None]] = None) -> None:
    """--preset, the word and unit settings, the stop rules, --min-*, --tie-break and --errors
    (``after_preset(p)`` adds options listed right after --preset: train's --from)."""
    from bpe_core.presets import PRESETS
    from bpe_core.pretokenize.pretokenizers import PRETOKENIZERS
    p.add_argument("--preset", choices=list(PRESETS), metavar="NAME",
                   help="one of: " + ", ".join(f"{n} ({pr.reproduces})" for n, pr in PRESETS.items()))
    if after_preset is not None:
        after_preset(p)
    p.add_argument("--pretokenizer", choices=list(PRETOKENIZERS), metavar="NAME",
                   help="how the text is cut into words: one of " + ", ".join(PRETOKENIZERS))
    p.add_argument("--pattern", metavar="REGEX",
                   help="your own word pattern (regex module syntax); implies --pretokenizer regex")
    p.add_argument("--unit", choices=("chars", "bytes"), help="merge characters or UTF-8 bytes")
    p.add_argument("--suffix", metavar="STR", help="end-of-word suffix such as '</w>' ('' for none)")
    p.add_argument("--lowercase", action=argparse.BooleanOptionalAction, default=None,
                   help="lowercase the text before pre-tokenizing (--no-lowercase turns a preset's off)")
    p.add_argument("--special", action="append", metavar="TOKEN",
                   help="a special token (repeat for several; replaces the preset's)")
    size = p.add_argument_group("stop rules", "give one or both: training stops at whichever comes first")
    size.add_argument("--vocab-size", type=int, help="stop when the vocabulary has this many tokens")
    size.add_argument("--merges", type=int, help="stop after this many merges")
    p.add_argument("--min-frequency", type=int, help="stop when the best pair occurs fewer times than this")
    p.add_argument("--min-word-count", type=int, help="ignore words seen fewer times than this")
    p.add_argument("--tie-break", choices=TIE_BREAKS, help="which pair wins among equal counts")
    p.add_argument("--errors", choices=("strict", "replace"), default="strict",
                   help="undecodable bytes: stop with an error (strict) or decode them as U+FFFD (replace)")


def new_trainer(args: argparse.Namespace, cfg: TrainerConfig, paths: List, start=None):
    """The trainer of ``cfg`` at merge 0, counted with progress on stderr (unless ``args.quiet``): a
    variant's own (SuperBPE's stage 2 after its stage 1, parity-aware), the continuation of the vocabulary
    ``start`` (``train --from``), else the plain or PickyBPE trainer over ``paths``; a vocab size below
    what training starts with is refused here, before any merge."""
    from bpe_core.base.config import check_vocab_size
    from bpe_core.corpus.files import count_words_in_files
    from bpe_core.training.trainer import Trainer
    quiet = args.quiet
    trainer = variant_trainer(args, cfg, paths, ProgressBar) if start is None else None  # superbpe, parity
    with ProgressBar("counting") as counting:  # a variant's own trainer has counted already
        if trainer is None and start is None:
            counts = count_words_in_files(paths, cfg, progress=None if quiet else counting, errors=args.errors)
            trainer = Trainer(counts, cfg, lazy_index=True)  # trained and saved: a big corpus runs flat
            del counts  # the trainer keeps the words and counts it needs: the table's room goes to the merges
        elif trainer is None:
            from bpe_core.training.continuing import continue_training
            trainer = continue_training(start, paths, config=cfg, progress=None if quiet else counting,
                                        errors=args.errors, lazy_index=True)
    check_vocab_size(cfg, trainer.initial_vocab_size, None if start is None else "the vocabulary it continues")
    return trainer
