"""Load time of GPT-2's tokenizer.json and encode throughput vs tiktoken, side by side in one run.

    python bench/bench_encode.py [--mb 10] [--rounds 2]

Targets: tokenizer.json load <= 1 s; our r50k encode (``Encoder.encode_ids``, cold word cache) at
>= 0.3x tiktoken's single-thread ``encode_ordinary`` on ~10 MB of English built from ../shared/data.
Rounds alternate ours / tiktoken so both see the same machine load; the best round of each counts.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Callable, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe_core.encoding.encoder import Encoder  # noqa: E402
from bpe_core.formats import read_tiktoken, read_tokenizer_json  # noqa: E402

DATA = Path(os.environ.get("BPE_LENS_DATA") or ROOT.parent / "shared" / "data")
ENGLISH = ["tinyshakespeare.txt", "wikitext-2-raw/wiki.valid.raw", "wikitext-2-raw/wiki.test.raw",
           "bench/gutenberg/*.txt", "bench/ptb/ptb.train.txt"]


def english_text(megabytes: float) -> str:
    """English corpus files concatenated up to ``megabytes`` of UTF-8 (the same text every run)."""
    want = int(megabytes * 1_000_000)
    parts: List[str] = []
    size = 0
    for pattern in ENGLISH:
        for p in sorted(DATA.glob(pattern)):
            text = p.read_text(encoding="utf-8")
            parts.append(text)
            size += len(text.encode())
            if size >= want:
                data = "".join(parts).encode()[:want]
                return data.decode("utf-8", "ignore")
    return "".join(parts)


CPU: List[float] = []  # process CPU seconds of the last best_time call (less sensitive to other load)


def best_time(fn: Callable[[], object]) -> Tuple[float, object]:
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    CPU[:] = [time.process_time() - c]
    return time.perf_counter() - t, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=10.0, help="megabytes of English to encode")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds (best counts)")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} (shared with other work)")

    loads = [best_time(lambda: read_tokenizer_json(str(DATA / "gpt2" / "tokenizer.json")))[0] for _ in range(3)]
    print(f"load gpt2 tokenizer.json: best {min(loads):.3f} s, first {loads[0]:.3f} s (target <= 1 s)")
    try:
        from tokenizers import Tokenizer
        hf_load = min(best_time(lambda: Tokenizer.from_file(str(DATA / "gpt2" / "tokenizer.json")))[0] for _ in range(3))
        print(f"  tokenizers.Tokenizer.from_file: {hf_load:.3f} s")
    except ImportError:
        pass

    rank_file = DATA / "tiktoken_ranks" / "r50k_base.tiktoken"
    t, model = best_time(lambda: read_tiktoken(str(rank_file)))
    print(f"load r50k_base.tiktoken: {t:.3f} s (merges are recovered on first use)")
    for name in ("r50k_base", "o200k_base"):
        lazy = read_tiktoken(str(DATA / "tiktoken_ranks" / f"{name}.tiktoken"))
        t, _ = best_time(lambda: len(lazy.merges))
        print(f"  recovering {name}'s merges: {t:.2f} s, {CPU[0]:.2f} s CPU (target < 2 s)")
    text = english_text(args.mb)
    mb = len(text.encode()) / 1e6
    print(f"text: {mb:.2f} MB of English, {len(text):,} characters")

    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    ref = tiktoken.Encoding("r50k_base", pat_str=model.config["pattern"],
                            mergeable_ranks=load_tiktoken_bpe(str(rank_file)), special_tokens=model.specials)
    ours_t: List[float] = []
    ref_t: List[float] = []
    ours_cpu: List[float] = []
    ref_cpu: List[float] = []
    for r in range(args.rounds):
        t, ids = best_time(lambda: Encoder(model).encode_ids(text))  # a fresh encoder: cold word cache
        ours_t.append(t)
        ours_cpu.append(CPU[0])
        t, ref_ids = best_time(lambda: ref.encode_ordinary(text))  # one thread
        ref_t.append(t)
        ref_cpu.append(CPU[0])
        print(f"round {r + 1}: ours {t_fmt(ours_t[-1], mb)}  tiktoken {t_fmt(ref_t[-1], mb)}  "
              f"ratio {ref_t[-1] / ours_t[-1]:.2f}x  same ids: {ids == ref_ids} ({len(ids):,} tokens)")
    ratio = min(ref_t) / min(ours_t)
    print(f"best: ours {mb / min(ours_t):.2f} MB/s, tiktoken {mb / min(ref_t):.2f} MB/s -> "
          f"{ratio:.2f}x tiktoken single-thread (target >= 0.3x)")
    print(f"by process CPU time: ours {min(ours_cpu):.2f} s, tiktoken {min(ref_cpu):.2f} s -> "
          f"{min(ref_cpu) / min(ours_cpu):.2f}x")
    t, _ = best_time(lambda: Encoder(model).encode(text[:1_000_000]))
    print(f"encode() with spans, first 1M characters: {t:.2f} s")


def t_fmt(seconds: float, mb: float) -> str:
    return f"{seconds:.2f} s ({mb / seconds:.2f} MB/s)"


if __name__ == "__main__":
    main()
