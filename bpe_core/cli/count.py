"""``python -m bpe_core count``: pre-tokenize and count many corpus files into a word-count table.

    python -m bpe_core count 'books/*.txt' --preset gpt2 -o books.parquet
    python -m bpe_core count data/*.jsonl.gz --field text --preset gpt2 --engine dask --workers 4 -o c.parquet
    python -m bpe_core count 'corpus/*.zst' --preset gpt2 --engine dask --scheduler tcp://10.0.0.5:8786 -o c.parquet
    python -m bpe_core train c.parquet --preset gpt2 --vocab-size 30000 -o vocab.json

The table (Parquet, or TSV for a ``.tsv`` output) holds every word's count and first appearance,
and the config it was counted with: ``train`` refuses it for settings that cut words otherwise.
"""
from __future__ import annotations

import argparse
import sys

from bpe_core.cli.commands import COUNTED
from bpe_core.cli.progress import ProgressBar
from bpe_core.cli.streams import STDIO, mark_input, mark_output, output_name, shown
from bpe_core.types import BPELensError

EXAMPLES = """examples:
  bpe-lens-cli count 'books/*.txt' --preset gpt2 -o books.parquet
  bpe-lens-cli count 'dump/*.jsonl.gz' --field text --preset gpt2 --engine dask --workers 4 -o dump.parquet
  bpe-lens-cli count 'corpus/*.zst' --preset gpt2 --engine dask --scheduler tcp://10.0.0.5:8786 -o c.parquet
  bpe-lens-cli train books.parquet --preset gpt2 --vocab-size 30000 -o books.json
  cat *.txt | bpe-lens-cli count - --preset gpt2 -o - | bpe-lens-cli train - --preset gpt2 --merges 100 -o v.json
"""


def register(sub: argparse._SubParsersAction) -> None:
    from bpe_core.corpus.engines import ENGINES
    from bpe_core.presets import PRESETS
    p = sub.add_parser("count", help="count the words of many files into a table (local cores or Dask)",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter, description=(
                           "Pre-tokenize CORPUS (files and glob patterns; plain, .gz/.bz2/.xz/.zst, or JSON lines "
                           "with --field) with a preset and write each word's count and first appearance to a "
                           "Parquet table (a .tsv OUTPUT writes word<TAB>count). `train TABLE` then gives the "
                           "same merges as `train CORPUS`. The dask engine needs the files at the same paths "
                           "on every worker. " + COUNTED))
    mark_input(p.add_argument("corpus", nargs="+", metavar="CORPUS",
                              help="text or JSONL files, or glob patterns; - reads standard input (copied to a "
                                   "temp file first)"))
    p.add_argument("--preset", required=True, choices=list(PRESETS), metavar="NAME",
                   help="the preset whose word settings count: " + ", ".join(PRESETS))
    p.add_argument("--lowercase", action=argparse.BooleanOptionalAction, default=None,
                   help="lowercase the text before pre-tokenizing (overrides the preset)")
    p.add_argument("--pattern", metavar="REGEX", help="your own word pattern (implies the regex pre-tokenizer)")
    p.add_argument("--engine", choices=ENGINES, default="local",
                   help="local: a process per core on this machine (default); dask: a Dask cluster")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N",
                       help="worker processes (default: every core; dask: a LocalCluster of N)")
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler, tcp://HOST:PORT (with --engine dask); its "
                            "workers get the files' absolute paths")
    p.add_argument("--field", metavar="NAME",
                   help="the inputs are JSON lines: count the text in this field of each record")
    p.add_argument("--errors", choices=("strict", "replace"), default="strict",
                   help="undecodable bytes: stop with an error (strict) or decode them as U+FFFD (replace)")
    mark_output(p.add_argument("-o", "--output", required=True,
                               help="the table to write (.parquet, or .tsv; - writes Parquet to standard output, "
                                    "not to a terminal)"))
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run_count)


def _is_stdin_copy(path: str) -> bool:
    return shown(path) == STDIO


def _config(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from bpe_core.presets import make_config
    from bpe_core.base.config import check_config
    cfg = make_config(args.preset, lowercase=args.lowercase, pattern=args.pattern,
                      pretokenizer="regex" if args.pattern else None)
    check_config(cfg)
    if cfg.pretokenizer == "regex":
        from bpe_core.pretokenize.pretokenizers import compile_user_pattern
        compile_user_pattern(cfg.pattern)
        from bpe_core.pretokenize.guard import pattern_warnings
        for line in pattern_warnings(cfg.pattern):  # nested quantifiers: said before any reading
            print(f"warning: {line}", file=sys.stderr)
    return cfg


def run_count(args: argparse.Namespace) -> int:
    from bpe_core.corpus.engines import count_table, where_counted
    from bpe_core.corpus.files import expand_paths
    from bpe_core.corpus.table import require_pyarrow, write_parquet, write_tsv
    from bpe_core.formats.outputs import check_output
    if args.workers is not None and args.workers < 1:
        raise BPELensError(f"--workers must be 1 or more, not {args.workers}")
    cfg = _config(args)
    paths = expand_paths(args.corpus)
    if args.scheduler is not None and any(_is_stdin_copy(p) for p in args.corpus):
        raise BPELensError("- (standard input) is copied to a temp file on this machine, which the workers of "
                           "--scheduler cannot read: give the corpus as files they can read")
    check_output(args.output, inputs=paths, binary=None if args.output.lower().endswith(".tsv") else "Parquet")
    tsv = args.output.lower().endswith(".tsv")
    if not tsv:
        require_pyarrow()  # a missing pyarrow fails now, not after the counting
    with ProgressBar("counting") as bar:
        counts, firsts = count_table(paths, cfg, engine=args.engine, workers=args.workers, scheduler=args.scheduler,
                                     text_field=args.field, errors=args.errors,
                                     progress=None if args.quiet else bar)
    if tsv:
        write_tsv(args.output, counts)
    else:
        write_parquet(args.output, counts, firsts, cfg, [(shown(p), p.stat().st_size) for p in paths])
    if not args.quiet:
        print(f"{output_name(args.output)}: {len(counts):,} words, {sum(counts.values()):,} occurrences in {len(paths)} "
              f"file(s), preset {cfg.preset}, {where_counted(args.engine, cfg, args.field)}", file=sys.stderr)
    return 0
