"""SuperBPE's stage 2 against what the fork's code determines, on settings the fork's own run does not cover.

``fork_extend`` below is a line-by-line Python transcription of ``BpeTrainer::do_train_extend`` in
alisawuffles/tokenizers-superbpe at 757f2a5 (tokenizers/src/models/bpe/trainer.rs, steps 1-6, with
``Word::merge`` of word.rs): the HashMap queue of the replay, the skipped merges, the heap with stale
entries re-pushed, the two filters. It is not a golden from the reference's own run (those are in
tests/core/test_superbpe_fork_goldens.py: the fork built offline, tests/data/README.md); it pins our stage 2 to
the reference's code as written on small texts and settings the goldens do not cover.
"""
from __future__ import annotations

import heapq
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest

from bpe_core.base.symbols import from_glyphs, to_glyphs
from bpe_core.corpus.files import count_words_in_files
from bpe_core.presets import make_config
from bpe_core.training.superbpe import MAX_WORDS, allows, stage1_config, stage2_config, superbpe_trainer
from bpe_core.training.trainer import Trainer
from bpe_core.types import BPELensError


def _word_merge(syms: List[int], c1: int, c2: int, new: int) -> List[Tuple[Tuple[int, int], int]]:
    """word.rs ``Word::merge`` (max_length = usize::MAX): the pair changes, in place."""
    changes = []
    i = 0
    while i < len(syms):
        if syms[i] == c1 and i + 1 < len(syms) and syms[i + 1] == c2:
            first, second = syms[i], syms[i + 1]
            if i > 0:
                changes.append(((syms[i - 1], first), -1))
                changes.append(((syms[i - 1], new), 1))
            syms[i:i + 2] = [new]
            if i < len(syms) - 1:
                changes.append(((second, syms[i + 1]), -1))
                changes.append(((new, syms[i + 1]), 1))
        i += 1
    return changes


def fork_extend(word_counts: Dict[str, int], merge_order: Sequence[Tuple[str, str]], vocab_size: int,
                specials: Sequence[str] = (), initial_alphabet: Sequence[str] = (),
                min_frequency: int = 0) -> Tuple[List[str], List[Tuple[str, str]]]:
    """do_train_extend on glyph-string words: (id -> token, merges as token strings)."""
    w2id: Dict[str, int] = {}
    id2w: List[str] = []

    def add(s: str) -> int:
        if s not in w2id:
            w2id[s] = len(id2w)
            id2w.append(s)
        return w2id[s]

    for s in specials:  # 1.
        add(s)
    alphabet = {ch for w in word_counts for ch in w} | set(initial_alphabet)  # 2. (no limit: code point order)
    for ch in sorted(alphabet):
        add(ch)
    words = [[w2id[ch] for ch in w] for w in word_counts]  # 3.
    counts = list(word_counts.values())
    pair_counts: Dict[Tuple[int, int], int] = {}  # 4.
    where: Dict[Tuple[int, int], set] = {}
    for i, syms in enumerate(words):
        for p in zip(syms, syms[1:]):
            pair_counts[p] = pair_counts.get(p, 0) + counts[i]
            where.setdefault(p, set()).add(i)
    queue = {p: [pair_counts[p], pos] for p, pos in where.items() if pair_counts[p] > 0}
    merges: List[Tuple[int, int]] = []

    def apply(pair: Tuple[int, int], pos: set, new_id: int) -> Dict[Tuple[int, int], set]:
        fresh: Dict[Tuple[int, int], set] = {}
        for i in sorted(pos):
            for p, change in _word_merge(words[i], pair[0], pair[1], new_id):
                pair_counts[p] = pair_counts.get(p, 0) + change * counts[i]
                if change > 0:
                    fresh.setdefault(p, set()).add(i)
        return fresh

    for left, right in merge_order:  # 5.
        if left not in w2id or right not in w2id:
            continue
        pair = (w2id[left], w2id[right])
        if pair not in queue:
            continue
        _, pos = queue.pop(pair)
        new_id = add(left + right)
        merges.append(pair)
        for p, ps in apply(pair, pos, new_id).items():
            if pair_counts[p] > 0:
                queue[p] = [pair_counts[p], ps]  # insert: replaces an entry's positions
    heap = [(-c, p, n, pos) for n, (p, (c, pos)) in enumerate(queue.items())]  # 6. max count, then min pair
    heapq.heapify(heap)
    serial = len(heap)
    while len(w2id) < vocab_size and heap:
        neg, pair, _, pos = heapq.heappop(heap)
        if -neg != pair_counts[pair]:
            serial += 1
            heapq.heappush(heap, (-pair_counts[pair], pair, serial, pos))
            continue
        if -neg < 1 or min_frequency > -neg:
            break
        new_token = id2w[pair[0]] + id2w[pair[1]]
        if ":Ġ" in new_token:
            continue
        if len([s for s in new_token.split("Ġ") if s]) > 4:
            continue
        new_id = add(new_token)
        merges.append(pair)
        for p, ps in apply(pair, pos, new_id).items():
            if pair_counts[p] > 0:
                serial += 1
                heapq.heappush(heap, (-pair_counts[p], p, serial, ps))
    return id2w, [(id2w[a], id2w[b]) for a, b in merges]


