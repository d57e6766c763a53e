"""Make the SuperBPE goldens in tests/data/variants/superbpe/ by running the authors' own code.

The reference is PythonNut/superbpe (train_tokenizer.py, utils.py) with its fork of HF tokenizers,
alisawuffles/tokenizers-superbpe. The fork's training code is stock tokenizers 0.20.1 for stage 1
(do_train_original) and new code for stage 2 (do_train_extend, chosen when merges.txt is in the working
folder). Run this script with the Python of a virtualenv that has the authors' requirements and a
`tokenizers` build: the fork's own build when it can be built, else stock tokenizers==0.20.1 (the version
the fork branched from). With stock tokenizers only stage 1 and the pre-tokenization are the reference's;
the script detects the fork by the trainer's "Calling do_train_extend()" line and records stage 2 as
blocked when it is missing, because stock tokenizers then silently trains plain BPE from scratch.

With --fork-bin, stage 2 is run by the fork's own Rust code: a small binary built offline from the fork's
`tokenizers` crate (how: tests/data/README.md) that does what train_tokenizer.py and
utils.train_or_extend_tokenizer do (same pre-tokenizer, trainer settings and cwd rule, meta.json file list).
Its stage 1 is checked to equal the authors' Python run before its stage 2 is kept.

It never imports bpe_core. Usage (see tests/data/README.md, "SuperBPE goldens"):
    REF_VENV/bin/python scripts/make_superbpe_goldens.py --ref SUPERBPE_CHECKOUT --fork FORK_CHECKOUT \
        [--fork-bin FORK_TRAIN_BINARY]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

STAGE1_REGEX = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|"
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|"
    r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
STAGE2_REGEX = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"
DATA = Path(os.environ.get("BPE_LENS_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data") / "wikitext-2-raw"
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "variants" / "superbpe"
HELDOUT_CHARS = 6000


def sha256(path: Path) -> str:
    """Return the SHA-256 hex digest of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def git_head(repo: Path) -> str:
    """Return the commit checked out in a git clone."""
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()


