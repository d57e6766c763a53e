"""``bpe-lens-cli`` / ``python -m bpe_core``: train, encode, inspect, convert, replay.

Every problem with the user's input ends in one line on stderr (``bpe-lens-cli COMMAND: error: ...``,
:mod:`bpe_core.cli.errors`) and exit code 2, never a traceback; Ctrl+C ends with exit code 130; a
reader that closed the pipe (``| head``) ends it quietly with 141, as coreutils' commands. Data goes
to stdout, everything else to stderr: progress (a bar on a terminal, one line per phase in a log,
:mod:`bpe_core.cli.progress`), "wrote" lines and summaries. ``-`` is standard input for every file
argument and standard output for every output (:mod:`bpe_core.cli.streams`).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import List, Optional

from bpe_core import __version__
from bpe_core.base.file_errors import not_text_message, not_utf8, read_error
from bpe_core.cli.errors import EXIT_PIPE, EXIT_USAGE, Parser, UsageError, command_of, os_error_text, report
from bpe_core.cli.progress import ProgressBar
from bpe_core.cli.train_variants import add_variant_options, check_variant_flags, train_summary, variant_settings
from bpe_core.cli.streams import (StatusStream, mark_input, mark_output, output_name, release, silence_closed_pipes,
                                  stdin_taken, take_stdin)
from bpe_core.types import BPELensError, Cancelled, TrainerConfig

TRAIN_EXAMPLES = """examples:
  bpe-lens-cli train novel.txt --preset gpt2 --vocab-size 5000 -o novel.json
  bpe-lens-cli train 'books/*.txt' notes.txt --preset char-hf --merges 2000 --lowercase -o books.json
  bpe-lens-cli train wiki.raw --preset gpt2 --pattern '\\w+|[^\\w\\s]+' --special '<pad>' -o wiki.json
  bpe-lens-cli train notes.txt --from gpt2/tokenizer.json --merges 500 -o gpt2_more.json
  zcat dump.txt.gz | bpe-lens-cli train - --preset gpt2 --merges 1000 -o - > dump.json
"""
ENCODE_EXAMPLES = """examples:
  bpe-lens-cli encode --vocab novel.json --text 'The tower is tall.'
  echo 'Hello there' | bpe-lens-cli encode --vocab gpt2/tokenizer.json --json
  bpe-lens-cli encode --vocab cl100k_base.tiktoken --file notes.txt
  bpe-lens-cli encode --vocab gpt2/tokenizer.json --file - --ids < notes.txt
  bpe-lens-cli encode --vocab gpt2/tokenizer.json --text 'unrelated' --dropout 0.1 --seed 7 --samples 20
"""
#: what train and count say they count (--help). The figure: the GPT-2 regex run on each line of
#: bench/out/bench_corpus.txt (bench/bench_train.py builds it) against the same regex on the whole text.
COUNTED = ("Words are counted line by line, each line with its line end, as tokenizers' trainers read files "
           "(except nltk-wordpunct, whose Punkt sentences may span lines: it reads the whole text): the pattern "
           "never sees across a line end, so a run of whitespace over line ends ('  \\n  ' with the GPT-2 "
           "pattern) is cut at each line end. A count of the whole file in one piece differs: on the 17.6 MB "
           "bench corpus, 50 of its 80,962 distinct words have other counts.")
_Parser = Parser  # the parser class of the program and every subcommand


def _add_train(sub: argparse._SubParsersAction) -> None:
    from bpe_core.cli.ties_report import HELP as TIES_HELP
    from bpe_core.cli.train_options import add_training_options
    p = sub.add_parser("train", help="learn merges from corpus files", epilog=TRAIN_EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter, description=(
                           "Train a BPE vocabulary on CORPUS with a preset and write it as a BPE Lens JSON file. "
                           "Several files (or glob patterns) train as their concatenation. Every setting of the "
                           "app's training dialog has a flag; a flag overrides the preset's value. " + COUNTED))
    mark_input(p.add_argument(
        "corpus", nargs="*", metavar="CORPUS",
        help="text files or glob patterns (UTF-8; .gz/.bz2/.xz are read transparently), or one word-count table "
             "(`count`'s .parquet, or word<TAB>count .tsv); a table counted with other word settings than the "
             "preset's is refused; - reads standard input (copied to a temp file first)"))
    add_training_options(p, lambda p: mark_input(p.add_argument(
        "--from", dest="from_vocab", metavar="VOCAB",
        help="continue this vocabulary (any format): its merges stay the first ranks, its pre-tokenizer cuts "
             "CORPUS, and --merges counts the new merges (instead of --preset)")))
    mark_output(p.add_argument("-o", "--output", required=True,
                               help="where to write the vocabulary (.json; - for standard output)"))
    mark_output(p.add_argument("--ties-report", metavar="FILE", help=TIES_HELP + " (- for standard output)"))
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_variant_options(p)


def train_config(args: argparse.Namespace) -> TrainerConfig:
    """The preset's config with every flag the user gave applied, checked before any reading."""
    from bpe_core.presets import make_config
    from bpe_core.base.config import check_config, check_vocab_size, vocab_size_floor
    pretokenizer = args.pretokenizer or ("regex" if args.pattern else None)
    if args.pattern and pretokenizer != "regex":
        raise BPELensError(f"--pattern needs --pretokenizer regex, not {pretokenizer}")
    cfg = make_config(args.preset, vocab_size=args.vocab_size, num_merges=args.merges,
                      min_frequency=args.min_frequency, min_word_count=args.min_word_count,
                      tie_break=args.tie_break, pretokenizer=pretokenizer, pattern=args.pattern, unit=args.unit,
                      end_of_word_suffix=args.suffix, lowercase=args.lowercase, special_tokens=args.special,
                      **variant_settings(args))
    check_config(cfg)
    check_vocab_size(cfg, vocab_size_floor(cfg))  # all 256 bytes: known before reading (else after counting)
    if cfg.pretokenizer == "regex":
        from bpe_core.pretokenize.pretokenizers import compile_user_pattern
        compile_user_pattern(cfg.pattern)  # a bad or missing pattern fails now, in one line
        from bpe_core.pretokenize.guard import pattern_warnings
        for line in pattern_warnings(cfg.pattern):  # nested quantifiers: said before any reading
            print(f"warning: {line}", file=sys.stderr)
    return cfg


