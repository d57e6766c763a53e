"""Token biography (issue 27): emitted counts against tiktoken and Hugging Face tokenizers on real text,
birth counts and IoS against an independent naive replay (a loop over the merges, written here from the
tokenizer.json file, not from BPE Lens's model), IoS against the PickyBPE trainer's own removals, and the
statuses, filters, order, CSV, progress and cancel."""
from __future__ import annotations

import csv
import functools
import io
import json
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
import regex

from bpe_core.analysis import biography_count
from bpe_core.analysis.biography import (FILTERS, STATUSES, biography_csv, corpus_pieces, select, token_biography)
from bpe_core.formats.detect import open_vocabulary
from bpe_core.model import BPEModel
from bpe_core.types import BPELensError, Cancelled

from .paths import need
from .test_exact_encoding import tiktoken_reference

ROOT = Path(__file__).resolve().parents[2]
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


@functools.lru_cache(maxsize=None)
def gpt2() -> BPEModel:
    return open_vocabulary(str(need("gpt2/tokenizer.json")))


def lines_of(path: Path) -> List[str]:
    """The file's text as it is (a "\\r" and a BOM kept), cut at "\\n" only, each line keeping it."""
    text = path.read_bytes().decode("utf-8")
    parts = text.split("\n")
    last = parts.pop()
    return [p + "\n" for p in parts] + ([last] if last else [])


def tiktoken_counts(path: Path) -> Counter:
    enc = tiktoken_reference("r50k_base")
    out: Counter = Counter()
    for line in lines_of(path):
        out.update(enc.encode_ordinary(line))
    return out


@pytest.mark.parametrize("rel", ["wikitext-2-raw/wiki.valid.raw", "chinese/sanguo_yanyi.txt"])
def test_gpt2_emitted_counts_equal_tiktoken(rel: str) -> None:
    """Every token's emitted count = tiktoken's count on the same text (WikiText; a Chinese novel with
    CRLF line ends and a long line: the "\\r" is kept, as tiktoken sees it)."""
    path = need(rel)
    bio = token_biography(gpt2(), [path])
    expected = tiktoken_counts(path)
    assert {t.token_id: t.emitted for t in bio.tokens if t.emitted} == dict(expected)
    assert bio.corpus_tokens == sum(expected.values())
    assert bio.corpus_bytes == path.stat().st_size
    assert not bio.notes  # the replay's own final segmentation: GPT-2's merges are in training order


def test_crlf_and_bom_are_read_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes("\ufeffHello there,\r\n  world\r\n\r\nlast line".encode("utf-8"))
    bio = token_biography(gpt2(), [path])
    assert {t.token_id: t.emitted for t in bio.tokens if t.emitted} == dict(tiktoken_counts(path))
    assert bio.corpus_bytes == path.stat().st_size


# -- birth counts and IoS against an independent naive replay -------------------------------------------
def byte_glyphs() -> Dict[int, str]:
    """GPT-2's byte -> printable character table (as published with GPT-2)."""
    bs = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def naive_replay(tokenizer_json: dict, lines: List[str]) -> Tuple[Dict[str, int], Dict[str, float], Counter]:
    """(token -> birth count, token -> IoS, token -> final count) by the definitions, merge after merge over
    every word: the pair's count with overlaps, the merges made left to right, each part's frequency."""
    glyph = byte_glyphs()
    words: Counter = Counter()
    for line in lines:
        for piece in regex.findall(GPT2_PATTERN, line):
            words[tuple(glyph[b] for b in piece.encode("utf-8"))] += 1
    segs = [[list(w), f] for w, f in words.items()]
    birth: Dict[str, int] = {}
    ios: Dict[str, float] = {}
    for merge in tokenizer_json["model"]["merges"]:
        x, y = merge if isinstance(merge, list) else merge.split(" ")
        pair_count = sum(f * sum(1 for i in range(len(s) - 1) if s[i] == x and s[i + 1] == y) for s, f in segs)
        freq = {p: sum(f * s.count(p) for s, f in segs) for p in (x, y)}
        made = 0
        for item in segs:
            s, f = item
            out, i = [], 0
            while i < len(s):
                if i + 1 < len(s) and s[i] == x and s[i + 1] == y:
                    out.append(x + y)
                    made += f
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            item[0] = out
        birth.setdefault(x + y, pair_count)
        for p in {x, y}:
            base = freq[p] - made if x == y else freq[p]
            if base > 0:
                ios[p] = max(ios.get(p, -1.0), made / base)
    final: Counter = Counter()
    for s, f in segs:
        for t in s:
            final[t] += f
    return birth, ios, final