def run_train(ref: Path, out_dir: Path, corpus_dir: Path | None, vocab: int, regex: str) -> str:
    """Run the authors' train_tokenizer.py exactly as their scripts do and return its stdout."""
    cmd = [sys.executable, "-m", "train_tokenizer", "--output_dir", str(out_dir),
           "--vocab_size", str(vocab), "--regex_string", regex]
    if corpus_dir is not None:
        cmd += ["--corpus_dir", str(corpus_dir)]
    done = subprocess.run(cmd, cwd=ref, capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin", "TOKENIZERS_PARALLELISM": "true"})
    return done.stdout


def run_fork(fork_bin: Path, out_dir: Path, corpus_dir: Path | None, vocab: int, regex: str) -> str:
    """Run the fork's Rust training as train_tokenizer.py does: its meta.json rule, then the binary (which
    chdirs into out_dir, so the fork's do_train sees merges.txt there) and return what it printed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    meta_path = out_dir / "meta.json"
    if meta_path.exists():
        files = json.loads(meta_path.read_text(encoding="utf-8"))["train_files"]
    else:  # utils.get_files_with_num_bytes(corpus_dir, None): every *.txt, os.listdir order
        names = [f for f in os.listdir(corpus_dir) if f.endswith(".txt") and "truncated" not in f
                 and "split" not in f]
        files = [str(corpus_dir / f) for f in names]
        meta = {"total_bytes": sum(os.path.getsize(f) for f in files), "train_files": files}
        if (out_dir / "merges.txt").exists():
            shutil.copy(out_dir / "merges.txt", out_dir / "initial_merges.txt")
            meta["num_initial_merges"] = len((out_dir / "initial_merges.txt").read_text().splitlines()) - 1
        meta_path.write_text(json.dumps(meta, indent=5), encoding="utf-8")
    done = subprocess.run([str(fork_bin), str(out_dir), str(vocab), regex, *files], capture_output=True,
                          text=True, check=True, env={"PATH": "/usr/bin:/bin", "TOKENIZERS_PARALLELISM": "true"})
    return done.stdout + done.stderr


def read_merges(path: Path) -> list[str]:
    """Read a merges.txt the way the fork's do_train_extend does: skip the version line."""
    return path.read_text(encoding="utf-8").split("\n")[1:-1]


def stage1(ref: Path, work: Path, corpus_dir: Path, vocab: int, name: str, fork_bin: Path | None = None) -> dict:
    """Train stage 1 (plain BPE with the stage-1 regex) in a fresh folder and collect its outputs."""
    out = work / name
    if fork_bin is not None:
        log = run_fork(fork_bin, out, corpus_dir, vocab, STAGE1_REGEX)
    else:
        log = run_train(ref, out, corpus_dir, vocab, STAGE1_REGEX)
    return {"dir": out, "log": log, "merges": read_merges(out / "merges.txt"),
            "vocab": json.loads((out / "vocab.json").read_text(encoding="utf-8")),
            "tokenizer_json": (out / "tokenizer.json").read_text(encoding="utf-8")}


def stage2(ref: Path, work: Path, base: Path, t: int, vocab: int, run: int, fork_bin: Path | None = None) -> dict:
    """Run extend_tokenizer.sh's steps: head -n t merges.txt, copy meta.json, train with the stage-2 regex."""
    out = work / f"extend_t{t}_run{run}"
    out.mkdir()
    lines = (base / "merges.txt").read_text(encoding="utf-8").split("\n")
    (out / "merges.txt").write_text("".join(line + "\n" for line in lines[:t]), encoding="utf-8")
    shutil.copy(base / "meta.json", out / "meta.json")
    if fork_bin is not None:
        log = run_fork(fork_bin, out, None, vocab, STAGE2_REGEX)
    else:
        log = run_train(ref, out, None, vocab, STAGE2_REGEX)
    return {"log": log, "fork": "Calling do_train_extend()" in log,
            "merges": read_merges(out / "merges.txt"),
            "vocab": json.loads((out / "vocab.json").read_text(encoding="utf-8")),
            "tokenizer_json": (out / "tokenizer.json").read_text(encoding="utf-8")}


def encode_with_fork(fork_encode: Path, tokenizer_json: str, text: str) -> dict:
    """Encode text with the fork's own encoder (a binary built with it: Tokenizer::from_file, encode)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as f:
        f.write(tokenizer_json)
    try:
        done = subprocess.run([str(fork_encode), f.name], input=text, capture_output=True, text=True, check=True)
    finally:
        os.unlink(f.name)
    return dict(json.loads(done.stdout), tokenizers="the fork 757f2a5 (Word::merge_all with its multiword field)")


def stage2_entry(t: int, pair: list[dict], s1: dict, heldout: str, stock_python: str,
                 fork_encode: Path | None = None) -> dict:
    """The golden of one transition point: the fork's merges, vocabulary and held-out encoding, or why not."""
    run = pair[0]
    entry = {"inherited_merges": t - 1, "fork_ran": run["fork"],
             "deterministic_two_runs": all(pair[0][k] == pair[1][k] for k in ("merges", "vocab", "tokenizer_json"))}
    if not run["fork"]:
        return dict(entry, merges=None, blocked=(
            "the fork's tokenizers could not be built here; stock tokenizers has no do_train_extend and trained "
            f"plain BPE from scratch (its merges equal stage 1's: {run['merges'] == s1['merges']})"))
    given = s1["merges"][:t - 1]
    kept = [m for m in given if m in run["merges"][:t - 1]]
    log_lines = [line for line in run["log"].splitlines() if "not found in queue" in line or "Skipping merge" in line]
    encodings = {"reference": encode_with(sys.executable, run["tokenizer_json"], heldout),
                 "stock": encode_with(stock_python, run["tokenizer_json"], heldout)}
    if fork_encode is not None:
        encodings["fork"] = encode_with_fork(fork_encode, run["tokenizer_json"], heldout)
    return dict(entry, inherited_kept=len(kept), inherited_dropped=[m for m in given if m not in kept],
                merges=run["merges"], vocab=run["vocab"], fork_log=log_lines, encode_heldout=encodings)


def encode_with(python: str, tokenizer_json: str, text: str) -> dict:
    """Encode text with the given interpreter's `tokenizers` (Tokenizer.from_str, encode as encode.py)."""
    code = ("import json,sys,tokenizers as T;d=json.load(sys.stdin);"
            "tk=T.Tokenizer.from_str(d['tj']);e=tk.encode(d['text']);"
            "print(json.dumps({'tokenizers':T.__version__,'ids':e.ids,'tokens':e.tokens}))")
    done = subprocess.run([python, "-c", code], input=json.dumps({"tj": tokenizer_json, "text": text}),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def pretokens(regex: str, lines: list[str]) -> list[list[str]]:
    """Pre-tokenize each line (with its newline, as training reads files) with the authors' pipeline."""
    from tokenizers import Regex, pre_tokenizers
    from tokenizers.pre_tokenizers import ByteLevel, Split
    pipe = pre_tokenizers.Sequence([
        Split(pattern=Regex(regex), behavior="isolated", invert=False),
        ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False)])
    return [[piece for piece, _ in pipe.pre_tokenize_str(line)] for line in lines]


def authors_subset(ref: Path, name: str, heldout: str, stock_python: str) -> dict:
    """Encode held-out text with one of the authors' published SuperBPE tokenizers, and keep a subset.

    The authors' repository ships merges.txt and vocab.json of their own stage-2 runs (10 GB of OLMo 2
    data); its tokenizer.json files are absent from the mirror, so the tokenizer is rebuilt from merges.txt,
    vocab.json and the stage-2 pre-tokenizer exactly as train_or_extend_tokenizer builds it. Only merges whose
    result is a substring of a held-out pre-token can fire, so that subset (in order) encodes the held-out text
    the same way; the function checks it does and returns it with the encodings.
    """
    from tokenizers import Tokenizer
    from tokenizers.models import BPE

    def show(path: str) -> str:
        return subprocess.run(["git", "-C", str(ref), "show", f"HEAD:tokenizer_json/{name}/{path}"],
                              capture_output=True, text=True, check=True).stdout

    merges_txt = show("merges.txt")
    merges = merges_txt.split("\n")[1:-1]
    vocab = json.loads(show("vocab.json"))

    def build(vocab_part: dict, merges_part: list[str]) -> str:
        tok = Tokenizer(BPE(vocab=vocab_part, merges=[tuple(m.split(" ")) for m in merges_part]))
        doc = json.loads(tok.to_str())
        doc["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": STAGE2_REGEX}, "behavior": "Isolated", "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]}
        return json.dumps(doc, ensure_ascii=False)

    full = encode_with(sys.executable, build(vocab, merges), heldout)
    pieces = [p for line in heldout.splitlines(keepends=True) for p in sum(pretokens(STAGE2_REGEX, [line]), [])]
    joined = "\x00".join(pieces)
    keep = [(rank, m) for rank, m in enumerate(merges) if m.replace(" ", "") in joined]
    alphabet = {t: i for t, i in vocab.items() if len(t) == 1}
    sub_vocab = dict(alphabet)
    for _, m in keep:
        for t in (*m.split(" "), m.replace(" ", "")):
            sub_vocab[t] = vocab[t]
    sub_json = build(sub_vocab, [m for _, m in keep])
    sub = encode_with(sys.executable, sub_json, heldout)
    stock = encode_with(stock_python, sub_json, heldout)
    assert sub["ids"] == full["ids"] and sub["tokens"] == full["tokens"], "subset does not encode as the full"
    t = int(name.split("_10G_")[1].split("K")[0]) * 1000
    first_new = merges[t - 1] if len(merges) >= t else None
    return {"name": name, "merges_txt_sha256": hashlib.sha256(merges_txt.encode()).hexdigest(),
            "merges_total": len(merges), "vocab_total": len(vocab), "transition_t": t,
            "inherited_merges": t - 1, "first_stage2_merge": first_new,
            "subset_merges": [[rank, m] for rank, m in keep], "subset_vocab": sub_vocab,
            "encode_heldout": {"full_reference_tokenizers": full, "subset_reference_tokenizers": sub,
                               "subset_stock": stock}}


def main() -> None:
    """Run the reference twice per setting, check determinism, and write the golden JSON files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", type=Path, required=True, help="a checkout of PythonNut/superbpe")
    parser.add_argument("--fork", type=Path, required=True, help="a checkout of alisawuffles/tokenizers-superbpe")
    parser.add_argument("--vocab", type=int, default=2000)
    parser.add_argument("--transitions", type=int, nargs="+", default=[1000, 1500])
    parser.add_argument("--stock-python", default=sys.executable)
    parser.add_argument("--fork-bin", type=Path, default=None,
                        help="the fork's training built as a binary (tests/data/README.md); runs stage 2")
    parser.add_argument("--fork-encode", type=Path, default=None,
                        help="the fork's encoder built as a binary: stage 2's held-out text encoded by the fork too")
    parser.add_argument("--authors", nargs="*", default=["olmo2_p99_truncate_10G_20K_extend_200K_mw4_colon",
                                                          "olmo2_p99_truncate_10G_100K_extend_200K_mw4_colon"])
    args = parser.parse_args()
    import tokenizers

    train_file = DATA / "wiki.valid.raw"
    heldout_file = DATA / "wiki.test.raw"
    heldout = heldout_file.read_text(encoding="utf-8")[:HELDOUT_CHARS]
    heldout = heldout[: heldout.rfind("\n") + 1]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        corpus = work / "corpus"
        corpus.mkdir()
        shutil.copy(train_file, corpus / "wiki.valid.txt")  # get_files_with_num_bytes wants *.txt
        runs = [stage1(args.ref, work, corpus, args.vocab, f"stage1_run{i}") for i in (1, 2)]
        deterministic = all(runs[0][k] == runs[1][k] for k in ("merges", "vocab", "tokenizer_json"))
        s1 = runs[0]
        fork_s1 = None
        if args.fork_bin is not None:  # the build is trusted only if its stage 1 is the authors' run
            fork_s1 = stage1(args.ref, work, corpus, args.vocab, "stage1_fork", args.fork_bin)
            assert all(fork_s1[k] == s1[k] for k in ("merges", "vocab")), "the fork binary's stage 1 differs"
        ext = {t: [stage2(args.ref, work, s1["dir"], t, args.vocab, run, args.fork_bin) for run in (1, 2)]
               for t in args.transitions}
        tj = s1["tokenizer_json"]
        common = {
            "reference": {"repo": "PythonNut/superbpe", "commit": git_head(args.ref),
                          "fork_repo": "alisawuffles/tokenizers-superbpe", "fork_commit": git_head(args.fork),
                          "fork_base": "d162f3c (HF tokenizers v0.20.1)",
                          "tokenizers_used": tokenizers.__version__, "python": sys.version.split()[0]},
            "corpus": {"train": "wikitext-2-raw/wiki.valid.raw", "train_sha256": sha256(train_file),
                       "heldout": f"wikitext-2-raw/wiki.test.raw, first {len(heldout)} characters "
                                  "(cut after the last newline in the first 6,000)",
                       "heldout_sha256": hashlib.sha256(heldout.encode()).hexdigest()},
            "stage1_regex": STAGE1_REGEX, "stage2_regex": STAGE2_REGEX,
        }
        stage1_doc = dict(common, setting={"vocab_size": args.vocab}, deterministic_two_runs=deterministic,
                          merges=s1["merges"], vocab=s1["vocab"],
                          pre_tokenizer=json.loads(tj)["pre_tokenizer"],
                          heldout_text=heldout,
                          encode_heldout={"reference": encode_with(sys.executable, tj, heldout),
                                          "stock": encode_with(args.stock_python, tj, heldout)})
        lines = heldout.splitlines(keepends=True)
        pretok_doc = dict(common, lines=lines, stage1=pretokens(STAGE1_REGEX, lines),
                          stage2=pretokens(STAGE2_REGEX, lines))
        stage2_doc = dict(common, setting={"vocab_size": args.vocab}, heldout_text=heldout,
                          fork_build=None if args.fork_bin is None else {
                              "how": "the fork's tokenizers crate built offline (tests/data/README.md)",
                              "stage1_equals_reference_stage1": fork_s1 is not None},
                          transitions={str(t): stage2_entry(t, pair, s1, heldout, args.stock_python,
                                                            args.fork_encode)
                                       for t, pair in ext.items()})
    authors = {n: authors_subset(args.ref, n, heldout, args.stock_python) for n in args.authors}
    authors_doc = dict(common, heldout_text=heldout, tokenizers=authors)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, doc in (("stage1_v%d.json" % args.vocab, stage1_doc), ("pretokens.json", pretok_doc),
                      ("stage2.json", stage2_doc), ("authors_stage2_encode.json", authors_doc)):
        (OUT / name).write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n",
                                encoding="utf-8")
        print(name, (OUT / name).stat().st_size, "bytes")
    print("stage 1 deterministic over two runs:", deterministic)
    for t, pair in ext.items():
        print(f"t={t}: fork ran: {pair[0]['fork']}")


if __name__ == "__main__":
    main()
