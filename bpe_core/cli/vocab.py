"""``python -m bpe_core`` commands for saved vocabularies: ``inspect``, ``convert``, ``replay``.

``cli.py`` calls :func:`register`; each ``run_*`` returns an exit code. Bad input prints one
line (``bpe-lens-cli COMMAND: error: ...``) on stderr and returns 2, whether called through ``main``
or directly.

    python -m bpe_core inspect gpt2/vocab.json --tree " Lincoln"
    python -m bpe_core convert gpt2/tokenizer.json out/ --to vocab-merges
    python -m bpe_core replay --vocab gpt2/vocab.json wiki.test.raw --json
"""
from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from typing import Any, Callable, Dict, List, Optional

from bpe_core.analysis.lineage import token_id_of
from bpe_core.cli.errors import os_error_text, report
from bpe_core.cli.progress import ProgressBar
from bpe_core.cli.streams import mark_input, mark_output, output_name, shown as as_given
from bpe_core.model import BPEModel
from bpe_core.base.symbols import visible_whitespace
from bpe_core.types import BPELensError

EXIT_USAGE = 2
_BYTE_PIECE = re.compile(r"<0x[0-9A-F]{2}>")
WRITE_FORMATS = ("native", "tokenizer.json", "vocab-merges", "tiktoken", "seed000", "picky")


