"""``python -m bpe_core explain``: why each word of a text was split as it was.

For each pre-tokenized word: the pre-tokenizer's cut, the starting units, every merge as it fires
(its 0-based rank in the merge list, left + right -> result, the segmentation after it), the final
tokens and why no further merge applies (:mod:`bpe_core.analysis.explain`).

    python -m bpe_core explain --vocab gpt2/tokenizer.json --text " unbelievably"
    echo "三国演义" | python -m bpe_core explain --vocab cl100k_base.tiktoken --json
"""
from __future__ import annotations

import argparse
import json

from bpe_core.cli.commands import add_vocab_and_text, encode_input, open_any

EXAMPLES = """examples:
  bpe-lens-cli explain --vocab gpt2/tokenizer.json --text ' unbelievably'
  bpe-lens-cli explain --vocab novel.json --text 'The tower' --json
  echo '三国演义' | bpe-lens-cli explain --vocab cl100k_base.tiktoken
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("explain", help="why this split: each word's merges as they fire", epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter, description=(
                           "For each pre-tokenized word of the text: the pre-tokenizer's cut, the starting "
                           "units, every merge as it fires (rank = 0-based position in the merge list), the "
                           "final tokens, and why no further merge applies. The text comes from --text, "
                           "--file or, when neither is given, standard input."))
    add_vocab_and_text(p, "explain")
    p.add_argument("--json", action="store_true",
                   help='print {"words": [{"word", "steps": [{"rank", "left", "right", "tokens"}], "tokens"}]}')
    p.set_defaults(func=run_explain)


def run_explain(args: argparse.Namespace) -> int:
    from bpe_core.analysis.explain import explain, explain_text
    text = encode_input(args)
    model = open_any(args.vocab, args.pattern)
    ex = explain(model, text)
    if args.json:
        print(json.dumps(ex.to_json(), ensure_ascii=False))
    else:
        print(explain_text(ex))
    return 0
