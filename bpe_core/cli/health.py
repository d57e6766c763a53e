"""``python -m bpe_core health``: a vocabulary's health on a corpus (one or several files).

    bpe-lens-cli health --vocab gpt2/tokenizer.json wiki.valid.raw --csv tokens.csv
    bpe-lens-cli health --vocab gpt2/tokenizer.json en.txt zh.txt ru.txt --by file --json

Prints replay's figures (merges, dead merges, consumed and unreachable tokens), each token status's
count, and fertility (tokens per word and per 100 characters) per script or per file; ``--csv``
writes every token's row (id, token, rank, usage, merge_count, status).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import List

from bpe_core.cli.progress import read_then_replay, vocabulary_and_corpus
from bpe_core.cli.streams import STDIO, mark_input, mark_output, shown
from bpe_core.cli.vocab import guarded


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("health", help="which tokens a corpus uses, never reaches; fertility per script/file",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=(
        "examples:\n  bpe-lens-cli health --vocab gpt2/tokenizer.json wiki.valid.raw --csv tokens.csv\n"
        "  bpe-lens-cli health --vocab mine.json en.txt zh.txt ru.txt --by file\n"), description=(
        "Replay --vocab on CORPUS (several files are one corpus, their concatenation): per-merge counts, "
        "dead merges, unreachable tokens, tokens the corpus never uses, and fertility (tokens per word "
        "and per 100 characters) per Unicode script or per file."))
    mark_input(p.add_argument("corpus", metavar="CORPUS", nargs="+", help="text files or globs (.gz/.bz2/.xz "
                                                                          "read too; - reads standard input)"))
    mark_input(p.add_argument("--vocab", required=True, help="vocabulary file or folder (- reads standard input)"))
    p.add_argument("--pattern", help="split regex for a .tiktoken file with an unknown name")
    p.add_argument("--by", choices=("script", "file"), help="fertility groups (default: file for several "
                   "files, else script)")
    mark_output(p.add_argument("--csv", metavar="FILE", help="write every token's row to FILE (-: the CSV on "
                                                             "standard output, the report on stderr)"))
    p.add_argument("--errors", choices=("strict", "replace"), default="strict",
                   help="undecodable bytes in CORPUS: stop (strict) or read them as U+FFFD (replace)")
    p.add_argument("--json", action="store_true", help="print the summary and fertility as one JSON object")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run_health)


@guarded
def run_health(args: argparse.Namespace) -> int:
    from bpe_core.analysis.health import vocabulary_health, write_health_csv
    paths, model = vocabulary_and_corpus(args)
    with read_then_replay(args.quiet) as progress:
        report = vocabulary_health(model, paths, by=args.by, errors=args.errors, progress=progress)
    if args.csv:
        write_health_csv(report.rows, args.csv)
    data = sys.stderr if args.csv == STDIO else sys.stdout  # the CSV is the data then, the report its summary
    fert = [{"group": f.group, "words": f.words, "chars": f.chars, "tokens": f.tokens,
             "tokens_per_word": round(f.tokens_per_word, 4), "tokens_per_100_chars": round(f.tokens_per_100_chars, 3)}
            for f in report.fertility]
    if args.json:
        print(json.dumps({"vocab": shown(args.vocab), "corpus": [shown(p) for p in paths],
                          "summary": report.summary(), "by": report.by, "fertility": fert}, ensure_ascii=False),
              file=data)
        _said_written(args, report)
        return 0
    out: List[str] = [f"{k.replace('_', ' ')}: {v}" for k, v in report.summary().items()]
    out.append(f"fertility by {report.by} (words, tokens per word, tokens per 100 characters):")
    width = max(len(f["group"]) for f in fert) if fert else 0
    out += [f"  {f['group']:<{width}}  {f['words']:>10}  {f['tokens_per_word']:>7.3f}  {f['tokens_per_100_chars']:>8.2f}"
            for f in fert]
    print("\n".join(out), file=data)
    _said_written(args, report)
    return 0


def _said_written(args: argparse.Namespace, report) -> None:
    """The CSV's "written" line: status, so on stderr (not with -q, nor for --csv -, whose rows say it)."""
    if args.csv and args.csv != STDIO and not args.quiet:
        print(f"{args.csv}: {len(report.rows)} tokens written", file=sys.stderr)
