"""``bpe-lens-cli curves``: a run's measures over vocabulary size, every K merges, on evaluation files.

    bpe-lens-cli curves wiki.train.raw --preset gpt2 --vocab-size 8000 --eval parallel/ --every 500
    bpe-lens-cli curves gpt2/tokenizer.json --eval parallel/ --every 1000 --csv gpt2.csv

Two forms, told apart by ``--preset``: with it, the arguments are the training corpus and the run is trained
exactly as ``train`` trains it (the same flags, config and trainer: :mod:`bpe_core.cli.train_options`), then
:func:`~bpe_core.analysis.curves.run_curves` measures it; without it, the one argument is a saved vocabulary
(any format the readers open) and :func:`~bpe_core.analysis.curves.model_curves` measures its merge prefixes.
The output is a table on stdout, or every row (``--csv``, the long format of
:func:`~bpe_core.analysis.curves.curves_csv`, or the same columns as ``--parquet``) through the write gate:
checked before any work, never over an input, written atomically.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from bpe_core.cli.progress import ProgressBar
from bpe_core.cli.streams import mark_input, mark_output, output_name, shown
from bpe_core.cli.train_options import add_training_options
from bpe_core.cli.train_variants import add_variant_options
from bpe_core.cli.vocab import guarded
from bpe_core.types import BPELensError, Progress

EXAMPLES = """examples:
  bpe-lens-cli curves wiki.train.raw --preset gpt2 --vocab-size 8000 --eval parallel/ --every 500
  bpe-lens-cli curves novel.txt --preset gpt2 --variant picky --ios-threshold 0.9 --merges 3000 \\
      --eval eng.txt deu.txt rus.txt --every 250 --reference eng --csv picky.csv
  bpe-lens-cli curves --preset gpt2 --variant parity --languages langs/ --merges 2000 --eval langs/ --every 100
  bpe-lens-cli curves gpt2/tokenizer.json --eval parallel/ --every 1000 --parquet gpt2.parquet
