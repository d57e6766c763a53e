"""The Training tab's tokens per word by script (bpe_core/analysis/group_curves.py) is the Measures chart's
(issue 26, follow-up F3): the tokens of each script's pieces over the whitespace-separated words of the run's
text in that script, the script groups weighed by characters. Checked on the eight-language parallel text with
gpt2 at a few merges against :func:`bpe_core.analysis.curves.run_curves`.

Before, the curves counted each pre-tokenizer piece as a word (Tamil about 1.3 tokens per "word" where the
Measures chart reads about 9). A step's cost stays the changed words: the text's words are constants."""
from __future__ import annotations

import pytest

from bpe_core import make_config
from bpe_core.analysis.curves import read_eval_files, run_curves
from bpe_core.analysis.group_curves import GroupCurves
from bpe_core.analysis.variant_compare import run_word_groups
from bpe_core.corpus.files import count_words_in_files
from bpe_core.training.timeline import Timeline
from bpe_core.training.trainer import Trainer

from tests.core.paths import EXAMPLES

FILES = sorted((EXAMPLES / "parallel").glob("*.txt"))
PATHS = tuple(str(p) for p in FILES)


def _measures(curves, merge):
    return {g[len("script:"):]: curves.value_at("tokens_per_word", merge, g)
            for g in curves.groups("tokens_per_word") if g.startswith("script:")}


def _tracker(tl: Timeline, groups) -> GroupCurves:
    segs = [tl.segmentation(i) for i in range(len(tl.words))]
    return GroupCurves(groups.scripts, freqs=tl.freqs, segmentations=segs, merge=tl.merge_count,
                       main=groups.groups, words=groups.words)


def test_training_curves_count_tokens_per_word_as_the_measures_chart_does():
    config = make_config("gpt2", vocab_size=656)
    tl = Timeline(Trainer(count_words_in_files(FILES, config), config))
    groups = run_word_groups(tl, PATHS)  # once per run
    tracker = _tracker(tl, groups)
    tl.step(400)
    tracker.replay(tl.history)  # a point at each merge
    curves = run_curves(tl, read_eval_files(FILES), 50)
    points = dict(tracker.points)
    for merge in (0, 100, 250, tl.merge_count):  # 399: the vocabulary is full
        want = _measures(curves, merge)
        assert tracker.groups == tuple(want)  # the same groups, largest (by characters) first
        assert dict(zip(tracker.groups, points[merge])) == pytest.approx(want, rel=1e-12)
    assert dict(zip(tracker.groups, tracker.values()))["Tamil"] > 4  # not the 1.3 tokens per GPT-2 piece


def test_the_words_can_come_later_and_a_step_costs_the_changed_words_only():
    """The text is read on a worker: the tracker counts tokens from the start and divides once the words
    come; without them it says it counts tokens per piece."""
    gc = GroupCurves(["Latin", "Han", "Common"], freqs=[2, 1, 5], lengths=[4, 6, 1], main=("Latin", "Han"))
    assert not gc.per_word and gc.values() == (4.0, 6.0)  # per piece: 8 tokens over 2 Latin pieces
    gc.update({0: 2}, merge=1)
    gc.set_words({"Latin": 4, "Han": 3, "Common": 5})
    assert gc.per_word and gc.points == [(0, (2.0, 2.0)), (1, (1.0, 2.0))]


class _Counting(list):
    """Word lengths that count how often they are read."""
    reads = 0

    def __getitem__(self, i):
        type(self).reads += 1
        return super().__getitem__(i)


@pytest.mark.parametrize("size", [1_000, 2_000])
def test_an_update_reads_the_changed_words_only_whatever_the_texts_size(size):
    _Counting.reads = 0
    scripts = ["Latin"] * size
    gc = GroupCurves(scripts, freqs=[1] * size, lengths=[3] * size, words={"Latin": 10 * size})
    gc._lengths = _Counting(gc._lengths)
    gc.update({0: 2, 1: 2}, merge=1)
    assert _Counting.reads == 2
    assert gc.values() == pytest.approx(((3 * size - 2) / (10 * size),))


def test_a_step_costs_the_changed_pieces_whatever_the_texts_size(tmp_path, monkeypatch):
    """The text twice over (the same distinct pieces, twice the words): the curves' replay merges into as many
    pieces, finds no script and reads no text; only the words read once per run differ (twice as many)."""
    import bpe_core.analysis.group_curves as gcm
    import bpe_core.analysis.scripts as scripts

    text = "".join(p.read_text(encoding="utf-8") for p in FILES[:3])
    calls = {}
    for copies in (1, 2):
        path = tmp_path / f"x{copies}.txt"
        path.write_text(text * copies, encoding="utf-8")
        config = make_config("gpt2", vocab_size=500)
        tl = Timeline(Trainer(count_words_in_files([path], config), config))
        groups = run_word_groups(tl, (str(path),))
        tracker = _tracker(tl, groups)
        merged, real = [], gcm.merge_pair
        monkeypatch.setattr(gcm, "merge_pair", lambda *a: merged.append(1) or real(*a))
        monkeypatch.setattr(scripts, "word_script", lambda w: pytest.fail("a script found at a step"))
        tl.step(200)
        tracker.replay(tl.history)
        monkeypatch.undo()
        calls[copies] = (len(merged), sum(groups.words.values()))
    assert calls[1][0] == calls[2][0] > 0 and calls[2][1] == 2 * calls[1][1]
