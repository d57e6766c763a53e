"""``python -m bpe_core tokens``: the biography of every token of a saved vocabulary over a corpus.

    bpe-lens-cli tokens --vocab gpt2/tokenizer.json wiki.valid.raw
    bpe-lens-cli tokens --vocab gpt2/tokenizer.json a.txt b.txt --filter "likely residues" --sort emitted --csv r.csv

The vocabulary goes in ``--vocab`` and the corpus last, as in ``health``, ``replay``, ``encode`` and ``explain``;
the older form ``tokens VOCAB --corpus CORPUS...`` still works.

Prints the corpus's figures, each status's count and the first rows of the table (``--top``). ``--csv``
writes the rows instead (the filter and the order applied) through the atomic writer, checked before any
work; the figures then go to stderr, as status.
The columns and their definitions: :mod:`bpe_core.analysis.biography`.
"""
from __future__ import annotations

import argparse
import sys
from typing import List, Sequence

from bpe_core.cli.progress import read_then_replay, vocabulary_and_corpus
from bpe_core.cli.streams import STDIO, mark_input, mark_output
from bpe_core.cli.vocab import guarded

SORTABLE = ("id", "token", "rank", "birth_count", "emitted", "residue_ratio", "ios", "n_bytes", "status")
_FIELD = {"id": "token_id"}


def register(sub: argparse._SubParsersAction) -> None:
    from bpe_core.analysis.biography import FILTERS
    p = sub.add_parser("tokens", help="every token's biography on a corpus: birth, emitted, residue ratio, IoS",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=(
        "examples:\n  bpe-lens-cli tokens --vocab gpt2/tokenizer.json wiki.valid.raw\n"
        "  bpe-lens-cli tokens --vocab v.json a.txt b.txt --filter \"likely residues\" --csv residues.csv\n"
        "  (the older form `tokens VOCAB --corpus CORPUS...` still works)\n"),
        description=(
        "Replay VOCAB's merges over the corpus and give each token its rank (birth), its pair's count when its\n"
        "merge applies, how often the encoder emits it, the residue ratio (emitted / birth count, LiteToken),\n"
        "its IoS (PickyBPE), whether any text can reach it, its bytes and a status.\n\n"
        "Several files are one corpus (their concatenation), read as they are ('\\r' and a BOM kept) and\n"
        "counted line by line, each line with its line end: a run of whitespace over line ends is cut there,\n"
        "and the counts equal an encoder run on each line."))
    mark_input(p.add_argument("corpus", metavar="CORPUS", nargs="*",
                              help="text files or globs (.gz/.bz2/.xz read too)"))
    mark_input(p.add_argument("--vocab", metavar="VOCAB", help="vocabulary file or folder (- reads standard input)"))
    mark_input(p.add_argument("--corpus", metavar="CORPUS", nargs="+", dest="more_corpus",
                              help="the corpus in the older form `tokens VOCAB --corpus CORPUS...`"))
    p.add_argument("--pattern", help="split regex for a .tiktoken file with an unknown name")
    mark_output(p.add_argument("--csv", metavar="FILE", help="write the rows to FILE (-: the CSV on standard "
                                                             "output, the report on stderr)"))
    p.add_argument("--filter", default="all", choices=tuple(FILTERS), help="which tokens (default: all)")
    p.add_argument("--sort", default="id", choices=SORTABLE, help="order the rows by this column (default: id)")
    p.add_argument("--reverse", action="store_true", help="largest first (rows without a value stay last)")
    p.add_argument("--top", type=int, default=20, help="rows of the table printed (default 20; 0: none)")
    p.add_argument("--errors", choices=("strict", "replace"), default="strict",
                   help="undecodable bytes in CORPUS: stop (strict) or read them as U+FFFD (replace)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run_tokens)


@guarded
def run_tokens(args: argparse.Namespace) -> int:
    from bpe_core.analysis.biography import biography_csv, select, token_biography
    from bpe_core.formats.atomic import atomic_write_text
    from bpe_core.types import BPELensError
    if args.top < 0:
        raise BPELensError(f"--top takes a count of rows (0 or more), not {args.top}")
    _vocab_first(args)
    paths, model = vocabulary_and_corpus(args)
    with read_then_replay(args.quiet) as progress:
        bio = token_biography(model, paths, errors=args.errors, progress=progress)
    rows = select(bio, args.filter, _FIELD.get(args.sort, args.sort), reverse=args.reverse)
    if not args.csv:
        print("\n".join(report_lines(bio, rows, args.filter, args.top)), file=sys.stdout)
        return 0
    atomic_write_text(args.csv, biography_csv(bio, rows))
    # the CSV is the data: the figures are status, on stderr
    print("\n".join(report_lines(bio, rows, args.filter, 0)), file=sys.stderr)
    if args.csv != STDIO:
        print(f"{args.csv}: {len(rows)} tokens written", file=sys.stderr)
    return 0


def _vocab_first(args: argparse.Namespace) -> None:
    """``args.vocab`` and ``args.corpus`` from either form: ``--vocab VOCAB CORPUS...`` (the commands'
    convention) or the older ``VOCAB --corpus CORPUS...``."""
    from bpe_core.cli.errors import UsageError
    given = list(args.corpus)
    if args.vocab is None:
        if not given:
            raise UsageError("tokens needs a vocabulary: tokens --vocab VOCAB CORPUS...", "tokens")
        args.vocab = given.pop(0)
    args.corpus = given + list(args.more_corpus or ())
    if not args.corpus:
        raise UsageError("tokens needs a corpus: tokens --vocab VOCAB CORPUS...", "tokens")


def report_lines(bio, rows: Sequence, name: str, top: int) -> List[str]:
    """The figures, the status counts and the first ``top`` rows as an aligned table."""
    out = [f"corpus: {bio.corpus_bytes} bytes, {bio.corpus_tokens} tokens emitted, {len(bio.tokens)} tokens"]
    out.append("statuses: " + ", ".join(f"{k} {v}" for k, v in bio.status_counts().items()))
    out += [f"note: {n}" for n in bio.notes]
    out.append(f"{name}: {len(rows)} tokens" + (f", the first {min(top, len(rows))}:" if top and rows else ""))
    if not top or not rows:
        return out
    head = ("id", "token", "rank", "birth", "emitted", "residue", "IoS", "bytes", "status")
    cells = [head] + [(str(t.token_id), repr(t.token)[1:-1][:24], _opt(t.rank), str(t.birth_count), str(t.emitted),
                       _ratio(t.residue_ratio), _ratio(t.ios), str(t.n_bytes), t.status) for t in rows[:top]]
    widths = [max(len(c[k]) for c in cells) for k in range(len(head))]
    for c in cells:
        out.append("  ".join(v.ljust(w) if k in (1, 8) else v.rjust(w) for k, (v, w) in enumerate(zip(c, widths)))
                   .rstrip())
    return out


def _opt(v) -> str:
    return "-" if v is None else str(v)


def _ratio(v) -> str:
    return "-" if v is None else f"{v:.3f}"
