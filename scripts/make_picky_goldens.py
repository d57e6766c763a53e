#!/usr/bin/env python
"""Make the PickyBPE goldens in tests/data/variants/picky/ by running the authors' own code.

The reference is pchizhov/picky_bpe (``bpe_trainer.py``, ``language.py``, ``utils.py``,
``picky_tokenize.py``), checked out at the path given with ``--ref``. This script never imports
bpe_core. It needs only what the reference needs (numpy), so run it with the reference's own venv:

    nice -n 15 REF_VENV/bin/python scripts/make_picky_goldens.py --ref PICKY_CHECKOUT
    nice -n 15 REF_VENV/bin/python scripts/make_picky_goldens.py --ref PICKY_CHECKOUT shakespeare_t0.9

Training runs in this process through the reference's own ``BPE.fit`` (which writes the reference's
model file with its own ``_dump``). Three of the reference's methods are wrapped to observe, never to
change, what happens: ``_initialize_vocab`` (the initial characters and their counts),
``_merge_pair`` (the pair chosen, its count in the reference's pair table, the pairs tied with it at that
count, stored as their number and a digest of their sorted set, and the frequency actually merged) and
``_remove_if_possible`` (the frequency of a removed token and the merged frequency that removed it).
Encodings come from running ``picky_tokenize.py`` as a script on the held-out slice and the model file.
The tied pairs' order is not recorded: the reference's order among pairs that entered its table in the
same update depends on set iteration (memory addresses) and changes between runs (docs/variants.md).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "variants" / "picky"
DATA = ROOT.parent / "shared" / "data"

CORPORA = {
    # name: (path under ../shared/data, training lines [a, b), held-out lines [a, b), vocab size)
    "shakespeare": ("tinyshakespeare.txt", (0, 20000), (39800, 40000), 3000),
    "wiki": ("wikitext-2-raw/wiki.valid.raw", (0, 2400), (3600, 3760), 3000),
}
THRESHOLDS = (0.6, 0.9, 1.0)
#: small random texts (``small_text``) for the reference's rare paths: the first 20 seeds, one where it
#: crashes (an empty pair table), and every seed of 1000-1299 where a merge forms a string that is already
#: a present token (its "Additional merges", which makes its pair counts drift)
SMALL_SEEDS = list(range(1000, 1020)) + [1034, 1037, 1074, 1079, 1092, 1122, 1127, 1139, 1149, 1169, 1191,
                                         1216, 1217, 1256, 1281, 1292]


def run_names() -> list:
    return [f"{c}_t{t}" for c in CORPORA for t in THRESHOLDS] + ["small"]


def small_text(seed: int) -> tuple:
    """A small random text over 1-4 letters, with a threshold and a vocabulary size: (text, τ, size)."""
    rnd = random.Random(seed)
    alphabet = rnd.choice(["ab", "abc", "abcd", "ab ", "aab"]).strip()
    words = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 9))) for _ in range(rnd.randint(3, 40))]
    lines = [" ".join(rnd.choice(words) for _ in range(rnd.randint(1, 8))) for _ in range(rnd.randint(1, 30))]
    threshold = rnd.choice([0.3, 0.5, 0.6, 0.8, 0.9, 1.0])
    return "\n".join(lines) + "\n", threshold, rnd.randint(6, 40)


def line_slice(path: Path, lines: tuple) -> bytes:
    """Return the exact bytes of lines [a, b) of the file (line ends kept)."""
    with open(path, "rb") as f:
        all_lines = f.read().splitlines(keepends=True)
    return b"".join(all_lines[lines[0]:lines[1]])


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def tie_digest(pairs: list) -> str:
    """A short digest of a set of pairs: SHA-256 of the sorted 'left TAB right' lines, 16 hex digits."""
    lines = sorted(f"{left}\t{right}" for left, right in pairs)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def reference_commit(ref: Path) -> str:
    out = subprocess.run(["git", "-C", str(ref), "rev-parse", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


class Observer:
    """Wraps three methods of the reference's BPE class to record what its run does."""

    last = None   # the latest observer, to read a run that crashed

    def __init__(self, bpe_module):
        Observer.last = self
        self.cls = bpe_module.BPE
        self.saved = {}
        self.initial = []
        self.merges = []     # one dict per call of _merge_pair, in order
        self.removals = []   # one dict per successful removal, in order

    def install(self) -> None:
        cls = self.cls
        obs = self
        for name in ("_initialize_vocab", "_merge_pair", "_remove_if_possible"):
            self.saved[name] = getattr(cls, name)

        def initialize_vocab(bpe, words):
            obs.saved["_initialize_vocab"](bpe, words)
            obs.initial = [[t.str, t.freq] for t in bpe.id2token.values() if not t.special]

        def merge_pair(bpe, pair, pairs):
            count = pairs[pair]
            tied = [[p[0].str, p[1].str] for p, c in pairs.items() if c == count]
            n_events = len(bpe.events)
            actual = obs.saved["_merge_pair"](bpe, pair, pairs)
            obs.merges.append({"count": count, "actual": actual, "tied": tied, "event": n_events})
            return actual

        def remove_if_possible(bpe, token, merged_freq, pairs):
            freq = token.freq
            removed = obs.saved["_remove_if_possible"](bpe, token, merged_freq, pairs)
            if removed:
                obs.removals.append({"freq": freq, "merged": merged_freq})
            return removed

        cls._initialize_vocab = initialize_vocab
        cls._merge_pair = merge_pair
        cls._remove_if_possible = remove_if_possible

    def uninstall(self) -> None:
        for name, fn in self.saved.items():
            setattr(self.cls, name, fn)


