"""SuperBPE's replay (:func:`bpe_core.training.superbpe.inherit`, done in numpy by
:mod:`bpe_core.training.superbpe_replay`) against the plainest replay there is: every inherited merge in turn, kept
when its pair stands in some unit at its turn, then applied left to right in every unit.

On random small corpora: byte- and character-level presets, stage 2 on another text than stage 1 (units stage 1
never saw: strangers), chunks repeated within and across units, marks (``\\x00`` ...) in the text, tiny batches.
"""
from __future__ import annotations

import re
from typing import Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from bpe_core.corpus.counting import count_words_in_texts
from bpe_core.pipelines.chain import Pipeline
from bpe_core.presets import make_config
from bpe_core.training import superbpe_chunks, superbpe_replay
from bpe_core.training.config import alphabet_order
from bpe_core.training.superbpe import inherit, inherit_flat, stage1_config, stage2_config
from bpe_core.training.trainer import Trainer
from bpe_core.types import Cancelled

ALPHABET = "ab c d  e\u00e9\u4e2d\U0001f600.,:!1\n\x00\x01"


def apply_left_to_right(unit: List[object], left: object, right: object) -> List[object]:
    """``unit`` with every non-overlapping ``left right`` merged, from the left."""
    out: List[object] = []
    i = 0
    while i < len(unit):
        if i + 1 < len(unit) and unit[i] == left and unit[i + 1] == right:
            out.append(left + right)  # type: ignore[operator]
            i += 2
        else:
            out.append(unit[i])
            i += 1
    return out


def pairs_of(units: List[List[object]]) -> set:
    return {(u[i], u[i + 1]) for u in units for i in range(len(u) - 1)}


def plain_replay(start, counts: Dict[str, int], cfg) -> Tuple[List[Tuple[object, object]], List[List[object]]]:
    """The kept merges (as token pairs) and each unit's tokens: the merges one by one, in order; a merge is kept
    when its pair stood side by side in some unit up to its turn (the fork's rule: ``b a b`` keeps ``(a, b)``
    though ``(b, a)`` merges first)."""
    symbols = Pipeline(cfg).units.symbols
    units = [list(symbols(w)) for w, c in counts.items() if c >= max(1, cfg.min_word_count)]
    seen = pairs_of(units)
    kept = []
    for a, b in start.merges:
        left, right = start.tokens[a], start.tokens[b]
        if (left, right) in seen:
            kept.append((left, right))
            units = [apply_left_to_right(u, left, right) for u in units]
            seen |= pairs_of(units)
    return kept, units


texts = st.text(alphabet=ALPHABET, min_size=0, max_size=120)


@settings(max_examples=120, deadline=None)
@given(first=st.lists(texts, min_size=1, max_size=4), second=st.lists(texts, min_size=0, max_size=4),
       same=st.booleans(), preset=st.sampled_from(["gpt2", "superbpe", "char-hf", "picky", "byte-ascii"]),
       transition=st.integers(0, 40), batch=st.sampled_from([1, 7, 1 << 20]))
@example(first=[":aa:"], second=[":a:"], same=False, preset="char-hf", transition=3, batch=1)
def test_the_replay_is_the_merges_one_by_one(first, second, same, preset, transition, batch) -> None:
    cfg = make_config(preset, variant="superbpe", transition=transition, vocab_size=10_000)
    one = stage1_config(cfg)
    stage1 = Trainer(count_words_in_texts(first + ["ab ab a"], one), one)
    stage1.run()
    start = stage1.model()
    if len(start.merges) != transition:
        assume(False)  # the text ran out of pairs before the transition point
    two = stage2_config(cfg)
    counts = count_words_in_texts((first if same else []) + second + ["ab c"], two)
    saved = superbpe_chunks.BATCH_CHARS
    superbpe_chunks.BATCH_CHARS = batch
    try:
        model, segments = inherit(start, counts, two)
        _, flat, lens = inherit_flat(start, counts, two)
    finally:
        superbpe_chunks.BATCH_CHARS = saved
    kept, units = plain_replay(start, counts, two)
    tok = model.tokens
    assert [(tok[a], tok[b]) for a, b in model.merges] == kept
    assert [[tok[i] for i in s] for s in segments] == units
    assert all(type(i) is int for s in segments for i in s)
    assert flat.tolist() == [i for s in segments for i in s] and lens.tolist() == list(map(len, segments))
    counts_of = {(start.tokens[a], start.tokens[b]): c for (a, b), c in zip(start.merges, start.merge_counts)}
    assert model.merge_counts == [counts_of[p] for p in kept]
    specials = set(model.specials.values())
    symbols = Pipeline(two).units.symbols
    first_seen = dict.fromkeys(u for w, c in counts.items() if c >= max(1, two.min_word_count) for u in symbols(w))
    alphabet = [t for i, t in enumerate(tok[:len(tok) - len(model.merges)]) if i not in specials]
    assert alphabet == list(alphabet_order(first_seen, two))


