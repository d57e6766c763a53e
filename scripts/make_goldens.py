#!/usr/bin/env python
"""Regenerate the golden outputs in tests/data/ by running the seeds' own code (tests/reference/).

Goldens never come from bpe_core: this script does not import it. Run it only on purpose, and commit
the changed files with the reason:

    python scripts/make_goldens.py            # all goldens
    python scripts/make_goldens.py seed002_words seed003_course
    python scripts/make_goldens.py --list

Each golden records its corpus (file under ../shared/data or resources/examples, the line range and
the SHA-256 of the exact bytes used), the parameters, the merges as (left, right, count) in order, the
vocabulary or ids where the seed has them, and encodings of sample texts. Byte-level tokens (seed 001) are
stored as GPT-2 glyph strings (``Ġthe``) and as hex. Each golden takes well under a minute.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reference import corpus_bytes, glyphs  # noqa: E402
from tests.reference import seed000, seed001, seed002, seed003, seed004  # noqa: E402

DATA = ROOT / "tests" / "data"
EXAMPLES = ROOT / "resources" / "examples"


# -- corpus slices ------------------------------------------------------------------------------

def corpus_spec(root: str, path: str, lines: Optional[List[int]] = None) -> dict:
    spec = {"root": root, "path": path}
    if lines is not None:
        spec["lines"] = list(lines)
    spec["sha256"] = hashlib.sha256(corpus_bytes(spec)).hexdigest()
    return spec


def text_lines(data: bytes) -> List[str]:
    """Lines as Python's text-mode file iteration yields them (UTF-8, universal newlines)."""
    with tempfile.TemporaryDirectory() as d:
        p = Path(d, "corpus.txt")
        p.write_bytes(data)
        with open(p, encoding="utf-8") as f:
            return list(f)


def sample_lines(root: str, path: str, start: int, stop: int) -> List[str]:
    """Non-blank lines [start, stop) of a file (newline stripped), as encode samples."""
    spec = {"root": root, "path": path, "lines": [start, stop]}
    return [ln.rstrip("\n") for ln in text_lines(corpus_bytes(spec)) if ln.strip()]


# -- the goldens --------------------------------------------------------------------------------

def _seed000(spec: dict, *, mincount: int, merges: int, encode_texts: List[str]) -> dict:
    data = corpus_bytes(spec)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d, "corpus.txt")
        p.write_bytes(data)
        r = seed000.train([p], mincount=mincount, merges=merges)
    tok = r["tokenizer"]
    encodings = []
    for text in encode_texts:
        sentences = [s for s in seed000.sent_tokenize(text) if len(s) > 1]
        encodings.append({
            "text": text,
            "ids": seed000.encode_text(text, tok),
            "sentences": [{"text": s, "ids": seed000.get_line_ids(s, tok)} for s in sentences],
        })
    return {
        "preset": "nltk-wordpunct", "seed": "000", "corpus": spec, "trained_on": "file",
        "params": {"mincount": mincount, "merges": merges},
        "merges": [list(m) for m in r["merges"]],
        "vocab_to_idx": tok.vocab_to_idx,
        "trio": seed000.trio_texts(tok),
        "encodings": encodings,
    }


def g_seed000_hello() -> dict:
    spec = corpus_spec("project", "resources/examples/seed000_hello.txt")
    return _seed000(spec, mincount=1, merges=20, encode_texts=["Hello World", "Hello World , Hey Wow", "Help"])


def g_seed000_shakespeare() -> dict:
    spec = corpus_spec("shared", "tinyshakespeare.txt", [0, 2000])
    held_out = "".join(text_lines(corpus_bytes({"root": "shared", "path": "tinyshakespeare.txt",
                                                 "lines": [2000, 2060]})))
    return _seed000(spec, mincount=1, merges=500,
                    encode_texts=[held_out, "Hello World", "First Citizen:\nBefore we proceed any further, hear me speak."])


def g_seed000_shakespeare_mincount2() -> dict:
    spec = corpus_spec("shared", "tinyshakespeare.txt", [0, 2000])
    return _seed000(spec, mincount=2, merges=300, encode_texts=["You are all resolved rather to die than to famish?"])


def _seed001(spec: dict, *, vocab_size: int, min_frequency: int, encode_texts: List[str]) -> dict:
    lines = text_lines(corpus_bytes(spec))
    r = seed001.train(lines, vocab_size=vocab_size, min_frequency=min_frequency)
    bpe = r["bpe"]
    # the duplicate-id fix (LENS) is never needed in this algorithm; check it here
    assert len(bpe.token_to_id) == 256 + len(bpe.merges), "a merge repeated a token: the LENS fix fired"
    encodings = []
    for text in encode_texts:
        ids = bpe.encode(text)
        encodings.append({"text": text, "ids": ids, "tokens": [glyphs(bpe.id_to_token[i]) for i in ids]})
    return {
        "preset": "byte-ascii", "seed": "001", "corpus": spec, "trained_on": "file",
        "params": {"vocab_size": vocab_size, "min_frequency": min_frequency},
        "merges": [[glyphs(a), glyphs(b), n] for a, b, n in r["merges"]],
        "merges_hex": [[a.hex(), b.hex(), n] for a, b, n in r["merges"]],
        "tokens": [glyphs(t) for t in r["tokens"]],
        "tokens_hex": [t.hex() for t in r["tokens"]],
        "encodings": encodings,
    }