def train(ref: Path, train_file: Path, model_file: Path, vocab_size: int, threshold: float) -> tuple:
    """Run the reference's BPE.fit with the observer; return (bpe, observer)."""
    sys.path.insert(0, str(ref))
    import bpe_trainer  # the reference's module
    obs = Observer(bpe_trainer)
    obs.install()
    try:
        bpe = bpe_trainer.BPE(vocab_size, threshold=threshold)
        bpe.fit(str(train_file), str(model_file), logging_step=10 ** 9)
    finally:
        obs.uninstall()
    return bpe, obs


def events_of(bpe, obs) -> list:
    """The reference's event list as JSON: merges and removals in the order they happened."""
    merge_type = type(bpe.events[0][0]).MERGE
    out = []
    merges = iter(obs.merges)
    removals = iter(obs.removals)
    for kind, a, b in bpe.events:
        if kind == merge_type:
            m = next(merges)
            out.append(["m", a[0].str, a[1].str, b.str, m["count"], m["actual"]])
        else:
            r = next(removals)
            out.append(["s", a.str, [t.str for t in b], r["freq"], r["merged"]])
    return out


def tokenize(ref: Path, model_file: Path, text_file: Path, out_file: Path) -> list:
    """Encode a file with the reference's own picky_tokenize.py (run as a script)."""
    cmd = [sys.executable, "picky_tokenize.py", "--bpe_model", str(model_file),
           "--input_file", str(text_file), "--output_file", str(out_file), "--return_type", "str"]
    subprocess.run(cmd, cwd=str(ref), check=True, capture_output=True)
    return out_file.read_text(encoding="utf-8").split("\n")


