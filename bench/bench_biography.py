"""Token biography at scale (issue 27): GPT-2's tokenizer over 100 MB of text on this machine.

    python bench/bench_biography.py [--mb 100] [--runs 1] [--check]

1. Builds the corpus under bench/out/: every text in the shared data (PTB, WikiText-2, the Gutenberg novels,
   the multilingual novels, Sanguo Yanyi, Tiny Shakespeare: ~36 MB, read as they are) concatenated, then
   that concatenation repeated (its first bytes again, cut at a line end) until it reaches --mb megabytes.
   Repetition leaves the distinct pieces those of the ~36 MB: counting reads all 100 MB, the replay works
   on the distinct pieces.
2. Runs ``bpe-lens-cli tokens gpt2/tokenizer.json --corpus CORPUS --csv OUT`` in a child process: wall time,
   CPU time and peak memory (the largest maximum RSS of the child and its forked counting workers); then the
   same work in a child that times its phases (load, count, replay + biography, CSV text), with two counting
   processes and with one.
Prints one JSON line per run and the machine's load (``uptime``) before and after.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data"
OUT = HERE / "out"
SOURCES = sorted(str(p.relative_to(DATA)) for p in (DATA / "bench").rglob("*.txt")) + [
    "wikitext-2-raw/wiki.valid.raw", "wikitext-2-raw/wiki.test.raw", "chinese/sanguo_yanyi.txt",
    "tinyshakespeare.txt"]


def build_corpus(mb: int) -> Path:
    """The --mb corpus (see the module doc); built once."""
    OUT.mkdir(exist_ok=True)
    path = OUT / f"biography_{mb}mb.txt"
    if path.exists():
        return path
    base = b"".join(_with_newline((DATA / rel).read_bytes()) for rel in SOURCES)
    target = mb * 1_000_000
    with open(path, "wb") as out:
        written = 0
        while written < target:
            chunk = base[: target - written]
            cut = chunk.rfind(b"\n") + 1 if len(chunk) < len(base) else len(chunk)
            out.write(chunk[:cut] or chunk)
            written += cut or len(chunk)
    return path


def _with_newline(data: bytes) -> bytes:
    return data if data.endswith(b"\n") else data + b"\n"


PHASES = r"""
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from bpe_core.formats.detect import open_vocabulary
from bpe_core.analysis.biography import biography_of_pieces, biography_csv
from bpe_core.analysis.biography_count import count_pieces
model = open_vocabulary(sys.argv[1])
t1 = time.perf_counter()
pieces = count_pieces(model, [Path(sys.argv[2])], workers=int(sys.argv[3]))
t2 = time.perf_counter()
bio = biography_of_pieces(model, pieces)
t3 = time.perf_counter()
text = biography_csv(bio)
t4 = time.perf_counter()
print(json.dumps({"load_s": round(t1 - t0, 2), "count_s": round(t2 - t1, 1), "replay_bio_s": round(t3 - t2, 1),
                  "csv_s": round(t4 - t3, 2), "distinct_pieces": len(pieces), "tokens_emitted": bio.corpus_tokens,
                  "statuses": bio.status_counts()}))
"""


def child(cmd: list) -> dict:
    """Wall seconds, peak RSS (MB, the child's or a waited-for worker's) and stdout of one child process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"{cmd[:4]} failed: {err[-2000:]}")
    return {"wall_s": round(wall, 1), "peak_rss_mb": round(usage.ru_maxrss / 1024),
            "cpu_s": round(usage.ru_utime + usage.ru_stime, 1), "out": out}


def run_cli(corpus: Path, vocab: Path) -> dict:
    """The command a user runs, end to end (reading, counting, replay, CSV written)."""
    csv_out = OUT / "biography_gpt2.csv"
    got = child([sys.executable, "-m", "bpe_core", "tokens", str(vocab), "--corpus", str(corpus), "--csv",
                 str(csv_out), "-q"])
    got.pop("out")
    return {"run": "cli tokens --csv", **got}


def run_phases(corpus: Path, vocab: Path, workers: int) -> dict:
    got = child([sys.executable, "-c", PHASES, str(vocab), str(corpus), str(workers)])
    return {"run": f"phases, {workers} counting process(es)", **got, "out": json.loads(got["out"])}


def check_with_tiktoken(corpus: Path) -> dict:
    """The CSV the command wrote against tiktoken's r50k_base on the same lines (the whole corpus)."""
    import csv
    from collections import Counter
    sys.path.insert(0, str(ROOT))
    from tests.core.test_exact_encoding import tiktoken_reference
    enc = tiktoken_reference("r50k_base")
    want: Counter = Counter()
    with open(corpus, "rb") as f:
        for raw in f:  # lines cut at "\n" only, each keeping it: as the biography reads them
            want.update(enc.encode_ordinary(raw.decode("utf-8")))
    with open(OUT / "biography_gpt2.csv", encoding="utf-8", newline="") as f:
        got = {int(r["id"]): int(r["emitted"]) for r in csv.DictReader(f) if r["emitted"] != "0"}
    return {"tiktoken_equal": got == dict(want), "tokens": sum(want.values())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--check", action="store_true", help="then compare the CSV with tiktoken on the corpus")
    args = ap.parse_args()
    corpus = build_corpus(args.mb)
    vocab = DATA / "gpt2" / "tokenizer.json"
    print("load before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(json.dumps({"corpus": corpus.name, "bytes": corpus.stat().st_size, "sources": len(SOURCES)}))
    for _ in range(args.runs):  # alternated: the command, then its phases with 2 and 1 counting processes
        print(json.dumps(run_cli(corpus, vocab)), flush=True)
        print(json.dumps(run_phases(corpus, vocab, 2)), flush=True)
        print(json.dumps(run_phases(corpus, vocab, 1)), flush=True)
    if args.check:
        print(json.dumps(check_with_tiktoken(corpus)), flush=True)
    print("load after:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