def glyph(raw) -> str:
    return to_glyphs(raw) if isinstance(raw, bytes) else raw


def ours(path: Path, preset: str, t: int, vocab: int):
    cfg = make_config(preset, variant="superbpe", transition=t, vocab_size=vocab)
    stage1 = Trainer.from_corpus(str(path), stage1_config(cfg))
    stage1.run()
    start = stage1.model()
    trainer = superbpe_trainer(path, cfg, start)
    trainer.run()
    return cfg, start, trainer


def theirs(path: Path, cfg, start, vocab: int):
    cfg2 = stage2_config(cfg)
    counts = count_words_in_files([path], cfg2)
    words = {to_glyphs(w.encode("utf-8")): c for w, c in counts.items()}
    inherited = [(glyph(start.tokens[a]), glyph(start.tokens[b])) for a, b in start.merges]
    initial = [to_glyphs(bytes([b])) for b in range(256)] if cfg.full_byte_alphabet else []
    return fork_extend(words, inherited, vocab, cfg.special_tokens, initial, cfg.min_frequency)


#: lines where the filters must refuse the best pairs (a colon before a space; runs of more than 4 words)
FILTERED = " Note: the end of the line is near: the end of the line \n" * 40


def head(real, rel: str, lines: int, tmp_path: Path, extra: str = "") -> Path:
    with open(real.path(rel), encoding="utf-8", newline="") as f:
        text = "".join(f.readline() for _ in range(lines)) + extra
    out = tmp_path / "corpus.txt"
    out.write_text(text, encoding="utf-8", newline="")
    return out


@pytest.mark.parametrize("preset,t,vocab,extra", [("superbpe", 150, 500, ""), ("superbpe", 300, 700, ""),
                                                  ("gpt2", 200, 700, ""), ("superbpe", 150, 900, FILTERED),
                                                  ("gpt2", 100, 800, FILTERED)])
def test_stage2_is_the_forks_code(real, tmp_path, preset: str, t: int, vocab: int, extra: str) -> None:
    path = head(real, "wikitext-2-raw/wiki.valid.raw", 400, tmp_path, extra)
    cfg, start, trainer = ours(path, preset, t, vocab)
    tokens, merges = theirs(path, cfg, start, vocab)
    model = trainer.model()
    assert [glyph(t) for t in model.tokens] == tokens
    assert [(glyph(model.tokens[a]), glyph(model.tokens[b])) for a, b in model.merges] == merges
    assert len(trainer.history) > 50  # superword merges were learned
    assert any(glyph(s.new_token).count("Ġ") >= 2 for s in trainer.history)


def test_the_inherited_prefix_and_undo(real, tmp_path) -> None:
    path = head(real, "wikitext-2-raw/wiki.valid.raw", 400, tmp_path)
    cfg, start, trainer = ours(path, "superbpe", 300, 700)
    model = trainer.model()
    kept = [(glyph(model.tokens[a]), glyph(model.tokens[b])) for a, b in trainer.base_merges]
    given = [(glyph(start.tokens[a]), glyph(start.tokens[b])) for a, b in start.merges]
    # the inherited merges in their order, less those whose pair never forms in stage-2 units: here the
    # space before a line's newline (stage 1 cuts " \n" as one unit, stage 2 as two)
    dropped = [m for m in given if m not in kept]
    assert kept == [m for m in given if m not in dropped] and dropped == [("Ġ", "Ċ")]
    assert trainer.vocab_size <= 700 and len(trainer.history) == trainer.vocab_size - trainer.initial_vocab_size
    while trainer.undo() is not None:
        pass
    assert trainer.merge_count == 0 and trainer.model().merges == trainer.base_merges