def make_run(ref: Path, name: str, tmp: Path) -> dict:
    corpus, t = name.rsplit("_t", 1)
    threshold = float(t)
    rel, train_lines, held_lines, vocab_size = CORPORA[corpus]
    train_bytes = line_slice(DATA / rel, train_lines)
    held_bytes = line_slice(DATA / rel, held_lines)
    train_file, held_file = tmp / f"{corpus}.train.txt", tmp / f"{corpus}.heldout.txt"
    train_file.write_bytes(train_bytes)
    held_file.write_bytes(held_bytes)
    model_file = tmp / f"{name}.model.json"
    start = time.time()
    bpe, obs = train(ref, train_file, model_file, vocab_size, threshold)
    seconds = time.time() - start
    model = json.loads(model_file.read_text(encoding="utf-8"))
    encoded = tokenize(ref, model_file, held_file, tmp / f"{name}.tok.txt")
    ties = {str(i): [len(m["tied"]), tie_digest(m["tied"])]
            for i, m in enumerate(obs.merges) if len(m["tied"]) > 1}
    return {
        "reference": {"repo": "pchizhov/picky_bpe", "commit": reference_commit(ref),
                      "trainer": "bpe_trainer.BPE.fit", "tokenizer": "picky_tokenize.py --return_type str"},
        "settings": {"vocab_size": vocab_size, "threshold": threshold, "coverage": bpe.coverage,
                     "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3},
        "train": {"path": rel, "lines": list(train_lines), "sha256": sha256(train_bytes)},
        "heldout": {"path": rel, "lines": list(held_lines), "sha256": sha256(held_bytes)},
        "python": sys.version.split()[0],
        "seconds": round(seconds, 1),
        "initial": obs.initial,
        "events": events_of(bpe, obs),
        "ties": ties,
        "tokens": [[d["id"], d["str"], d["freq"], d["present"]] for d in model["tokens"]],
        "model_sha256": sha256(model_file.read_bytes()),
        "encoding": encoded,
    }


def make_small(ref: Path, tmp: Path) -> dict:
    """The reference on each of SMALL_SEEDS' texts; where it crashes, its events up to the crash."""
    cases = []
    for seed in SMALL_SEEDS:
        text, threshold, vocab_size = small_text(seed)
        train_file, model_file = tmp / f"{seed}.txt", tmp / f"{seed}.model.json"
        train_file.write_text(text, encoding="utf-8")
        case = {"seed": seed, "text": text, "vocab_size": vocab_size, "threshold": threshold}
        try:
            bpe, obs = train(ref, train_file, model_file, vocab_size, threshold)
        except IndexError as e:   # the reference's most_common(1)[0] on an empty pair table
            case["error"] = f"IndexError: {e}"
            case["events"] = [[m["count"], m["actual"]] for m in Observer.last.merges]
            cases.append(case)
            continue
        model = json.loads(model_file.read_text(encoding="utf-8"))
        case.update({
            "initial": obs.initial, "events": events_of(bpe, obs) if bpe.events else [],
            "ties": {str(i): [len(m["tied"]), tie_digest(m["tied"])]
                     for i, m in enumerate(obs.merges) if len(m["tied"]) > 1},
            "tokens": [[d["id"], d["str"], d["freq"], d["present"]] for d in model["tokens"]],
            "model_sha256": sha256(model_file.read_bytes()),
            "encoding": tokenize(ref, model_file, train_file, tmp / f"{seed}.tok.txt"),
        })
        cases.append(case)
    return {"reference": {"repo": "pchizhov/picky_bpe", "commit": reference_commit(ref)},
            "generator": "scripts/make_picky_goldens.py small_text(seed)", "coverage": 0.9999,
            "python": sys.version.split()[0], "cases": cases}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", required=True, type=Path, help="checkout of pchizhov/picky_bpe")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("runs", nargs="*", help=f"runs to make (default all: {', '.join(run_names())})")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.runs or run_names():
        with tempfile.TemporaryDirectory() as tmp:
            make = make_small if name == "small" else lambda ref, tmp: make_run(ref, name, tmp)
            golden = make(args.ref.resolve(), Path(tmp))
        path = args.out / f"{name}.json"
        path.write_text(json.dumps(golden, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        if name == "small":
            print(f"small: {len(golden['cases'])} texts, {path.stat().st_size} bytes")
            continue
        n_split = sum(1 for e in golden["events"] if e[0] == "s")
        print(f"{name}: {len(golden['events']) - n_split} merges, {n_split} removals, "
              f"{len(golden['ties'])} tied steps, {golden['seconds']} s, {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
