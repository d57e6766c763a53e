"""The pair index's bulk paths (bpe_core.training.bulk) do the per-item loops' work, exactly, with fewer dict writes.

* The first count in numpy (:func:`initial_pairs_bulk`) gives the same counts and the same word lists (ascending,
  a word once per occurrence) as :func:`~bpe_core.training.pairs.initial_pairs`, on real text.
* A merge in bulk (:func:`apply_bulk`) leaves the same pair counts after every merge, so the same merges, counts
  and ties, for every tie rule it serves, through undo, and for SuperBPE's stage 2.
* Work counted: a merge in bulk writes each changed pair's count once, where the per-occurrence loop writes it
  once per occurrence; as the corpus doubles, the loop's writes for the merge grow with its occurrences and the
  bulk writes with its distinct neighbour pairs only.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import bpe_core.training.pair_index as pair_index
from bpe_core.presets import make_config
from bpe_core.training.bulk import initial_pairs_bulk
from bpe_core.training.pairs import initial_pairs
from bpe_core.training.superbpe import stage1_config, superbpe_trainer
from bpe_core.training.trainer import Trainer
from bpe_core.types import TrainerConfig


def _text(real, lines: int) -> str:
    with open(real.path("wikitext-2-raw/wiki.valid.raw"), encoding="utf-8", newline="") as f:
        return "".join(f.readline() for _ in range(lines))


def _bulk(monkeypatch, on: bool) -> None:
    monkeypatch.setattr(pair_index, "BULK_WORDS", 1 if on else 1 << 60)
    monkeypatch.setattr(pair_index, "BULK_SYMBOLS", 0 if on else 1 << 60)


@pytest.mark.parametrize("preset", ["gpt2", "char-hf"])
def test_the_first_count_in_numpy_equals_the_per_slice_count(real, preset: str) -> None:
    trainer = Trainer.from_texts([_text(real, 600)], make_config(preset))
    segs = [list(trainer.segmentation(i)) for i in range(len(trainer.words))]
    segs += [[], [7], [3, 3, 3]]  # an empty word, a one-symbol word, a repeated pair
    freqs = trainer.freqs + [4, 5, 6]
    assert initial_pairs_bulk(segs, freqs) == initial_pairs(segs, freqs)
    assert initial_pairs_bulk([], []) == ({}, {}) and initial_pairs_bulk([[1]], [3]) == ({}, {})


def _run(text: str, cfg: TrainerConfig, merges: int):
    trainer = Trainer.from_texts([text], cfg)
    states = []
    for _ in range(merges):
        step = trainer.step(detail=False)
        if step is None:
            break
        states.append((step.left, step.right, step.count, dict(trainer.pair_index.counts)))
    return trainer, states


@pytest.mark.parametrize("tie", ["hf", "lexicographic", "table-order"])
def test_merges_in_bulk_leave_the_loops_counts_after_every_merge(real, monkeypatch, tie: str) -> None:
    text = _text(real, 400)
    cfg = make_config("gpt2", tie_break=tie)
    _bulk(monkeypatch, False)
    plain, expected = _run(text, cfg, 300)
    _bulk(monkeypatch, True)
    bulk, got = _run(text, cfg, 300)
    assert len(got) == 300 and got == expected
    assert [bulk.segmentation(i) for i in range(len(bulk.words))] == \
        [plain.segmentation(i) for i in range(len(plain.words))]
    bulk.seek(0)  # undo through merges made in bulk: the first count again
    fresh = Trainer.from_texts([text], cfg)
    assert bulk.pair_index.counts == fresh.pair_index.counts
    assert [s.count for s in bulk.run(merges=300)] == [s[2] for s in expected]


def test_superbpe_stage2_in_bulk_is_the_same_model(real, monkeypatch, tmp_path: Path) -> None:
    path = tmp_path / "corpus.txt"
    path.write_text(_text(real, 800), encoding="utf-8", newline="")
    cfg = make_config("gpt2", variant="superbpe", transition=300, vocab_size=1400)
    stage1 = Trainer.from_corpus(str(path), stage1_config(cfg))
    stage1.run()
    models = []
    for on in (False, True):
        _bulk(monkeypatch, on)
        trainer = superbpe_trainer(path, cfg, stage1.model())
        trainer.run()
        m = trainer.model()
        models.append((m.tokens, m.merges, m.merge_counts))
    assert len(models[0][1]) > 1000 and models[0] == models[1]


class _Writes(dict):
    """A counts dict that counts its writes."""
    writes = 0

    def __setitem__(self, key, value) -> None:
        _Writes.writes += 1
        super().__setitem__(key, value)

    def update(self, items) -> None:  # the bulk path writes its counts with one update
        items = list(items)
        _Writes.writes += len(items)
        super().update(items)


def _writes_of_first_merge(text: str, monkeypatch, on: bool):
    _bulk(monkeypatch, on)
    trainer = Trainer.from_texts([text], make_config("gpt2"))
    idx = trainer.pair_index
    idx.counts = _Writes(idx.counts)
    _Writes.writes = 0
    step = trainer.step(detail=False)
    return _Writes.writes, step.count, len(trainer.history[-1].changed_words)


def test_a_merge_in_bulk_writes_each_changed_pair_once(real, monkeypatch) -> None:
    loop, bulk = [], []
    for lines in (500, 1000, 2000):
        text = _text(real, lines)
        loop.append(_writes_of_first_merge(text, monkeypatch, False))
        bulk.append(_writes_of_first_merge(text, monkeypatch, True))
    for (lw, lc, _), (bw, bc, words) in zip(loop, bulk):
        assert lc == bc and words > 64
        assert bw < lw / 4  # the loop writes two counts per occurrence side; bulk one per distinct pair
    # the loop's writes grow with the words holding the pair (176, 260, 419 at 500, 1000, 2000 lines: 350, 518, 836
    # writes); the bulk writes with the distinct neighbour pairs only (18 each time)
    assert loop[2][0] > 1.4 * loop[1][0] and loop[1][0] > 1.4 * loop[0][0]
    assert bulk[2][0] < 1.2 * bulk[0][0]