def chunks_of(data, lens) -> list:
    ends = np.cumsum(lens).tolist()
    return [data.tobytes()[a:b].decode("utf-8", "surrogatepass") for a, b in zip([0] + ends, ends)]


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.text(alphabet="ab  .\u00e9\u4e2d\x00\x01\x1f\U0010ffff", max_size=30), max_size=12),
       free=st.sets(st.sampled_from("ab.\x00\x01\x1f"), max_size=6), batch=st.sampled_from([1, 5, 1 << 20]),
       every_mark=st.booleans())
def test_the_chunks_are_the_cutters(words, free, batch, every_mark) -> None:
    """The chunks (short and long, repeated or not) are the per-word regex's, in order, whatever the text holds:
    with every mark in it, the batch is cut word by word."""
    if every_mark and words:
        words[0] += "".join(superbpe_chunks.MARKS)
    free = sorted(free)
    cut = re.compile("(?<=[" + "".join(re.escape(c) for c in free) + "])(?= )").split if free else (lambda w: [w])
    saved = superbpe_chunks.BATCH_CHARS
    superbpe_chunks.BATCH_CHARS = batch
    try:
        data, lens, occurrences, per_word = superbpe_chunks.cut_chunks(words, free, cut)
    finally:
        superbpe_chunks.BATCH_CHARS = saved
    expected = [cut(w) for w in words]
    distinct = chunks_of(data, lens)
    assert per_word.tolist() == list(map(len, expected))
    assert [distinct[i] for i in occurrences.tolist()] == [c for e in expected for c in e]
    assert distinct == list(dict.fromkeys(c for e in expected for c in e))


def test_the_short_keys_table_names_each_key_by_its_first_place() -> None:
    """Keys repeated within and across calls, many sharing a slot (a 16-slot table grown on the way): each is named
    by its first place, added once."""
    table = superbpe_chunks.ShortKeys(bits=4)
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 40, size=(6000, 2)).astype(np.uint64)
    first: Dict[Tuple[int, int], int] = {}
    for part in np.array_split(np.arange(len(keys)), 7):
        names, added = table.name(keys[part, 0].copy(), keys[part, 1].copy(), part * 3)
        expected = [first.setdefault((int(a), int(b)), 3 * int(p)) for (a, b), p in zip(keys[part], part)]
        assert names.tolist() == expected
        assert sorted((3 * part[added]).tolist()) == sorted(v for v in first.values() if v >= 3 * part[0])
    assert table.count == len(first) == len({(int(a), int(b)) for a, b in keys})


def test_merge_by_rank_marks_every_pair_ever_adjacent() -> None:
    # ids 0 a, 1 b, 2 c; merges: (b, c) -> 3 rank 0, (a, b) -> 4 rank 1, (a, 3) -> 5 rank 2
    ranks = {(1, 2): (0, 3), (0, 1): (1, 4), (0, 3): (2, 5)}
    seq, lens = np.array([0, 1, 2, 0, 1, 1]), np.array([3, 2, 1])
    merged, out_lens, seen = superbpe_replay.merge_by_rank(seq, lens, superbpe_replay.rank_table(ranks, 6))
    assert merged.tolist() == [5, 4, 1] and out_lens.tolist() == [1, 1, 1]
    assert seen.tolist() == [True, True, True]  # (a, b) stood in "abc" though (b, c) took its b


def _stage1(preset: str, transition: int):
    cfg = make_config(preset, variant="superbpe", transition=transition, vocab_size=10_000)
    one = stage1_config(cfg)
    stage1 = Trainer(count_words_in_texts(["the cat sat on the mat, the cat ran. a hat, a bat!"] * 3, one), one)
    stage1.run()
    return stage1.model(), stage2_config(cfg)


def test_the_merges_are_done_once_per_distinct_piece(monkeypatch) -> None:
    """Units that shuffle the same words make the same pieces: the merge work stays put as the units grow tenfold."""
    start, two = _stage1("gpt2", 20)
    merged: List[int] = []
    real = superbpe_replay.merge_by_rank

    def counting(seq, lens, table, cancel=None):
        merged.append(len(seq))
        return real(seq, lens, table, cancel)

    monkeypatch.setattr(superbpe_replay, "merge_by_rank", counting)
    words = "the cat sat on mat hat bat ran".split()
    rng = np.random.default_rng(3)
    work = []
    for n in (100, 1000):
        lines = {" ".join(rng.permutation(words)): 1 for _ in range(n)}
        merged.clear()
        _, segments = inherit(start, lines, two)
        assert len(segments) == len(lines)
        work.append(sum(merged))
    assert work[0] == work[1] > 0


def test_a_cancelled_replay_stops() -> None:
    start, two = _stage1("superbpe", 10)
    counts = count_words_in_texts(["the cat sat on the mat"], two)
    asked = []

    def cancel() -> bool:
        asked.append(1)
        return len(asked) > 1

    with pytest.raises(Cancelled):
        inherit(start, counts, two, cancel=lambda: True)
    with pytest.raises(Cancelled):
        inherit(start, counts, two, cancel=cancel)  # in the merge rounds
    assert inherit(start, counts, two, cancel=lambda: False)[1]
