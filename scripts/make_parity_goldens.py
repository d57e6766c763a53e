#!/usr/bin/env python
"""Make the parity-aware BPE goldens in tests/data/variants/parity/ by running the authors' own code.

The reference is cimeister/parity-aware-bpe (``parity_aware_bpe/parity_aware_learn_bpe.py``), checked
out at the path given on the command line. This script never imports bpe_core. It runs the reference as
a script, in a subprocess, exactly as its README shows, on per-language training and development files
cut from the shipped parallel text (tests/data/parallel), and needs only what the reference needs
(numpy, tokenizers; the project's venv has both):

    nice -n 15 .venv/bin/python scripts/make_parity_goldens.py PARITY_CHECKOUT
    nice -n 15 .venv/bin/python scripts/make_parity_goldens.py PARITY_CHECKOUT base window

For each setting it keeps: the merges file the reference writes (the merges in order); what the
reference logs at each step with ``--verbose`` (the lengths it compares, the language it picks, the
frequency vector of the pair it merges); and the tokenizer.json it writes with ``--json-output``, loaded
with ``tokenizers`` to encode the development text. An independent recount (plain Python here, not the
reference and not bpe_core) replays the merges and checks that the logged lengths and frequencies are
the exact counts and that each merge is the exact arg-max of its language's column; it also records how
many pairs were tied at that count. Each run takes well under a minute.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARALLEL = ROOT / "tests" / "data" / "parallel"
OUT = ROOT / "tests" / "data" / "variants" / "parity"
SCRIPT = "parity_aware_bpe/parity_aware_learn_bpe.py"

LANGS = ["eng", "rus", "arb", "hin", "zho", "kor"]
TRAIN = (0, 75)  # lines [a, b) of every tests/data/parallel/<lang>.txt: documents 1-5
DEV = (75, 96)  # document 6, held out
SYMBOLS = 1000
SETTINGS = {
    "base": ["--variant", "base"],
    "window": ["--variant", "window", "--window-size", "100", "--alpha", "2"],
    "hybrid": ["--variant", "base", "--global-merges", "200"],
    "ratio": ["--variant", "base", "--ratio"] + ["1"] * len(LANGS),
    # every merge by the summed count: classical BPE on the concatenation, the baseline ("{symbols}" is --symbols)
    "plain": ["--variant", "base", "--global-merges", "{symbols}"],
}
LOG_HEAD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - __main__ - INFO - ", re.M)
ARRAY = r"\[([^\]]*)\]"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def line_slice(path: Path, lines: tuple) -> bytes:
    """The exact bytes of lines [a, b) of ``path`` (CRLF kept)."""
    return b"".join(path.read_bytes().splitlines(keepends=True)[lines[0]:lines[1]])


def ints(text: str) -> list:
    return [int(x) for x in text.split()]


def parse_log(log: str) -> list:
    """The reference's per-step records, one dict per merge, from its ``--verbose`` log."""
    steps, current = [], {}
    for message in LOG_HEAD.split(log)[1:]:
        message = message.strip()
        m = re.match(r"pair (\d+): (\S+) (\S+) -> (\S+) \(frequency " + ARRAY + r"\)$", message, re.S)
        if m:
            assert int(m.group(1)) == len(steps), message
            current.update(pair=[m.group(2), m.group(3)], freq=ints(m.group(5)))
            steps.append(current)
            current = {}
            continue
        m = re.match(r"lengths " + ARRAY + r": picking best subword (?:in corpus (\d+)|based on concatenation)$",
                     message, re.S)
        if m:
            current = {"lang": int(m.group(2)) if m.group(2) else -1, "lengths": ints(m.group(1))}
            continue
        m = re.match(r"initial lengths " + ARRAY + r"\s*lengths " + ARRAY + r"$", message, re.S)
        if m:
            current = {"initial_lengths": ints(m.group(1)), "lengths": ints(m.group(2))}
            continue
        m = re.match(r"compression rates .*picking best subword in corpus (\d+)$", message, re.S)
        if m:
            current["lang"] = int(m.group(1))
    return steps


def words_of(text: str) -> Counter:
    """Word counts as the reference reads a file: line by line, its pre-tokenizer, tuples of glyphs."""
    from tokenizers import pre_tokenizers
    from tokenizers.pre_tokenizers import ByteLevel, Whitespace
    pre = pre_tokenizers.Sequence([Whitespace(), ByteLevel(use_regex=False)])
    counts = Counter()
    for line in text.splitlines(keepends=True):
        for word, _ in pre.pre_tokenize_str(line):
            if word:
                counts[tuple(word)] += 1
    return counts