"""
#: the table's columns: (measure of the group "all", header, digits; None: a whole number)
TABLE = (("bytes_per_token", "bytes/token", 3), ("tokens_per_100_chars", "tokens/100 chars", 2),
         ("tokens_per_word", "tokens/word", 3), ("renyi_efficiency", "Rényi 2.5", 4),
         ("parity_gini", "Gini", 4), ("used", "used", None), ("dead", "dead", None))
#: options that shape a training run: with a saved VOCAB (no --preset) they have nothing to act on
TRAINING_ONLY = ("pretokenizer", "unit", "suffix", "lowercase", "special", "vocab_size", "min_frequency",
                 "min_word_count", "tie_break", "variant", "ios_threshold", "transition", "parity_mode", "languages")
#: how the format sniffer refuses a file in none of the formats (bpe_core.formats.detect)
NOT_A_VOCABULARY = ": not a vocabulary format BPE Lens knows"
BATCH = 2048  # merges per frame applied to the timeline while training


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("curves", help="a run's measures every K merges on evaluation files (vocabulary size curves)",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES, description=(
        "Every K merges of one run (and at its last merge), the measures of the evaluation files encoded by "
        "the tokenizer cut at that merge: bytes per token, tokens per 100 characters and per word, Rényi "
        "efficiency (alpha 2.5), parity against a reference language and its Gini (two or more files), "
        "vocabulary used/dead/under-used; per file, per script and for all files (docs/measures.md). "
        "With --preset, CORPUS is trained as `train` trains it (the same flags, --variant included), then "
        "measured; without --preset, the one argument is a saved VOCAB (any format the CLI reads: "
        "tokenizer.json, vocab.json+merges.txt, .tiktoken with --pattern for an unknown name, native) and its "
        "merge prefixes are measured (--merges N: the first N only). Without --csv or --parquet a table of "
        "the main measures of all files is printed."))
    mark_input(p.add_argument(
        "sources", nargs="*", metavar="CORPUS|VOCAB",
        help="with --preset: the training corpus, text files or glob patterns as train reads them; without: "
             "one vocabulary file or folder, in any format the CLI reads; - reads standard input"))
    add_training_options(p)
    mark_input(p.add_argument("--eval", nargs="+", required=True, metavar="TEXT",
                              help="evaluation text files (UTF-8; a folder gives its .txt files), one per language "
                                   "for parity; each file is named by its stem (eng.txt: eng)"))
    p.add_argument("--every", type=int, required=True, metavar="K", help="measure every K merges (1 or more)")
    p.add_argument("--reference", metavar="LANG", help="the evaluation text parity is measured against, by its "
                                                       "name (eng for eng.txt; default: eng or en*, else the first)")
    out = p.add_mutually_exclusive_group()
    mark_output(out.add_argument("--csv", metavar="OUT", help="write every row as CSV: run, merge, vocab_size, "
                                                              "group, measure, value (- for standard output)"))
    mark_output(out.add_argument("--parquet", metavar="OUT", help="write the same columns as a Parquet table "
                                                                  "(needs pyarrow; - for standard output)"))
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_variant_options(p)
    p.set_defaults(func=run_curves_command)


@guarded
def run_curves_command(args: argparse.Namespace) -> int:
    from bpe_core.analysis.curves import check_texts, read_eval_files
    from bpe_core.corpus.files import expand_paths
    if args.every < 1:
        raise BPELensError(f"--every takes a number of merges, 1 or more, not {args.every}")
    if args.merges is not None and args.merges < 0:
        raise BPELensError(f"--merges must be 0 or more, not {args.merges}")
    training = _form(args)
    eval_paths = expand_paths(args.eval)
    texts = read_eval_files(eval_paths)
    reference = check_texts(texts, args.reference)
    paths = expand_paths(args.sources) if training and args.sources else []
    inputs = [*_eval_inputs(eval_paths), *paths, *_other_inputs(args, training)]
    target = args.csv or args.parquet
    if target:
        from bpe_core.formats.outputs import check_output
        check_output(target, inputs=inputs, binary="Parquet" if args.parquet else None)  # before any work
    if args.parquet:
        _pyarrow()  # a missing pyarrow fails now, not after the training
    curves = _train_and_measure(args, paths, texts, reference) if training else \
        _measure_vocabulary(args, texts, reference)
    for note in curves.notes:
        print(f"note: {note}", file=sys.stderr)
    if not target:
        print("\n".join(table_lines(curves)))
        return 0
    if args.csv:
        from bpe_core.analysis.curves import curves_csv
        from bpe_core.formats.atomic import atomic_write_text
        atomic_write_text(args.csv, curves_csv([curves]))
    else:
        from bpe_core.formats.atomic import atomic_write_bytes
        atomic_write_bytes(args.parquet, curves_parquet([curves]))
    if not args.quiet:
        last = curves.rows[-1].merge if curves.rows else 0
        print(f"{output_name(target)}: {len(curves.rows)} rows of run {curves.run!r}, merges 0..{last} every "
              f"{curves.every}, {len(texts)} evaluation file(s)", file=sys.stderr)
    return 0


def _form(args: argparse.Namespace) -> bool:
    """True: train CORPUS (--preset given); False: measure one saved VOCAB. Refuses a mix of the two."""
    if args.preset is not None:
        from bpe_core.cli.train_variants import check_variant_flags
        parity = args.variant == "parity"
        if parity and args.sources:
            raise BPELensError("--variant parity trains on --languages: drop CORPUS")
        if not parity and not args.sources:
            raise BPELensError("give the training CORPUS (with --preset), or a saved VOCAB without --preset")
        args.corpus = args.sources  # the names train's checks read
        check_variant_flags(args)
        return True
    given = [f"--{d.replace('_', '-')}" for d in TRAINING_ONLY if getattr(args, d, None) is not None]
    if given:
        raise BPELensError(f"{', '.join(given)} {'shapes' if len(given) == 1 else 'shape'} a training run: give "
                           "--preset NAME and CORPUS to train one (a saved VOCAB is measured as it is)")
    if len(args.sources) != 1:
        raise BPELensError("give one saved VOCAB to measure its merge prefixes, or CORPUS with --preset NAME to "
                           f"train a run (got {len(args.sources)} arguments without --preset)")
    _check_vocabulary(args.sources[0])
    return False


def _check_vocabulary(source: str) -> None:
    """Refuse, before any work, a VOCAB that is no vocabulary; a text file most likely is a corpus whose
    --preset was left out, so the line says how to train on it."""
    from bpe_core.formats.detect import detect_format
    try:
        detect_format(source)
    except BPELensError as e:
        if NOT_A_VOCABULARY not in str(e):
            raise
        raise BPELensError(f"{source} is not a vocabulary; to train on it as a corpus give --preset "
                           "(e.g. --preset gpt2)") from None


def _eval_inputs(paths: Sequence[Path]) -> List[str]:
    """The evaluation files: each path, and a folder's .txt files (what read_eval_files reads)."""
    out: List[str] = []
    for p in paths:
        out.append(os.fspath(p))
        if p.is_dir():
            out += [os.fspath(q) for q in sorted(p.iterdir()) if q.suffix.lower() == ".txt"]
    return out