SEED001_EXAMPLE = "Natural language processing is interesting"


def g_seed001_sentence() -> dict:
    spec = corpus_spec("project", "resources/examples/seed001_sentence.txt")
    return _seed001(spec, vocab_size=300, min_frequency=2,
                    encode_texts=["the lowest price is lower than the last one", "the lower the slower"])


def g_seed001_wiki_valid() -> dict:
    spec = corpus_spec("shared", "wikitext-2-raw/wiki.valid.raw")
    samples = [SEED001_EXAMPLE] + sample_lines("shared", "wikitext-2-raw/wiki.test.raw", 0, 12)
    samples.append("Ünïcödé — 中文 bytes, tabs\tand  spaces\n")
    return _seed001(spec, vocab_size=800, min_frequency=2, encode_texts=samples)


def _seed002(spec: dict, *, vocab_size: int, max_iter: Optional[int], encode_texts: List[str]) -> dict:
    docs = text_lines(corpus_bytes(spec))
    r = seed002.train(docs, vocab_size=vocab_size, max_iter=max_iter)
    bpe = r["bpe"]
    return {
        "preset": "char-whitespace", "seed": "002", "corpus": spec, "trained_on": "file",
        "params": {"vocab_size": vocab_size, "max_iter": max_iter},
        "merges": [list(m) for m in r["merges"]],
        "vocab": r["vocab"],
        "encodings": [{"text": t, "tokens": bpe.tokenize(t)} for t in encode_texts],
    }


SEED002_WORDS = ["highest", "higher", "lower", "lowest", "cooler", "coolest"]


def g_seed002_words() -> dict:
    spec = corpus_spec("project", "resources/examples/seed002_words.txt")
    return _seed002(spec, vocab_size=17, max_iter=None,
                    encode_texts=[" ".join(SEED002_WORDS), "lowest highest slower"])


def g_seed002_words_max_iter() -> dict:
    spec = corpus_spec("project", "resources/examples/seed002_words.txt")
    return _seed002(spec, vocab_size=17, max_iter=3, encode_texts=[" ".join(SEED002_WORDS)])


def g_seed002_words_exhaust() -> dict:
    spec = corpus_spec("project", "resources/examples/seed002_words.txt")
    return _seed002(spec, vocab_size=1000, max_iter=None, encode_texts=[" ".join(SEED002_WORDS)])


def g_seed002_shakespeare() -> dict:
    spec = corpus_spec("shared", "tinyshakespeare.txt", [0, 5000])
    samples = sample_lines("shared", "tinyshakespeare.txt", 5000, 5030)
    return _seed002(spec, vocab_size=800, max_iter=None, encode_texts=samples)


def _seed003(spec: dict, texts: List[str], *, vocab_size: int, encode_texts: List[str], note: str,
             trained_on: str = "file", literal: bool = False) -> dict:
    r = seed003.train(texts, vocab_size=vocab_size, literal=literal)
    return {
        "preset": "hf-course-literal" if literal else "hf-course", "seed": "003", "corpus": spec, "trained_on": trained_on, "note": note,
        **({"texts": list(texts)} if trained_on == "seed-list" else {}),
        "params": {"vocab_size": vocab_size},
        "merges": [list(m) for m in r["merges"]],
        "vocab": r["vocab"],
        "encodings": [{"text": t, "tokens": seed003.tokenize(t, r["merges_dict"])} for t in encode_texts],
    }


def g_seed003_course() -> dict:
    spec = corpus_spec("project", "resources/examples/seed003_sentences.txt")
    return _seed003(spec, list(seed003.CORPUS), vocab_size=50,
                    encode_texts=["This is not a token.", "this is not a token.", "Let's tokenize it!"],
                    note="trained on the seed's list (the file's lines without their newlines)",
                    trained_on="seed-list")


def g_seed003_course_literal() -> dict:
    spec = corpus_spec("project", "resources/examples/seed003_sentences.txt")
    return _seed003(spec, list(seed003.CORPUS), vocab_size=50, literal=True,
                    encode_texts=["This is not a token.", "this is not a token.", "Let's tokenize it!"],
                    note="the seed's literal order (Ġ-words lowercased: ġ), trained on the seed's list",
                    trained_on="seed-list")


def g_seed003_shakespeare_literal() -> dict:
    spec = corpus_spec("shared", "tinyshakespeare.txt", [0, 1000])
    samples = sample_lines("shared", "tinyshakespeare.txt", 1000, 1010) + ["Ünïcödé naïve İstanbul ÀÉÎ — 中文"]
    return _seed003(spec, text_lines(corpus_bytes(spec)), vocab_size=300, encode_texts=samples, literal=True,
                    note="the seed's literal order on the file's lines, each keeping its newline (Ċ -> ċ)")