class Recount:
    """Exact pair counts per column (one per language, plus their sum) over a set of word counts."""

    def __init__(self, counters: list):
        n = len(counters)
        table = defaultdict(lambda: [0] * (n + 1))
        for i, c in enumerate(counters):
            for w, f in c.items():
                table[w][i] += f
        self.words = [(list(w), f) for w, f in table.items()]
        for _, f in self.words:
            f[n] = sum(f[:n])
        self.width = n + 1
        self.pairs = defaultdict(lambda: [0] * self.width)
        self.where = defaultdict(set)
        for k, (w, f) in enumerate(self.words):
            self._add(k, w, f, +1)

    def _add(self, k, w, f, sign):
        for a, b in zip(w, w[1:]):
            counts = self.pairs[(a, b)]
            for i in range(self.width):
                counts[i] += sign * f[i]
            self.where[(a, b)].add(k)

    def lengths(self) -> list:
        return [sum(len(w) * f[i] for w, f in self.words) for i in range(self.width - 1)]

    def best(self, col: int) -> tuple:
        """(count, pair, number of pairs tied at that count) for column ``col``, as the reference orders."""
        top = max(c[col] for c in self.pairs.values())
        tied = [p for p, c in self.pairs.items() if c[col] == top]
        return top, max(tied), len(tied)

    def merge(self, pair: tuple):
        a, b = pair
        for k in list(self.where.pop(pair, ())):
            w, f = self.words[k]
            self._add(k, w, f, -1)
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            self.words[k] = (out, f)
            self._add(k, out, f, +1)
        for p in [p for p, c in self.pairs.items() if not any(c)]:
            del self.pairs[p]


def check(steps: list, merges: list, train: list, dev: list, ratio: bool) -> dict:
    """Replay the merges; compare the reference's logged numbers with exact counts."""
    tr, dv = Recount(train), Recount(dev)
    bad_freq, bad_lengths, not_argmax, ties = [], [], [], []
    for i, (step, pair) in enumerate(zip(steps, merges)):
        col = step["lang"] if step["lang"] >= 0 else len(train)
        exact = tr.pairs.get(tuple(pair), [0] * tr.width)
        logged_width = len(step["freq"])
        if step["freq"] != exact[:logged_width]:
            bad_freq.append(i)
        want = tr.lengths() if ratio else dv.lengths()
        if step["lengths"] != want:
            bad_lengths.append(i)
        top, best, n_tied = tr.best(col)
        if best != tuple(pair):
            not_argmax.append(i)
        if n_tied > 1:
            ties.append([i, n_tied])
        tr.merge(tuple(pair))
        dv.merge(tuple(pair))
    return {"freq_not_exact": bad_freq, "lengths_not_exact": bad_lengths, "merge_not_exact_argmax": not_argmax,
            "ties": ties, "final_dev_lengths": dv.lengths(), "final_train_lengths": tr.lengths()}


def encode_dev(tokenizer_json: Path, dev_texts: dict, merges: list) -> dict:
    """Encode the development text with the reference's own tokenizer.json."""
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(tokenizer_json))
    out = {}
    for lang, text in dev_texts.items():
        lines = text.splitlines()
        tokens = [t for line in lines for t in tok.encode(line, add_special_tokens=False).tokens]
        out[lang] = {"tokens": len(tokens), "first_line": tok.encode(lines[0], add_special_tokens=False).tokens}
    vocab = tok.get_vocab()
    merged = {}
    for a, b in merges:
        merged.setdefault(a + b, len(merged))
    ids_in_merge_order = all(vocab[t] == 260 + k for t, k in merged.items())
    return {"per_language": out, "vocab_size": len(vocab), "merged_tokens": len(merged),
            "merged_ids_are_260_plus_first_merge_order": ids_in_merge_order}


