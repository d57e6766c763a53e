"""``python -m bpe_core diff A B``: two vocabularies compared (:mod:`bpe_core.analysis.diff`).

    python -m bpe_core diff gpt2/tokenizer.json r50k_base.tiktoken
    python -m bpe_core diff gpt2/tokenizer.json 20B_tokenizer.json --text "    def f():" --json
    python -m bpe_core diff gpt2/tokenizer.json mine.json --token " Lincoln"

Tokens are compared as byte strings (specials apart); ``first_divergent_merge`` is the 0-based
rank of the first merge that differs, null only when both merge lists are equal.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional

from bpe_core.analysis.diff import ModelDiff, compare_text, diff_models
from bpe_core.analysis.lineage import render_tree
from bpe_core.cli.streams import mark_input, shown
from bpe_core.base.symbols import display, from_glyphs, is_glyph_string, visible_whitespace
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError

EXAMPLES = 20


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("diff", help="compare two vocabularies", formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog=("examples:\n  bpe-lens-cli diff gpt2/tokenizer.json r50k_base.tiktoken\n"
                               "  bpe-lens-cli diff gpt2/tokenizer.json 20B_tokenizer.json --text 'Hi  there' --json\n"),
                       description=(
        "Compare two vocabularies (any format BPE Lens reads): the first merge where they part (0-based), "
        "tokens both have and each one's own (as byte strings; specials listed apart), merge ranks of shared "
        "tokens, a text encoded by both with the spans where they cut differently, and a token's merge trees."))
    mark_input(p.add_argument("a", metavar="A", help="first vocabulary file or folder (- reads standard input)"))
    mark_input(p.add_argument("b", metavar="B", help="second vocabulary file or folder (- reads standard input)"))
    p.add_argument("--text", help="encode this text with both and show where the tokens differ")
    p.add_argument("--token", help="show this token's merge tree on both sides (its text or GPT-2 glyphs)")
    p.add_argument("--examples", type=int, default=EXAMPLES, help=f"rows per example list (default {EXAMPLES})")
    p.add_argument("--pattern-a", help="split regex for A when it is a .tiktoken file with an unknown name")
    p.add_argument("--pattern-b", help="split regex for B when it is a .tiktoken file with an unknown name")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_diff)


def _open(path: str, pattern: Optional[str]) -> BPEModel:
    from bpe_core.formats.detect import open_vocabulary
    return open_vocabulary(path, pattern=pattern) if pattern else open_vocabulary(path)


def _shown(token: bytes) -> str:
    return display(token)


def token_bytes(d: ModelDiff, token: str) -> bytes:
    """The bytes ``token`` names: its UTF-8 text, else GPT-2 glyphs (``Ġthe``), when either side has it."""
    for candidate in (token.encode("utf-8"), from_glyphs(token) if is_glyph_string(token) else None):
        if candidate is not None and (candidate in d.a.ids or candidate in d.b.ids):
            return candidate
    raise BPELensError(f"token {token!r} is in neither vocabulary (give its text or GPT-2 glyphs)")


def report(d: ModelDiff, *, examples: int = EXAMPLES, text: Optional[str] = None,
           token: Optional[str] = None) -> Dict[str, Any]:
    """What ``diff --json`` prints (JSON-safe)."""
    out: Dict[str, Any] = {
        "a": _side(d.a), "b": _side(d.b),
        "first_divergent_merge": d.first_divergent_merge,
        "shared_tokens": d.shared_tokens, "only_a": d.only_a, "only_b": d.only_b,
        "examples": {
            "only_a": [_shown(t) for t in _first(d.only_a_tokens(), examples)],
            "only_b": [_shown(t) for t in _first(d.only_b_tokens(), examples)],
            "merges_from_divergence": [
                {"rank": r, "a": _pair(pa), "b": _pair(pb)}
                for r, pa, pb in d.merges_from(d.first_divergent_merge or 0, examples)
            ] if d.first_divergent_merge is not None else [],
            "shared_ranks": [{"token": _shown(s.token), "id_a": s.id_a, "rank_a": s.rank_a, "id_b": s.id_b,
                              "rank_b": s.rank_b} for s in d.shared_ranks(0, examples)],
        },
    }
    if text is not None:
        td, ea, eb = compare_text(d.a.model, d.b.model, text)
        out["text"] = {
            "text": text,
            "tokens_a": [t.display for t in ea.tokens], "tokens_b": [t.display for t in eb.tokens],
            "differing_spans": [{"start": s, "end": e, "text": text[s:e]} for s, e in td.differing],
        }
    if token is not None:
        raw = token_bytes(d, token)
        ta, tb = d.trees(raw)
        out["tree"] = {"token": _shown(raw), "a": render_tree(ta) if ta else None,
                       "b": render_tree(tb) if tb else None}
    return out


def _side(s) -> Dict[str, Any]:
    m = s.model
    return {"name": m.name, "format": m.source_format, "tokens": len(s.ids), "merges": len(m.merges),
            "specials": list(s.specials)}


def _pair(pair) -> Optional[List[str]]:
    return None if pair is None else [_shown(pair[0]), _shown(pair[1])]


def _first(it, n: int) -> List[bytes]:
    out: List[bytes] = []
    for t in it:
        if len(out) >= n:
            break
        out.append(t)
    return out


def run_diff(args: argparse.Namespace) -> int:
    from bpe_core.cli.commands import argument_text
    text = None if args.text is None else argument_text(args.text, "--text")
    d = diff_models(_open(args.a, args.pattern_a), _open(args.b, args.pattern_b))
    rep = report(d, examples=max(0, args.examples), text=text, token=args.token)
    if args.json:
        print(json.dumps(rep, ensure_ascii=False))
    else:
        print(render_report(rep, shown(args.a), shown(args.b)))
    return 0


def render_report(rep: Dict[str, Any], name_a: str, name_b: str) -> str:
    """The report as text for a terminal."""
    fdm = rep["first_divergent_merge"]
    lines = [f"A: {name_a} ({rep['a']['format']}, {rep['a']['tokens']:,} tokens, {rep['a']['merges']:,} merges)",
             f"B: {name_b} ({rep['b']['format']}, {rep['b']['tokens']:,} tokens, {rep['b']['merges']:,} merges)",
             "first divergent merge: " + ("none (the merge lists are equal)" if fdm is None else f"{fdm:,} (0-based rank)"),
             f"shared tokens: {rep['shared_tokens']:,}   only A: {rep['only_a']:,}   only B: {rep['only_b']:,}",
             f"specials: A {rep['a']['specials']}  B {rep['b']['specials']}"]
    ex = rep["examples"]
    for key, title in (("only_a", "only A"), ("only_b", "only B")):
        if ex[key]:
            lines.append(f"{title}: " + "  ".join(visible_whitespace(t) for t in ex[key]))
    if ex["merges_from_divergence"]:
        lines.append("merges from the divergence (rank: A | B):")
        for row in ex["merges_from_divergence"]:
            lines.append(f"  {row['rank']:>7,}: {_pair_text(row['a']):<28} | {_pair_text(row['b'])}")
    if "text" in rep:
        t = rep["text"]
        lines.append(f"text: A {len(t['tokens_a'])} tokens, B {len(t['tokens_b'])} tokens; differs in "
                     f"{len(t['differing_spans'])} span(s): " + ", ".join(repr(s["text"]) for s in t["differing_spans"]))
    if "tree" in rep:
        tree = rep["tree"]
        for side in ("a", "b"):
            lines.append(f"merge tree in {side.upper()}:\n" + (tree[side] or "  (not in this vocabulary)"))
    return "\n".join(lines)


def _pair_text(pair) -> str:
    return "—" if pair is None else f"{visible_whitespace(pair[0])} + {visible_whitespace(pair[1])}"