def g_seed003_course_file() -> dict:
    spec = corpus_spec("project", "resources/examples/seed003_sentences.txt")
    return _seed003(spec, text_lines(corpus_bytes(spec)), vocab_size=50,
                    encode_texts=["This is not a token."],
                    note="trained on the file's lines, each keeping its newline (GPT-2 pre-tokenizes it as 'Ċ')")


def g_seed003_shakespeare() -> dict:
    spec = corpus_spec("shared", "tinyshakespeare.txt", [0, 3000])
    samples = sample_lines("shared", "tinyshakespeare.txt", 3000, 3020)
    return _seed003(spec, text_lines(corpus_bytes(spec)), vocab_size=500, encode_texts=samples,
                    note="trained on the file's lines, each keeping its newline")


def _seed004(spec: dict, texts: List[str], *, num_merges: int, encode_texts: List[str],
             trained_on: str = "file") -> dict:
    r = seed004.train(texts, num_merges=num_merges)
    bpe = r["bpe"]
    return {
        "preset": "cjk-mixed", "seed": "004", "corpus": spec, "trained_on": trained_on,
        **({"texts": list(texts)} if trained_on == "seed-list" else {}),
        "params": {"num_merges": num_merges},
        "merges": [list(m) for m in r["merges"]],
        "vocab": r["vocab"],
        "encodings": [{"text": t, "tokens": bpe.tokenize(t) if bpe.merges else None,
                       "words": [w.split() for w in bpe.words(t)]} for t in encode_texts],
    }


def g_seed004_mixed() -> dict:
    spec = corpus_spec("project", "resources/examples/seed004_mixed.txt")
    return _seed004(spec, list(seed004.CORPUS), num_merges=50, trained_on="seed-list",
                    encode_texts=list(seed004.TEST_TEXTS) + ["我爱 Python 编程！", "中文abc_x 3.14 élan naïve café，……「你好」"])


def g_seed004_sanguo() -> dict:
    spec = corpus_spec("shared", "chinese/sanguo_yanyi.txt", [0, 300])
    samples = sample_lines("shared", "chinese/sanguo_yanyi.txt", 300, 310)
    return _seed004(spec, text_lines(corpus_bytes(spec)), num_merges=50, encode_texts=samples)


def g_seed004_zh_en_de() -> dict:
    spec = corpus_spec("project", "resources/examples/seed004_zh_en_de.txt")
    samples = ["玄德与曹操论英雄。Alice sah Gregor Samsa.", "Gregor Samsa erwachte; Alice was very tired.",
               "日本語のテキスト、한국어 텍스트, Übergröße 㐀㐁 中文abc_x 3.14"]
    return _seed004(spec, text_lines(corpus_bytes(spec)), num_merges=200, encode_texts=samples)


def g_seed004_wiki() -> dict:
    spec = corpus_spec("shared", "wikitext-2-raw/wiki.valid.raw", [0, 400])
    samples = sample_lines("shared", "wikitext-2-raw/wiki.valid.raw", 400, 412)
    samples.append("Python 是一种简单易学的编程语言，非常适合快速开发。")
    return _seed004(spec, text_lines(corpus_bytes(spec)), num_merges=300, encode_texts=samples)


GOLDENS: Dict[str, Callable[[], dict]] = {
    name[2:]: fn for name, fn in sorted(globals().items()) if name.startswith("g_seed") and callable(fn)
}


def write(name: str, golden: dict) -> Path:
    path = DATA / f"golden_{name}.json"
    golden = {"golden": name,
              "generated_by": "scripts/make_goldens.py from tests/reference/seed%s.py" % golden["seed"],
              **golden}
    path.write_text(dumps(golden), encoding="utf-8")
    return path


def dumps(golden: dict) -> str:
    """JSON with one top-level key per line and one list item / dict entry per line below it (diffable)."""
    def one(v) -> str:
        return json.dumps(v, ensure_ascii=False)

    out = ["{"]
    items = list(golden.items())
    for k, (key, value) in enumerate(items):
        end = "," if k < len(items) - 1 else ""
        if isinstance(value, list) and value:
            body = ",\n".join("  " + one(v) for v in value)
            out.append(f" {one(key)}: [\n{body}\n ]{end}")
        elif isinstance(value, dict) and value and key != "corpus" and key != "params":
            body = ",\n".join(f"  {one(str(kk))}: {one(vv)}" for kk, vv in value.items())
            out.append(f" {one(key)}: {{\n{body}\n }}{end}")
        else:
            out.append(f" {one(key)}: {one(value)}{end}")
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="goldens to make (default: all)")
    ap.add_argument("--list", action="store_true", help="list the goldens and exit")
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(GOLDENS))
        return 0
    unknown = [n for n in args.names if n not in GOLDENS]
    if unknown:
        ap.error(f"unknown golden(s): {', '.join(unknown)}; see --list")
    DATA.mkdir(parents=True, exist_ok=True)
    for name in args.names or GOLDENS:
        t0 = time.perf_counter()
        path = write(name, GOLDENS[name]())
        print(f"{path.relative_to(ROOT)}  {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