def _start_model(args: argparse.Namespace):
    """The vocabulary ``--from`` continues (None without it); its own settings replace a preset's."""
    if args.from_vocab is None:
        if args.preset is None:
            raise BPELensError("give --preset NAME (or --from VOCAB to continue a vocabulary)")
        return None
    given = [f for f, v in (("--preset", args.preset), ("--pretokenizer", args.pretokenizer), ("--pattern", args.pattern),
                            ("--unit", args.unit), ("--suffix", args.suffix), ("--lowercase", args.lowercase),
                            ("--special", args.special)) if v is not None]
    if given:
        raise BPELensError(f"--from keeps the vocabulary's own pre-tokenizer and units; drop {', '.join(given)}")
    if args.merges is None and args.vocab_size is None:
        raise BPELensError("--from needs --merges N (new merges) or --vocab-size V")
    return args.from_vocab


def _continued_config(args: argparse.Namespace, start) -> TrainerConfig:
    from bpe_core.training.continuing import continued_config
    return continued_config(start, merges=args.merges, vocab_size=args.vocab_size, min_frequency=args.min_frequency,
                            min_word_count=args.min_word_count, tie_break=args.tie_break)


def run_train(args: argparse.Namespace) -> int:
    from bpe_core.corpus.files import expand_paths
    from bpe_core.formats.native import write_native
    from bpe_core.formats.outputs import check_output, vocabulary_inputs
    from bpe_core.cli.ties_report import run_reporting_ties
    check_variant_flags(args)  # and CORPUS given unless parity
    from_path = _start_model(args)
    paths = expand_paths(args.corpus) if args.corpus else []
    inputs = [*paths, *(vocabulary_inputs(from_path) if from_path else ())]
    check_output(args.output, inputs=inputs)  # before any work: a bad -o must not cost the training
    if args.ties_report:
        check_output(args.ties_report, inputs=inputs, outputs={"-o": args.output})
    start = open_any(from_path) if from_path else None
    cfg = train_config(args) if start is None else _continued_config(args, start)
    quiet = args.quiet
    from bpe_core.cli.train_options import new_trainer
    trainer = new_trainer(args, cfg, paths, start)
    with ProgressBar("merging") as merging:
        tied = None
        if args.ties_report:
            tied = run_reporting_ties(trainer, args.ties_report, progress=None if quiet else merging)
        else:
            trainer.run(progress=None if quiet else merging)
    model, s, stop_reason = trainer.model(), trainer.stats, trainer.stop_reason
    if LEFT_TO_EXIT is not None:  # the process ends after main(): the OS takes the trainer back at once
        LEFT_TO_EXIT.append(trainer)
    del trainer  # its state (pair index, records) is not needed to write the file: writing reuses the room
    write_native(model, args.output)
    if not quiet:
        print(train_summary(args, cfg, model, s, stop_reason), file=sys.stderr)  # a SuperBPE run's: by stage
        if tied is not None:
            print(f"{output_name(args.ties_report)}: {tied} merges had tied counts", file=sys.stderr)
    return 0