def test_no_token_spans_more_than_four_words_or_a_colon_before_a_space(real, tmp_path) -> None:
    path = head(real, "wikitext-2-raw/wiki.valid.raw", 400, tmp_path, FILTERED)
    _, _, trainer = ours(path, "superbpe", 150, 900)
    new = [s.new_token for s in trainer.history]
    assert all(len([p for p in tok.split(b" ") if p]) <= MAX_WORDS for tok in new)
    assert not any(b": " in tok for tok in new)
    assert b" the end of the" in new and b" Note:" in new  # 4 words, a colon at the end: allowed
    assert not any(tok.startswith(b" the end of the ") for tok in new)  # its best partner would make 5 words


# The filters on the strings the fork's code tests (its println! messages name such merges).
@pytest.mark.parametrize("left,right,ok", [
    ("ĠofĠthe", "Ġ", True), ("ĠaĠbĠc", "Ġd", True), ("ĠaĠbĠc", "Ġd e", False), ("ĠaĠbĠcĠd", "Ġ", True),
    ("ĠĠĠĠ", "ĠĠ", True), ("Note:", "Ġ", False), ("Note:Ġ", "x", False), ("a:", "b", True), ("Ġ:", "Ġ", False),
    ("Ġ:", "a", True), ("::", "::", True), ("ĠaĠbĠcĠd", "Ġe", False), (",ĠaĠ", "bĠ.Ġc", False),
])
def test_filters_as_coded(left: str, right: str, ok: bool) -> None:
    assert allows(from_glyphs(left.replace(" ", "Ġ")), from_glyphs(right.replace(" ", "Ġ"))) is ok
    token = (left + right).replace(" ", "Ġ")  # the fork's own test, on the glyph string
    assert (":Ġ" not in token and len([s for s in token.split("Ġ") if s]) <= 4) is ok


def test_bad_settings_say_so(real, tmp_path) -> None:
    path = head(real, "wikitext-2-raw/wiki.valid.raw", 50, tmp_path)
    cfg = make_config("superbpe", variant="superbpe", transition=20, vocab_size=400)
    start = Trainer.from_corpus(str(path), stage1_config(cfg))
    start.run()
    with pytest.raises(BPELensError, match="transition point is 30 merges but the vocabulary has 20"):
        superbpe_trainer(path, make_config("superbpe", variant="superbpe", transition=30), start.model())
    with pytest.raises(BPELensError, match="needs variant 'superbpe'"):
        superbpe_trainer(path, make_config("superbpe"), start.model())
    with pytest.raises(BPELensError, match="cannot be continued"):
        stage2_config(make_config("char-whitespace", variant="superbpe", transition=3))


def test_continuing_a_vocabulary_of_another_text_is_the_forks_code(real, tmp_path) -> None:
    """Stage 1 on one text, stage 2 on another (the fork only needs merges.txt): merges whose parts never
    occur, pairs that never form, pairs that formed and were used up, units stage 1 never saw."""
    other = head(real, "wikitext-2-raw/wiki.test.raw", 300, tmp_path)
    path = other.rename(tmp_path / "stage1.txt")
    cfg = make_config("superbpe", variant="superbpe", transition=400, vocab_size=900)
    stage1 = Trainer.from_corpus(str(path), stage1_config(cfg))
    stage1.run()
    start = stage1.model()
    corpus = head(real, "bench/multilingual/de_faust.txt", 300, tmp_path, FILTERED)
    trainer = superbpe_trainer(corpus, cfg, start)
    trainer.run()
    tokens, merges = theirs(corpus, cfg, start, 900)
    model = trainer.model()
    assert [glyph(t) for t in model.tokens] == tokens
    assert [(glyph(model.tokens[a]), glyph(model.tokens[b])) for a, b in model.merges] == merges
    assert len(trainer.base_merges) < 400  # merges dropped
