"""``train --variant``: the training rules of docs/variants.md from the command line.

* ``--variant picky --ios-threshold T``: PickyBPE inside the trainer (the config carries the rule);
* ``--variant superbpe --transition N``: stage 1 (the preset, plain) to N merges, then stage 2 (the
  stage-2 pre-tokenizer, superword merges) to the stop rules; one output, stage 1's kept merges first (the
  summary says how many the stage-2 replay kept and dropped); a transition that leaves stage 2 no room is
  refused before reading when the alphabet is known (every byte), else after stage 1;
* ``--variant parity --languages DIR_OR_TABLE``: parity-aware BPE over per-language corpora.

A flag of one rule given with another rule, or a missing one, is a one-line error before any reading.
"""
from __future__ import annotations

import argparse
from typing import Callable, List, Optional

from bpe_core.cli.errors import UsageError
from bpe_core.cli.streams import mark_input, output_name
from bpe_core.types import VARIANTS, BPELensError, Progress, TrainerConfig

__all__ = ["add_variant_options", "check_variant_flags", "train_summary", "variant_settings", "variant_trainer"]


def add_variant_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("training rule", "a variant of BPE (docs/variants.md); plain BPE without --variant")
    g.add_argument("--variant", choices=VARIANTS, help="the training rule: " + ", ".join(VARIANTS))
    g.add_argument("--ios-threshold", type=float, metavar="T",
                   help="picky: remove a merged token's parent whose IoS reaches T (0-1; 1.0: plain BPE)")
    g.add_argument("--transition", type=int, metavar="N",
                   help="superbpe: stage 1 (plain BPE, the preset's pre-tokenizer) learns N merges, stage 2 the "
                        "rest (the authors' t keeps t - 1 merges: their t=20000 is --transition 19999)")
    g.add_argument("--parity-mode", choices=("base", "window", "hybrid", "ratio"),
                   help="parity: how the language to serve is chosen (the reference's variants; all but ratio "
                        "measure each language on the dev text: DIR/dev/, else the training text)")
    mark_input(g.add_argument("--languages", metavar="DIR_OR_TABLE",
                              help="parity: a folder of one .txt file per language (other files are not languages; dev "
                                   "text in its dev/, else the training text is measured), or a "
                                   "word-count table with a language column; replaces CORPUS"))


def check_variant_flags(args: argparse.Namespace) -> None:
    """Refuse flags of a rule not chosen, a rule missing its flag, and a transition beyond the target."""
    variant = args.variant or "bpe"
    if bool(args.corpus) == (variant == "parity"):
        raise UsageError("--variant parity reads --languages: drop CORPUS" if args.corpus
                         else "the following arguments are required: CORPUS", "train")
    for flag, value, rule in (("--ios-threshold", args.ios_threshold, "picky"),
                              ("--transition", args.transition, "superbpe"),
                              ("--languages", args.languages, "parity"),
                              ("--parity-mode", args.parity_mode, "parity")):
        if value is not None and variant != rule:
            raise BPELensError(f"{flag} is for --variant {rule}, not {variant}")
    if variant == "superbpe":
        if args.transition is None:
            raise BPELensError("--variant superbpe needs --transition N (the merges of stage 1)")
        if args.transition < 0:
            raise BPELensError(f"--transition must be 0 or more, not {args.transition}")
        if args.merges is not None and args.transition > args.merges:
            raise BPELensError(f"--transition {args.transition} is above the target of {args.merges} merges")
        if args.vocab_size is not None and args.transition >= args.vocab_size:
            raise BPELensError(f"--transition {args.transition} is above the target vocab size {args.vocab_size}")
    if variant == "parity" and args.languages is None:
        raise BPELensError("--variant parity needs --languages DIR_OR_TABLE (per-language corpora)")
    if variant != "bpe" and getattr(args, "from_vocab", None):
        raise BPELensError("--variant trains from a preset: drop --from")


def variant_settings(args: argparse.Namespace) -> dict:
    """The config overrides the rule's flags give (None: the preset's)."""
    return {"variant": args.variant, "ios_threshold": args.ios_threshold, "transition": args.transition,
            "parity_mode": args.parity_mode}