def add_vocab_and_text(p: argparse.ArgumentParser, verb: str) -> None:
    """--vocab, the text (--text, --file, else stdin: read by :func:`encode_input`) and a .tiktoken's --pattern:
    the inputs of every command that runs a vocabulary on text (encode, explain)."""
    mark_input(p.add_argument("--vocab", required=True, help="vocabulary file (or seed 000 folder; - reads "
                                                             "standard input)"))
    source = p.add_mutually_exclusive_group()
    source.add_argument("--text", help=f"the text to {verb}")
    mark_input(source.add_argument("--file", metavar="PATH", help=f"{verb} this file's text (UTF-8; - for "
                                                                  "standard input)"))
    p.add_argument("--pattern", help="pre-tokenizer regex for a .tiktoken file with an unknown name")


def _add_encode(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("encode", help="encode text with a saved vocabulary", epilog=ENCODE_EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter, description=(
                           "Encode text with any vocabulary BPE Lens reads (native, tokenizer.json, "
                           "vocab.json+merges.txt, .tiktoken, sentencepiece .model, seed 000's folder). The text "
                           "comes from --text, --file or, when neither is given, standard input."))
    add_vocab_and_text(p, "encode")
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help='print {"ids": [...], "tokens": [...]}')
    shape.add_argument("--ids", action="store_true", help="print only the ids, space-separated, on one line "
                                                          "(for piping)")
    from bpe_core.cli.encode_dropout import add_dropout_arguments
    add_dropout_arguments(p)


