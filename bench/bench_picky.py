"""PickyBPE (tau 0.9) as a rule inside the Trainer against plain BPE, and the reference's own time on a slice.

1. The 17.6 MB bench corpus (bench/bench_train.py builds it), gpt2 preset, vocabulary 30,000: the words are
   counted once (pickled); each run is a child process that builds the Trainer from the counts and trains
   to the vocabulary size ("training after counting"), plain BPE and PickyBPE alternated A B A B A B,
   medians of 3; ``uptime``'s load printed before and after.
2. ``--reference DIR``: the reference (pchizhov/picky_bpe, a checkout at DIR) on tinyshakespeare's first
   20,000 lines, vocabulary 3,000, tau 0.9, against this Trainer on the same words (the goldens' settings).

    python bench/bench_picky.py [--vocab-size 30000] [--reference PICKY_BPE_CHECKOUT]
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

CHILD = r"""
import gc, json, pickle, sys, time
from bpe_core.presets import make_config
from bpe_core.training.trainer import Trainer
counts = pickle.load(open(sys.argv[1], "rb"))
variant, vocab = sys.argv[2], int(sys.argv[3])
cfg = make_config("gpt2", vocab_size=vocab, variant=variant, ios_threshold=0.9)
t0 = time.perf_counter()
t = Trainer(counts, cfg, lazy_index=True)  # as `train` builds it: plain BPE runs flat, PickyBPE on the pair index
t1 = time.perf_counter()
t.run()
t2 = time.perf_counter()
removed = sum(len(s.removals) for s in t.history)
print(json.dumps({"build": t1 - t0, "merge": t2 - t1, "merges": t.merge_count, "removals": removed,
                  "vocab": t.vocab_size}))
"""



def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def child(counts: Path, variant: str, vocab: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(counts), variant, str(vocab)], capture_output=True,
                         text=True, check=True, cwd=HERE.parent)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab-size", type=int, default=30000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--reference", help="a checkout of pchizhov/picky_bpe")
    args = ap.parse_args()
    from bench_train import build_corpus
    from bpe_core.corpus.counting import count_words
    from bpe_core.presets import make_config
    corpus = build_corpus()
    print(f"corpus {corpus.name} ({corpus.stat().st_size / 1e6:.1f} MB), vocab {args.vocab_size}, cores {os.cpu_count()}")
    print("load before:", load())
    tmp = Path(tempfile.mkdtemp())
    counts_path = tmp / "counts.pkl"
    counts = count_words(str(corpus), make_config("gpt2"))
    pickle.dump(counts, open(counts_path, "wb"))
    print(f"{len(counts)} distinct words")
    runs: dict = {"bpe": [], "picky": []}
    for _ in range(args.repeats):
        for variant in ("bpe", "picky"):
            r = child(counts_path, variant, args.vocab_size)
            runs[variant].append(r)
            print(f"  {variant:5} build {r['build']:5.2f} s  merging {r['merge']:6.2f} s  merges {r['merges']}  "
                  f"removals {r['removals']}  vocab {r['vocab']}", flush=True)
    med = {v: statistics.median(x["build"] + x["merge"] for x in rs) for v, rs in runs.items()}
    print(f"median training after counting: plain {med['bpe']:.2f} s, picky tau 0.9 {med['picky']:.2f} s, "
          f"ratio {med['picky'] / med['bpe']:.2f}")
    print("load after:", load())
    if args.reference:
        data = Path(__file__).resolve().parents[2] / "shared" / "data" / "tinyshakespeare.txt"
        lines = data.read_bytes().splitlines(keepends=True)[:20000]
        part = tmp / "shakespeare_20k.txt"
        part.write_bytes(b"".join(lines))
        start = time.perf_counter()
        ref = subprocess.run([sys.executable, "bpe_trainer.py", "--input_file", str(part), "--model_file",
                              str(tmp / "model.json"), "--vocab_size", "3000", "--threshold", "0.9"],
                             capture_output=True, text=True, cwd=args.reference)
        ref_wall = time.perf_counter() - start
        from bpe_core.variants.picky_model import reference_trainer  # the goldens' words, specials, ties
        text = part.read_text(encoding="utf-8")
        t0 = time.perf_counter()
        t = reference_trainer(text, vocab_size=3000, threshold=0.9)
        t.run()
        ours = time.perf_counter() - t0
        print(f"tinyshakespeare lines 0-20,000, vocab 3,000, tau 0.9: reference {ref_wall:.1f} s "
              f"(exit {ref.returncode}{', ' + ref.stderr.strip().splitlines()[-1] if ref.returncode else ''}), "
              f"this Trainer {ours:.2f} s ({t.merge_count} merges)")
        print("load after:", load())


if __name__ == "__main__":
    main()