def _guarded(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    @functools.wraps(run)
    def wrapper(args: argparse.Namespace) -> int:
        command = getattr(args, "command", None)
        try:
            return run(args)
        except BrokenPipeError:  # stdout is a closed pipe: the entry point ends quietly
            raise
        except BPELensError as exc:
            report(command, str(exc))
            return EXIT_USAGE
        except OSError as exc:  # an unexpected I/O failure
            report(command, os_error_text(exc))
            return EXIT_USAGE
    return wrapper


guarded = _guarded  # the same error handling for the runners of other command modules (cli/health.py)


def register(sub: argparse._SubParsersAction) -> None:
    raw = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser("inspect", help="describe a saved vocabulary", formatter_class=raw, epilog=(
        "examples:\n  bpe-lens-cli inspect gpt2/tokenizer.json\n"
        "  bpe-lens-cli inspect gpt2/vocab.json --tree ' Lincoln'\n  bpe-lens-cli inspect mine.json --json\n"),
                       description=(
        "Format, model type, sizes, specials, pipeline and longest tokens of any vocabulary BPE Lens reads."))
    mark_input(p.add_argument("path", help="vocabulary file or folder (- reads standard input)"))
    p.add_argument("--pattern", help="split regex for a .tiktoken file with an unknown name")
    p.add_argument("--top", type=int, default=10, help="how many longest tokens to list (default 10)")
    p.add_argument("--tree", metavar="TOKEN", help="also draw the merge tree of TOKEN (its text, or #id)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_inspect)

    p = sub.add_parser("convert", help="write a vocabulary in another format", formatter_class=raw, epilog=(
        "examples:\n  bpe-lens-cli convert gpt2/tokenizer.json out/ --to vocab-merges\n"
        "  bpe-lens-cli convert mine.json mine.tiktoken --to tiktoken\n"),
                       description=(
        "Read IN (any format) and write it to OUT as --to. vocab-merges and seed000 write several "
        "files: OUT is a folder (vocab-merges also takes a *vocab.json name)."))
    mark_input(p.add_argument("input", metavar="IN", help="vocabulary file or folder (- reads standard input)"))
    mark_output(p.add_argument("output", metavar="OUT", help="where to write it (- for standard output: "
                                                            "native, tokenizer.json, tiktoken)"))
    p.add_argument("--to", required=True, choices=WRITE_FORMATS, help="output format")
    p.add_argument("--pattern", help="split regex for a .tiktoken input with an unknown name")
    p.set_defaults(func=run_convert)

    p = sub.add_parser("replay", help="apply a vocabulary's merges to a corpus", formatter_class=raw, epilog=(
        "examples:\n  bpe-lens-cli replay --vocab gpt2/vocab.json wiki.test.raw\n"
        "  bpe-lens-cli replay --vocab mine.json novel.txt --json > replay.json\n"),
                       description=(
        "Count every merge of --vocab on CORPUS at the moment it would be applied; list merges that "
        "never fire, tokens made but always merged further, and tokens no text can produce."))
    mark_input(p.add_argument("corpus", metavar="CORPUS", help="text file (UTF-8; .gz/.bz2/.xz read "
                                                               "transparently; - reads standard input)"))
    mark_input(p.add_argument("--vocab", required=True, help="vocabulary file or folder (- reads standard input)"))
    p.add_argument("--pattern", help="split regex for a .tiktoken file with an unknown name")
    p.add_argument("--limit", type=int, default=20, help="rows per list in the text report (default 20)")
    p.add_argument("--errors", choices=("strict", "replace"), default="strict",
                   help="undecodable bytes in CORPUS: stop (strict) or read them as U+FFFD (replace)")
    p.add_argument("--json", action="store_true", help="print every merge's count as one JSON object")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run_replay)


def _open(path: str, pattern: Optional[str]) -> BPEModel:
    from bpe_core.formats.detect import open_vocabulary
    return open_vocabulary(path, pattern=pattern)


def _show(model: BPEModel, tid: int) -> str:
    return json.dumps(model.display(tid), ensure_ascii=False)


# -- inspect ------------------------------------------------------------------------------
def describe(model: BPEModel, fmt: str = "", top: int = 10) -> Dict[str, Any]:
    """What ``inspect`` prints, as a dict (JSON-safe)."""
    from bpe_core.analysis.lineage import static_reachability
    ids = [i for i, t in enumerate(model.tokens) if t is not None and i not in model.special_ids]
    fallback = model.byte_fallback and model.unit == "chars"  # <0xNN> pieces are not long words
    ranked = [i for i in ids if not (fallback and _BYTE_PIECE.fullmatch(model.tokens[i]))]  # type: ignore[arg-type]
    longest = sorted(ranked, key=lambda i: (-len(model.tokens[i]), i))[: max(0, top)]  # type: ignore[arg-type]
    reach, late = static_reachability(model)
    return {
        "format": fmt, "source_format": model.source_format, "name": model.name,
        "model": "BPE", "unit": model.unit, "algorithm": model.algorithm,
        "vocab_size": model.vocab_size, "id_range": [0, len(model.tokens) - 1], "merges": len(model.merges),
        "merge_counts_stored": any(c is not None for c in model.merge_counts),
        "specials": dict(sorted(model.specials.items(), key=lambda kv: kv[1])),
        "normalizer": describe_step(model, "normalizer"), "pre_tokenizer": describe_step(model, "pre_tokenizer"),
        "options": {k: v for k, v in (
            ("unk_token", model.tokens[model.unk_id] if model.unk_id is not None else None),
            ("fuse_unk", model.fuse_unk), ("byte_fallback", model.byte_fallback),
            ("ignore_merges", model.ignore_merges), ("end_of_word_suffix", model.end_of_word_suffix),
            ("hf_end_of_word_suffix", model.hf_end_of_word_suffix),
            ("continuing_subword_prefix", model.continuing_subword_prefix)) if v},
        "unreachable_tokens": len([i for i in ids if i not in reach]), "late_merges": len(late),
        "longest_tokens": [{"id": i, "token": model.display(i), "units": len(model.tokens[i])}  # type: ignore[arg-type]
                           for i in longest],
    }


def describe_step(model: BPEModel, step: str) -> str:
    """A one-line description of the model's normalizer or pre-tokenizer."""
    cfg = model.config
    if isinstance(cfg.get(step), dict) or (step in cfg and cfg.get(step) is None and "decoder" in cfg):
        return _hf_step(cfg.get(step))
    if model.source_format == "sentencepiece":
        return str(cfg.get("normalizer", "nmt_nfkc")) if step == "normalizer" else str(cfg.get("pre_tokenizer"))
    if step == "normalizer":
        lower = cfg.get("lowercase_encode")
        return "lowercase" if (cfg.get("lowercase") if lower is None else lower) else "none"
    if cfg.get("pretokenizer"):
        name = cfg["pretokenizer"]
        return f"{name} /{cfg.get('pattern')}/" if name == "regex" else name
    if cfg.get("pattern"):
        return f"regex /{cfg['pattern']}/"
    return "ByteLevel (GPT-2 regex)" if model.unit == "bytes" and model.pipeline is not None else "none"


def _hf_step(d: Any) -> str:
    if not isinstance(d, dict):
        return "none"
    kind = d.get("type", "?")
    inner = d.get("normalizers") or d.get("pretokenizers")
    if kind == "Sequence" and isinstance(inner, list):
        return " + ".join(_hf_step(x) for x in inner) or "none"
    pattern = d.get("pattern")
    if isinstance(pattern, dict):
        return f"{kind}(/{pattern.get('Regex', pattern.get('String', ''))}/)"
    flags = [k for k in ("add_prefix_space", "use_regex", "lowercase") if d.get(k)]
    return f"{kind}({', '.join(flags)})" if flags else kind


@_guarded
def run_inspect(args: argparse.Namespace) -> int:
    from bpe_core.formats.detect import detect_format
    if args.top < 0:
        raise BPELensError(f"--top must be 0 or more, not {args.top}")
    fmt = detect_format(args.path)
    model = _open(args.path, args.pattern)
    info = describe(model, fmt, args.top)
    tree_text = None
    if args.tree is not None:
        from bpe_core.analysis.lineage import merge_tree, render_tree
        tree = merge_tree(model, token_id_of(model, args.tree))
        tree_text = render_tree(tree)
    if args.json:
        if tree_text is not None:
            info["tree"] = tree_text.splitlines()
        print(json.dumps(info, ensure_ascii=False, indent=1))
        return 0
    unit = "byte-level" if model.unit == "bytes" else "characters"
    specials = ", ".join(f"{json.dumps(s, ensure_ascii=False)}={i}" for s, i in info["specials"].items())
    lines = [f"path:          {as_given(args.path)}", f"format:        {fmt} ({model.source_format})",
             f"model:         BPE, {unit}, encoder {model.algorithm}",
             f"vocab size:    {info['vocab_size']} (ids {info['id_range'][0]}..{info['id_range'][1]})",
             f"merges:        {info['merges']}" + (" (with training counts)" if info["merge_counts_stored"] else ""),
             f"specials:      {specials or 'none'}", f"normalizer:    {info['normalizer']}",
             f"pre-tokenizer: {info['pre_tokenizer']}"]
    if info["options"]:
        lines.append("options:       " + ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}"
                                                  for k, v in info["options"].items()))
    if info["unreachable_tokens"] or info["late_merges"]:
        lines.append(f"reachability:  {info['unreachable_tokens']} tokens no merge path reaches, "
                     f"{info['late_merges']} merges out of order")
    lines.append(f"longest tokens ({len(info['longest_tokens'])}):")
    for t in info["longest_tokens"]:
        shown = visible_whitespace(t["token"])
        shown = shown if len(shown) <= 72 else shown[:71] + "…"
        lines.append(f"  {t['units']:>4}  #{t['id']:<7} {shown}")
    print("\n".join(lines))
    if tree_text is not None:
        print("merge tree:\n" + tree_text)
    return 0