def encode_input(args: argparse.Namespace) -> str:
    """The text to encode, exactly as given (no newline conversion: a CRLF is part of the text)."""
    if args.text is not None:
        return _argument_text(args.text, "--text")
    if args.file is not None:
        name = args.file
        try:
            with open(args.file, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise read_error(name, exc) from None
        wrong = not_text_message(name, data[:8192])  # UTF-16 would decode as text with NULs, silently
        if wrong is not None:  # UTF-16/32 (how to convert it), or a binary file (its first NUL byte)
            raise BPELensError(wrong)
    else:
        if stdin_taken():
            raise BPELensError("standard input is read as a file ('-') already: give the text with --text or "
                               "--file PATH")
        if sys.stdin is None or sys.stdin.isatty():
            raise BPELensError("no text: give --text TEXT, --file PATH, or pipe the text into standard input")
        name = "standard input"
        data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BPELensError(not_utf8(name, exc.start)) from None


def _argument_text(value: str, flag: str) -> str:
    """A command-line argument as real text: Python hands undecodable argv bytes over as lone
    surrogates (surrogateescape), which no encoder can turn into UTF-8."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        pass
    raw = os.fsencode(value)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BPELensError(not_utf8(flag, exc.start)) from None


argument_text = _argument_text  # the public name other command modules use


def _warn_unknown(text: str, unknown) -> None:
    """Say which characters ``encode`` dropped (the vocabulary has no token and no unk for them)."""
    chars = sorted({text[a:b] for a, b in unknown})
    shown = ", ".join(json.dumps(c, ensure_ascii=True) for c in chars[:20])
    more = f" and {len(chars) - 20} more" if len(chars) > 20 else ""
    print(f"warning: dropped {len(unknown)} span(s) with no token in this vocabulary: {shown}{more}",
          file=sys.stderr)


def open_any(path: str, pattern: Optional[str] = None):
    try:
        from bpe_core.formats.detect import open_vocabulary
    except ImportError:  # formats package not complete: native files still work
        from bpe_core.formats.native import read_native
        return read_native(path)
    return open_vocabulary(path, pattern=pattern) if pattern else open_vocabulary(path)


def run_encode(args: argparse.Namespace) -> int:
    from bpe_core.encoding.encoder import Encoder
    from bpe_core.cli.encode_dropout import check_dropout_arguments, run_dropout
    check_dropout_arguments(args)
    text = encode_input(args)
    model = open_any(args.vocab, args.pattern)
    if args.dropout is not None:
        return run_dropout(args, model, text, _warn_unknown)
    enc = Encoder(model).encode(text)
    unknown = list(getattr(enc, "unknown", ()))
    if unknown:
        _warn_unknown(text, unknown)
    if args.json:
        out = {"ids": enc.ids, "tokens": [t.display for t in enc.tokens]}
        if unknown:
            out["unknown"] = [{"start": a, "end": b, "text": text[a:b]} for a, b in unknown]
        print(json.dumps(out, ensure_ascii=False))
    elif args.ids:
        print(" ".join(str(i) for i in enc.ids))
    else:
        print(" ".join(f"{t.display}({t.id})" for t in enc.tokens))
    return 0


def build_parser() -> argparse.ArgumentParser:
    prog = os.path.basename(sys.argv[0] or "")
    prog = "python -m bpe_core" if prog in ("", "__main__.py", "-c") else prog
    parser = _Parser(prog=prog, description="BPE Lens command line: train and inspect BPE.")
    parser.add_argument("--version", action="version", version=f"bpe-lens-cli {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_train(sub)
    _add_encode(sub)
    for name in COMMAND_MODULES:
        importlib.import_module(f"bpe_core.cli.{name}").register(sub)
    return parser


# Each further command lives in its own module of bpe_core/cli with `register(sub)`, which adds its
# parser and sets `func` (the runner): one line here per module, in the order --help lists them.
COMMAND_MODULES = ("vocab", "explain", "count", "animate", "health", "tokens", "curves", "diff")


RUNNERS = {"train": run_train, "encode": run_encode}

#: What a command leaves for the process's end instead of freeing it; a list only under :func:`run_console`.
#: Freeing a full train's ~2 million objects one by one takes ~0.1 s, 2-3 % of the whole command.
LEFT_TO_EXIT: Optional[List[object]] = None
EXIT_INTERRUPTED = 130  # Ctrl+C or a cancel, as a shell reports a command ended by SIGINT


def run_console() -> None:
    """The console entry point (``python -m bpe_core``, ``bpe-lens-cli``): :func:`main`, then exit.

    When a command left objects to the exit (a train, whose files are written and closed by then),
    or was interrupted (exit code 130), the process flushes its output and ends with ``os._exit``,
    without freeing them or joining any thread. ``main()`` itself, which tests call in-process, frees
    everything as usual.
    """
    global LEFT_TO_EXIT
    LEFT_TO_EXIT = []
    if sys.stderr is not None:
        sys.stderr = StatusStream(sys.stderr)  # a closed status pipe loses lines, never the work
    code = main()
    try:
        for stream in (sys.stdout, sys.stderr):  # None when the shell closed it (>&-)
            if stream is not None:
                stream.flush()  # print() keeps output in a buffer: a closed pipe may show only now
    except BrokenPipeError:
        code = EXIT_PIPE
    except (OSError, ValueError):
        if not LEFT_TO_EXIT:
            sys.exit(code)  # the interpreter reports a failed flush as it always does
    if code == EXIT_PIPE:
        silence_closed_pipes()
        os._exit(code)  # nothing left to write: no second "Broken pipe" at the interpreter's exit
    if LEFT_TO_EXIT or code == EXIT_INTERRUPTED:
        # after Ctrl+C (or a cancel) nothing is left to do: the process ends now, and no thread a
        # stopped worker pool may still hold (the interpreter's exit joins them) can keep it running
        os._exit(code)
    sys.exit(code)


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command ``argv`` (default ``sys.argv[1:]``) and return its exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    command = None
    try:
        parser = build_parser()
        command = command_of(argv, _commands(parser))
        args = parser.parse_args(argv)
        command = args.command
        take_stdin(args, _commands(parser)[command])
        for flag in ("pattern", "pattern_a", "pattern_b"):  # an empty regex would split nothing, silently
            if getattr(args, flag, None) == "":
                raise BPELensError(f"--{flag.replace('_', '-')} is empty: give a regular expression, "
                                   "or leave the option out")
        runner = RUNNERS.get(args.command) or getattr(args, "func", None)
        if runner is None:
            raise BPELensError(f"unknown command {args.command!r}")
        return runner(args)
    except BrokenPipeError:  # the reader is gone (`| head`): nothing to say, and no one to say it to
        return EXIT_PIPE
    except UsageError as exc:
        report(exc.command or command, str(exc), usage=True)
        return EXIT_USAGE
    except BPELensError as exc:
        report(command, str(exc))
        return EXIT_USAGE
    except Cancelled:
        report(command, "cancelled")
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:
        report(command, os_error_text(exc))
        return EXIT_USAGE
    finally:
        release()


def _commands(parser: argparse.ArgumentParser):
    """The subcommands' parsers by name."""
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
