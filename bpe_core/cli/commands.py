"""``python -m bpe_core``: train, encode, inspect, convert, replay.

Every problem with the user's input ends in one line on stderr and exit code 2, never a
traceback; Ctrl+C ends with exit code 130.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Callable, List, Optional

from bpe_core.types import BPELensError, Cancelled, Progress, TIE_BREAKS

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse prints usage + message; keep it to one line
        raise BPELensError(message)


def _progress_bar(label: str) -> Callable[[Progress], None]:
    """A throttled one-line progress bar on stderr."""
    state = {"last": 0.0}

    def show(p: Progress) -> None:
        now = time.monotonic()
        final = p.total and p.done >= p.total
        if not final and now - state["last"] < 0.1:
            return
        state["last"] = now
        frac = min(1.0, p.done / p.total) if p.total else 0.0
        bar = "#" * int(frac * 30)
        unit = f"{p.done / 1e6:.1f}/{p.total / 1e6:.1f} MB" if p.unit == "bytes" else f"{p.done}/{p.total} {p.unit}"
        sys.stderr.write(f"\r{label:<9} [{bar:<30}] {frac:6.1%} {unit}   ")
        if final:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _add_train(sub: argparse._SubParsersAction) -> None:
    from bpe_core.presets import PRESETS
    p = sub.add_parser("train", help="learn merges from a corpus file", description=(
        "Train a BPE vocabulary on CORPUS with a preset and write it as a BPE Lens JSON file."))
    p.add_argument("corpus", help="text file (UTF-8; .gz/.bz2/.xz are read transparently)")
    p.add_argument("--preset", required=True, choices=list(PRESETS), metavar="NAME",
                   help="one of: " + ", ".join(f"{n} ({pr.reproduces})" for n, pr in PRESETS.items()))
    size = p.add_argument_group("stop rules", "give one or both: training stops at whichever comes first")
    size.add_argument("--vocab-size", type=int, help="stop when the vocabulary has this many tokens")
    size.add_argument("--merges", type=int, help="stop after this many merges")
    p.add_argument("--min-frequency", type=int, help="stop when the best pair occurs fewer times than this")
    p.add_argument("--min-word-count", type=int, help="ignore words seen fewer times than this")
    p.add_argument("--tie-break", choices=TIE_BREAKS, help="which pair wins among equal counts")
    p.add_argument("--errors", choices=("strict", "replace"), default="strict",
                   help="undecodable bytes: stop with an error (strict) or decode them as U+FFFD (replace)")
    p.add_argument("-o", "--output", required=True, help="where to write the vocabulary (.json)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _check_output(path: str) -> None:
    """Fail before training, not after, when the vocabulary could not be written."""
    import os
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise BPELensError(f"{path}: is a folder, expected a file path")
    if not os.path.isdir(folder):
        raise BPELensError(f"{path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise BPELensError(f"{path}: folder {folder} is not writable")


def run_train(args: argparse.Namespace) -> int:
    from bpe_core.formats.native import write_native
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer, check_config
    cfg = make_config(args.preset, vocab_size=args.vocab_size, num_merges=args.merges,
                      min_frequency=args.min_frequency, min_word_count=args.min_word_count,
                      tie_break=args.tie_break)
    check_config(cfg)
    _check_output(args.output)
    quiet = args.quiet
    trainer = Trainer.from_corpus(args.corpus, cfg, progress=None if quiet else _progress_bar("counting"),
                                  errors=args.errors)
    trainer.run(progress=None if quiet else _progress_bar("merging"))
    write_native(trainer.model(), args.output)
    if not quiet:
        s = trainer.stats
        print(f"{args.output}: {s.merges} merges, vocab {s.vocab_size}, stopped on {trainer.stop_reason}, "
              f"{s.units_per_token:.2f} {'bytes' if cfg.unit == 'bytes' else 'chars'}/token", file=sys.stderr)
    return 0


def _add_encode(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("encode", help="encode text with a saved vocabulary", description=(
        "Encode TEXT with any vocabulary BPE Lens reads (native, tokenizer.json, vocab.json+merges.txt, "
        ".tiktoken, sentencepiece .model, seed 000's folder)."))
    p.add_argument("--vocab", required=True, help="vocabulary file (or seed 000 folder)")
    p.add_argument("--text", required=True, help="the text to encode")
    p.add_argument("--json", action="store_true", help='print {"ids": [...], "tokens": [...]}')
    p.add_argument("--pattern", help="pre-tokenizer regex for a .tiktoken file with an unknown name")


def open_any(path: str, pattern: Optional[str] = None):
    try:
        from bpe_core.formats.detect import open_vocabulary
    except ImportError:  # formats package not complete: native files still work
        from bpe_core.formats.native import read_native
        return read_native(path)
    return open_vocabulary(path, pattern=pattern) if pattern else open_vocabulary(path)


def run_encode(args: argparse.Namespace) -> int:
    from bpe_core.encoding.encoder import Encoder
    model = open_any(args.vocab, args.pattern)
    enc = Encoder(model).encode(args.text)
    if args.json:
        print(json.dumps({"ids": enc.ids, "tokens": [t.display for t in enc.tokens]}, ensure_ascii=False))
    else:
        print(" ".join(f"{t.display}({t.id})" for t in enc.tokens))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m bpe_core", description="BPE Lens command line: train and inspect BPE.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_train(sub)
    _add_encode(sub)
    try:
        from bpe_core.cli import vocab as cli_vocab
    except ImportError:
        cli_vocab = None  # type: ignore[assignment]
    if cli_vocab is not None:
        cli_vocab.register(sub)
    return parser


RUNNERS = {"train": run_train, "encode": run_encode}


def main(argv: Optional[List[str]] = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        runner = RUNNERS.get(args.command) or getattr(args, "func", None)
        if runner is None:
            raise BPELensError(f"unknown command {args.command!r}")
        return runner(args)
    except BPELensError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Cancelled:
        print("error: cancelled", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        print(f"error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
