"""``train --ties-report FILE`` (issue 11): every tied merge with its candidates and each rule's pick,
checked against a from-scratch BPE written here (pairs recounted every merge, the seeds' rule)."""
from __future__ import annotations

import json
from collections import Counter

from bpe_core.cli.commands import main

from tests.core.test_seed_texts import SEED001_SENTENCE


def reference_ties(words, merges: int):
    """(merge number, tied pairs in scan order, first-seen pick, lexicographic pick) per tied merge."""
    segs = [list(w) + ["</w>"] for w in words]  # char-whitespace: characters plus the suffix
    out = []
    for n in range(1, merges + 1):
        counts: Counter = Counter()
        for seg in segs:  # words in order of first appearance, symbols left to right
            for pair in zip(seg, seg[1:]):
                counts[pair] += 1
        top = max(counts.values())
        tied = [p for p, c in counts.items() if c == top]
        if len(tied) > 1:
            out.append((n, tied, tied[0], min(tied)))
        a, b = tied[0]
        for seg in segs:
            i = 0
            while i < len(seg) - 1:
                if seg[i] == a and seg[i + 1] == b:
                    seg[i:i + 2] = [a + b]
                i += 1
    return out


def test_ties_report_lists_every_tied_merge(tmp_path):
    corpus = tmp_path / "walkthrough.txt"
    corpus.write_text(SEED001_SENTENCE + "\n", encoding="utf-8")
    report, plain = tmp_path / "ties.jsonl", tmp_path / "plain.json"
    assert main(["train", str(corpus), "--preset", "char-whitespace", "--merges", "12", "-q",
                 "-o", str(tmp_path / "v.json"), "--ties-report", str(report)]) == 0
    assert main(["train", str(corpus), "--preset", "char-whitespace", "--merges", "12", "-q", "-o", str(plain)]) == 0
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    # unique words in order of first appearance, each once per occurrence (counts come from the scan)
    words = SEED001_SENTENCE.split()
    ref = reference_ties(words, 12)
    assert [r["merge"] for r in rows] == [n for n, *_ in ref]
    for row, (n, tied, first, lexi) in zip(rows, ref):
        assert sorted(map(tuple, row["candidates"])) == sorted(tied), n
        assert tuple(row["picks"]["first-seen"]) == first == tuple(row["chosen"])
        assert tuple(row["picks"]["lexicographic"]) == lexi
        assert set(row["why"]) == {"first-seen", "hf", "lexicographic"} and row["rule"] == "first-seen"
    # the report changes nothing in the vocabulary
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "v.json", plain))
    assert a == b


def test_ties_report_refuses_to_overwrite_an_input(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("ab ab\n", encoding="utf-8")
    assert main(["train", str(corpus), "--preset", "char-whitespace", "-q", "-o", str(tmp_path / "v.json"),
                 "--ties-report", str(corpus)]) == 2
    assert "input" in capsys.readouterr().err