def run(name: str, ref: Path, python: str, work: Path, symbols: int, meta: dict) -> dict:
    dev_files = [f"dev.{lang}" for lang in LANGS]
    args = [SCRIPT, "--symbols", str(symbols), "--input"] + [f"train.{lang}" for lang in LANGS]
    setting = [arg.format(symbols=symbols) for arg in SETTINGS[name]]
    args += setting if name == "ratio" else setting + ["--dev"] + dev_files
    args += ["--output", f"{name}.bpe", "--json-output", f"{name}.tokenizer.json", "--verbose"]
    cmd = [python, str(ref / SCRIPT)] + args[1:]
    env = dict(os.environ, TQDM_DISABLE="1", PYTHONHASHSEED="0")
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=300)
    seconds = time.perf_counter() - started
    if proc.returncode:
        sys.exit(f"error: the reference failed on {name}: {proc.stderr[-2000:]}")
    merges_text = (work / f"{name}.bpe").read_text(encoding="utf-8")
    merges = [line.split(" ") for line in merges_text.splitlines() if not line.startswith("#version")]
    steps = parse_log(proc.stderr)
    assert [s["pair"] for s in steps] == merges, "the log and the merges file disagree"
    stop = [line for line in proc.stderr.splitlines() if line.startswith("no pair has frequency")]
    train = [words_of((work / f"train.{lang}").read_text(encoding="utf-8")) for lang in LANGS]
    dev = [words_of((work / f"dev.{lang}").read_text(encoding="utf-8")) for lang in LANGS]
    dev_texts = {lang: (work / f"dev.{lang}").read_text(encoding="utf-8") for lang in LANGS}
    golden = dict(meta)
    golden.update({
        "setting": name,
        "command": "python " + " ".join(args),
        "env": {"TQDM_DISABLE": "1", "PYTHONHASHSEED": "0"},
        "merges_file_sha256": sha256((work / f"{name}.bpe").read_bytes()),
        "stopped_early": stop[0] if stop else None,
        "merges": merges,
        "steps": {key: [s.get(key) for s in steps] for key in ("lang", "lengths", "freq")},
    })
    if name == "ratio":
        golden["steps"]["initial_lengths"] = steps[0]["initial_lengths"] if steps else None
    golden["recount"] = check(steps, merges, train, dev, ratio=(name == "ratio"))
    golden["encode_dev"] = encode_dev(work / f"{name}.tokenizer.json", dev_texts, merges)
    counts = [golden["encode_dev"]["per_language"][lang]["tokens"] for lang in LANGS]
    golden["encode_dev"]["tokens_equal_final_dev_lengths"] = counts == golden["recount"]["final_dev_lengths"]
    print(f"{name}: the reference ran {seconds:.1f} s")
    return golden


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("reference", type=Path, help="a checkout of cimeister/parity-aware-bpe")
    p.add_argument("settings", nargs="*", help=f"some of {', '.join(SETTINGS)} (default: all)")
    p.add_argument("--python", default=sys.executable, help="interpreter that runs the reference")
    p.add_argument("--symbols", type=int, default=SYMBOLS)
    p.add_argument("--out", type=Path, default=OUT)
    a = p.parse_args(argv)
    unknown = [s for s in a.settings if s not in SETTINGS]
    if unknown:
        sys.exit(f"error: unknown setting {unknown[0]!r} (known: {', '.join(SETTINGS)})")
    if not (a.reference / SCRIPT).is_file():
        sys.exit(f"error: {a.reference / SCRIPT} not found (give the root of a parity-aware-bpe checkout)")
    commit = subprocess.run(["git", "-C", str(a.reference), "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or None
    versions = subprocess.run([a.python, "-c", "import sys, numpy, tokenizers; print(sys.version.split()[0], "
                               "numpy.__version__, tokenizers.__version__)"], capture_output=True,
                              text=True).stdout.split()
    a.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        files = {}
        for lang in LANGS:
            src = PARALLEL / f"{lang}.txt"
            for part, lines in (("train", TRAIN), ("dev", DEV)):
                data = line_slice(src, lines)
                (work / f"{part}.{lang}").write_bytes(data)
                files[f"{part}.{lang}"] = {"source": f"tests/data/parallel/{lang}.txt",
                                           "lines": [lines[0] + 1, lines[1]], "sha256": sha256(data)}
        meta = {
            "reference": {"repository": "cimeister/parity-aware-bpe", "commit": commit, "script": SCRIPT,
                          "python": versions[0], "numpy": versions[1], "tokenizers": versions[2]},
            "languages": LANGS,
            "files": files,
        }
        for name in a.settings or list(SETTINGS):
            golden = run(name, a.reference, a.python, work, a.symbols, meta)
            path = a.out / f"{name}.json"
            path.write_text(json.dumps(golden, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
            r = golden["recount"]
            print(f"{name}: {len(golden['merges'])} merges, {path.stat().st_size:,} bytes; not exact: "
                  f"freq {len(r['freq_not_exact'])}, lengths {len(r['lengths_not_exact'])}, "
                  f"argmax {len(r['merge_not_exact_argmax'])}; tied steps {len(r['ties'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