# -- convert ------------------------------------------------------------------------------
@_guarded
def run_convert(args: argparse.Namespace) -> int:
    from bpe_core.formats.detect import detect_format, write_vocabulary
    from bpe_core.formats.outputs import check_save, files_in
    from bpe_core.formats.seed000_trio import FILES
    check_save(args.output, args.to)  # before reading: a bad OUT fails at once
    fmt = detect_format(args.input)
    model = _open(args.input, args.pattern)
    inputs = files_in([args.input, *model.config.get("files", [])],
                      [*FILES, "tokenizer.json", "vocab.json", "merges.txt", "encoder.json", "vocab.bpe"])
    check_save(args.output, args.to, inputs=inputs)
    write_vocabulary(model, args.output, args.to)
    print(f"{output_name(args.output)}: {args.to} written from {fmt} ({model.vocab_size} tokens, {len(model.merges)} merges)",
          file=sys.stderr)
    return 0


# -- replay -------------------------------------------------------------------------------
@_guarded
def run_replay(args: argparse.Namespace) -> int:
    from bpe_core.corpus.counting import iter_lines
    from bpe_core.analysis.replay import replay
    if args.limit < 0:
        raise BPELensError(f"--limit must be 0 or more, not {args.limit}")
    model = _open(args.vocab, args.pattern)
    quiet = args.quiet
    with ProgressBar("reading") as reading, ProgressBar("replaying") as replaying:
        lines = iter_lines(args.corpus, errors=args.errors, progress=None if quiet else reading)
        result = replay(model, lines, progress=None if quiet else replaying)
    merges = [{"rank": r, "left": model.display(a), "right": model.display(b),
               "token": model.display(model.merge_result[r - 1]), "count": c,
               "trained_count": model.merge_counts[r - 1]}
              for r, ((a, b), c) in enumerate(zip(model.merges, result.merge_counts), 1)]
    tokens = lambda ids: [{"id": i, "token": model.display(i)} for i in ids]  # noqa: E731
    summary = {"distinct_words": result.distinct_words, "words": result.total_words,
               "symbols_before": result.tokens_before, "tokens_after": result.tokens_after,
               "unknown_units": result.unknown_units, "merges": len(model.merges),
               "dead_merges": len(result.dead_merges), "consumed_tokens": len(result.consumed_tokens),
               "unreachable_tokens": len(result.unreachable_tokens), "late_merges": len(result.late_merges)}
    if args.json:
        print(json.dumps({"vocab": as_given(args.vocab), "corpus": as_given(args.corpus), "summary": summary,
                          "merges": merges,
                          "dead_merges": list(result.dead_merges),
                          "consumed_tokens": tokens(result.consumed_tokens),
                          "unreachable_tokens": tokens(result.unreachable_tokens),
                          "late_merges": list(result.late_merges)}, ensure_ascii=False))
        return 0
    n = args.limit
    out: List[str] = [f"{k.replace('_', ' ')}: {v}" for k, v in summary.items()]
    out.append(f"first {min(n, len(merges))} merges (rank, pair -> token, count here, count when trained):")
    out += [f"  {m['rank']:>6}  {m['left']} + {m['right']} -> {m['token']}  {m['count']}  "
            f"{'-' if m['trained_count'] is None else m['trained_count']}" for m in merges[:n]]
    for title, ids, fmt in (("dead merges (never fire here)", result.dead_merges,
                             lambda r: f"  {r:>6}  {merges[r - 1]['left']} + {merges[r - 1]['right']}"),
                            ("consumed tokens (made, always merged further)", result.consumed_tokens,
                             lambda i: f"  #{i:<7} {_show(model, i)}"),
                            ("unreachable tokens", result.unreachable_tokens, lambda i: f"  #{i:<7} {_show(model, i)}"),
                            ("late merges (use a token made later)", result.late_merges, lambda r: f"  {r:>6}")):
        if ids:
            out.append(f"{title}: {len(ids)}")
            out += [fmt(x) for x in ids[:n]]
            if len(ids) > n:
                out.append(f"  ... and {len(ids) - n} more (--json lists all)")
    print("\n".join(out))
    return 0
