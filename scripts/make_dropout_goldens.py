#!/usr/bin/env python
"""Make the BPE-dropout golden tests/data/variants/dropout/gpt2_wiki_valid.json by sampling ``tokenizers`` itself.

The reference is Hugging Face ``tokenizers``' ``BPE(dropout=p)`` (``Word::merge_all`` in
``tokenizers/src/models/bpe/word.rs``). This script never imports bpe_core: it loads GPT-2's tokenizer.json with
its model's ``dropout`` field set to p, picks 20 words of WikiText-2's validation text with ``tokenizers``' own
pre-tokenizer and plain encoding, and encodes each word 10,000 times with ``encode_batch``. ``tokenizers``
draws from an unseeded thread-local generator, so another run gives other counts from the same distribution:

    nice -n 15 .venv/bin/python scripts/make_dropout_goldens.py [DATA_DIR]

The words: the pre-tokenizer's pieces of ``wikitext-2-raw/wiki.valid.raw`` (line by line) whose text after the
leading space is 6 to 14 ASCII letters and whose plain encoding merges at least 4 times (bytes - tokens >= 4,
so dropout gives them several segmentations), the 20 most frequent (ties by the piece). It takes about 10 s.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "variants" / "dropout" / "gpt2_wiki_valid.json"
WORD_RS_COMMIT = "01dc86d87fb3e971dda029948054ee8252b0051e"  # the word.rs read; merge_all's dropout loop
PS = (0.1, 0.3)
SAMPLES = 10_000
WORDS = 20


def tokenizer_with_dropout(path: Path, p):
    """GPT-2's tokenizer.json with the model's ``dropout`` field set to ``p`` (None: plain)."""
    from tokenizers import Tokenizer
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["model"]["dropout"] = p
    return Tokenizer.from_str(json.dumps(spec))


def pick_words(plain, text: str):
    """The 20 words as (piece glyphs, piece text): see the module docstring."""
    counts: Counter = Counter()
    pre = plain.pre_tokenizer
    for line in text.splitlines(keepends=True):
        for piece, (a, b) in pre.pre_tokenize_str(line):
            counts[(piece, line[a:b])] += 1
    chosen = []
    for (piece, word), _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        core = word[1:] if word.startswith(" ") else word
        if not (6 <= len(core) <= 14 and core.isascii() and core.isalpha()):
            continue
        if len(word.encode()) - len(plain.encode(word, add_special_tokens=False).ids) >= 4:
            chosen.append((piece, word, counts[(piece, word)]))
        if len(chosen) == WORDS:
            break
    return chosen


def main() -> None:
    import tokenizers
    data = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BPE_LENS_DATA") or ROOT.parent / "shared" / "data")
    vocab, corpus = data / "gpt2" / "tokenizer.json", data / "wikitext-2-raw" / "wiki.valid.raw"
    text = corpus.read_text(encoding="utf-8")
    words = pick_words(tokenizer_with_dropout(vocab, None), text)
    samples = {}
    for p in PS:
        tok = tokenizer_with_dropout(vocab, p)
        for piece, word, _ in words:
            encs = tok.encode_batch([word] * SAMPLES, add_special_tokens=False)
            seen = Counter(" ".join(map(str, e.ids)) for e in encs)
            samples.setdefault(str(p), {})[word] = dict(sorted(seen.items(), key=lambda kv: (-kv[1], kv[0])))
    out = {
        "reference": {"library": "tokenizers", "version": tokenizers.__version__,
                      "code": f"huggingface/tokenizers@{WORD_RS_COMMIT} tokenizers/src/models/bpe/word.rs "
                              "Word::merge_all (dropout)",
                      "command": "nice -n 15 .venv/bin/python scripts/make_dropout_goldens.py",
                      "python": sys.version.split()[0]},
        "vocabulary": {"file": "gpt2/tokenizer.json", "sha256": hashlib.sha256(vocab.read_bytes()).hexdigest()},
        "corpus": {"file": "wikitext-2-raw/wiki.valid.raw", "sha256": hashlib.sha256(corpus.read_bytes()).hexdigest()},
        "samples_per_word": SAMPLES,
        "words": [{"word": word, "piece": piece, "count_in_corpus": n,
                   "plain": tokenizer_with_dropout(vocab, None).encode(word, add_special_tokens=False).ids}
                  for piece, word, n in words],
        "segmentations": samples,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(words)} words, p = {', '.join(map(str, PS))})")


if __name__ == "__main__":
    main()
