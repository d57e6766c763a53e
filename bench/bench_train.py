"""Training benchmark: BPE Lens vs Hugging Face tokenizers, side by side in one run.

    python bench/bench_train.py [--vocab-size 30000] [--quick]

1. Builds ~17.6 MB of real English (PTB train, WikiText-2 valid+test, four Gutenberg novels)
   as one LF file under bench/out/.
2. Whole-process wall time and peak memory (ru_maxrss of each child) of
   ``python -m bpe_core train --preset gpt2`` and of a tokenizers ByteLevel BpeTrainer script
   with the same settings; checks that both learn the same merges.
3. Per-merge latency of ``Trainer.step()`` (p50/p95/p99/max after the first 10 merges) and the
   first merge's latency after counting.
4. The seeds' naive algorithm (full recount per merge) against ours at 2000 merges on
   tinyshakespeare, and its per-merge time on the big corpus.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data"
OUT = HERE / "out"
SOURCES = ["bench/ptb/ptb.train.txt", "wikitext-2-raw/wiki.valid.raw", "wikitext-2-raw/wiki.test.raw",
           "bench/gutenberg/les_miserables.txt", "bench/gutenberg/war_and_peace.txt",
           "bench/gutenberg/moby_dick.txt", "bench/gutenberg/don_quixote.txt"]

HF_SCRIPT = r"""
import json, sys
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
corpus, vocab, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
tok = Tokenizer(models.BPE())
tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, show_progress=False,
                              special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
tok.train([corpus], trainer)
merges = json.loads(tok.to_str())["model"]["merges"]
json.dump([m if isinstance(m, list) else m.split(" ") for m in merges], open(out, "w"))
"""


def build_corpus() -> Path:
    OUT.mkdir(exist_ok=True)
    path = OUT / "bench_corpus.txt"
    if not path.exists():
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            for rel in SOURCES:
                with open(DATA / rel, encoding="utf-8-sig") as f:  # universal newlines: CRLF -> LF
                    text = f.read()
                out.write(text if text.endswith("\n") else text + "\n")
    return path


def run_child(cmd: list, env: dict | None = None, cwd: str | None = None) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of one child process."""
    use = child_usage(cmd, env, cwd)
    return use["wall"], use["rss"]


def child_usage(cmd: list, env: dict | None = None, cwd: str | None = None) -> dict:
    """Wall seconds, peak RSS (MB) and CPU seconds (user + sys) of one child process.

    CPU time and peak RSS hardly depend on the machine's load, unlike wall time. Both are the
    child's own (and its waited-for children's): workers started by a forkserver are not counted.
    """
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"{cmd[:4]} failed: {proc.stderr.read().decode()[-2000:]}")
    return dict(wall=wall, rss=usage.ru_maxrss / 1024, cpu=usage.ru_utime + usage.ru_stime)


def whole_process(corpus: Path, vocab: int) -> dict:
    tmp = Path(tempfile.mkdtemp())
    env = dict(os.environ, TOKENIZERS_PARALLELISM="false")
    hf_out, ours_out = tmp / "hf.json", tmp / "ours.json"
    hf_wall, hf_mem = run_child([sys.executable, "-c", HF_SCRIPT, str(corpus), str(vocab), str(hf_out)], env)
    env_par = dict(os.environ, TOKENIZERS_PARALLELISM="true")
    hf2_wall, _ = run_child([sys.executable, "-c", HF_SCRIPT, str(corpus), str(vocab), str(tmp / "hf2.json")], env_par)
    our_wall, our_mem = run_child([sys.executable, "-m", "bpe_core", "train", str(corpus), "--preset", "gpt2",
                                   "--vocab-size", str(vocab), "-q", "-o", str(ours_out)])
    hf_merges = json.load(open(hf_out))
    ours = json.load(open(ours_out))
    our_merges = [m[:2] for m in ours["merges"]]
    first_diff = next((i for i, (a, b) in enumerate(zip(our_merges, hf_merges)) if a != b), None)
    same = first_diff is None and len(our_merges) == len(hf_merges)
    return dict(hf_wall=hf_wall, hf_parallel_wall=hf2_wall, hf_mem=hf_mem, our_wall=our_wall, our_mem=our_mem,
                merges=len(our_merges), hf_merges=len(hf_merges), identical=same, first_diff=first_diff)


