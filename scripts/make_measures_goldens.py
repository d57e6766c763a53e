"""Make tests/data/measures/renyi_gpt2_parallel.json: Rényi efficiency as zouharvi/tokenization-scorer computes it.

Runs the reference package (``tokenization_scorer.score``) on real tokenized text and never imports bpe_core:
each file of tests/data/parallel/ is encoded whole with GPT-2's tokenizer.json through Hugging Face
``tokenizers``; the scorer reads the token ids as whitespace-separated words (an id has no whitespace, so the
distribution is the tokens' own). Also the scorer's own two example texts (its test.py) as a small case.

Run in a scratch venv that has tokenization-scorer (and numpy, tqdm), tokenizers, nothing of this project:

    python3 -m venv SCORER_VENV && SCORER_VENV/bin/pip install tokenization-scorer==1.1.8 tokenizers
    SCORER_VENV/bin/python scripts/make_measures_goldens.py --tokenizer ../shared/data/gpt2/tokenizer.json
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import platform
from collections import Counter
from contextlib import redirect_stderr
from importlib.metadata import version
from pathlib import Path

import tokenization_scorer
from tokenizers import Tokenizer

ROOT = Path(__file__).resolve().parents[1]
PARALLEL = ROOT / "tests" / "data" / "parallel"
OUT = ROOT / "tests" / "data" / "measures" / "renyi_gpt2_parallel.json"
#: alpha 1 (Shannon) is asked of the scorer's shannon_efficiency metric: its renyi metric at power 1.0 hands an
#: already consumed generator to the Shannon branch and returns 0.0 (version 1.1.8)
ALPHAS = (1.5, 2.5, 3.0)
GPT2_VOCAB = 50257
#: the scorer's own examples (tokenization_scorer/test.py), words as its tokens
SCORER_TEXTS = {"scorer_text1": "pick @@ed pick @@l @@ed pick @@les",
                "scorer_text2": "pick @@e @@d pick @@l @@e @@d pick @@l @@e @@s"}


def scores(text: str, vocab: int | None = None) -> dict:
    """The scorer's renyi (efficiency) at each alpha and its renyi_entropy at 2.5, quietly (it logs to stderr)."""
    extra = {} if vocab is None else {"vocab": vocab}
    with redirect_stderr(io.StringIO()):
        out = {str(a): float(tokenization_scorer.score(text, metric="renyi", power=a, **extra)) for a in ALPHAS}
        out["1.0"] = float(tokenization_scorer.score(text, metric="shannon_efficiency", **extra))
        out["entropy_2.5"] = float(tokenization_scorer.score(text, metric="renyi_entropy", power=2.5))
    return out


def case(name: str, ids: list, extra: dict) -> dict:
    """One text's golden: its token counts and the scorer's figures, observed vocabulary and GPT-2's."""
    text = " ".join(str(i) for i in ids)
    counts = Counter(ids)
    return {"name": name, **extra, "tokens": len(ids), "distinct": len(counts),
            "counts": {str(k): v for k, v in sorted(counts.items())},
            "renyi": scores(text), "renyi_vocab_50257": scores(text, GPT2_VOCAB)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokenizer", required=True, help="GPT-2's tokenizer.json")
    args = ap.parse_args()
    raw = Path(args.tokenizer).read_bytes()
    tok = Tokenizer.from_str(raw.decode("utf-8"))
    tok.no_truncation()  # the file truncates to 50 tokens (its "truncation" field)
    tok.no_padding()
    texts, everything = [], []
    for path in sorted(PARALLEL.glob("*.txt")):
        text = path.read_bytes().decode("utf-8")
        ids = tok.encode(text, add_special_tokens=False).ids
        everything.extend(ids)
        texts.append(case(path.stem, ids, {"file": f"parallel/{path.name}", "bytes": len(text.encode("utf-8")),
                                            "chars": len(text), "words": len(text.split())}))
    texts.append(case("all", everything, {"file": "parallel/*.txt"}))
    for name, text in SCORER_TEXTS.items():
        words = text.split()
        with redirect_stderr(io.StringIO()):
            own = {str(a): float(tokenization_scorer.score(text, metric="renyi", power=a)) for a in ALPHAS}
        names = {w: i for i, w in enumerate(dict.fromkeys(words))}
        c = case(name, [names[w] for w in words], {"text": text})
        # ids in place of the words change nothing
        assert all(c["renyi"][a] == v for a, v in own.items()), (c["renyi"], own)
        texts.append(c)
    golden = {
        "made_by": "scripts/make_measures_goldens.py",
        "reference": {"package": "tokenization-scorer", "version": version("tokenization-scorer"),
                      "numpy": version("numpy"), "python": platform.python_version(),
                      "call": "tokenization_scorer.score(ids_as_words, metric='renyi', power=ALPHA[, vocab=50257])"},
        "tokenizer": {"file": "gpt2/tokenizer.json", "sha256": hashlib.sha256(raw).hexdigest(),
                      "tokenizers": version("tokenizers"),
                      "call": "no_truncation(); encode(whole file, add_special_tokens=False)"},
        "alphas": list(ALPHAS), "texts": texts,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(golden, ensure_ascii=False, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(texts)} texts")


if __name__ == "__main__":
    main()
