"""SuperBPE: the authors' tokenizers fork against BPE Lens on the same work, and the same result.

    python bench/bench_superbpe_fork.py --fork-bin BINARY [--rounds 3] [--vocab-size 30000] [--transition 20000]

BINARY is the fork's training built offline (tests/data/README.md, "SuperBPE goldens"; it is not part of this
project). The work is bench/bench_variants.py's: the 17.6 MB bench corpus, the gpt2 preset's settings
(ByteLevel pre-tokenizer with GPT-2's regex, min_frequency 2, ``<|endoftext|>``, the 256 byte glyphs; the
binary takes them with FORK_TRAINER=gpt2), stage 1 to t = 20,000 merges, stage 2 (the stage-2 regex) to
30,000 tokens. The fork runs as the authors' scripts do: stage 1 in a fresh folder (vocabulary 257 + t), then
``head -n t+1 merges.txt`` (the ``#version`` line counts) into another and stage 2 there. Rounds alternate
the fork, ours (``bench_variants.py --one superbpe``) and our plain BPE to 30,000, each a fresh process, with ``uptime``'s load before.
Then ours is trained once more in this process and its merges and vocabulary compared with the fork's.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
STAGE2_REGEX = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"


def load() -> str:
    """The 1-minute load average, as uptime prints it."""
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip().split("load average:")[-1].strip()


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list, env: dict) -> tuple[float, float, str]:
    """Run a child; its wall and CPU seconds and what it printed."""
    cpu0, start = children_cpu(), time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - start, children_cpu() - cpu0, done.stdout + done.stderr


def fork_run(binary: Path, corpus: Path, work: Path, vocab: int, t: int, threads: int | None) -> dict:
    """Stage 1 and stage 2 with the fork, as scripts/train_tokenizer.sh and extend_tokenizer.sh run them."""
    env = {"PATH": "/usr/bin:/bin", "TOKENIZERS_PARALLELISM": "true", "FORK_TRAINER": "gpt2"}
    if threads:
        env["RAYON_NUM_THREADS"] = str(threads)
    s1, s2 = work / "stage1", work / "stage2"
    w1, c1, _ = timed([str(binary), str(s1), str(257 + t), "gpt2-bytelevel", str(corpus)], env)
    s2.mkdir()
    lines = (s1 / "merges.txt").read_text(encoding="utf-8").split("\n")
    (s2 / "merges.txt").write_text("".join(line + "\n" for line in lines[:t + 1]), encoding="utf-8")
    w2, c2, log = timed([str(binary), str(s2), str(vocab), STAGE2_REGEX, str(corpus)], env)
    assert "Calling do_train_extend()" in log
    merges = (s2 / "merges.txt").read_text(encoding="utf-8").split("\n")[1:-1]
    return {"kind": "fork", "wall": round(w1 + w2, 3), "cpu": round(c1 + c2, 3),
            "stages": {"stage 1": round(w1, 3), "stage 2": round(w2, 3)},
            "stage1_merges": len(lines) - 2, "merges": len(merges), "dir": str(s2)}


def ours_run(kind: str, vocab: int, t: int) -> dict:
    """bench_variants.py's SuperBPE (or plain BPE) run in a fresh process (its own timing of the whole)."""
    cpu0 = children_cpu()
    done = subprocess.run([sys.executable, str(HERE / "bench_variants.py"), "--one", kind,
                           "--vocab-size", str(vocab), "--transition", str(t)],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    row = json.loads(done.stdout.strip().splitlines()[-1])
    row["cpu_process"] = round(children_cpu() - cpu0, 3)
    row["kind"] = "ours" if kind == "superbpe" else "ours plain"
    return row


def same_result(fork_dir: Path, corpus: Path, vocab: int, t: int) -> dict:
    """Train ours once here and compare its merges and vocabulary with the fork's files."""
    from bpe_core.base.symbols import to_glyphs as glyphs
    from bpe_core.presets import make_config
    from bpe_core.training.superbpe import stage1_config, superbpe_trainer
    from bpe_core.training.trainer import Trainer
    cfg = make_config("gpt2", variant="superbpe", transition=t, vocab_size=vocab)
    stage1 = Trainer.from_corpus(str(corpus), stage1_config(cfg))
    stage1.run()
    trainer = superbpe_trainer(corpus, cfg, stage1.model())
    trainer.run()
    model = trainer.model()

    def to_glyphs(raw) -> str:  # special tokens are kept as text
        return glyphs(raw) if isinstance(raw, bytes) else raw

    ours = [f"{to_glyphs(model.tokens[a])} {to_glyphs(model.tokens[b])}" for a, b in model.merges]
    theirs = (fork_dir / "merges.txt").read_text(encoding="utf-8").split("\n")[1:-1]
    vocab_theirs = json.loads((fork_dir / "vocab.json").read_text(encoding="utf-8"))
    vocab_ours = {to_glyphs(x): i for i, x in enumerate(model.tokens)}
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
    return {"merges_ours": len(ours), "merges_fork": len(theirs), "merges_identical": ours == theirs,
            "vocab_identical": vocab_ours == vocab_theirs, "first_difference": first,
            "inherited_kept": len(trainer.base_merges)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fork-bin", type=Path, required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--vocab-size", type=int, default=30000)
    ap.add_argument("--transition", type=int, default=20000)
    ap.add_argument("--threads", type=int, default=None, help="RAYON_NUM_THREADS for the fork (default: rayon's)")
    ap.add_argument("--no-compare", action="store_true")
    args = ap.parse_args()
    from bench.bench_train import build_corpus
    corpus = build_corpus()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for kind in ("fork", "ours", "ours plain"):
                before = load()
                if kind == "fork":
                    work = Path(tmp) / f"round{r}"
                    work.mkdir()
                    row = fork_run(args.fork_bin, corpus, work, args.vocab_size, args.transition, args.threads)
                else:
                    row = ours_run("superbpe" if kind == "ours" else "plain", args.vocab_size, args.transition)
                row.update(round=r + 1, load_before=before)
                rows.append(row)
                print(json.dumps(row), flush=True)
        for kind in ("fork", "ours", "ours plain"):
            mine = [x for x in rows if x["kind"] == kind]
            print(kind, "median wall", statistics.median(x["wall"] for x in mine),
                  "median cpu", statistics.median(x["cpu"] for x in mine))
        if not args.no_compare:
            last = Path([x for x in rows if x["kind"] == "fork"][-1]["dir"])
            print(json.dumps(same_result(last, corpus, args.vocab_size, args.transition)), flush=True)


if __name__ == "__main__":
    main()