def step_latency(corpus: Path, vocab: int) -> dict:
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer
    t0 = time.perf_counter()
    trainer = Trainer.from_corpus(str(corpus), make_config("gpt2", vocab_size=vocab))
    setup = time.perf_counter() - t0
    times = []
    while True:
        s0 = time.perf_counter()
        step = trainer.step()
        times.append(time.perf_counter() - s0)
        if step is None:
            times.pop()
            break
    ms = [x * 1000 for x in times[10:]]
    q = statistics.quantiles(ms, n=100)
    return dict(setup=setup, first=times[0] * 1000, p50=statistics.median(ms), p95=q[94], p99=q[98], max=max(ms),
                steps=len(times), loop=sum(times), over_2ms=sum(1 for x in ms if x > 2))


def naive_recount(words: dict, merges: int) -> tuple[int, float]:
    """The seeds' loop (seed 002 / 003 style): recount all pairs, max(), rebuild every word."""
    splits = {w: [bytes([b]) for b in w.encode()] for w in words}
    t0 = time.perf_counter()
    done = 0
    for _ in range(merges):
        pairs: dict = {}
        for w, f in words.items():
            s = splits[w]
            for i in range(len(s) - 1):
                pairs[s[i], s[i + 1]] = pairs.get((s[i], s[i + 1]), 0) + f
        if not pairs:
            break
        a, b = max(pairs, key=pairs.get)
        for w, s in splits.items():
            i, out = 0, []
            while i < len(s):
                if i + 1 < len(s) and s[i] == a and s[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            splits[w] = out
        done += 1
    return done, time.perf_counter() - t0


def naive_vs_ours(path: Path, merges: int) -> dict:
    from bpe_core.corpus.counting import count_words
    from bpe_core.presets import make_config
    from bpe_core.training.trainer import Trainer
    cfg = make_config("byte-ascii", num_merges=merges, min_frequency=0)
    words = count_words(str(path), cfg)
    t0 = time.perf_counter()
    t = Trainer(words, cfg)
    t.run()
    ours = time.perf_counter() - t0
    done, naive = naive_recount(words, merges)
    return dict(corpus=path.name, words=len(words), merges=done, naive=naive, ours=ours)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vocab-size", type=int, default=30000)
    ap.add_argument("--quick", action="store_true", help="skip the naive comparison on the big corpus")
    args = ap.parse_args()
    corpus = build_corpus()
    print(f"corpus: {corpus} ({corpus.stat().st_size / 1e6:.1f} MB), cores: {os.cpu_count()}")
    w = whole_process(corpus, args.vocab_size)
    print(f"whole process, gpt2 preset, vocab {args.vocab_size}:")
    print(f"  HF tokenizers (TOKENIZERS_PARALLELISM=false) {w['hf_wall']:6.2f} s  peak {w['hf_mem']:6.0f} MB")
    print(f"  HF tokenizers (parallel)                    {w['hf_parallel_wall']:6.2f} s")
    print(f"  BPE Lens                                    {w['our_wall']:6.2f} s  peak {w['our_mem']:6.0f} MB")
    best_hf = min(w["hf_wall"], w["hf_parallel_wall"])
    print(f"  ratio ours/HF(best) = {w['our_wall'] / best_hf:.2f}x; memory ratio = {w['our_mem'] / w['hf_mem']:.2f}x")
    print(f"  merges: ours {w['merges']}, HF {w['hf_merges']}, identical: {w['identical']}"
          + ("" if w["identical"] else f" (first difference at merge {w['first_diff']})"))
    lat = step_latency(corpus, args.vocab_size)
    print(f"per-merge latency over {lat['steps']} merges (after the first 10): p50 {lat['p50']:.3f} ms, "
          f"p95 {lat['p95']:.3f} ms, p99 {lat['p99']:.3f} ms, max {lat['max']:.1f} ms, "
          f"{lat['over_2ms']} merges over 2 ms; first merge {lat['first']:.1f} ms after "
          f"{lat['setup']:.2f} s of counting + setup; loop total {lat['loop']:.2f} s")
    n = naive_vs_ours(DATA / "tinyshakespeare.txt", 2000)
    print(f"naive recount vs ours, {n['merges']} merges on {n['corpus']} ({n['words']} words): "
          f"naive {n['naive']:.1f} s, ours {n['ours']:.2f} s (incl. setup) -> {n['naive'] / n['ours']:.0f}x")


if __name__ == "__main__":
    main()