def variant_trainer(args: argparse.Namespace, cfg: TrainerConfig, paths: List, bar: Callable[[str], object]):
    """The trainer of a SuperBPE or parity-aware run, ready for its (stage-2) merges; None for a rule the
    ordinary trainer runs (plain, picky). ``bar(label)`` opens a progress bar (a context manager)."""
    if cfg.variant == "superbpe":
        return _superbpe(args, cfg, paths, bar)
    if cfg.variant == "parity":
        return _parity(args, cfg, bar)
    return None


def train_summary(args: argparse.Namespace, cfg: TrainerConfig, model, stats, stop_reason: Optional[str]) -> str:
    """The line ``train`` prints after writing ``model``: the merges the file holds (a SuperBPE run's by stage:
    stage 1's merges handed over, those the stage-2 replay kept, and stage 2's own), the vocab size, the stop
    rule and the units per token."""
    merges = f"{stats.merges} merges"
    if cfg.variant == "superbpe":
        total, stage2, handed = len(model.merges), stats.merges, cfg.transition
        kept = total - stage2
        stage1 = (f"{handed} handed over, all kept" if kept == handed else
                  f"{kept} of the {handed} handed over kept, the replay dropped {handed - kept} as the fork does")
        merges = f"{total} merges (stage 1: {stage1}; stage 2: {stage2})"
    unit = "bytes" if cfg.unit == "bytes" else "chars"
    return (f"{output_name(args.output)}: {merges}, vocab {stats.vocab_size}, stopped on {stop_reason}, "
            f"{stats.units_per_token:.2f} {unit}/token")


def _no_room(cfg: TrainerConfig, tokens: int) -> str:
    return (f"--transition {cfg.transition} is above the target: stage 1 ends with {tokens} tokens, --vocab-size "
            f"is {cfg.vocab_size}")


def _progress(args: argparse.Namespace, bar) -> Optional[Callable[[Progress], None]]:
    return None if args.quiet else bar


def _superbpe(args: argparse.Namespace, cfg: TrainerConfig, paths: List, bar):
    from bpe_core.base.config import vocab_size_floor
    from bpe_core.corpus.files import count_words_in_files
    from bpe_core.training.superbpe import stage1_config, superbpe_trainer
    from bpe_core.training.trainer import Trainer
    one, floor = stage1_config(cfg), vocab_size_floor(cfg)  # floor: the tokens training starts with, if known
    if cfg.vocab_size is not None and floor is not None and floor + cfg.transition >= cfg.vocab_size:
        room = cfg.vocab_size - floor  # a stage-1 merge adds a token (else the check after stage 1 below holds)
        fix = f"give --transition {room - 1} or less to leave stage 2 room" if room > 0 else \
            "give a larger --vocab-size"
        raise BPELensError(f"{_no_room(cfg, floor + cfg.transition)} (it starts with {floor} tokens, so {room} "
                           f"merges fill it): {fix}")
    with bar("stage 1: counting") as counting:
        stage1 = Trainer(count_words_in_files(paths, one, progress=_progress(args, counting), errors=args.errors),
                         one, lazy_index=True)
    with bar("stage 1: merging") as merging:
        stage1.run(progress=_progress(args, merging))
    if stage1.merge_count < cfg.transition:  # type: ignore[operator]
        raise BPELensError(f"stage 1 stopped after {stage1.merge_count} merges ({stage1.stop_reason}), before the "
                           f"transition point {cfg.transition}")
    if cfg.vocab_size is not None and stage1.vocab_size >= cfg.vocab_size:
        raise BPELensError(_no_room(cfg, stage1.vocab_size))
    start = stage1.model()
    del stage1
    with bar("stage 2: counting") as counting:
        return superbpe_trainer(paths, cfg, start, progress=_progress(args, counting), errors=args.errors,
                                lazy_index=True)  # trained and saved: the flat run, no pair index


def _parity(args: argparse.Namespace, cfg: TrainerConfig, bar):
    try:
        from bpe_core.variants.parity_run import ParityTrainer
    except ImportError:
        raise BPELensError("--variant parity is not available yet in this build") from None
    with bar("counting") as counting:
        trainer = ParityTrainer.from_languages(args.languages, cfg, progress=_progress(args, counting))
    if getattr(trainer, "dev_source", "") == "training text":
        import sys
        print(f"note: {args.languages}: no dev/ folder: each language is measured on its training text (add "
              "dev/ with the same .txt names for held-out text, or use --parity-mode ratio)", file=sys.stderr)
    return trainer