def _other_inputs(args: argparse.Namespace, training: bool) -> List[str]:
    """The saved vocabulary's files, or a parity run's language files (and their dev/ texts)."""
    from bpe_core.formats.outputs import vocabulary_inputs
    if not training:
        return vocabulary_inputs(args.sources[0])
    if not args.languages:
        return []
    folder = Path(args.languages)
    found = [os.fspath(folder)]
    for d in (folder, folder / "dev"):
        if d.is_dir():
            found += [os.fspath(q) for q in sorted(d.iterdir()) if q.is_file()]
    return found


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise BPELensError("--parquet needs pyarrow (pip install bpe-lens[parquet]); or write --csv") from None
    return pyarrow


def _measure_vocabulary(args: argparse.Namespace, texts, reference: Optional[str]):
    from bpe_core.analysis.curves import model_curves
    from bpe_core.formats.detect import open_vocabulary
    source = args.sources[0]
    model = open_vocabulary(source, pattern=args.pattern) if args.pattern else open_vocabulary(source)
    name = Path(shown(source)).name
    with ProgressBar("curves") as bar:
        return model_curves(model, texts, args.every, name=name, reference=reference, upto=args.merges,
                            progress=None if args.quiet else bar)


def _train_and_measure(args: argparse.Namespace, paths: List[Path], texts, reference: Optional[str]):
    from bpe_core.analysis.curves import run_curves
    from bpe_core.cli.commands import train_config
    from bpe_core.cli.train_options import new_trainer
    from bpe_core.training.timeline import Timeline
    cfg = train_config(args)
    timeline = Timeline(new_trainer(args, cfg, paths))
    with ProgressBar("merging") as merging:
        train_to_end(timeline, progress=None if args.quiet else merging)
    name = cfg.preset + ("" if (cfg.variant or "bpe") == "bpe" else f" {cfg.variant}")
    with ProgressBar("curves") as bar:
        return run_curves(timeline, texts, args.every, name=name, reference=reference,
                          progress=None if args.quiet else bar)


def train_to_end(timeline, progress=None) -> None:
    """Merge until the run's stop rules, recording every merge on ``timeline`` (frames of :data:`BATCH`)."""
    from bpe_core.training.memory import gc_paused
    target = max(1, timeline.target_merges)
    move = timeline.forward()
    batch: list = []
    with move, gc_paused():
        for step in move:
            batch.append(step)
            if len(batch) == BATCH:
                timeline.apply(move.frame(batch))
                batch = []
                if progress is not None:
                    progress(Progress(timeline.merge_count, max(target, timeline.merge_count), "merges"))
        if batch:
            timeline.apply(move.frame(batch))
    timeline.settle()
    if progress is not None:
        progress(Progress(timeline.merge_count, timeline.merge_count, "merges"))


def table_lines(curves) -> List[str]:
    """The main measures of all evaluation files at each sampled merge, as an aligned table."""
    from bpe_core.analysis.curves import ALL
    files = ", ".join(curves.texts)
    ref = f", parity against {curves.reference}" if curves.reference else ""
    out = [f"run {curves.run}: every {curves.every} merges on {len(curves.texts)} evaluation file(s) ({files}){ref}"]
    have = set(curves.measures())
    cols = [c for c in TABLE if c[0] in have]
    values = {(r.merge, r.measure): r.value for r in curves.rows if r.group == ALL}
    sizes = {}
    for r in curves.rows:
        sizes.setdefault(r.merge, r.vocab_size)
    cells = [["merge", "vocab"] + [head for _, head, _ in cols]]
    for m, size in sizes.items():
        row = [str(m), str(size)]
        for measure, _, digits in cols:
            v = values.get((m, measure))
            row.append("-" if v is None else (str(int(round(v))) if digits is None else f"{v:.{digits}f}"))
        cells.append(row)
    widths = [max(len(c[k]) for c in cells) for k in range(len(cells[0]))]
    out += ["  ".join(v.rjust(w) for v, w in zip(c, widths)) for c in cells]
    return out


def curves_parquet(curves_list) -> bytes:
    """The rows of :func:`~bpe_core.analysis.curves.curves_csv` as a Parquet table (the same columns)."""
    pa = _pyarrow()
    rows = [(c.run, r) for c in curves_list for r in c.rows]
    table = pa.table({
        "run": pa.array([run for run, _ in rows], pa.string()),
        "merge": pa.array([r.merge for _, r in rows], pa.int64()),
        "vocab_size": pa.array([r.vocab_size for _, r in rows], pa.int64()),
        "group": pa.array([r.group for _, r in rows], pa.string()),
        "measure": pa.array([r.measure for _, r in rows], pa.string()),
        "value": pa.array([float(r.value) for _, r in rows], pa.float64())})
    sink = pa.BufferOutputStream()
    pa.parquet.write_table(table, sink)
    return sink.getvalue().to_pybytes()
