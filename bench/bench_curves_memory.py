"""Peak memory of the curves engine on one big evaluation text (issue 27): ru_maxrss and tracemalloc's peak of
``model_curves`` on war_and_peace.txt (3.3 MB) with GPT-2's tokenizer.json, its first MERGES merges, every K.

    python bench/bench_curves_memory.py [MERGES] [EVERY] [--top]
"""
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

from bpe_core.analysis.curves import model_curves, read_eval_files
from bpe_core.formats.detect import open_vocabulary

#: ../shared/data beside the checkout (or BPE_LENS_DATA), as the other benchmarks find it
DATA = str(Path(os.environ.get("BPE_LENS_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data"))


def main() -> None:
    merges = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    model = open_vocabulary(f"{DATA}/gpt2/tokenizer.json")
    texts = read_eval_files([f"{DATA}/bench/gutenberg/war_and_peace.txt"])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    t = time.perf_counter()
    c = model_curves(model, texts, every, upto=merges)
    took = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    if "--top" in sys.argv:
        for s in tracemalloc.take_snapshot().statistics("lineno")[:8]:
            print(s)
    tracemalloc.stop()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"merges={merges} every={every} rows={len(c.rows)} traced_peak={peak / 2**20:.1f} MiB "
          f"maxrss={after / 1024:.0f} MiB (before the curves {before / 1024:.0f} MiB) {took:.1f} s (traced)")


if __name__ == "__main__":
    main()
