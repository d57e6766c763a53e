"""``encode --dropout P --seed S --samples N``: BPE-dropout samples of the text, one line (or JSON entry) each.

The samples are those of one :class:`~bpe_core.encoding.dropout.DropoutEncoder` seeded with S, in the order it
draws them: sample 1 is what the app's encode pane shows for the same p and seed. Without ``--seed`` a new seed
is drawn and said on stderr, so the samples can be drawn again.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Callable

from bpe_core.types import BPELensError


def add_dropout_arguments(p: argparse.ArgumentParser) -> None:
    """encode's --dropout, --seed and --samples."""
    drop = p.add_argument_group("BPE-dropout", "sample segmentations: each merge is skipped with probability P, as "
                                "tokenizers' BPE(dropout=P) does; one line (--json: one entry of \"samples\") per "
                                "sample")
    drop.add_argument("--dropout", type=float, metavar="P", help="skip each merge with probability P (0 to 1)")
    drop.add_argument("--seed", type=int, metavar="S", help="seed of the draws: the same seed gives the same "
                                                            "samples (default: a new one, said on stderr)")
    drop.add_argument("--samples", type=int, metavar="N", help="how many samples to draw (default 1)")


def check_dropout_arguments(args: argparse.Namespace) -> None:
    """BPELensError for --seed or --samples without --dropout, a P outside [0, 1], fewer than 1 sample."""
    if args.dropout is None:
        for flag in ("seed", "samples"):
            if getattr(args, flag) is not None:
                raise BPELensError(f"--{flag} needs --dropout")
        return
    from bpe_core.encoding.dropout import check_p
    check_p(args.dropout)
    if args.samples is not None and args.samples < 1:
        raise BPELensError(f"the number of samples must be at least 1, not {args.samples}")


def run_dropout(args: argparse.Namespace, model, text: str, warn_unknown: Callable) -> int:
    """Print the samples: ids and tokens (--json), ids (--ids) or ``token(id)`` per line."""
    from bpe_core.encoding.dropout import DropoutEncoder
    seed = random.SystemRandom().randrange(1 << 32) if args.seed is None else args.seed
    encoder = DropoutEncoder(model, args.dropout, seed)  # refuses a vocabulary without ranked merges
    if args.seed is None:
        print(f"seed {seed} (give --seed {seed} to draw these samples again)", file=sys.stderr)
    samples = [encoder.encode(text) for _ in range(args.samples or 1)]
    unknown = list(samples[0].unknown)  # where the vocabulary has no token: the same in every sample
    if unknown:
        warn_unknown(text, unknown)
    if args.json:
        out = {"dropout": args.dropout, "seed": seed,
               "samples": [{"ids": e.ids, "tokens": [t.display for t in e.tokens]} for e in samples]}
        if unknown:
            out["unknown"] = [{"start": a, "end": b, "text": text[a:b]} for a, b in unknown]
        print(json.dumps(out, ensure_ascii=False))
        return 0
    for enc in samples:
        print(" ".join(str(i) for i in enc.ids) if args.ids else " ".join(f"{t.display}({t.id})" for t in enc.tokens))
    return 0