@functools.lru_cache(maxsize=None)
def small_hf_tokenizer(tmp: str) -> Path:
    """A byte-level BPE of 400 merges trained by Hugging Face tokenizers on WikiText (its reference trainer)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=256 + 400, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(lines_of(need("wikitext-2-raw/wiki.valid.raw"))[:3000], trainer)
    path = Path(tmp) / "small.json"
    tok.save(str(path))
    return path


def test_birth_counts_and_ios_equal_a_naive_replay(tmp_path_factory) -> None:
    path = small_hf_tokenizer(str(tmp_path_factory.mktemp("small")))
    spec = json.loads(path.read_text(encoding="utf-8"))
    lines = lines_of(need("wikitext-2-raw/wiki.test.raw"))[:400]  # other text than it was trained on
    birth, ios, final = naive_replay(spec, lines)
    model = open_vocabulary(str(path))
    bio = token_biography(model, lines)
    by_token = {t.token: t for t in bio.tokens}
    assert {t.token: t.birth_count for t in bio.tokens if t.rank} == birth
    assert {t.token: t.ios for t in bio.tokens if t.ios is not None} == pytest.approx(ios, rel=1e-12)
    assert {t.token: t.emitted for t in bio.tokens if t.emitted} == {k: v for k, v in final.items() if v}
    from tokenizers import Tokenizer
    hf = Tokenizer.from_file(str(path))
    expected: Counter = Counter()
    for line in lines:
        expected.update(hf.encode(line).ids)
    assert {t.token_id: t.emitted for t in bio.tokens if t.emitted} == dict(expected)
    ab = [t for t in bio.tokens if t.residue_ratio is not None]
    assert ab and all(t.residue_ratio == t.emitted / t.birth_count for t in ab)
    assert by_token["Ġthe"].rank is not None and by_token["Ġthe"].n_bytes == 4


def test_ios_equals_the_picky_trainers_removals() -> None:
    """PickyBPE's trainer removes 'ab' after merging ab + ab: the IoS it reports is the biography's."""
    from bpe_core.training.trainer import Trainer
    from bpe_core.types import TrainerConfig
    words = {"abab": 5, "ab": 1}
    steps = Trainer(dict(words), TrainerConfig(variant="picky", ios_threshold=0.5)).run(merges=2)
    removal = [r for s in steps for r in s.removals]
    assert [r.token for r in removal] == ["ab"]
    model = BPEModel(unit="chars", tokens=["a", "b", "ab", "abab"], merges=[(0, 1), (2, 2)])
    bio = token_biography(model, words)
    assert bio.tokens[2].ios == pytest.approx(removal[0].ios) == 5 / 6


# -- statuses, filters, order, CSV ----------------------------------------------------------------------
def test_statuses() -> None:
    residue = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc", "bc"], merges=[(0, 1), (3, 2), (1, 2)])
    bio = token_biography(residue, {"abc": 200, "ab": 5})
    assert [t.status for t in bio.tokens] == ["base", "base", "base", "likely residue", "ok", "never emitted"]
    assert bio.tokens[3].residue_ratio == 5 / 205
    few = token_biography(residue, {"abc": 20, "ab": 1})  # 21 births: too few to call it a residue
    assert few.tokens[3].status == "ok"
    late = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc", "xy"], merges=[(3, 2), (0, 1)])
    bio = token_biography(late, {"abc": 2})
    assert [(t.token, t.reachable, t.status) for t in bio.tokens] == [
        ("a", True, "base"), ("b", True, "base"), ("c", True, "base"), ("ab", True, "never emitted"),
        ("abc", True, "ok"), ("xy", False, "unreachable")]  # the encoder fires the late merge: abc is reached
    assert bio.notes  # late merges: emitted counts come from the encoder
    assert set(STATUSES) >= {t.status for t in bio.tokens}


def test_gpt2_special_and_filters() -> None:
    bio = token_biography(gpt2(), lines_of(need("wikitext-2-raw/wiki.valid.raw"))[:300])
    eot = bio.tokens[50256]
    assert (eot.status, eot.rank, eot.reachable) == ("special", None, True)
    for name, keep in FILTERS.items():
        rows = select(bio, name)
        assert rows == [t for t in bio.tokens if keep(t)]
    counts = bio.status_counts()
    assert len(select(bio, "never emitted")) == counts["never emitted"] > 0
    assert counts["base"] == 256 and sum(counts.values()) == len(bio.tokens) == 50257
    by_emitted = select(bio, "all", "emitted", reverse=True)
    assert [t.emitted for t in by_emitted] == sorted((t.emitted for t in bio.tokens), reverse=True)
    by_ratio = select(bio, "all", "residue_ratio")
    have = [t.residue_ratio for t in by_ratio if t.residue_ratio is not None]
    assert have == sorted(have) and by_ratio[len(have)].residue_ratio is None
    with pytest.raises(BPELensError, match="filter by one of"):
        select(bio, "nothing")


def test_csv_has_every_token_and_reads_back() -> None:
    model = BPEModel(unit="chars", tokens=["a", "b", "c", "ab", "abc"], merges=[(0, 1), (3, 2)])
    bio = token_biography(model, {"abc": 3, "ab": 1})
    rows = list(csv.DictReader(io.StringIO(biography_csv(bio))))
    assert [r["token"] for r in rows] == ["a", "b", "c", "ab", "abc"]
    assert rows[3] == {"id": "3", "token": "ab", "rank": "1", "birth_count": "4", "emitted": "1",
                       "residue_ratio": "0.25", "ios": "0.75", "reachable": "1", "n_bytes": "2", "status": "ok"}
    assert rows[0]["rank"] == "" and rows[4]["ios"] == ""
    only = list(csv.DictReader(io.StringIO(biography_csv(bio, select(bio, "all", "emitted", reverse=True)))))
    assert [r["token"] for r in only][:2] == ["abc", "ab"]


# -- inputs, progress, cancel, workers --------------------------------------------------------------------
def test_inputs_are_files_lines_or_counts(tmp_path: Path) -> None:
    model = BPEModel(unit="chars", tokens=["a", "b", "ab"], merges=[(0, 1)])
    path = tmp_path / "c.txt"
    path.write_text("ab\n", encoding="utf-8")
    with pytest.raises(BPELensError, match="not one string"):
        token_biography(model, "ab ab")
    with pytest.raises(BPELensError, match="empty"):
        (tmp_path / "e.txt").write_bytes(b"")
        token_biography(model, [tmp_path / "e.txt"])
    with pytest.raises(BPELensError, match="mixes paths and lines"):
        token_biography(model, [path, "ab"])
    assert corpus_pieces(model, {"ab": 2}) == {("ab", True): 2}
    # file names as strings are files (a line of text read from a file ends with its "\n")
    assert corpus_pieces(model, [str(path)]) == corpus_pieces(model, [path]) == {("ab\n", True): 1}
    assert corpus_pieces(model, [str(path) + "\n"]) != corpus_pieces(model, [path])


def test_progress_reaches_the_end_and_cancel_stops() -> None:
    seen = []
    lines = lines_of(need("wikitext-2-raw/wiki.valid.raw"))[:200]
    token_biography(gpt2(), lines, progress=seen.append)
    merges = [p for p in seen if p.unit == "merges"]
    assert merges and merges[-1].done == merges[-1].total == 50000
    with pytest.raises(Cancelled):
        token_biography(gpt2(), lines, cancel=lambda: True)
    with pytest.raises(Cancelled):
        token_biography(gpt2(), [need("wikitext-2-raw/wiki.valid.raw")], cancel=lambda: True)


def test_forked_workers_count_as_one_process() -> None:
    """Blocks counted by two forked workers, merged in order: the same pieces, in the same order; a cancel
    ends the workers. In a child process: pytest-qt has PySide6 imported here, so no worker is forked in
    this one."""
    script = textwrap.dedent(f"""
        from pathlib import Path
        from bpe_core.analysis import biography_count as bc
        from bpe_core.formats.detect import open_vocabulary
        model = open_vocabulary({str(need("gpt2/tokenizer.json"))!r})
        path = Path({str(need("wikitext-2-raw/wiki.valid.raw"))!r})
        one = bc.count_pieces(model, [path], workers=1)
        bc.BLOCK_BYTES, bc.PARALLEL_MIN_BYTES = 1 << 14, 0  # many blocks, and workers for a small file
        pool = bc._fork_pool(model, 2)
        assert pool is not None, "no forked workers"
        pool.shutdown()
        two = bc.count_pieces(model, [path], workers=2)
        assert list(two.items()) == list(one.items())
        import multiprocessing, time
        from bpe_core.types import Cancelled
        reports = []
        try:
            bc.count_pieces(model, [path], workers=2, progress=reports.append, cancel=lambda: bool(reports))
            raise AssertionError("not cancelled")
        except Cancelled:
            pass
        for _ in range(100):  # the workers are ended, not left counting
            if not multiprocessing.active_children():
                break
            time.sleep(0.05)
        assert not multiprocessing.active_children() and not bc._WORKER_MODEL
        print("same", len(one))
        """)
    got = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert got.returncode == 0 and got.stdout.startswith("same "), got.stderr
